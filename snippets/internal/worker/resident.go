package worker

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync"
)

// Resident runs jobs in this process, one at a time, as [InProcess] does,
// and can keep each session's interpreter after its job, with the units it
// evaluated and their outcomes: [Resident.Prepare] replays the units a
// kept session already ran and leaves only the rest to run, in the same
// interpreter. This is what a reader running a page cell by cell needs
// (the browser kernel). Like InProcess it has no hard limits, and a unit
// it has to abandon (at a time limit) may still print into a later job.
//
// Replaying is sound for the same reason the kernel's result cache is: a
// unit's outcome depends only on the units run before it in its session.
type Resident struct {
	reuse bool
	mu    sync.Mutex    // guards kept and cont
	kept  map[int]*kept // by session
	cont  map[int]bool  // sessions whose next job goes on in the kept interpreter
}

// kept is a session's interpreter and what it has evaluated, in order.
type kept struct {
	it    *Interpreter
	units []keptUnit
}

type keptUnit struct {
	u Unit
	o *Outcome // nil until the job's outcome is recorded
}

// NewResident returns a resident runner; with reuse false it keeps
// nothing between jobs.
func NewResident(reuse bool) *Resident {
	return &Resident{reuse: reuse, kept: map[int]*kept{}, cont: map[int]bool{}}
}

// Prepare is called before running units (in document order): it returns
// the outcomes of the units whose session already ran them, and the units
// left to run through [Resident.Start]. A session goes on in its kept
// interpreter when the units given for it begin with all it evaluated, or
// are a beginning of them (then nothing of it is left to run); otherwise
// it starts afresh.
func (r *Resident) Prepare(units []Unit) (replayed map[int]*Outcome, rest []Unit) {
	r.mu.Lock()
	defer r.mu.Unlock()
	bySession := map[int][]Unit{}
	var order []int
	for _, u := range units {
		if _, ok := bySession[u.Session]; !ok {
			order = append(order, u.Session)
		}
		bySession[u.Session] = append(bySession[u.Session], u)
	}
	replayed = map[int]*Outcome{}
	r.cont = map[int]bool{}
	skip := map[int]bool{}
	for _, s := range order {
		us := bySession[s]
		k := r.kept[s]
		if !r.reuse || k == nil {
			delete(r.kept, s)
			continue
		}
		n := 0
		for n < len(us) && n < len(k.units) && sameWork(&k.units[n].u, &us[n]) && k.units[n].o.Finished() {
			n++
		}
		if n < len(us) && n < len(k.units) {
			delete(r.kept, s) // it ran something else since: start afresh
			continue
		}
		for i, u := range us[:n] {
			o := *k.units[i].o
			o.Elapsed, o.CPU = 0, 0
			replayed[u.U] = &o
			skip[u.U] = true
		}
		r.cont[s] = true
	}
	for _, u := range units {
		if !skip[u.U] {
			rest = append(rest, u)
		}
	}
	return replayed, rest
}

// Record keeps the outcomes of a run of units (what [Run] returned after
// [Resident.Prepare]), for later runs to replay. A unit that did not finish
// ends its session's reuse: its interpreter was abandoned mid-unit.
func (r *Resident) Record(units []Unit, res map[int]*Outcome) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for s, k := range r.kept {
		i := slices.IndexFunc(k.units, func(ku keptUnit) bool { return ku.o == nil })
		if i < 0 {
			continue
		}
		for _, u := range units {
			if u.Session != s || i >= len(k.units) {
				continue
			}
			if o := res[u.U]; o != nil && sameWork(&k.units[i].u, &u) {
				c := *o
				k.units[i].o = &c
			}
			i++
		}
		for _, ku := range k.units {
			if !ku.o.Finished() {
				delete(r.kept, s)
				break
			}
		}
	}
}

// residentJob is the running job's side of the stream.
type residentJob struct {
	token []byte   // ends the job's output in the stream (see stdoutMux)
	pipe  *memPipe // what the runner reads
}

var (
	muxOnce sync.Once
	mux     *stdoutMux
	muxErr  error
)

// theMux returns the process's stdoutMux, made on first use: the
// interpreters of every Resident print through it, so jobs run one at a
// time.
func theMux() (*stdoutMux, error) {
	muxOnce.Do(func() { mux, muxErr = newMux() })
	return mux, muxErr
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
	m.begin(job)
	p := &residentProc{r: r, m: m, job: job, done: make(chan struct{}), stderr: cappedBuffer{max: 64 << 10}}
	go func() {
		defer close(p.done)
		defer func() {
			if e := recover(); e != nil {
				p.err = errors.New("panic: " + panicMessage(e))
			}
			m.end(job)
		}()
		r.serve(j, m.out(), &p.stderr, started)
	}()
	return p, nil
}

// sameWork reports whether two units do the same work in their session:
// the same code, chunk by chunk, each a statement or not alike, and the
// same checked expression.
func sameWork(a, b *Unit) bool {
	if a.Expr != b.Expr || a.Packages != b.Packages || !slices.Equal(a.Chunks, b.Chunks) || !slices.Equal(a.Prelude, b.Prelude) {
		return false
	}
	for i := range a.Chunks {
		if stmtAt(a, i) != stmtAt(b, i) {
			return false
		}
	}
	return true
}

// stmtAt reports whether chunk i of u is statements.
func stmtAt(u *Unit, i int) bool { return i < len(u.Stmt) && u.Stmt[i] }

// serve runs j, going on in the kept interpreters of the sessions that
// Prepare said continue.
func (r *Resident) serve(j *Job, out io.Writer, errOut io.Writer, started func(u int)) {
	mark := func(e Event) { _ = WriteEvent(out, j.Nonce, e) }
	mark(Event{U: -1, Kind: Ready})
	for _, u := range j.Units {
		r.mu.Lock()
		k := r.kept[u.Session]
		if !r.cont[u.Session] {
			k = nil
		}
		r.mu.Unlock()
		if k == nil {
			it, err := NewInterpreter(out, errOut, j.Sources)
			if err == nil {
				err = prelude(it, &u)
			}
			if err != nil {
				msg := err.Error()
				mark(Event{U: u.U, Kind: Start})
				mark(Event{U: u.U, Kind: Done, Error: &msg})
				continue
			}
			k = &kept{it: it}
			r.mu.Lock()
			if r.reuse {
				r.kept[u.Session] = k
			}
			r.cont[u.Session] = true
			r.mu.Unlock()
		}
		r.mu.Lock()
		k.units = append(k.units, keptUnit{u: u})
		r.mu.Unlock()
		mark(Event{U: u.U, Kind: Start})
		if started != nil {
			started(u.U)
		}
		mark(runUnit(k.it, &u, j.OutputLimit))
	}
	mark(Event{U: -1, Kind: End})
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
		p.r.kept, p.r.cont = map[int]*kept{}, map[int]bool{}
		p.r.mu.Unlock()
		p.m.drop(p.job)
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
