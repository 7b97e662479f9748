package snippets

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// outcome is what happened to one unit in a worker or native program.
type outcome struct {
	ran     bool
	output  []byte
	panic   *string
	errMsg  *string // an interpreter compile error
	chunk   int     // the chunk errMsg is about
	value   *string
	fail    string // the unit did not finish: timeout, crash, limit
	err     error  // the sentinel behind fail, if any
	cached  bool   // from the cache
	elapsed time.Duration
}

// proc is a running worker or native program.
type proc interface {
	stdout() io.Reader
	kill()
	// wait waits for the end and returns what it wrote on stderr and how
	// it ended.
	wait() (stderr []byte, err error)
	pid() int
}

// startFunc starts a process for a job.
type startFunc func(ctx context.Context, j *job) (proc, error)

// limits are what a run enforces.
type limits struct {
	timeout  map[int]time.Duration // per unit
	startup  time.Duration
	output   int64
	memory   int64
	programs bool // native: stop at the first failure, no restart
}

// startupTimeout is how long a worker may take to report ready.
const startupTimeout = 60 * time.Second

// runUnits runs units through processes started by start, restarting after
// a unit that kills its process (replaying the session so far) unless
// lim.programs. It returns an outcome per unit number.
func runUnits(ctx context.Context, units []jobUnit, lim limits, start startFunc, memLimit int64) map[int]*outcome {
	res := map[int]*outcome{}
	todo := units
	for len(todo) > 0 {
		// Replay the finished units of the sessions still needed.
		need := map[int]bool{}
		for _, u := range todo {
			need[u.Session] = true
		}
		var j job
		j.Nonce = nonce()
		j.MemoryLimit = memLimit
		replay := map[int]bool{}
		for _, u := range units {
			o := res[u.U]
			if o == nil || !need[u.Session] {
				continue
			}
			switch {
			case o.ran && o.fail == "":
				j.Units = append(j.Units, u)
				replay[u.U] = true
			case o.fail != "":
				// The unit that failed: keep its imports and declarations,
				// which later units may use, but not its statements.
				d := jobUnit{U: u.U, Session: u.Session}
				for i, c := range u.Chunks {
					if i < len(u.Stmt) && !u.Stmt[i] {
						d.Chunks = append(d.Chunks, c)
						d.Stmt = append(d.Stmt, false)
					}
				}
				if len(d.Chunks) > 0 {
					j.Units = append(j.Units, d)
				}
			}
		}
		j.Units = append(j.Units, todo...)
		got := runOnce(ctx, &j, lim, start)
		var failed = -1
		for _, u := range todo {
			o := got[u.U]
			if o == nil {
				continue
			}
			res[u.U] = o
			if o.fail != "" && failed < 0 {
				failed = u.U
			}
		}
		// Replayed units that no longer finish leave the rest unrunnable.
		for u := range replay {
			if o := got[u]; o != nil && o.fail != "" {
				failed = -2
			}
		}
		var rest []jobUnit
		for _, u := range todo {
			if res[u.U] == nil {
				rest = append(rest, u)
			}
		}
		if len(rest) == len(todo) || failed == -2 || lim.programs {
			for _, u := range rest {
				res[u.U] = &outcome{}
			}
			break
		}
		todo = rest
	}
	return res
}

