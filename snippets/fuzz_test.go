package snippets

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/warpbook/warpbook/snippets/page"
	"golang.org/x/tools/txtar"
)

// FuzzParse feeds arbitrary pages to the parser and to program
// generation and type checking (nothing runs): neither may panic, the same
// page must give the same diagnostics, every diagnostic must point into
// the page, and a page updated with no results is unchanged.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, fl := range ar.Files {
			if fl.Name == "page.md" {
				f.Add(fl.Data)
			}
		}
	}
	f.Add([]byte("---\ntitle: x\n"))
	f.Add([]byte("```go run\n}\n```\n"))
	f.Add([]byte("[1](= '1 }) }')\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p1, err1 := page.Parse("page.md", src)
		_, err2 := page.Parse("page.md", src)
		if (err1 == nil) != (err2 == nil) || (err1 != nil && err1.Error() != err2.Error()) {
			t.Fatalf("two parses disagree: %v / %v", err1, err2)
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, d := range p1.Diagnostics {
			if d.Pos.File != "page.md" || d.Pos.Line < 0 || d.Pos.Line > lines {
				t.Fatalf("diagnostic outside the page: %v", d)
			}
		}
		if out, ids, err := Update(&PageResult{Page: p1}); err != nil || len(ids) != 0 || !bytes.Equal(out, src) {
			t.Fatalf("an update with no results changed the page: %v %v", ids, err)
		}
		if len(p1.Diagnostics) > 0 {
			return
		}
		pl := newPlan(p1, time.Second)
		for _, d := range pl.compile() {
			if d.Pos.File != "page.md" {
				t.Fatalf("diagnostic outside the page: %v", d)
			}
		}
		for _, u := range pl.units {
			for _, d := range u.diags {
				if d.Pos.File != "page.md" || d.Pos.Line < 1 || d.Pos.Line > lines {
					t.Fatalf("unit diagnostic outside the page: %v", d)
				}
			}
		}
	})
}
