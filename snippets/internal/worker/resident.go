package worker

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"
)

// Resident runs jobs in this process, one at a time, as [InProcess] does,
// and can keep each session's interpreter after its job together with the
// units it evaluated: a later job whose units of that session begin with
// the same units (the same chunks, statements and expression) gets their
// recorded outcomes replayed, and only the rest is evaluated. This is what
// a reader running a page cell by cell needs (the browser kernel); like
// InProcess it has no hard limits, and a unit it has to abandon (a time
// limit) may still print into a later job.
//
// Reuse is sound for the same reason the kernel's result cache is: a
// unit's outcome depends only on the units run before it in its session.
type Resident struct {
	reuse bool
	mu    sync.Mutex // guards kept
	kept  map[int]*kept
}

// stdoutMux is where in-process jobs of Residents print: one file (in
// WebAssembly the module's standard output, which is what snippets get as
// os.Stdout), read by one goroutine that hands each job its part. Jobs run
// one at a time.
type stdoutMux struct {
	file  *os.File  // what the interpreters print to
	src   io.Reader // what is printed there
	jobMu sync.Mutex
	mu    sync.Mutex // guards cur
	cur   *residentJob
}

var (
	muxOnce sync.Once
	mux     *stdoutMux
	muxErr  error
)

// theMux returns the process's stdoutMux, made on first use.
func theMux() (*stdoutMux, error) {
	muxOnce.Do(func() {
		m := &stdoutMux{}
		if m.src, m.file, muxErr = residentStdout(); muxErr == nil {
			mux = m
			go m.forward()
		}
	})
	return mux, muxErr
}

// kept is a session's interpreter and what it has evaluated, in order.
type kept struct {
	it    *interp.Interpreter
	units []keptUnit
}

type keptUnit struct {
	key string
	o   *Outcome // nil until the job's outcome is recorded
}

// NewResident returns a resident runner; with reuse false it keeps
// nothing between jobs.
func NewResident(reuse bool) *Resident {
	return &Resident{reuse: reuse, kept: map[int]*kept{}}
}

// residentJob is the running job's side of the stream.
type residentJob struct {
	token []byte   // ends the job's output in the stream
	pipe  *memPipe // what the runner reads
}

// Start returns a StartFunc that runs jobs through r, calling started (if
// not nil) on the snippets' goroutine just before each unit it evaluates.
func (r *Resident) Start(started func(u int)) StartFunc {
	return func(ctx context.Context, j *Job) (Proc, error) { return r.start(ctx, j, started) }
}

func (r *Resident) start(ctx context.Context, j *Job, started func(u int)) (Proc, error) {
	m, err := theMux()
	if err != nil {
		return nil, err
	}
	m.jobMu.Lock()
	job := &residentJob{token: []byte("\x00" + j.Nonce + " flush\n"), pipe: newMemPipe()}
	m.mu.Lock()
	m.cur = job
	m.mu.Unlock()
	r.mu.Lock()
	plan := r.plan(j)
	r.mu.Unlock()
	p := &residentProc{r: r, m: m, job: job, done: make(chan struct{}), stderr: cappedBuffer{max: 64 << 10}}
	go func() {
		defer close(p.done)
		defer func() {
			if e := recover(); e != nil {
				p.err = errors.New("panic: " + panicMessage(e))
			}
			_, _ = m.file.Write(job.token)
		}()
		r.serve(j, m.file, job.pipe, plan, &p.stderr, started)
	}()
	return p, nil
}

// plan decides, for each session of j, whether its kept interpreter can
// go on: the job's units of the session must start with all it evaluated,
// or it with all of them. It returns the interpreters to use, fresh ones
// left nil, with how many units of each are replayed.
func (r *Resident) plan(j *Job) map[int]*kept {
	bySession := map[int][]string{}
	for _, u := range j.Units {
		bySession[u.Session] = append(bySession[u.Session], unitKey(&u))
	}
	out := map[int]*kept{}
	for s, keys := range bySession {
		k := r.kept[s]
		if !r.reuse || k == nil {
			delete(r.kept, s)
			continue
		}
		n := 0
		for n < len(keys) && n < len(k.units) && k.units[n].key == keys[n] && k.units[n].o.Finished() {
			n++
		}
		if n == len(k.units) || n == len(keys) {
			out[s] = k
		} else {
			delete(r.kept, s)
		}
	}
	return out
}

// unitKey is what identifies a unit's work in its session.
func unitKey(u *Unit) string {
	var b strings.Builder
	for i, c := range u.Chunks {
		b.WriteString(c)
		if i < len(u.Stmt) && u.Stmt[i] {
			b.WriteString("\x00s")
		}
		b.WriteString("\x00c")
	}
	b.WriteString("\x00e")
	b.WriteString(u.Expr)
	return b.String()
}

