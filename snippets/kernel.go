package snippets

import (
	"context"
	"regexp"
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
}

// Defaults used where a Kernel field is zero.
const (
	DefaultTimeout     = 10 * time.Second
	DefaultMemoryLimit = 1 << 30
	DefaultOutputLimit = 1 << 20
)

// Run runs every page and returns their results in the same order. Pages
// with parse errors are not run: their result carries the diagnostics.
func (k *Kernel) Run(ctx context.Context, pages []*Page) []*PageResult {
	res := make([]*PageResult, len(pages))
	for i, p := range pages {
		res[i] = k.RunPage(ctx, p)
	}
	return res
}

// RunPage type-checks, runs and verifies one page.
func (k *Kernel) RunPage(ctx context.Context, p *Page) *PageResult {
	r := &PageResult{Page: p, Cells: make([]*CellResult, len(p.Cells)), Checks: make([]*CheckResult, len(p.Checks))}
	r.Diagnostics = append(r.Diagnostics, &Diagnostic{Pos: Pos{File: p.Path}, Msg: "running snippets is not implemented yet"})
	return r
}
