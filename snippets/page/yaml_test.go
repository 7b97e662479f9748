package page

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// laughs returns a "billion laughs": levels anchors of nine aliases each to
// the one before, under key, so that the last expands to 9^levels
// strings. Nine levels are about 400 bytes and would decode to gigabytes.
func laughs(key string, levels int) string {
	var b strings.Builder
	b.WriteString(key + ": [&a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]")
	for i := 1; i < levels; i++ {
		p := fmt.Sprintf("*a%d", i-1)
		fmt.Fprintf(&b, ",\n  &a%d [%s]", i, strings.Repeat(p+",", 8)+p)
	}
	b.WriteString("]\n")
	return b.String()
}

// frontMatter has the shapes of the site's front matter and figure specs:
// strings, a list of strings, a nested struct and an any.
type frontMatter struct {
	Title  string   `yaml:"title"`
	Tags   []string `yaml:"tags"`
	Byline struct {
		Author string `yaml:"author"`
	} `yaml:"byline"`
	Program any `yaml:"program"`
}

func TestDecodeYAML(t *testing.T) {
	var fm frontMatter
	_, err := DecodeYAML("book/a.md", 2, []byte("title: Café\ntags: [a, b]\nbyline:\n  author: Ada\nprogram: [1, {x: 2}]\n"), &fm)
	if err != nil || fm.Title != "Café" || len(fm.Tags) != 2 || fm.Byline.Author != "Ada" || fm.Program == nil {
		t.Fatalf("DecodeYAML = %+v, %v", fm, err)
	}
	if _, err := DecodeYAML("book/a.md", 2, []byte(" \n\t\n"), &fm); err != nil {
		t.Errorf("empty YAML: %v", err)
	}
	// Aliases within the limit still work.
	fm = frontMatter{}
	if _, err := DecodeYAML("book/a.md", 2, []byte("program: [&x [1, 2], *x, *x]\n"), &fm); err != nil || fmt.Sprint(fm.Program) != "[[1 2] [1 2] [1 2]]" {
		t.Errorf("aliases: %v, %v", fm.Program, err)
	}

	for _, c := range []struct {
		name, yaml, want string
		limit            bool
	}{
		// Positions are file lines (the YAML starts on line 2) and byte
		// columns: "é" is two bytes.
		{"unknown key", "title: x\nnope: 1\n", "book/a.md:3:1: unknown field \"nope\"", false},
		{"byte column", "title: é\ntags: {a: 1}\n", "book/a.md:3:7: ", false},
		{"syntax", "title: [\n", "book/a.md:2:8: ", false},
		{"laughs in a list of strings", laughs("tags", 9), "book/a.md:7:20: YAML aliases expand past 1 MiB, the limit on a document's expanded size", true},
		{"laughs in an any", laughs("program", 9), "book/a.md:", true},
		{"laughs of six levels", laughs("tags", 6), "book/a.md:", true},
		{"flow nesting", "program: " + strings.Repeat("[", 33) + strings.Repeat("]", 33) + "\n", "book/a.md:2:41: YAML nested deeper than 32 levels, the limit", true},
		{"unclosed flow nesting", "program: " + strings.Repeat("[", 60000), "book/a.md:2:41: YAML nested deeper than 32 levels", true},
		{"block nesting", "program:\n" + strings.Repeat("- ", 40) + "x\n", "book/a.md:3:", true},
		{"block mappings", "program:\n" + func() string {
			var b strings.Builder
			for i := 1; i <= 40; i++ {
				b.WriteString(strings.Repeat(" ", i) + "k:\n")
			}
			return b.String()
		}(), "book/a.md:", true},
		// Found by FuzzDecodeYAML: go-yaml v1.19.2 panics on this.
		{"go-yaml panics", "tags: !x\n  a: b\n", "book/a.md:2:1: YAML that go-yaml cannot decode (it panicked: runtime error: invalid memory address or nil pointer dereference)", false},
		// A lone carriage return is a line break to YAML, not to the page.
		{"carriage return", "title: x\rtags: {a: 1}\n", "book/a.md:2:", false},
		{"size", "title: " + strings.Repeat("x", MaxYAMLBytes) + "\n", "book/a.md:2:1: YAML is larger than 64 KiB, the limit on a YAML document", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var fm frontMatter
			_, err := DecodeYAML("book/a.md", 2, []byte(c.yaml), &fm)
			var d *Diagnostic
			switch {
			case err == nil:
				t.Fatalf("no error, want %q", c.want)
			case !errors.As(err, &d):
				t.Fatalf("error %T %v, want a *Diagnostic", err, err)
			case !strings.HasPrefix(err.Error(), c.want):
				t.Errorf("error %q, want %q", err, c.want)
			case errors.Is(err, ErrInputLimit) != c.limit:
				t.Errorf("error %q: errors.Is(ErrInputLimit) = %v, want %v", err, !c.limit, c.limit)
			}
			if c.limit && !strings.Contains(err.Error(), "the limit") {
				t.Errorf("error %q does not name the limit", err)
			}
		})
	}
}

// FuzzDecodeYAML decodes arbitrary front matter: DecodeYAML must return
// (no panic, no runaway memory or time) with nil or a *Diagnostic at a
// line of the document.
func FuzzDecodeYAML(f *testing.F) {
	for _, s := range []string{
		"title: Occupancy\ntags: [occupancy, registers]\nbyline:\n  author: Ada\n  reviewer: Bob\n  status: draft\n",
		"kind: issue-vs-warps\nmachine: toy\nprogram: |\n  - loop: 64\n    body:\n      - {op: FFMA, dst: r0, src: [r0, r1], ilp: $ilp}\nvary: {ilp: [1, 2, 4]}\n",
		"a: &a [1, 2]\nb: *a\nc: {<<: *a}\n",
		"? [a, b]\n: c\n--- \nx: !!str 1\n",
		laughs("program", 9),
		strings.Repeat("[", 40),
		"- - - - - x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := strings.Count(string(data), "\n") + 1
		for _, v := range []any{new(frontMatter), new(any), new(map[string]any)} {
			_, err := DecodeYAML("p.md", 2, data, v)
			if err == nil {
				continue
			}
			var d *Diagnostic
			if !errors.As(err, &d) {
				t.Fatalf("error %T %v, want a *Diagnostic", err, err)
			}
			if d.Pos.File != "p.md" || d.Pos.Line < 1 || d.Pos.Line > lines+1 || d.Pos.Col < 0 {
				t.Fatalf("error at %v, outside the document's %d lines: %v", d.Pos, lines, err)
			}
		}
	})
}
