package site

import (
	"reflect"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// TestLiveText checks the Markdown the browser kernel gets: the front
// matter's lines empty, every other line and every position the book's,
// and a page with parse problems as it is.
func TestLiveText(t *testing.T) {
	src := "---\r\ntitle: A page\ntags: [occupancy]\nprose_numbers: [\"75\"]\n---\n\n# A page\n\n```go run id=a\nimport \"fmt\"\nfmt.Println(75)\n```\n\n```output\n75\n```\n\n[75](= \"75\") of it.\n"
	p, err := page.Parse("a.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := liveText(p)
	want := "---\r\n\n\n\n---\n" + src[strings.Index(src, "\n---\n")+len("\n---\n"):]
	if got != want {
		t.Fatalf("liveText:\n%q\nwant\n%q", got, want)
	}
	q, err := page.Parse("a.md", []byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Cells) != 1 || q.Cells[0].Pos != p.Cells[0].Pos || q.Cells[0].Lines[0].Pos != p.Cells[0].Lines[0].Pos {
		t.Errorf("cells moved: %+v, want %+v", q.Cells, p.Cells)
	}
	if len(q.Checks) != 1 || q.Checks[0].ExprPos != p.Checks[0].ExprPos {
		t.Errorf("checks moved: %+v, want %+v", q.Checks, p.Checks)
	}
	// The build records the facts of the page it parsed; the kernel looks
	// them up for the page it gets.
	if fp, fq := snippets.Compile(p, nil).Facts, snippets.Compile(q, nil).Facts; len(fp.Programs) == 0 || !reflect.DeepEqual(fp, fq) {
		t.Errorf("facts of the page %v, of the kernel's copy %v", fp.Programs, fq.Programs)
	}

	bad := "---\ntitle: [unclosed\n---\n\n```go run\nfmt.Println(1)\n```\n"
	p, _ = page.Parse("b.md", []byte(bad))
	if len(p.Diagnostics) == 0 {
		t.Fatal("no diagnostics for a malformed front matter")
	}
	if got := liveText(p); got != bad {
		t.Errorf("a page with problems was changed: %q", got)
	}
	p, _ = page.Parse("c.md", []byte("# No front matter\n"))
	if got := liveText(p); got != "# No front matter\n" {
		t.Errorf("liveText = %q", got)
	}
}
