package snippets

import "github.com/warpbook/warpbook/snippets/internal/worker"

// Stopped returns what the kernel reports when the cell or checked value
// id of page p was stopped from outside at its time limit, as the browser
// kernel's page stops a Web Worker that runs past it: the diagnostic of a
// wall-clock time limit, at the unit's position. It returns nil when the
// page has no such unit.
func (k *Kernel) Stopped(p *Page, id string) *Diagnostic {
	if c := p.Cell(id); c != nil {
		limit := k.timeout()
		if c.Attrs.Timeout > 0 {
			limit = c.Attrs.Timeout
		}
		return &Diagnostic{Pos: c.Pos, ID: id, Msg: worker.WallTimeout(limit, ""), Err: ErrTimeout}
	}
	for _, ch := range p.Checks {
		if ch.ID() == id {
			return &Diagnostic{Pos: ch.Pos, ID: id, Msg: worker.WallTimeout(k.timeout(), ""), Err: ErrTimeout}
		}
	}
	return nil
}