// runOnce runs one job in one process.
func runOnce(ctx context.Context, j *job, lim limits, start startFunc) map[int]*outcome {
	res := map[int]*outcome{}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p, err := start(ctx, j)
	if err != nil {
		for _, u := range j.Units {
			res[u.U] = &outcome{ran: true, fail: err.Error()}
		}
		return res
	}
	type ev struct {
		event
		out []byte // output before the marker
		eof bool
		err error
	}
	evs := make(chan ev, 64)
	var total int64
	over := false
	go func() {
		marker := []byte("\x00" + j.Nonce + " ")
		var buf []byte
		chunk := make([]byte, 32<<10)
		r := p.stdout()
		for {
			n, err := r.Read(chunk)
			buf = append(buf, chunk[:n]...)
			for {
				i := bytes.Index(buf, marker)
				if i < 0 {
					// Keep a possible partial marker at the end.
					keep := 0
					if k := bytes.LastIndexByte(buf, 0); k >= 0 && len(buf)-k < len(marker) && bytes.HasPrefix(marker, buf[k:]) {
						keep = len(buf) - k
					}
					if len(buf)-keep > 0 {
						evs <- ev{out: append([]byte(nil), buf[:len(buf)-keep]...), event: event{Ev: "output"}}
						buf = buf[len(buf)-keep:]
					}
					break
				}
				nl := bytes.IndexByte(buf[i:], '\n')
				if nl < 0 {
					if i > 0 {
						evs <- ev{out: append([]byte(nil), buf[:i]...), event: event{Ev: "output"}}
						buf = buf[i:]
					}
					break
				}
				var e event
				if jerr := json.Unmarshal(buf[i+len(marker):i+nl], &e); jerr != nil {
					e = event{Ev: "bad"}
				}
				evs <- ev{out: append([]byte(nil), buf[:i]...), event: e}
				buf = buf[i+nl+1:]
			}
			if err != nil {
				if len(buf) > 0 {
					evs <- ev{out: buf, event: event{Ev: "output"}}
				}
				evs <- ev{eof: true, err: err}
				return
			}
		}
	}()
	// Memory watch.
	memOver := make(chan struct{})
	if lim.memory > 0 && p.pid() > 0 {
		go watchMemory(ctx, p.pid(), lim.memory, memOver)
	}
	cur, last := -1, -1
	var curStart time.Time
	ready := false
	deadline := time.NewTimer(lim.startup)
	defer deadline.Stop()
	reason, why := "", error(nil)
	var stray []byte
	appendOut := func(b []byte) {
		if cur >= 0 {
			o := res[cur]
			o.output = append(o.output, b...)
		} else {
			stray = append(stray, b...)
		}
		total += int64(len(b))
		if lim.output > 0 && total > lim.output && !over {
			over = true
			reason, why = fmt.Sprintf("printed more than the output limit of %s", byteSize(lim.output)), nil
			p.kill()
		}
	}
loop:
	for {
		select {
		case e := <-evs:
			if len(e.out) > 0 {
				appendOut(e.out)
			}
			if e.eof {
				break loop
			}
			switch e.Ev {
			case "ready":
				ready = true
				resetTimer(deadline, startupTimeout)
			case "start":
				cur, last = e.U, e.U
				curStart = time.Now()
				res[cur] = &outcome{ran: true}
				resetTimer(deadline, lim.timeout[cur])
			case "done":
				if o := res[e.U]; o != nil {
					o.panic, o.errMsg, o.value, o.chunk = e.Panic, e.Error, e.Value, e.Chunk
					o.elapsed = time.Since(curStart)
				}
				cur = -1
				resetTimer(deadline, startupTimeout)
			case "end":
			}
		case <-deadline.C:
			if cur >= 0 {
				reason, why = fmt.Sprintf("did not finish within %s (an infinite loop?)", lim.timeout[cur]), ErrTimeout
			} else if !ready {
				reason = "the worker did not start"
			} else {
				reason = "the worker stopped responding"
			}
			p.kill()
		case <-memOver:
			reason, why = fmt.Sprintf("used more than the memory limit of %s", byteSize(lim.memory)), nil
			p.kill()
		case <-ctx.Done():
			reason, why = "canceled", ctx.Err()
			p.kill()
		}
	}
	stderr, werr := p.wait()
	if !ready && reason == "" {
		reason = "the worker did not start: " + crashMessage(stderr, werr, stray) +
			" (a program that runs pages must begin with: if snippets.IsWorker() { os.Exit(snippets.ServeWorker()) }, in main or TestMain)"
	}
	if cur >= 0 {
		o := res[cur]
		o.elapsed = time.Since(curStart)
		if reason == "" {
			reason = crashMessage(stderr, werr, nil)
		}
		o.fail, o.err = reason, why
	} else if !ready {
		for _, u := range j.Units {
			res[u.U] = &outcome{ran: true, fail: reason, err: why}
		}
	} else if werr != nil && last >= 0 && res[last] != nil && res[last].fail == "" {
		// The process died between units: a goroutine the last unit
		// started panicked after the unit itself returned.
		if reason == "" {
			reason = crashMessage(stderr, werr, nil)
		}
		res[last].fail, res[last].err = reason, why
	}
	return res
}

