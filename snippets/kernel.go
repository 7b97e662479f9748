package snippets

import (
	"context"
	"regexp"
	"runtime"
	"sync"
	"time"
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
	// toolchain, runs it, and fails cells whose output differs.
	Native bool
	// GoCommand is the go command Native uses; "" means "go" from PATH.
	GoCommand string
	// Filter, when not nil, selects the cells and checked values (by id)
	// that are verified and reported; the cells above a selected one still
	// run, to build its session.
	Filter *regexp.Regexp
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
	// Started, when not nil, is called just before each cell or checked
	// value starts, with its id and time limit, on the goroutine that runs
	// the snippets (InProcess or Resident only). It is how the browser kernel's page
	// enforces time limits: Go in WebAssembly has one thread and does not
	// preempt, so only the page can stop a snippet that never yields, by
	// ending the Web Worker (see [Kernel.Stopped]).
	Started func(id string, limit time.Duration)
}

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
func (k *Kernel) Run(ctx context.Context, pages []*Page) []*PageResult {
	res := make([]*PageResult, len(pages))
	jobs := k.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, p := range pages {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			res[i] = k.RunPage(ctx, p)
		}()
	}
	wg.Wait()
	return res
}

// selected reports whether the filter selects id.
func (k *Kernel) selected(id string) bool {
	return k.Filter == nil || k.Filter.MatchString(id)
}
