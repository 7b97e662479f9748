package live

import (
	"context"
	"testing"

	"github.com/warpbook/warpbook/snippets"
)

// BenchmarkServerReplay measures, natively, what a Run costs the server
// besides running snippets: each op runs every cell of book/occupancy.md
// in turn, after a first pass that evaluated them all, so that every cell
// and checked value is replayed (the page parsed, compiled, filtered and
// verified, nothing interpreted). In the browser kernel this cost comes on
// top of every cell's own run.
func BenchmarkServerReplay(b *testing.B) {
	const page = "book/occupancy.md"
	src, p := bookPage(b, page)
	s := NewServer(snippets.Kernel{})
	run := func() {
		for _, c := range p.Cells {
			r := s.Run(context.Background(), &Request{Path: page, Source: string(src), Cell: c.ID()})
			if r.Status != "pass" {
				b.Fatalf("%s: %s %s", c.ID(), r.Status, r.Error)
			}
		}
	}
	run()
	for b.Loop() {
		run()
	}
}
