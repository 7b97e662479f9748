// Package live is the live book: the reader runs and edits a page's cells
// in the browser, offline, with the kernel that checked them at build time.
//
// # The browser kernel
//
// The kernel is the snippets package itself (the page model, program
// generation, the type check against the engine's export data, the
// sandbox, the interpreter's rewrites and yaegi with the engine's
// symbols), compiled with GOOS=js GOARCH=wasm from the same packages as
// the warpbook command: the program in package
// github.com/warpbook/warpbook/site/live/kernel, a thin wrapper around
// [Run] and the figure package's Draw. [Build] compiles it with the Go
// toolchain and caches it by the content of its inputs; the site ships it
// as a script (the module gzipped, in base64), which a page loads only when
// the reader first presses Run, because file:// refuses to fetch a .wasm.
//
// # A run
//
// A [Request] names a page (its path and its Markdown as built), the cell
// to run and the reader's edits (new code by cell id). [Run] applies the
// edits to the page ([page.Page.WithCode]), parses it and runs it
// through the kernel in process, up to the cell and the checked values that
// follow it: the cells above run first, as "warpbook test" runs them. The
// [Result] carries what the cell printed, the diagnostics of the run
// printed as "warpbook test" prints them, a diff against the verified
// output when the output differs, and the checked prose values evaluated in
// the edited session.
//
// The build sends each page with its facts ([snippets.Facts]): what the
// type check of its programs found, at build time, by the same code. A run
// of a program the reader has not changed uses them instead of the type
// check, which was most of a page's first run in the browser; an edited
// program is type-checked in the browser, as ever.
//
// Time limits: Go in WebAssembly has one thread and never preempts a
// goroutine, so a snippet in an endless loop cannot be stopped from inside.
// The kernel reports each cell as it starts ([snippets.Kernel.Started]);
// the page ends the Web Worker when a cell runs past its limit, starts a
// new one, and asks it for the run's result with [Request.Stopped] set.
package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// Request is one run of a cell in the reader's browser.
type Request struct {
	// Path is the page's path as the build reports it ("book/occupancy.md"):
	// the file of every diagnostic.
	Path string `json:"path"`
	// Source is the page's Markdown, as the site was built from it; ""
	// for the source the server was last sent for Path (the page sends it
	// once per worker).
	Source string `json:"source,omitempty"`
	// Facts are what the build's type check of the page found (see
	// [snippets.Facts]), sent with Source: a run of the page's programs
	// as the book has them skips the type check.
	Facts *snippets.Facts `json:"facts,omitempty"`
	// Packages are the book's own Go packages the page's cells import
	// (see [snippets.Packages]), sent with Source.
	Packages *snippets.PackagesData `json:"packages,omitempty"`
	// Cell is the id of the cell to run.
	Cell string `json:"cell"`
	// Edits holds the reader's code by cell id; the cells above Cell run
	// with theirs.
	Edits map[string]string `json:"edits,omitempty"`
	// Stopped is the id of the cell or checked value at which the page
	// stopped this request's previous run, at its time limit or because
	// the worker died (then Stderr holds what it wrote on its standard
	// error): the result reports that, without running anything.
	Stopped string  `json:"stopped,omitempty"`
	Stderr  *string `json:"stderr,omitempty"`
	// Reason says who stopped the previous run when it was neither the
	// unit's time limit as the book sets it nor the worker dying: "stop"
	// (the reader pressed Stop) or "limit" (the page's own time limit,
	// shorter than the book's, which the reader may lift). AfterMs is how
	// long the unit had run then, in milliseconds.
	Reason  string `json:"reason,omitempty"`
	AfterMs int64  `json:"afterMs,omitempty"`
}

// Result is what a run found.
type Result struct {
	// Cell is the cell that ran.
	Cell string `json:"cell"`
	// Status is "pass" (the cell printed its verified output and failed as
	// the book says, if it does), "differs" (it ran, and printed something
	// else) or "fail" (it did not compile, panicked unexpectedly, ran out
	// of time, or did not run).
	Status string `json:"status"`
	// Stdout is what the cell printed.
	Stdout string `json:"stdout"`
	// Error is every problem of the run, printed as "warpbook test" prints
	// them ("book/x.md:12:5: id: message"); "" when there is none. A
	// different output is not a problem here (see Diff).
	Error string `json:"error"`
	// Panic is the message of the cell's panic, "" if none.
	Panic string `json:"panic,omitempty"`
	// CompileError is the verified compile error of an error= cell.
	CompileError string `json:"compileError,omitempty"`
	// Diff is a unified diff from the verified output to Stdout, "" when
	// they agree.
	Diff string `json:"diff,omitempty"`
	// Restart says that the run abandoned a snippet it could not stop (a
	// time or output limit): the page should start a new worker before the
	// next run, so that nothing the snippet still does reaches it.
	Restart bool `json:"restart,omitempty"`
	// Marks place the run's problems that lie in a cell's code in that
	// code's own lines, as the reader's editor numbers them.
	Marks []Mark `json:"marks,omitempty"`
	// Values are the page's checked prose values that the run evaluated:
	// those above the cell and those after it, up to the next cell.
	Values []Value `json:"values,omitempty"`
}

// Mark is a problem of a run placed in the code of the cell it lies in.
type Mark struct {
	// Cell is the cell's id.
	Cell string `json:"cell"`
	// At is the problem's position in the Markdown, as Error prints it.
	At string `json:"at"`
	// Line is the line of the cell's code, from 1, hidden lines counted.
	Line int `json:"line"`
	// Col is the column in that line, in bytes, from 1.
	Col int `json:"col"`
	// Message is the problem's message, whole.
	Message string `json:"message"`
}

