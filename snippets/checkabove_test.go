package snippets

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestCheckAboveFailsClosed: when the cells above a cell that does not
// parse do not check on their own either (testdata/parse-cut.txtar),
// they do not run, and they say which cell keeps them from it.
func TestCheckAboveFailsClosed(t *testing.T) {
	var p *Page
	for _, q := range corpusPages(t) {
		if q.Path == "parse-cut.txtar/page.md" {
			p = q
		}
	}
	if p == nil {
		t.Fatal("no testdata/parse-cut.txtar")
	}
	k := &Kernel{InProcess: true, Timeout: 5 * time.Second}
	cut := k.RunPage(context.Background(), p).Result(p.Cell("cut"))
	if cut == nil || cut.Status != StatusSkip || !strings.Contains(cut.Skip, "cannot be checked because of rest") {
		t.Errorf("cell cut: %+v", cut)
	}
}
