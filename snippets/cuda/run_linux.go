package cuda

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A compile runs under util-linux's prlimit, which sets the caps on
// memory (RLIMIT_AS), file size (RLIMIT_FSIZE), CPU time (RLIMIT_CPU) and
// core dumps (none) and then executes nvcc: the limits are in place before
// nvcc's first instruction and every process it starts (the host
// preprocessor, cicc, ptxas) inherits them. Setting them from Go instead
// would need either a re-exec helper in every program that compiles (the
// warpbook command, each test binary) or prlimit(2) on a process already
// running. The process runs in a process group of its own, which is
// killed when the time is up, when it prints more than its cap, and after
// it exits (nothing it started outlives it).

// runResult is the outcome of one run.
type runResult struct {
	out    string // stdout and stderr, interleaved as printed
	failed bool   // the process exited non-zero
	stop   error  // the cap that stopped it (ErrTimeLimit, ...), or nil
}

// run runs name with args in dir with env, under lim. Its error is for
// a run that could not start, or ctx's error when ctx is done.
func (c *Compiler) run(ctx context.Context, lim Limits, dir string, env []string, name string, args ...string) (runResult, error) {
	runCtx, cancel := context.WithTimeout(ctx, lim.Time)
	defer cancel()
	cpu := int64((lim.Time + time.Second - 1) / time.Second)
	full := append([]string{
		"--as=" + strconv.FormatInt(lim.Memory, 10),
		"--fsize=" + strconv.FormatInt(lim.FileSize, 10),
		"--cpu=" + strconv.FormatInt(cpu, 10),
		"--core=0",
		"--", name}, args...)
	cmd := exec.CommandContext(runCtx, c.Toolkit.prlimit, full...)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	w := &capWriter{max: lim.Output, full: cancel}
	cmd.Stdout, cmd.Stderr = w, w
	err := cmd.Start()
	if err != nil {
		return runResult{}, fmt.Errorf("cuda: start %s: %w", name, err)
	}
	err = cmd.Wait()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what it started, if anything is left
	r := runResult{out: string(w.buf)}
	switch {
	case ctx.Err() != nil:
		return r, ctx.Err()
	case w.over:
		r.stop = ErrOutputLimit
	case runCtx.Err() != nil:
		r.stop = ErrTimeLimit
	case err != nil:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return r, fmt.Errorf("cuda: %s: %w", name, err)
		}
		r.failed = true
		r.stop = capHit(ee, r.out)
	}
	return r, nil
}

var (
	// nvcc's words for a tool it started that died of a signal.
	diedRe = regexp.MustCompile(`died due to signal ([0-9]+)`)
	// What the host preprocessor, cicc and ptxas say when memory runs out.
	oomRe = regexp.MustCompile(`(?i)out of memory|std::bad_alloc|memory allocation fail|cannot allocate memory|virtual memory exhausted`)
)

// capHit returns the cap that stopped a process that exited non-zero, or
// nil when none did (a compile error).
func capHit(ee *exec.ExitError, out string) error {
	sig := syscall.Signal(-1)
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		sig = ws.Signal()
	} else if m := diedRe.FindStringSubmatch(out); m != nil {
		n, _ := strconv.Atoi(m[1])
		sig = syscall.Signal(n)
	}
	switch {
	case sig == syscall.SIGXFSZ || strings.Contains(out, "File size limit exceeded"):
		return ErrFileLimit
	case sig == syscall.SIGXCPU || strings.Contains(out, "CPU time limit exceeded"):
		return ErrTimeLimit
	case oomRe.MatchString(out):
		return ErrMemoryLimit
	}
	return nil
}

// stopMessage says which cap stopped a compile.
func stopMessage(stop error, lim Limits) string {
	switch stop {
	case ErrTimeLimit:
		return fmt.Sprintf("stopped after %v, the time limit of a CUDA compile (a macro or a template that expands without end?)", lim.Time)
	case ErrMemoryLimit:
		return fmt.Sprintf("stopped: the compile ran out of its %s of memory (a template or a macro that expands without end?)", size(lim.Memory))
	case ErrFileLimit:
		return fmt.Sprintf("stopped: the compiler wrote a file larger than %s, the limit of a CUDA compile (a macro that expands without end?)", size(lim.FileSize))
	case ErrOutputLimit:
		return fmt.Sprintf("stopped: the compiler printed more than %s, the limit of a CUDA compile", size(lim.Output))
	}
	return "stopped: " + stop.Error()
}

// size writes a number of bytes in MiB, or KiB below one MiB.
func size(n int64) string {
	if n < 1<<20 {
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n>>20, 10) + " MiB"
}

// capWriter keeps the first max bytes written to it, and calls full once
// when more come.
type capWriter struct {
	max  int64
	buf  []byte
	over bool
	full func()
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.max - int64(len(w.buf)); int64(len(p)) > room {
		w.buf = append(w.buf, p[:max(room, 0)]...)
		if !w.over {
			w.over = true
			w.full()
		}
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	return len(p), nil
}
