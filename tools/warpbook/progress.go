package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// progress is a one-line counter on a terminal ("12/128 pages verified,
// 3.4s"), redrawn in place and cleared at the end. In a log (stderr not a
// terminal) or under CI=true it prints nothing.
type progress struct {
	w     io.Writer // nil: off
	what  string
	start time.Time
	mu    sync.Mutex
	shown bool
}

func newProgress(w io.Writer, what string) *progress {
	p := &progress{what: what, start: time.Now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) && os.Getenv("CI") != "true" {
		p.w = w
	}
	return p
}

// update shows done of total.
func (p *progress) update(done, total int) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\x1b[K%d/%d %s, %s", done, total, p.what, seconds(time.Since(p.start)))
	p.shown = true
}

// clear removes the line, before other output and at the end.
func (p *progress) clear() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
