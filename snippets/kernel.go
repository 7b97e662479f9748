package snippets

import (
	"context"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
)

// Kernel runs and verifies pages. Its zero value is ready to use: snippets
// run in worker subprocesses with the default limits and nothing is cached.
// A Kernel is safe for concurrent use once configured.
type Kernel struct {
	// Timeout is the time limit of one snippet or checked value (a cell's
	// timeout= overrides it). Zero means DefaultTimeout.
	Timeout time.Duration
	// MemoryLimit caps the memory of a worker process, in bytes. Zero means
	// DefaultMemoryLimit.
	MemoryLimit int64
	// OutputLimit caps how many bytes one page's snippets may print. Zero
	// means DefaultOutputLimit.
	OutputLimit int64
	// CacheDir is the directory results are cached in; "" disables the
	// cache. [DefaultCacheDir] returns the usual place.
	CacheDir string
	// Native also compiles each page into one Go program with the Go
	// toolchain, runs it, and fails cells whose output differs. The
	// browser kernel (js/wasm), which has no processes, ignores it.
	Native bool
	// GoCommand is the go command Native uses; "" means "go" from PATH.
	GoCommand string

	// moduleDir is the warpbook module native programs are built in; ""
	// for the one this executable was built from (tests set it).
	moduleDir string
	// Filter, when not nil, selects the cells and checked values (by id)
	// that are verified and reported; the cells above a selected one still
	// run, to build its session. The warpbook command's -run passes a
	// regular expression's MatchString.
	Filter func(id string) bool
	// Jobs is how many pages run at once. Zero means GOMAXPROCS.
	Jobs int
	// InProcess runs snippets in this process instead of in a worker
	// subprocess: faster to start, but without hard limits (an infinite
	// loop leaks a goroutine, a panicking goroutine kills the process).
	// For trusted code and tests only.
	InProcess bool
	// Resident, when not nil, runs snippets in this process (as InProcess
	// does, and never natively) and keeps compiled pages and interpreters
	// between runs; see [Resident].
	Resident *Resident
	// CUDA, when not nil, compiles the pages' CUDA cells with NVIDIA's
	// toolkit and checks the resources and SASS their pages record (see
	// [CUDAResult]). Without it they are not compiled: their results are
	// skips wrapping [ErrNoCUDA], and their recorded blocks stand as they
	// are (the browser kernel has none). The Go snippets of a page read
	// the recorded resources either way.
	CUDA *CUDA
	// Started, when not nil, is called just before each cell or checked
	// value starts, with its id and time limit, on the goroutine that runs
	// the snippets (InProcess or Resident only). It is how the browser kernel's page
	// enforces time limits: Go in WebAssembly has one thread and does not
	// preempt, so only the page can stop a snippet that never yields, by
	// ending the Web Worker (see [Kernel.Stopped]).
	Started func(id string, limit time.Duration)
	// Packages, when not nil, returns the book's own Go packages that the
	// cells of page p may import (see [Packages]; nil: none).
	Packages func(p *page.Page) *Packages
}

// packages returns the book's packages page p may import.
func (k *Kernel) packages(p *page.Page) *Packages {
	if k.Packages == nil {
		return nil
	}
	return k.Packages(p)
}

// MaxStack is the goroutine stack limit of a process that runs snippets
// (a worker, the browser kernel): runaway recursion stops there, with
// "stack overflow", instead of eating the memory limit.
const MaxStack = worker.MaxStack

// Defaults used where a Kernel field is zero.
const (
	DefaultTimeout     = 10 * time.Second
	DefaultMemoryLimit = 1 << 30
	DefaultOutputLimit = 1 << 20
)

func (k *Kernel) timeout() time.Duration {
	if k.Timeout > 0 {
		return k.Timeout
	}
	return DefaultTimeout
}

func (k *Kernel) memoryLimit() int64 {
	if k.MemoryLimit > 0 {
		return k.MemoryLimit
	}
	return DefaultMemoryLimit
}

func (k *Kernel) outputLimit() int64 {
	if k.OutputLimit > 0 {
		return k.OutputLimit
	}
	return DefaultOutputLimit
}

// Run runs every page, Jobs at a time, and returns their results in the
// same order.
func (k *Kernel) Run(ctx context.Context, pages []*page.Page) []*PageResult {
	res := make([]*PageResult, len(pages))
	k.Stream(ctx, pages, func(i int, r *PageResult) { res[i] = r })
	return res
}

// Stream runs every page, Jobs at a time, and calls done with each page's
// result (and its index in pages) as soon as the page is verified, one
// call at a time. Every page is type-checked first; with Native, one go
// build then compiles every page's programs.
func (k *Kernel) Stream(ctx context.Context, pages []*page.Page, done func(i int, r *PageResult)) {
	jobs := k.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	runs := make([]*pageRun, len(pages))
	each(jobs, len(pages), func(i int) { runs[i] = k.prepare(pages[i]) })
	if hasProcesses && k.Native {
		tmp, err := k.buildNative(ctx, runs)
		if tmp != "" {
			defer os.RemoveAll(tmp)
		}
		if err != nil {
			for _, pr := range runs {
				if len(pr.build) > 0 {
					pr.ndiags = append(pr.ndiags, &page.Diagnostic{Pos: page.Pos{File: pr.r.Page.Path}, Msg: "native: " + err.Error()})
					pr.nativeX = nil
				}
			}
		}
	}
	// The pages share worker processes: a page's worker serves the next
	// page when it ends cleanly, so a run starts about Jobs processes.
	pool := &worker.Pool{}
	defer pool.Close()
	var mu sync.Mutex
	each(jobs, len(pages), func(i int) {
		r := k.finish(ctx, runs[i], pool)
		mu.Lock()
		defer mu.Unlock()
		done(i, r)
	})
}

// each calls f(0) ... f(n-1), jobs at a time.
func each(jobs, n int, f func(int)) {
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			f(i)
		})
	}
	wg.Wait()
}

// selected reports whether the filter selects id.
func (k *Kernel) selected(id string) bool {
	return k.Filter == nil || k.Filter(id)
}
