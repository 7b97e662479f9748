package snippets

import (
	"context"
	"errors"
	"go/types"
	"maps"
	"sort"
	"strings"
	"time"

	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
)

// RunPage type-checks, runs and verifies one page. A page with parse
// errors is not run; its result carries them.
func (k *Kernel) RunPage(ctx context.Context, p *page.Page) *PageResult {
	return k.Run(ctx, []*page.Page{p})[0]
}

// pageRun is one page on its way through a run: prepared (type-checked,
// what must run decided, the cache asked), then run and verified.
type pageRun struct {
	r    *PageResult
	pl   *plan // nil for a page with parse errors
	need map[*unit]bool
	// The interpreter: outcomes found in the cache, and the units to run.
	outcomes map[int]*worker.Outcome
	jobs     []worker.Unit
	timeouts map[int]time.Duration
	keys     map[*unit]string
	// The native build: outcomes found in the cache, and the sessions to
	// build and run.
	native  map[int]*worker.Outcome
	build   []*session
	nkeys   map[*unit]string
	ndiags  page.Diagnostics
	nativeX map[*session]nativeExe // built executables, by session
}

// nativeExe is how a natively built session runs: the executable, and the
// argument that names the session where the executable runs several.
type nativeExe struct {
	path, arg string
}

// prepare type-checks a page and finds what of it must run.
func (k *Kernel) prepare(p *page.Page) *pageRun {
	pr := &pageRun{r: &PageResult{
		Page:     p,
		Cells:    make([]*CellResult, len(p.Cells)),
		Checks:   make([]*CheckResult, len(p.Checks)),
		CUDA:     make([]*CUDAResult, len(p.CUDA)),
		Verifier: k.Verifier(),
	}}
	r := pr.r
	if len(p.Diagnostics) > 0 {
		r.Diagnostics = append(r.Diagnostics, p.Diagnostics...)
		return pr
	}
	var pl *plan
	switch {
	case k.Resident != nil:
		var d page.Diagnostics
		pl, d = k.Resident.plan(p, k.timeout(), k.cut(p), k.packages(p))
		r.Diagnostics = append(r.Diagnostics, d...)
	default:
		n := len(p.Cells)
		if !hasProcesses || !k.Native {
			// The native build compiles each session's whole program:
			// only the interpreter runs a prefix of the page.
			n = k.cut(p)
		}
		var d page.Diagnostics
		pl, _, d = compileUpTo(p, n, k.timeout(), nil, k.packages(p))
		r.Diagnostics = append(r.Diagnostics, d...)
	}
	pr.pl = pl

	// What runs: each session up to its last selected unit, but not past
	// its first unit that does not compile.
	need := map[*unit]bool{}
	for _, s := range pl.sessions {
		last := -1
		for i, u := range s.units {
			if k.selected(u.id()) {
				last = i
			}
		}
		for i := 0; i <= last && i < s.firstBad; i++ {
			need[s.units[i]] = true
		}
	}
	pr.need = need
	cache := k.cache()
	if cache != nil {
		pr.keys = pl.keys(r.Verifier, "interp")
	}
	pr.outcomes = map[int]*worker.Outcome{}
	pr.timeouts = map[int]time.Duration{}
	for _, s := range pl.sessions {
		var units []*unit
		hit := true
		for _, u := range s.units {
			if !need[u] {
				continue
			}
			units = append(units, u)
			if o := cache.get(pr.keys[u]); o != nil {
				pr.outcomes[u.index] = o
			} else {
				hit = false
			}
		}
		if hit {
			continue
		}
		for _, u := range units {
			delete(pr.outcomes, u.index)
			if len(u.diags) > 0 {
				continue // a checked value that does not compile
			}
			pr.jobs = append(pr.jobs, worker.Unit{U: u.index, Session: s.id, Chunks: u.chunks, Stmt: u.stmt, Expr: u.expr, Prelude: pl.prelude(s), Packages: pl.pkgs.Hash()})
			pr.timeouts[u.index] = k.wallLimit(u.timeout)
		}
	}
	sortJobs(pr.jobs)
	if hasProcesses && k.Native && k.Resident == nil {
		k.prepareNative(pr)
	}
	return pr
}

