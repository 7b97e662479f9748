package snippets

import (
	"sync"
	"time"

	"github.com/warpbook/warpbook/snippets/internal/worker"
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
}

// residentPlans is how many compiled pages a Resident keeps.
const residentPlans = 8

type residentPlan struct {
	path, source string
	timeout      time.Duration
	pl           *plan
	diags        Diagnostics // the page-level problems compile returned
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
	return &Resident{pages: map[string]*worker.Resident{}}
}

// plan returns page p compiled, from the cache when the same source was
// compiled with the same time limit before.
func (r *Resident) plan(p *Page, timeout time.Duration) (*plan, Diagnostics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, c := range r.plans {
		if c.path == p.Path && c.source == string(p.Source) && c.timeout == timeout {
			r.plans = append(append(r.plans[:i:i], r.plans[i+1:]...), c)
			return c.pl, c.diags
		}
	}
	pl := newPlan(p, timeout)
	c := &residentPlan{path: p.Path, source: string(p.Source), timeout: timeout, pl: pl, diags: pl.compile()}
	r.plans = append(r.plans, c)
	if len(r.plans) > residentPlans {
		r.plans = r.plans[1:]
	}
	return c.pl, c.diags
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