// marks places the problems that lie in the code of a cell of p.
func marks(p *page.Page, ds page.Diagnostics) []Mark {
	var ms []Mark
	for _, d := range ds {
		if d.Pos.Line == 0 || d.Pos.File != p.Path {
			continue
		}
	cells:
		for _, c := range p.Cells {
			for i, l := range c.Lines {
				if l.Pos.Line == d.Pos.Line {
					ms = append(ms, Mark{Cell: c.ID(), At: d.Pos.String(), Line: i + 1, Col: max(d.Pos.Col-l.Pos.Col+1, 1), Message: d.Msg})
					break cells
				}
			}
		}
	}
	return ms
}

// Value is a checked prose value evaluated in the reader's session.
type Value struct {
	// ID is the value's id ("value-3").
	ID string `json:"id"`
	// Text is what the page states.
	Text string `json:"text"`
	// Value is fmt.Sprint of the expression in the edited session, ""
	// when it did not evaluate.
	Value string `json:"value"`
	// Error says why it did not evaluate, as "warpbook test" prints it.
	Error string `json:"error,omitempty"`
}

// Run runs a request. It never fails: what goes wrong is in the result's
// Error.
func (s *Server) Run(ctx context.Context, req *Request) *Result {
	res := &Result{Cell: req.Cell, Status: "fail"}
	s.k.Resident.Know(req.Facts)
	src, ok := s.source(req.Path, req.Source)
	pkgs, pds := s.packages(req.Path, req.Source, req.Packages)
	if len(pds) > 0 {
		res.Error = writeDiags(pds)
		return res
	}
	if !ok {
		res.Error = req.Path + ": the page's source was not sent\n"
		return res
	}
	book := s.parse(req.Path, src)
	target := book.Cell(req.Cell)
	if target == nil {
		res.Error = req.Path + ": no snippet with id " + req.Cell + "\n"
		return res
	}
	src, err := book.WithCode(req.Edits)
	if err != nil {
		res.Error = err.Error() + "\n"
		return res
	}
	pg := book
	if len(req.Edits) > 0 {
		pg = s.parse(req.Path, src)
	}
	if len(pg.Diagnostics) > 0 {
		res.Error = writeDiags(pg.Diagnostics)
		res.Marks = marks(pg, pg.Diagnostics)
		return res
	}
	k := s.k
	k.Packages = func(*page.Page) *snippets.Packages { return pkgs }
	if req.Stopped != "" {
		var stderr []byte
		if req.Stderr != nil {
			stderr = []byte(*req.Stderr)
		}
		if d := k.Stopped(pg, req.Stopped, stderr); d != nil {
			after := (time.Duration(req.AfterMs) * time.Millisecond).Round(100 * time.Millisecond)
			switch req.Reason {
			case "stop":
				d.Msg = fmt.Sprintf("stopped after %v: you pressed Stop", after)
			case "limit":
				d.Msg = fmt.Sprintf("did not finish within %v, the browser's time limit for a cell (an infinite loop? Allow longer lets it run to the book's limit)", after)
			}
			// Nothing ran in this worker: it needs no restart.
			res.Error = writeDiags(page.Diagnostics{d})
			return res
		}
	}
	cell := pg.Cell(req.Cell)
	selected := map[string]bool{}
	for _, c := range pg.Cells[:cell.Index+1] {
		selected[c.ID()] = true
	}
	for _, ch := range pg.Checks {
		if ch.After <= cell.Index+1 {
			selected[ch.ID()] = true
		}
	}
	k.Filter = func(id string) bool { return selected[id] }
	r := k.RunPage(ctx, pg)

	var problems page.Diagnostics
	problems = append(problems, r.Diagnostics...)
	for _, cr := range r.Cells {
		if cr == nil {
			continue
		}
		for _, d := range cr.Diagnostics {
			if errors.Is(d, snippets.ErrTimeout) || errors.Is(d, snippets.ErrLimit) {
				res.Restart = true
			}
			if errors.Is(d, snippets.ErrOutput) {
				if cr.ID == cell.ID() {
					res.Diff = d.Diff
				}
				continue
			}
			problems = append(problems, d)
		}
	}
	for i, vr := range r.Checks {
		if vr == nil {
			continue
		}
		v := Value{ID: vr.ID, Text: pg.Checks[i].Text, Value: vr.Value}
		var own page.Diagnostics
		for _, d := range vr.Diagnostics {
			if !errors.Is(d, snippets.ErrOutput) {
				own = append(own, d)
			}
		}
		v.Error = writeDiags(own)
		res.Values = append(res.Values, v)
	}
	res.Error = writeDiags(problems)
	res.Marks = marks(pg, problems)
	cr := r.Result(cell)
	if cr == nil {
		return res
	}
	res.Stdout, res.Panic = cr.Output, cr.Panic
	if cell.Attrs.Error != "" {
		res.CompileError = cr.Error
	}
	switch {
	case res.Error != "" || cr.Status == snippets.StatusSkip:
		if res.Error == "" && cr.Skip != "" {
			res.Error = cell.Pos.String() + ": " + cell.ID() + ": " + cr.Skip + "\n"
		}
		res.Status = "fail"
	case res.Diff != "":
		res.Status = "differs"
	default:
		res.Status = "pass"
	}
	return res
}

// writeDiags prints ds as every command prints diagnostics, "" for none.
func writeDiags(ds page.Diagnostics) string {
	if len(ds) == 0 {
		return ""
	}
	var b strings.Builder
	_ = ds.Sorted().Write(&b)
	return b.String()
}