// finish runs what a prepared page must run and verifies it.
func (k *Kernel) finish(ctx context.Context, pr *pageRun, pool *worker.Pool) *PageResult {
	if pr.pl == nil {
		return pr.r
	}
	// The CUDA cells compile while the Go cells run: they read the
	// recorded resources, not the compile's.
	cudaDone := make(chan []*CUDAResult, 1)
	go func() { cudaDone <- k.checkCUDA(ctx, pr.r.Page) }()
	defer func() { pr.r.CUDA = <-cudaDone }()
	if len(pr.jobs) > 0 {
		var start worker.StartFunc
		lim := worker.Limits{Timeout: pr.timeouts, Startup: startupTimeout, Output: k.outputLimit(), Memory: k.memoryLimit()}
		var started func(int)
		if k.Started != nil {
			started = func(n int) {
				u := pr.pl.units[n]
				k.Started(u.id(), pr.timeouts[n])
			}
		}
		var res *worker.Resident
		switch {
		case k.Resident != nil:
			res = k.Resident.runner(pr.r.Page.Path)
			start, lim.Memory, lim.Once = res.Start(started), 0, true
		// Without processes (the browser kernel) every run is in this
		// one; the constant keeps the pool's processes out of it.
		case (k.InProcess || !hasProcesses) && started != nil:
			start, lim.Memory = worker.InProcessTraced(started), 0
		case k.InProcess || !hasProcesses:
			start, lim.Memory = worker.InProcess, 0
		default:
			start = pool.Start
		}
		var got map[int]*worker.Outcome
		if res != nil {
			replayed, rest := res.Prepare(pr.jobs)
			got = worker.Run(ctx, rest, lim, start, k.memoryLimit(), pr.pl.pkgs.Sources())
			res.Record(rest, got)
			maps.Copy(got, replayed)
		} else {
			got = worker.Run(ctx, pr.jobs, lim, start, k.memoryLimit(), pr.pl.pkgs.Sources())
		}
		cache := k.cache()
		for n, o := range got {
			pr.outcomes[n] = o
			if o.Finished() {
				cache.put(pr.keys[pr.pl.units[n]], o)
			}
		}
	}
	var native map[int]*worker.Outcome
	if hasProcesses && k.Native && k.Resident == nil {
		native = k.runNative(ctx, pr)
		pr.r.Diagnostics = append(pr.r.Diagnostics, pr.ndiags...)
	}
	k.verify(pr.pl, pr.r, pr.outcomes, native)
	return pr.r
}

// startupTimeout is how long a worker may take to start (loading the
// interpreter and the engine's symbols), and to go from one unit to the
// next: wall-clock time, not the snippets'.
const startupTimeout = 60 * time.Second

// sortJobs puts units in document order, the order the worker runs them.
func sortJobs(j []worker.Unit) {
	sort.Slice(j, func(a, b int) bool { return j[a].U < j[b].U })
}

// compile type-checks every session and every error= cell, recording
// diagnostics on the units. It returns problems that belong to no unit.
func (pl *plan) compile() page.Diagnostics {
	var orphans page.Diagnostics
	for _, s := range pl.sessions {
		s.firstBad = len(s.units)
		if len(s.units) == 0 {
			continue
		}
		// Code the kernel refuses before any type check (directives,
		// brackets that leave the cell) makes the session's program
		// untrustworthy: report it, and run nothing of the session.
		for _, u := range s.units {
			if u.code == nil || len(u.code.src.problems) == 0 {
				continue
			}
			for _, e := range u.code.src.problems {
				u.diags = append(u.diags, &page.Diagnostic{Pos: e.pos, ID: u.id(), Msg: e.msg, Err: e.err})
			}
			if !s.broken {
				s.broken, s.firstBad, s.culprit = true, 0, u
			}
		}
		if s.broken {
			continue
		}
		var key string
		if pl.keyed() {
			key = pl.sessionKey(s)
		}
		if f := pl.fact(key); f != nil && pl.applyEdits(f.Edits) {
			s.foldable = f.Foldable
			pl.generate(s)
			continue
		}
		ck := pl.typeCheck(s.mainGo, !s.program)
		for _, o := range ck.other {
			orphans = append(orphans, &page.Diagnostic{Pos: page.Pos{File: pl.page.Path}, Msg: "internal error in the generated program: " + o})
		}
		if len(ck.other) > 0 {
			// Fail closed: what was not checked does not run.
			s.broken, s.firstBad = true, 0
			continue
		}
		s.foldable = !s.program && len(ck.files) > 0 && foldable(ck.files[0])
		ck.errs = append(ck.errs, pl.lintRedeclared(s, ck)...)
		ck.errs = append(ck.errs, pl.lintLater(s, ck)...)
		pl.explainUndefined(s, ck)
		for _, e := range ck.errs {
			i, u := pl.unitAt(s, e.pos)
			u.diags = append(u.diags, &page.Diagnostic{Pos: e.pos, ID: u.id(), Msg: e.msg, Err: e.err})
			s.broken = true
			// A checked value changes nothing: the cells after it can run.
			if i < s.firstBad && u.cell != nil {
				s.firstBad = i
			}
		}
		switch {
		case pl.record != nil && len(ck.errs) == 0:
			pl.record.Programs[key] = &Fact{Foldable: s.foldable, Edits: pl.rewriteRecorded(s, ck)}
		case len(ck.files) == 0 && !s.program && s.firstBad > 0:
			pl.checkAbove(s)
		default:
			pl.rewrite(s, ck)
		}
		pl.generate(s)
	}
	for _, c := range pl.page.Cells {
		if c.Attrs.Error != "" && c.Attrs.Skip == "" {
			pl.compileError(c)
		}
	}
	return orphans
}

