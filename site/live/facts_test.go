package live

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/warpbook/warpbook/snippets"
)

// TestFactsRun: a Run sent with the page's facts, as the site sends it,
// answers what a Run without them answers: for every cell of
// book/occupancy.md as the book has it, and for its first cell after an
// edit of the cell (whose program the facts do not cover), of its last
// cell, and one that does not type-check.
func TestFactsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs book/occupancy.md twice for each cell; skipped with -short")
	}
	const page = "book/occupancy.md"
	src, p := bookPage(t, page)
	// The book's own packages (book/lib/wb), as the site sends them.
	pkgs, ds := snippets.ReadPackages("../../book")
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	facts := snippets.Compile(p, pkgs).Facts
	if len(facts.Programs) == 0 {
		t.Fatal("book/occupancy.md has no facts")
	}
	first, last := p.Cells[0], p.Cells[len(p.Cells)-1]
	type run struct {
		cell  string
		edits map[string]string
	}
	var runs []run
	for _, c := range p.Cells {
		runs = append(runs, run{cell: c.ID()})
	}
	runs = append(runs,
		run{first.ID(), map[string]string{first.ID(): first.Source() + "fmt.Println(\"edited\")\n"}},
		run{first.ID(), map[string]string{last.ID(): last.Source() + "var edited = 1\n_ = edited\n"}},
		run{first.ID(), map[string]string{first.ID(): first.Source() + "var n int = \"s\"\n_ = n\n"}},
	)
	for _, r := range runs {
		answer := func(f *snippets.Facts) string {
			s := NewServer(snippets.Kernel{})
			res := s.Run(context.Background(), &Request{Path: page, Source: string(src), Packages: pkgs.Data(), Facts: f, Cell: r.cell, Edits: r.edits})
			b, _ := json.MarshalIndent(res, "", "\t")
			return string(b)
		}
		if got, want := answer(facts), answer(nil); got != want {
			t.Errorf("Run of %s (edits %q): with facts\n%s\nwithout\n%s", r.cell, r.edits, got, want)
		}
	}
}
