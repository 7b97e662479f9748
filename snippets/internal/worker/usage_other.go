//go:build !linux

package worker

import "time"

// readUsage cannot read another process's use outside Linux: time limits
// are then wall-clock limits, and memory is capped only by the worker's
// own soft limit.
func readUsage(pid int) (cpu time.Duration, rss int64, ok bool) { return 0, 0, false }