func resetTimer(t *time.Timer, d time.Duration) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	t.Reset(d)
}

// crashMessage explains how a process died, from its stderr.
func crashMessage(stderr []byte, err error, stdout []byte) string {
	s := string(stderr)
	switch {
	case strings.Contains(s, "stack exceeds") || strings.Contains(s, "stack overflow"):
		return "crashed: stack overflow (runaway recursion?)"
	case strings.Contains(s, "out of memory"):
		return "crashed: out of memory"
	}
	for _, line := range strings.Split(s, "\n") {
		if msg, ok := strings.CutPrefix(line, "panic: "); ok {
			msg = strings.TrimSuffix(msg, " [recovered, repanicked]")
			msg = strings.TrimSuffix(msg, " [recovered]")
			if strings.Contains(s, "\ngoroutine ") {
				return "crashed: panic in a goroutine: " + msg + " (a goroutine's panic cannot be recovered; it ends the program)"
			}
			return "crashed: panic: " + msg
		}
		if msg, ok := strings.CutPrefix(line, "fatal error: "); ok {
			return "crashed: fatal error: " + msg
		}
	}
	if err != nil {
		return "crashed: " + err.Error()
	}
	return "the process ended before the snippet finished"
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

func nonce() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// watchMemory closes over when the resident memory of pid passes limit.
// It reads /proc; where there is none, the worker's own soft limit
// (debug.SetMemoryLimit) is all there is.
func watchMemory(ctx context.Context, pid int, limit int64, over chan<- struct{}) {
	path := "/proc/" + strconv.Itoa(pid) + "/statm"
	page := int64(os.Getpagesize())
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			return
		}
		rss, _ := strconv.ParseInt(f[1], 10, 64)
		if rss*page > limit {
			close(over)
			return
		}
	}
}

// execProc is a subprocess.
type execProc struct {
	cmd    *exec.Cmd
	out    io.ReadCloser
	errBuf *cappedBuffer
	once   sync.Once
}

func (p *execProc) stdout() io.Reader { return p.out }
func (p *execProc) pid() int          { return p.cmd.Process.Pid }
func (p *execProc) kill() {
	p.once.Do(func() { _ = p.cmd.Process.Kill() })
}
func (p *execProc) wait() ([]byte, error) {
	err := p.cmd.Wait()
	return p.errBuf.Bytes(), err
}

// startProcess starts cmd with the job on its stdin (nil for none).
func startProcess(cmd *exec.Cmd, j *job) (proc, error) {
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

func (c *cappedBuffer) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]byte(nil), c.b.Bytes()...)
}

// workerStart starts the running executable as a worker.
func workerStart(ctx context.Context, j *job) (proc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the warpbook executable: %w", err)
	}
	// A test binary without the TestMain hook must not run its tests.
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	return startProcess(cmd, j)
}

// inProcessStart runs the job on a goroutine of this process.
func inProcessStart(ctx context.Context, j *job) (proc, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	p := &goProc{r: r, w: w, done: make(chan struct{}), stderr: cappedBuffer{max: 64 << 10}}
	go func() {
		defer close(p.done)
		defer w.Close()
		defer func() {
			if e := recover(); e != nil {
				p.err = fmt.Errorf("panic: %v", e)
			}
		}()
		serve(j, w, &p.stderr)
	}()
	return p, nil
}

type goProc struct {
	r, w   *os.File
	done   chan struct{}
	stderr cappedBuffer
	err    error
	once   sync.Once
	killed bool
}

func (p *goProc) stdout() io.Reader { return p.r }
func (p *goProc) pid() int          { return 0 }
func (p *goProc) kill() {
	p.once.Do(func() {
		p.killed = true
		p.r.Close()
	})
}
func (p *goProc) wait() ([]byte, error) {
	if p.killed {
		// A snippet stuck in a loop cannot be stopped: leave it.
		return nil, errors.New("killed")
	}
	<-p.done
	p.r.Close()
	return p.stderr.Bytes(), p.err
}
