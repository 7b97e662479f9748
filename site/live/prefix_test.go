package live

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/warpbook/warpbook/snippets"
)

// TestPrefixRun: the first Run of a cell, which compiles only the page up
// to it where that is exact, answers what a Run answers once the whole
// page is compiled: for every cell of book/occupancy.md, and for its first
// cell after edits of its last cell that change what the first cell means
// (a built-in declared again, the fmt package's name declared, a name the
// scaffolding calls declared, code that does not parse).
func TestPrefixRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs book/occupancy.md once for each cell; skipped with -short")
	}
	const page = "book/occupancy.md"
	src, p := bookPage(t, page)
	last := p.Cells[len(p.Cells)-1]
	type run struct {
		cell  string
		edits map[string]string
	}
	runs := []run{}
	for _, c := range p.Cells {
		runs = append(runs, run{cell: c.ID()})
	}
	for _, add := range []string{
		"func len(s string) int { return 0 }",
		"type fmt int",
		"_wbDone := 1\n_ = _wbDone",
		"var = 3",
	} {
		runs = append(runs, run{cell: p.Cells[0].ID(), edits: map[string]string{last.ID(): last.Source() + add + "\n"}})
	}
	answer := func(s *Server, r run) string {
		res := s.Run(context.Background(), &Request{Path: page, Source: string(src), Cell: r.cell, Edits: r.edits})
		b, _ := json.MarshalIndent(res, "", "\t")
		return string(b)
	}
	// The whole page: its last cell runs first, which compiles all of it.
	whole := NewServer(snippets.Kernel{})
	answer(whole, run{cell: last.ID()})
	for _, r := range runs {
		if r.edits != nil {
			answer(whole, run{cell: last.ID(), edits: r.edits})
		}
		got, want := answer(NewServer(snippets.Kernel{}), r), answer(whole, r)
		if got != want {
			t.Errorf("first Run of %s (edits %q): got\n%s\nwant (the whole page compiled)\n%s", r.cell, r.edits, got, want)
		}
	}
}