// serve runs j, replaying the kept units of plan's interpreters. What the
// job writes goes through out, the interpreters' file, except the replays
// before its first evaluated unit, which go straight to the job's pipe
// (nothing is pending in the file before them, and in WebAssembly every
// write to the file is a round trip through JavaScript).
func (r *Resident) serve(j *Job, out *os.File, pipe *memPipe, plan map[int]*kept, errOut io.Writer, started func(u int)) {
	var w io.Writer = pipeWriter{pipe}
	mark := func(e Event) { _ = WriteEvent(w, j.Nonce, e) }
	pos := map[int]int{} // units of each session seen so far in this job
	mark(Event{U: -1, Kind: Ready})
	for _, u := range j.Units {
		k := plan[u.Session]
		i := pos[u.Session]
		pos[u.Session]++
		if k != nil && i < len(k.units) {
			o := k.units[i].o
			mark(Event{U: u.U, Kind: Start})
			_, _ = io.WriteString(w, o.Output)
			mark(Event{U: u.U, Kind: Done, Panic: o.Panic, Error: o.Error, Value: o.Value, Chunk: o.Chunk})
			continue
		}
		w = out
		if k == nil {
			it, err := NewInterpreter(out, errOut)
			if err != nil {
				msg := err.Error()
				mark(Event{U: u.U, Kind: Start})
				mark(Event{U: u.U, Kind: Done, Error: &msg})
				continue
			}
			k = &kept{it: it}
			plan[u.Session] = k
			if r.reuse {
				r.mu.Lock()
				r.kept[u.Session] = k
				r.mu.Unlock()
			}
		}
		r.mu.Lock()
		k.units = append(k.units, keptUnit{key: unitKey(&u)})
		r.mu.Unlock()
		mark(Event{U: u.U, Kind: Start})
		if started != nil {
			started(u.U)
		}
		mark(runUnit(k.it, &u, j.OutputLimit))
	}
	mark(Event{U: -1, Kind: End})
}

// pipeWriter writes into a memPipe.
type pipeWriter struct{ p *memPipe }

func (w pipeWriter) Write(b []byte) (int, error) {
	w.p.write(bytes.Clone(b))
	return len(b), nil
}

// Record keeps the outcomes of a run (what [Run] returned for units), so
// that later jobs can replay them. A unit that did not finish ends its
// session's reuse: its interpreter was abandoned mid-unit.
func (r *Resident) Record(units []Unit, res map[int]*Outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for s, k := range r.kept {
		n := 0
		for _, u := range units {
			if u.Session != s {
				continue
			}
			if n < len(k.units) && k.units[n].key == unitKey(&u) {
				if o := res[u.U]; o != nil && k.units[n].o == nil {
					c := *o
					k.units[n].o = &c
				}
			}
			n++
		}
		for _, ku := range k.units {
			if !ku.o.Finished() {
				delete(r.kept, s)
				break
			}
		}
	}
}

// forward copies what the interpreters print into the running job's pipe,
// up to the job's token; what comes between jobs (from a unit that was
// abandoned) is dropped.
func (m *stdoutMux) forward() {
	buf := make([]byte, 32<<10)
	var carry []byte
	for {
		n, err := m.src.Read(buf)
		data := append(carry, buf[:n]...)
		carry = nil
		for len(data) > 0 {
			m.mu.Lock()
			job := m.cur
			m.mu.Unlock()
			if job == nil {
				data = nil
				break
			}
			if i := bytes.Index(data, job.token); i >= 0 {
				job.pipe.write(data[:i])
				job.pipe.closeWrite()
				m.mu.Lock()
				if m.cur == job {
					m.cur = nil
				}
				m.mu.Unlock()
				data = data[i+len(job.token):]
				continue
			}
			keep := 0
			if k := bytes.LastIndexByte(data, 0); k >= 0 && bytes.HasPrefix(job.token, data[k:]) {
				keep = len(data) - k
			}
			job.pipe.write(data[:len(data)-keep])
			carry = append([]byte(nil), data[len(data)-keep:]...)
			data = nil
		}
		if err != nil {
			return
		}
	}
}

// residentProc is a job running in a Resident.
type residentProc struct {
	r      *Resident
	m      *stdoutMux
	job    *residentJob
	done   chan struct{}
	stderr cappedBuffer
	err    error
	once   sync.Once
	killed bool
}

func (p *residentProc) Stdout() io.Reader { return p.job.pipe }
func (p *residentProc) Pid() int          { return 0 }

// Kill abandons the job: its interpreters are dropped, since the goroutine
// that runs them may go on.
func (p *residentProc) Kill() {
	p.once.Do(func() {
		p.killed = true
		p.r.mu.Lock()
		p.r.kept = map[int]*kept{}
		p.r.mu.Unlock()
		p.m.mu.Lock()
		if p.m.cur == p.job {
			p.m.cur = nil
		}
		p.m.mu.Unlock()
		p.job.pipe.Close()
		p.m.jobMu.Unlock()
	})
}

func (p *residentProc) Wait() ([]byte, error) {
	if p.killed {
		return nil, errors.New("killed")
	}
	<-p.done
	p.once.Do(func() { p.m.jobMu.Unlock() })
	return p.stderr.Bytes(), p.err
}
