package site

import (
	"context"
	"fmt"
	"strings"

	"github.com/warpbook/warpbook/snippets"
)

// Kernel runs and verifies the snippets of parsed pages. The site never
// runs code itself; [*snippets.Kernel] is the implementation.
type Kernel interface {
	Run(ctx context.Context, pages []*snippets.Page) []*snippets.PageResult
}

// diagError converts a kernel diagnostic into a site error, keeping its
// diff and hint.
func diagError(d *snippets.Diagnostic) *Error {
	msg := d.Msg
	if d.ID != "" {
		msg = d.ID + ": " + msg
	}
	var detail []string
	if d.Diff != "" {
		detail = append(detail, strings.TrimRight(d.Diff, "\n"))
	}
	if d.Hint != "" {
		detail = append(detail, d.Hint)
	}
	return &Error{File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col, Msg: msg, Detail: strings.Join(detail, "\n"), Err: d}
}

// verifiedBy says in words what verified a page's snippets.
func verifiedBy(v snippets.Verifier) string {
	if v.Tool == "" && v.Engine == "" {
		return ""
	}
	s := fmt.Sprintf("%s, engine %s, %s", v.Tool, v.Engine, v.Go)
	if v.Native != "" {
		s += ", and natively by " + v.Native
	}
	return s
}

// runCells runs and verifies every page with snippets or checked values
// through the kernel. Any failure fails the build.
func (b *build) runCells() error {
	var run []*page
	for _, p := range b.pages {
		if p.snip != nil && (len(p.snip.Cells) > 0 || len(p.snip.Checks) > 0) {
			run = append(run, p)
		}
	}
	if len(run) == 0 {
		return nil
	}
	if b.opts.Kernel == nil {
		for _, p := range run {
			p.results = cellResults{}
			for _, c := range p.snip.Cells {
				p.results[c] = viewCell(c, nil, "")
			}
		}
		return nil
	}
	pages := make([]*snippets.Page, len(run))
	for i, p := range run {
		pages[i] = p.snip
	}
	results := b.opts.Kernel.Run(b.ctx, pages)
	if len(results) != len(run) {
		return fmt.Errorf("kernel returned %d results for %d pages", len(results), len(run))
	}
	for i, p := range run {
		res := results[i]
		for _, d := range res.AllDiagnostics() {
			b.addErrs(diagError(d))
		}
		if res.Failed() && len(res.AllDiagnostics()) == 0 {
			b.errorf(p.path, 0, "snippets failed without a diagnostic")
		}
		by := verifiedBy(res.Verifier)
		p.results = cellResults{}
		for _, c := range p.snip.Cells {
			p.results[c] = viewCell(c, res.Result(c), by)
		}
		p.verified = by
	}
	return nil
}

// viewCell is what the site shows for cell c with result r (nil: not run).
func viewCell(c *snippets.Cell, r *snippets.CellResult, by string) *cellView {
	v := &cellView{ID: c.ID, Lang: "go"}
	for _, l := range c.Lines {
		v.Lines = append(v.Lines, l.Text)
		v.Hidden = append(v.Hidden, l.Hidden)
	}
	switch {
	case r == nil:
		v.Status = "unverified"
		v.Stdout = c.Expected
		if c.Attrs.Skip != "" {
			v.Status, v.Skip = "skip", c.Attrs.Skip
		}
	case r.Status == snippets.StatusSkip:
		v.Status, v.Skip = "skip", r.Skip
	default:
		v.Status = r.Status.String()
		v.Stdout = r.Output
		v.VerifiedBy = by
		switch {
		case c.Attrs.Panics != "":
			v.Failure, v.Panics = r.Panic, true
		case c.Attrs.Error != "":
			v.Failure = r.Error
		}
	}
	return v
}
