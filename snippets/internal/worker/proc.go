package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sync"
)

// Proc is a running process (or, in process, a goroutine) that runs a job.
type Proc interface {
	// Stdout is what the process prints.
	Stdout() io.Reader
	// Kill ends it; Kill may be called more than once.
	Kill()
	// Wait waits for its end and returns what it wrote on stderr (the first
	// 64 KiB) and how it ended.
	Wait() (stderr []byte, err error)
	// Pid is its process id, 0 for none.
	Pid() int
}

// EnvVar is set to "1" in the environment of a worker process.
const EnvVar = "WARPBOOK_SNIPPETS_WORKER"

// NonceVar holds the job's nonce in the environment of a natively
// compiled session (see [HelperGo]).
const NonceVar = "WARPBOOK_NONCE"

// Program returns a StartFunc that runs a natively compiled program, exe,
// with args and an environment that holds only the job's nonce and a Go
// memory limit.
func Program(exe string, args ...string) StartFunc {
	return func(ctx context.Context, j *Job) (Proc, error) {
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Env = []string{NonceVar + "=" + j.Nonce}
		if j.MemoryLimit > 0 {
			cmd.Env = append(cmd.Env, fmt.Sprintf("GOMEMLIMIT=%d", j.MemoryLimit))
		}
		return startCmd(cmd, nil)
	}
}

// startCmd starts cmd with the job on its stdin (nil for none).
func startCmd(cmd *exec.Cmd, j *Job) (Proc, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	eb := &cappedBuffer{max: 64 << 10}
	cmd.Stderr = eb
	if j != nil {
		b, err := json.Marshal(j)
		if err != nil {
			return nil, err
		}
		cmd.Stdin = bytes.NewReader(b)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start worker: %w", err)
	}
	return &execProc{cmd: cmd, out: out, errBuf: eb}, nil
}

// execProc is a subprocess.
type execProc struct {
	cmd    *exec.Cmd
	out    io.ReadCloser
	errBuf *cappedBuffer
	once   sync.Once
}

func (p *execProc) Stdout() io.Reader { return p.out }
func (p *execProc) Pid() int          { return p.cmd.Process.Pid }
func (p *execProc) Kill() {
	p.once.Do(func() { _ = p.cmd.Process.Kill() })
}
func (p *execProc) Wait() ([]byte, error) {
	err := p.cmd.Wait()
	return p.errBuf.Bytes(), err
}

// InProcess runs the job on a goroutine of this process, with no hard
// limits: a snippet stuck in a loop is abandoned, not stopped, and a
// panicking goroutine ends the process. For trusted code and tests.
func InProcess(ctx context.Context, j *Job) (Proc, error) { return inProcess(j, nil) }

// InProcessTraced is [InProcess] that calls started on the goroutine that
// runs the snippets, just before each unit starts, with the unit's number:
// synchronously, so that a host can watch the time of a unit that never
// yields (Go in WebAssembly has one thread and does not preempt).
func InProcessTraced(started func(u int)) StartFunc {
	return func(ctx context.Context, j *Job) (Proc, error) { return inProcess(j, started) }
}

// cappedBuffer keeps the first max bytes written to it.
type cappedBuffer struct {
	mu  sync.Mutex
	max int
	b   bytes.Buffer
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// reset empties the buffer.
func (c *cappedBuffer) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.b.Reset()
}

func (c *cappedBuffer) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.b.Bytes())
}
