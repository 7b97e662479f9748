package snippets

import (
	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
)

// Stopped returns what the kernel reports when the cell or checked value
// id of page p was stopped from outside, as the browser kernel's page
// stops a Web Worker: at its time limit when stderr is nil (wall-clock
// time, WallFactor times the limit with a Resident), or because the
// runtime died, with what it wrote on its standard error (a panic in a
// goroutine, a stack overflow, running out of memory). The browser
// kernel's memory is capped at the kernel's memory limit (see package
// site/live), so that running out of it is that limit, said as natively.
// It returns nil when the page has no such unit.
func (k *Kernel) Stopped(p *page.Page, id string, stderr []byte) *page.Diagnostic {
	pos, limit := page.Pos{}, k.timeout()
	if c := p.Cell(id); c != nil {
		pos = c.Pos
		if c.Attrs.Timeout > 0 {
			limit = c.Attrs.Timeout
		}
	} else {
		for _, ch := range p.Checks {
			if ch.ID() == id {
				pos = ch.Pos
			}
		}
	}
	if pos.File == "" {
		return nil
	}
	limit = k.wallLimit(limit)
	if stderr != nil {
		msg := worker.CrashMessage(stderr, nil, nil)
		if msg == worker.OutOfMemory {
			return &page.Diagnostic{Pos: pos, ID: id, Msg: worker.OverMemory(k.memoryLimit()), Err: ErrLimit}
		}
		return &page.Diagnostic{Pos: pos, ID: id, Msg: msg}
	}
	return &page.Diagnostic{Pos: pos, ID: id, Msg: worker.WallTimeout(limit, ""), Err: ErrTimeout}
}
