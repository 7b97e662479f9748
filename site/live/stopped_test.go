package live

import (
	"context"
	"testing"

	"github.com/warpbook/warpbook/snippets"
)

// TestStoppedReason: a run the page stopped is reported at the unit that
// was running, in the words of who stopped it (the reader's Stop, the
// page's own limit, or the book's limit), without running anything.
func TestStoppedReason(t *testing.T) {
	const src = "# A page\n\n```go run id=first\nfmt.Println(1)\n```\n```output\n1\n```\n\n```go run id=spin timeout=2s\nfor {\n}\n```\n"
	for _, c := range []struct {
		reason string
		after  int64
		want   string
	}{
		{"stop", 2345, "x.md:10:1: spin: stopped after 2.3s: you pressed Stop\n"},
		{"limit", 10000, "x.md:10:1: spin: did not finish within 10s, the browser's time limit for a cell (an infinite loop? Allow longer lets it run to the book's limit)\n"},
		// The book's limit: spin's 2 s, four times over as wall-clock time.
		{"", 0, "x.md:10:1: spin: did not finish within 8s (an infinite loop?)\n"},
	} {
		s := NewServer(snippets.Kernel{Resident: snippets.NewResident()})
		res := s.Run(context.Background(), &Request{Path: "x.md", Source: src, Cell: "spin", Stopped: "spin", Reason: c.reason, AfterMs: c.after})
		if res.Error != c.want || res.Status != "fail" || res.Restart || res.Stdout != "" {
			t.Errorf("reason %q: %+v, want error %q", c.reason, res, c.want)
		}
	}
}
