package snippets

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/warpbook/warpbook/snippets/page"
	"golang.org/x/tools/txtar"
)

var settingRE = regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/*.txtar")

// TestCorpus runs every testdata/*.txtar archive: its "page.md" is run
// through the kernel (in worker processes, as warpbook test does), and the
// report and the page after -update are compared with the archive's
// "report" and "updated.md" sections (absent when -update changes
// nothing). The archive comment holds settings, one "key: value" a line:
// timeout, native, output-limit, memory-limit, path (the page's path, as
// given to Parse; page.md by default), cuda (compile the page's CUDA cells
// with the toolkit: skipped without one, failed without one under
// WARPBOOK_CUDA_REQUIRE); other lines describe the case. Run with -update to rewrite
// the golden sections, then review them with git diff.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.txtar: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			k := &Kernel{Timeout: 5 * time.Second}
			path := "page.md"
			for _, line := range strings.Split(string(ar.Comment), "\n") {
				key, val, _ := strings.Cut(line, ":")
				key, val = strings.TrimSpace(key), strings.TrimSpace(val)
				if !settingRE.MatchString(key) {
					continue // a line of the description
				}
				switch key {
				case "timeout":
					if k.Timeout, err = time.ParseDuration(val); err != nil {
						t.Fatal(err)
					}
				case "native":
					if testing.Short() {
						t.Skip("native runs build Go programs; skipped with -short")
					}
					k.Native = true
				case "output-limit":
					k.OutputLimit, _ = strconv.ParseInt(val, 10, 64)
				case "memory-limit":
					k.MemoryLimit, _ = strconv.ParseInt(val, 10, 64)
				case "path":
					path = val
				case "cuda":
					k.CUDA = &CUDA{Toolkit: needToolkit(t), CacheDir: t.TempDir()}
				default:
					t.Fatalf("unknown setting %q in the archive comment", key)
				}
			}
			sections := map[string][]byte{}
			for _, f := range ar.Files {
				sections[f.Name] = f.Data
			}
			src, ok := sections["page.md"]
			if !ok {
				t.Fatal("no page.md in the archive")
			}
			p, _ := page.Parse(path, src)
			r := k.RunPage(context.Background(), p)
			var report bytes.Buffer
			WriteText(&report, []*PageResult{r}, false)
			updated, _, err := Update(r)
			if err != nil {
				report.WriteString("update: " + err.Error() + "\n")
			}
			got := map[string][]byte{"report": report.Bytes()}
			if !bytes.Equal(updated, src) {
				got["updated.md"] = updated
			}
			if *update {
				var files []txtar.File
				files = append(files, txtar.File{Name: "page.md", Data: src})
				for _, n := range []string{"report", "updated.md"} {
					if b, ok := got[n]; ok {
						files = append(files, txtar.File{Name: n, Data: b})
					}
				}
				ar.Files = files
				writeFileT(t, file, txtar.Format(ar))
				return
			}
			for _, n := range []string{"report", "updated.md"} {
				want, wok := sections[n]
				g, gok := got[n]
				switch {
				case !wok && gok:
					t.Errorf("%s: unexpected section %s:\n%s", file, n, g)
				case wok && !gok:
					t.Errorf("%s: section %s expected, got none", file, n)
				case !bytes.Equal(want, g):
					t.Errorf("%s: %s differs (go test ./snippets -run TestCorpus -update rewrites it):\n%s", file, n,
						udiff.Unified("want", "got", string(want), string(g)))
				}
			}
			// Updating is idempotent: the updated page, parsed again and
			// updated with the same results, does not change.
			if u, ok := got["updated.md"]; ok {
				p2, _ := page.Parse(path, u)
				r2 := k.RunPage(context.Background(), p2)
				u2, ids, err := Update(r2)
				if err != nil || len(ids) > 0 || !bytes.Equal(u2, u) {
					t.Errorf("update is not idempotent: rewrote %v again (err %v)", ids, err)
				}
			}
		})
	}
}

// TestEscapesRunNothing runs each escape of the escapes corpus on a page
// of its own (after the page's first cell, which imports os), with its
// write aimed at a temporary directory, in the interpreter and compiled
// with Go, and checks that none of the writes happened. On their own,
// because a page that does not build natively runs nothing natively.
func TestEscapesRunNothing(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/escapes.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, f := range ar.Files {
		if f.Name == "page.md" {
			src = string(f.Data)
		}
	}
	target := filepath.Join(t.TempDir(), "pwned")
	sections := strings.Split(strings.ReplaceAll(src, `"pwned"`, strconv.Quote(target)), "\n\n")
	var first string
	n := 0
	for _, sec := range sections {
		if !strings.Contains(sec, "go run") && !strings.Contains(sec, "](= ") {
			continue
		}
		if first == "" {
			first = sec
			continue
		}
		if !strings.Contains(sec, target) {
			continue
		}
		n++
		src := first + "\n\n" + sec + "\n"
		for _, native := range []bool{false, true} {
			if native && testing.Short() {
				continue
			}
			p, _ := page.Parse("escape.md", []byte(src))
			r := (&Kernel{Native: native}).RunPage(context.Background(), p)
			if !r.Failed() {
				t.Errorf("native=%v: this page passed:\n%s", native, src)
			}
			if _, err := os.Stat(target); err == nil {
				t.Fatalf("native=%v: a snippet of this page wrote %s:\n%s", native, target, src)
			}
		}
	}
	if n < 3 {
		t.Fatalf("found %d escapes that write in testdata/escapes.txtar", n)
	}
}
