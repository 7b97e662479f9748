package preview

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// hangKernel stands for a kernel running a page whose snippet loops: it
// blocks on a page that says "loop" until its build is canceled (telling
// canceled), and passes every other page at once.
type hangKernel struct {
	started  chan struct{} // a build reached the looping page
	canceled chan struct{} // that build was canceled
}

func (k hangKernel) Stream(ctx context.Context, pages []*page.Page, done func(int, *snippets.PageResult)) {
	for i, p := range pages {
		r := &snippets.PageResult{Page: p, Cells: make([]*snippets.CellResult, len(p.Cells))}
		if strings.Contains(string(p.Source), "loop") {
			k.started <- struct{}{}
			<-ctx.Done()
			k.canceled <- struct{}{}
			r.Diagnostics = page.Diagnostics{{Pos: page.Pos{File: p.Path}, Msg: "canceled"}}
		} else {
			for j, c := range p.Cells {
				r.Cells[j] = &snippets.CellResult{ID: c.ID(), Status: snippets.StatusPass, Output: c.Expected()}
			}
		}
		done(i, r)
	}
}

// TestWatchCancels: a save while a build runs cancels that build, whose
// result is stale, and builds the new version at once, rather than after
// the stale build's snippets time out.
func TestWatchCancels(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) {
		noErr(t, os.WriteFile(filepath.Join(dir, "index.md"), []byte(s), 0o644))
	}
	const fixed = "# Home\n\n```go run\nfmt.Println(\"fixed\")\n```\n```output\nfixed\n```\n"
	write(fixed)
	k := hangKernel{started: make(chan struct{}), canceled: make(chan struct{})}
	s := &Server{Dir: dir, Options: site.Options{Kernel: k}}
	noErr(t, s.Rebuild(context.Background()))
	v := s.Version()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Watch(ctx)
	// The watcher may start after the first write; write until a build
	// reaches the loop. A hung watcher is caught by go test's -timeout.
	loop := "# Home\n\n```go run\nfor {} // loop\n```\n"
	for reached := false; !reached; {
		write(loop)
		select {
		case <-k.started:
			reached = true
		case <-time.After(200 * time.Millisecond):
		}
	}
	s.mu.Lock()
	built := s.changed // closed when the next build is done
	s.mu.Unlock()
	write(fixed)
	<-k.canceled
	<-built
	if got := s.Version(); got != v+1 {
		t.Errorf("version %d after the fix, want %d: the canceled build counted", got, v+1)
	}
	s.mu.Lock()
	err := s.err
	s.mu.Unlock()
	if err != nil {
		t.Errorf("the build after the fix failed: %v", err)
	}
}
