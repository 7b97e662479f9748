package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
)

// Pool keeps worker processes (the running executable, re-executed: see
// [EnvVar]) between jobs, so that a run of a hundred pages starts a few
// processes instead of a hundred. A process serves one job at a time; one
// that a job killed (a limit, a crash) or that died leaves the pool, and a
// new one is started when no idle one is left. Each job has its own
// interpreters: nothing of one page's sessions reaches the next.
//
// Its environment holds EnvVar and nothing of the parent's: a snippet has
// nothing to read there.
type Pool struct {
	mu     sync.Mutex
	idle   []*pooled
	closed bool
}

// pooled is one worker process.
type pooled struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.Reader
	stderr *cappedBuffer
	buf    []byte // read from stdout and not yet handed to a job
}

// Start runs j in an idle worker of the pool, or in a new one. It is a
// [StartFunc].
func (p *Pool) Start(ctx context.Context, j *Job) (Proc, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("worker pool closed")
	}
	var w *pooled
	if n := len(p.idle); n > 0 {
		w, p.idle = p.idle[n-1], p.idle[:n-1]
	}
	p.mu.Unlock()
	if w == nil {
		var err error
		if w, err = spawn(); err != nil {
			return nil, err
		}
	}
	b, err := json.Marshal(j)
	if err != nil {
		w.kill()
		return nil, err
	}
	w.stderr.reset()
	if _, err := w.stdin.Write(append(b, '\n')); err != nil {
		w.kill()
		return nil, fmt.Errorf("start worker: %w", err)
	}
	var end bytes.Buffer
	_ = WriteEvent(&end, j.Nonce, Event{U: -1, Kind: End})
	v := &jobProc{pool: p, w: w, end: end.Bytes(), done: make(chan struct{})}
	// A canceled context kills the process, as exec.CommandContext would.
	go func() {
		select {
		case <-ctx.Done():
			v.Kill()
		case <-v.done:
		}
	}()
	return v, nil
}

// Close ends the idle workers (they exit when their input ends) and
// refuses new jobs.
func (p *Pool) Close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, w := range idle {
		w.stdin.Close()
		_ = w.cmd.Wait()
	}
}

// put returns a worker that finished its job cleanly to the pool.
func (p *Pool) put(w *pooled) {
	p.mu.Lock()
	closed := p.closed
	if !closed {
		p.idle = append(p.idle, w)
	}
	p.mu.Unlock()
	if closed {
		w.stdin.Close()
		_ = w.cmd.Wait()
	}
}

// spawn starts a worker process.
func spawn() (*pooled, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the warpbook executable: %w", err)
	}
	// A test binary without the TestMain hook must not run its tests.
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = []string{EnvVar + "=1"}
	if d := os.Getenv("GOCOVERDIR"); d != "" {
		cmd.Env = append(cmd.Env, "GOCOVERDIR="+d)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	w := &pooled{cmd: cmd, stdin: stdin, stdout: stdout, stderr: &cappedBuffer{max: 64 << 10}}
	cmd.Stderr = w.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start worker: %w", err)
	}
	return w, nil
}

func (w *pooled) kill() {
	_ = w.cmd.Process.Kill()
}

// jobProc is one job's view of a pooled worker: its output up to the job's
// End marker.
type jobProc struct {
	pool   *Pool
	w      *pooled
	end    []byte // the job's End marker line
	sawEnd bool
	err    error // the read error that ended the output early
	once   sync.Once
	killed bool
	done   chan struct{}
}

func (v *jobProc) Stdout() io.Reader { return v }
func (v *jobProc) Pid() int          { return v.w.cmd.Process.Pid }

// Read hands over the worker's output up to and including the job's End
// marker, then io.EOF: what follows belongs to the next job.
func (v *jobProc) Read(b []byte) (int, error) {
	w := v.w
	for {
		if i := bytes.Index(w.buf, v.end); i >= 0 {
			n := copy(b, w.buf[:i+len(v.end)])
			w.buf = w.buf[n:]
			if n == i+len(v.end) {
				v.sawEnd = true
			}
			return n, nil
		}
		if v.sawEnd {
			return 0, io.EOF
		}
		// Hand over all but what could be the start of the marker.
		safe := len(w.buf)
		if k := bytes.LastIndexByte(w.buf, 0); k >= 0 && bytes.HasPrefix(v.end, w.buf[k:]) {
			safe = k
		}
		if safe > 0 {
			n := copy(b, w.buf[:safe])
			w.buf = w.buf[n:]
			return n, nil
		}
		if v.err != nil {
			n := copy(b, w.buf)
			w.buf = w.buf[n:]
			if len(w.buf) == 0 {
				return n, v.err
			}
			return n, nil
		}
		chunk := make([]byte, 32<<10)
		n, err := w.stdout.Read(chunk)
		w.buf = append(w.buf, chunk[:n]...)
		if err != nil {
			v.err = err
		}
	}
}

// Kill ends the worker; it leaves the pool.
func (v *jobProc) Kill() {
	v.once.Do(func() {
		v.killed = true
		v.w.kill()
	})
}

// Wait returns the job's stderr. A worker that reached the job's end and
// was not killed goes back to the pool; any other is waited for.
func (v *jobProc) Wait() ([]byte, error) {
	defer close(v.done)
	v.once.Do(func() {}) // no Kill after this
	stderr := v.w.stderr.Bytes()
	if v.sawEnd && !v.killed && len(v.w.buf) == 0 {
		v.pool.put(v.w)
		return stderr, nil
	}
	v.w.kill()
	v.w.stdin.Close()
	err := v.w.cmd.Wait()
	return v.w.stderr.Bytes(), err
}
