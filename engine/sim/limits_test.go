package sim

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// laughs is a "billion laughs" document of about 400 bytes: nine anchors,
// each a list of nine aliases of the one before, so the last stands for
// 9⁹ (387 million) strings.
func laughs() string {
	var b strings.Builder
	b.WriteString("gpu: toy\nname: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	prev := "a"
	for _, k := range "bcdefghi" {
		fmt.Fprintf(&b, "x%c: &%c [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", k, k, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = string(k)
	}
	b.WriteString("program: *i\n")
	return b.String()
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestHostileYAML: input built to exhaust memory fails with a file:line:col
// error that names the limit it passed, having allocated little: before the
// limits, the 200 KB of nested lists below made goccy/go-yaml's parser
// allocate about 15 GB, and a decoder would expand the 400 bytes of
// aliases to billions of nodes.
func TestHostileYAML(t *testing.T) {
	const head = "gpu: toy\nlaunch: {block: 32}\nprogram:\n"
	nestedBlock := func(n int) string {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; i < n; i++ {
			b.WriteString(strings.Repeat(" ", 2+2*i) + "- loop: 1\n" + strings.Repeat(" ", 4+2*i) + "body:\n")
		}
		return b.String()
	}
	cases := []struct {
		name, src, want string
	}{
		{"billion laughs", laughs(), "aliases expand to more than 100000 YAML nodes, the alias expansion limit"},
		{"nested flow lists, 200 KB", head + "  - " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n",
			"w.yaml:4:67: lists and mappings nested more than 64 deep, the nesting limit"},
		{"nested block lists on one line, 200 KB", head + "  " + strings.Repeat("- ", 100_000) + "{op: NOP}\n",
			"w.yaml:4:129: lists and mappings nested more than 64 deep, the nesting limit"},
		{"nested flow mappings", head + "  - " + strings.Repeat("{a: ", 50_000) + "1" + strings.Repeat("}", 50_000) + "\n",
			"w.yaml:4:253: lists and mappings nested more than 64 deep, the nesting limit"},
		{"indented loops", nestedBlock(40), "lists and mappings nested more than 64 deep, the nesting limit"},
		{"too large", head + strings.Repeat("  - {op: NOP}\n", MaxSourceBytes/14+10),
			fmt.Sprintf("w.yaml:18725:13: the file is %d bytes, more than the size limit of 262144 bytes", len(head)+14*(MaxSourceBytes/14+10))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			bytes := allocated(func() { _, err = ParseWorkload("w.yaml", []byte(c.src)) })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v; want it to contain %q", err, c.want)
			}
			if !strings.HasPrefix(err.Error(), "w.yaml:") {
				t.Errorf("error %q has no file:line:col", err)
			}
			// goccy/go-yaml's scanner tokenizes the whole source before
			// anything can be checked, at up to about 250 bytes per token
			// (a token per source byte at worst); the parser, quadratic in
			// the depth, must not run.
			if limit := uint64(300*len(c.src)) + 1<<20; bytes > limit {
				t.Errorf("parsing allocated %d bytes, want at most %d", bytes, limit)
			}
			if _, err := ParseProgram("p.yaml", []byte(strings.TrimPrefix(c.src, head))); err == nil && c.name != "billion laughs" {
				t.Errorf("ParseProgram accepts what ParseWorkload refuses")
			}
		})
	}
	// Right at the limits, real workloads still parse: loops nested as
	// deep as the simulator allows, and a file just under the size limit.
	for _, src := range []string{
		nestedBlock(maxNest-1) + strings.Repeat(" ", 2+2*(maxNest-1)) + "- {op: FFMA, dst: r0, src: [r0, r1]}\n",
		head + strings.Repeat("  - {op: NOP}\n", (MaxSourceBytes-len(head))/14),
	} {
		if _, err := ParseWorkload("ok.yaml", []byte(src)); err != nil {
			t.Errorf("a workload inside the limits (%d bytes): %v", len(src), err)
		}
	}
}
