package snippets

import (
	"sync"
	"time"

	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
)

// Resident keeps a kernel's work between runs, in this process, for one
// reader who runs a page cell by cell and edits it (the browser kernel):
// each page's compiled programs (the type check, the sandbox decision and
// the interpreter's rewrites of the same source are done once), and each
// session's interpreter with the units it has evaluated, so that a run
// whose cells above are unchanged evaluates only what is new and replays
// the rest, as the result cache does across processes. A Kernel with a
// Resident runs in this process, like [Kernel.InProcess], and never
// natively.
type Resident struct {
	mu    sync.Mutex
	pages map[string]*worker.Resident // by page path
	plans []*residentPlan             // the most recently used last
	facts *facts                      // what it was told (see Know)
}

// residentPlans is how many compiled pages a Resident keeps.
const residentPlans = 8

type residentPlan struct {
	path, source string
	timeout      time.Duration
	pkgs         string // the hash of the book's packages it was compiled with
	pl           *plan
	diags        page.Diagnostics // the page-level problems compile returned
	// cells is how many of the page's cells pl covers: all of them, or
	// the prefix a first run needed (see prefixPlan); then whole is the
	// page's plan, to compile when a run needs more or when the kernel is
	// idle.
	cells int
	whole *plan
}

// complete replaces a prefix plan with the whole page's.
func (c *residentPlan) complete() {
	if c.whole == nil {
		return
	}
	c.pl, c.diags, c.cells, c.whole = c.whole, c.whole.compile(), len(c.whole.page.Cells), nil
}

// WallFactor is how many times its limit a unit gets when its time is
// wall-clock time, in a Kernel with a Resident: the browser cannot read
// CPU time, and the interpreter runs several times slower in WebAssembly
// than natively, so a unit gets what the native kernel's wall-clock
// backstop gives it (worker.WallFactor).
const WallFactor = worker.WallFactor

// wallLimit is a unit's time limit as this kernel counts it.
func (k *Kernel) wallLimit(d time.Duration) time.Duration {
	if k.Resident != nil {
		return WallFactor * d
	}
	return d
}

// NewResident returns an empty Resident.
func NewResident() *Resident {
	return &Resident{pages: map[string]*worker.Resident{}, facts: &facts{m: map[string]*Fact{}}}
}

// plan returns page p compiled, at least its first n cells, from the
// cache when the same source was compiled with the same time limit
// before. The first run of a page compiles only the prefix it needs, when
// that is exact (see prefixPlan); a run that needs more, or [Resident.Idle],
// compiles the whole page.
func (r *Resident) plan(p *page.Page, timeout time.Duration, n int, pkgs *Packages) (*plan, page.Diagnostics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, c := range r.plans {
		if c.path == p.Path && c.source == string(p.Source) && c.timeout == timeout && c.pkgs == pkgs.Hash() {
			r.plans = append(append(r.plans[:i:i], r.plans[i+1:]...), c)
			if n > c.cells {
				c.complete()
			}
			return c.pl, c.diags
		}
	}
	pl, whole, d := compileUpTo(p, n, timeout, r.facts, pkgs)
	c := &residentPlan{path: p.Path, source: string(p.Source), timeout: timeout, pkgs: pkgs.Hash(), pl: pl, diags: d, cells: len(pl.page.Cells), whole: whole}
	r.plans = append(r.plans, c)
	if len(r.plans) > residentPlans {
		r.plans = r.plans[1:]
	}
	return c.pl, c.diags
}

// Idle does one piece of the work a run left for later: it compiles the
// whole page of the most recently used page that has only a prefix
// compiled. It reports whether there was such work. The browser kernel
// calls it after answering a run, while the reader reads, so that the
// next run finds the page compiled; a run that arrives meanwhile waits for
// that one page at most (Go in WebAssembly never preempts).
func (r *Resident) Idle() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.plans) - 1; i >= 0; i-- {
		if c := r.plans[i]; c.whole != nil {
			c.complete()
			return true
		}
	}
	return false
}

// runner returns the interpreters kept for the page at path.
func (r *Resident) runner(path string) *worker.Resident {
	r.mu.Lock()
	defer r.mu.Unlock()
	w := r.pages[path]
	if w == nil {
		w = worker.NewResident(true)
		r.pages[path] = w
	}
	return w
}
