//go:build !linux

package cuda

import (
	"context"
	"errors"
)

// runResult is the outcome of one run.
type runResult struct {
	out    string
	failed bool
	stop   error
}

// run needs Linux: the toolkit warpbook fetches is Debian's, and the caps
// on a compile are Linux's resource limits.
func (c *Compiler) run(ctx context.Context, lim Limits, dir string, env []string, name string, args ...string) (runResult, error) {
	return runResult{}, errors.New("cuda: compiling CUDA needs Linux")
}

// stopMessage says which cap stopped a compile.
func stopMessage(stop error, lim Limits) string { return "stopped: " + stop.Error() }