// checkAbove type-checks, lints and rewrites the units of s above its
// first bad one, on their own, when the session's program does not parse
// (a cell cut off, as a reader's edit is while it is being written):
// the cells above the one that does not parse then run as they do in the
// page without it, rather than unchecked and as written. A variable or an
// import that only the cells further down use is not reported unused
// there: those cells may use it. The cells above parse on their own
// (each closes its brackets and ends its statements, or is refused before
// this); should they still not check on their own, nothing of the session
// runs, and the cells name the one that does not parse: no unit runs
// unchecked (the sandbox's decision is made on the checked program).
func (pl *plan) checkAbove(s *session) {
	above := &session{id: s.id, units: s.units[:s.firstBad]}
	pl.generate(above)
	ck := pl.typeCheck(above.mainGo, true)
	if len(ck.other) > 0 || len(ck.files) == 0 {
		s.culprit, s.firstBad = s.units[s.firstBad], 0
		return
	}
	ck.errs = append(ck.errs, pl.lintRedeclared(above, ck)...)
	ck.errs = append(ck.errs, pl.lintLater(above, ck)...)
	pl.explainUndefined(above, ck)
	for _, e := range ck.errs {
		var te types.Error
		if errors.As(e.err, &te) && te.Soft && (strings.Contains(te.Msg, "declared and not used") || strings.Contains(te.Msg, "imported and not used")) {
			continue
		}
		i, u := pl.unitAt(above, e.pos)
		u.diags = append(u.diags, &page.Diagnostic{Pos: e.pos, ID: u.id(), Msg: e.msg, Err: e.err})
		if i < s.firstBad && u.cell != nil {
			s.firstBad = i
		}
	}
	pl.rewrite(above, ck)
}

// unitAt returns the unit of s (and its index in s.units) that holds a
// position: the cell whose lines or the check whose expression contain its
// line, else the last unit above it.
func (pl *plan) unitAt(s *session, p page.Pos) (int, *unit) {
	best := 0
	for i, u := range s.units {
		first, last := u.lines()
		if p.Line >= first && p.Line <= last {
			return i, u
		}
		if first <= p.Line {
			best = i
		}
	}
	return best, s.units[best]
}

// lines returns the first and last Markdown line of a unit's code.
func (u *unit) lines() (int, int) {
	if u.cell != nil {
		if len(u.cell.Lines) == 0 {
			return u.cell.Pos.Line, u.cell.Pos.Line
		}
		return u.cell.Lines[0].Pos.Line, u.cell.Lines[len(u.cell.Lines)-1].Pos.Line
	}
	return u.check.ExprPos.Line, u.check.ExprPos.Line + strings.Count(u.check.Expr, "\n")
}

// compileError type-checks an error= cell after the session cells above it
// and records the first error located in the cell.
func (pl *plan) compileError(c *page.Cell) {
	cc := pl.codes[c.Index]
	eu := &unit{cell: c, code: cc, index: -1}
	tmp := &session{id: -1, program: cc.program}
	if !cc.program && !c.Attrs.Fresh {
		for _, u := range pl.sessions[0].units {
			if u.cell != nil && u.cell.Index < c.Index {
				tmp.units = append(tmp.units, u)
			}
		}
	}
	tmp.units = append(tmp.units, eu)
	pl.generate(tmp)
	var key string
	if pl.keyed() {
		key = factKey("error"+pl.pkgsKey(tmp.mainGo), tmp.mainGo, !tmp.program)
	}
	if f := pl.fact(key); f != nil {
		res := &errResult{msg: f.Error}
		if f.Error != "" {
			res.pos = page.Pos{File: pl.page.Path, Line: f.Line, Col: f.Col}
		}
		pl.generate(pl.sessions[0]) // restore the units' chunks
		pl.errCells[c] = res
		return
	}
	ck := pl.typeCheck(tmp.mainGo, !tmp.program)
	pl.generate(pl.sessions[0]) // restore the units' chunks
	first, last := eu.lines()
	res := &errResult{}
	for _, e := range ck.errs {
		if e.pos.Line >= first && e.pos.Line <= last {
			res.msg, res.pos = e.msg, e.pos
			break
		}
	}
	pl.errCells[c] = res
	if pl.record != nil && len(ck.other) == 0 {
		pl.record.Programs[key] = &Fact{Error: res.msg, Line: res.pos.Line, Col: res.pos.Col}
	}
}

// errResult is what type-checking an error= cell found.
type errResult struct {
	msg string
	pos page.Pos
}

// keys returns every unit's cache key: a hash of what verified it, of the
// mode that runs it ("interp" or "native") and of everything its session
// ran before it.
func (pl *plan) keys(v Verifier, mode string) map[*unit]string {
	keys := map[*unit]string{}
	for _, s := range pl.sessions {
		h := newHash(v.Tool, v.Engine, v.Go, v.Native, mode)
		for _, c := range pl.prelude(s) {
			h = h.add(c)
		}
		// The book's packages are part of what the session runs from the
		// chunk that imports one on, so that a unit's key is the same
		// whether the page is cut after it or not (a later cell's import
		// changes nothing before it).
		book := false
		for _, u := range s.units {
			h = h.add(u.expr)
			for _, c := range u.chunks {
				if !book && pl.pkgs.importsBook(c) {
					book = true
					h = h.add(pl.pkgs.Hash())
				}
				h = h.add(c)
			}
			keys[u] = h.hex()
		}
	}
	return keys
}
