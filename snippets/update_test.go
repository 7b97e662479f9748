package snippets

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets/page"
)

// failOutput is the result of a cell whose only failure is its output.
func failOutput(c *page.Cell, out string) *CellResult {
	cr := &CellResult{ID: c.ID(), Status: StatusFail, Output: out}
	cr.Diagnostics = page.Diagnostics{compareOutput(c, out)}
	return cr
}

func TestUpdate(t *testing.T) {
	for _, tc := range []struct {
		name, src, out, want string
	}{
		{"replace", "a\n```go run\nx\n```\n```output\nold\n```\nz\n", "new\nlines\n", "a\n```go run\nx\n```\n```output\nnew\nlines\n```\nz\n"},
		{"empty block", "```go run\nx\n```\n```output\n```\n", "new\n", "```go run\nx\n```\n```output\nnew\n```\n"},
		{"to empty", "```go run\nx\n```\n```output\nold\n```\n", "", "```go run\nx\n```\n```output\n```\n"},
		{"trailing whitespace trimmed", "```go run\nx\n```\n```output\nold\n```\n", "new   \n\n\n", "```go run\nx\n```\n```output\nnew\n```\n"},
		{"insert", "```go run\nx\n```\nafter\n", "new\n", "```go run\nx\n```\n```output\nnew\n```\nafter\n"},
		{"insert at end without newline", "```go run\nx\n```", "new\n", "```go run\nx\n```\n```output\nnew\n```\n"},
		{"crlf", "```go run\r\nx\r\n```\r\n```output\r\nold\r\n```\r\n", "new\n", "```go run\r\nx\r\n```\r\n```output\r\nnew\r\n```\r\n"},
		{"blockquote", "> ```go run\n> x\n> ```\n> ```output\n> old\n> ```\n", "a\n\nb\n", "> ```go run\n> x\n> ```\n> ```output\n> a\n>\n> b\n> ```\n"},
		{"list item", "- item\n\n  ```go run\n  x\n  ```\n  ```output\n  old\n  ```\n", "new\n", "- item\n\n  ```go run\n  x\n  ```\n  ```output\n  new\n  ```\n"},
		{"tilde fence", "```go run\nx\n```\n~~~~output\nold\n~~~~\n", "```\n", "```go run\nx\n```\n~~~~output\n```\n~~~~\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, "x.md", tc.src)
			c := p.Cells[0]
			r := &PageResult{Page: p, Cells: []*CellResult{failOutput(c, tc.out)}}
			got, ids, err := Update(r)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want || len(ids) != 1 {
				t.Fatalf("got %q (ids %v)\nwant %q", got, ids, tc.want)
			}
			// Idempotent: the updated page now matches.
			p2, _ := page.Parse("x.md", got)
			if compareOutput(p2.Cells[0], tc.out) != nil {
				t.Errorf("the updated page still differs: expected %q", p2.Cells[0].Expected())
			}
		})
	}
}

func TestUpdateRefuses(t *testing.T) {
	p, _ := page.Parse("x.md", []byte("```go run panics=\"boom\"\nx\n```\n```output\nold\n```\n"))
	c := p.Cells[0]
	// A panic that does not match is not an output problem: no update.
	cr := failOutput(c, "new\n")
	cr.Diagnostics = append(cr.Diagnostics, &page.Diagnostic{Pos: c.Pos, ID: c.ID(), Msg: "panicked with other"})
	if src, ids, err := Update(&PageResult{Page: p, Cells: []*CellResult{cr}}); err != nil || len(ids) != 0 || string(src) != string(p.Source) {
		t.Errorf("updated a cell that also fails for another reason: %v %v", ids, err)
	}
	// Output that would close its own block.
	_, _, err := Update(&PageResult{Page: p, Cells: []*CellResult{failOutput(c, "```\n")}})
	if err == nil || !strings.Contains(err.Error(), "would close its output block") {
		t.Errorf("err = %v", err)
	}
}

func TestUpdateFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.md")
	src := "```go run\nx\n```\n```output\nold\n```\n"
	if err := os.WriteFile(path, []byte(src), 0o640); err != nil {
		t.Fatal(err)
	}
	p, _ := page.Parse(path, []byte(src))
	ids, err := UpdateFile(&PageResult{Page: p, Cells: []*CellResult{failOutput(p.Cells[0], "new\n")}})
	if err != nil || len(ids) != 1 {
		t.Fatal(ids, err)
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(b) != strings.Replace(src, "old", "new", 1) || fi.Mode().Perm() != 0o640 {
		t.Errorf("file = %q, mode %v", b, fi.Mode())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

// TestUpdateFileSafety: -update writes through a symbolic link to the
// file it names, and writes nothing when the page changed after it was
// read.
func TestUpdateFileSafety(t *testing.T) {
	src := "```go run\nx\n```\n```output\nold\n```\n"
	want := strings.Replace(src, "old", "new", 1)
	t.Run("symlink", func(t *testing.T) {
		dir := t.TempDir()
		real := filepath.Join(dir, "real.md")
		link := filepath.Join(dir, "link.md")
		writeFileT(t, real, src)
		if err := os.Symlink("real.md", link); err != nil {
			t.Skip("no symlinks here:", err)
		}
		p, _ := page.Parse(link, []byte(src))
		if _, err := UpdateFile(&PageResult{Page: p, Cells: []*CellResult{failOutput(p.Cells[0], "new\n")}}); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
		}
		if b, _ := os.ReadFile(real); string(b) != want {
			t.Errorf("the linked file holds %q, want %q", b, want)
		}
	})
	t.Run("changed", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "x.md")
		p, _ := page.Parse(path, []byte(src))
		edited := src + "\nA sentence the author saved while the snippets ran.\n"
		writeFileT(t, path, edited)
		_, err := UpdateFile(&PageResult{Page: p, Cells: []*CellResult{failOutput(p.Cells[0], "new\n")}})
		if !errors.Is(err, ErrChanged) {
			t.Errorf("err = %v, want ErrChanged", err)
		}
		if b, _ := os.ReadFile(path); string(b) != edited {
			t.Errorf("the edit was overwritten: %q", b)
		}
	})
}

// TestInProcess runs a page without worker processes, as a library user
// without the TestMain hook would.
func TestInProcess(t *testing.T) {
	p := mustParse(t, "x.md", "```go run\nimport (\n\t\"fmt\"\n\t\"os\"\n)\nx := 2\nfmt.Println(x)\nfmt.Fprintln(os.Stdout, \"stdout\")\n```\n```output\n2\nstdout\n```\n\n[2](= \"x\")\n")
	r := (&Kernel{InProcess: true}).RunPage(context.Background(), p)
	if r.Failed() || r.Cells[0].Status != StatusPass || r.Checks[0].Value != "2" {
		t.Errorf("in-process run failed: %v %+v %+v", r.AllDiagnostics(), r.Cells[0], r.Checks[0])
	}
	v := r.Verifier
	if !strings.HasPrefix(v.Tool, "warpbook ") || v.Engine == "" || v.Go != runtime.Version() || v.Native != "" {
		t.Errorf("verifier = %+v", v)
	}
}
