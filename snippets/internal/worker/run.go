package worker

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/warpbook/warpbook/snippets/internal/bytesize"
)

// Limits are what [Run] enforces.
type Limits struct {
	// Timeout is each unit's time limit, by unit number.
	Timeout map[int]time.Duration
	// Startup is how long a worker may take to report Ready, and to go
	// from one unit to the next (wall-clock).
	Startup time.Duration
	// Output caps the bytes a job prints; Memory the process's resident
	// memory (bytes; 0: no cap).
	Output, Memory int64
	// Program marks a natively compiled session: the time before Ready
	// (package initialization, init functions) counts toward the first
	// unit, and a failure ends the run without a restart.
	Program bool
	// Raw marks a whole program compiled natively: no markers, all of
	// its output is its one unit's, and a panic is read from its stderr.
	Raw bool
	// Once runs one process: after a unit that kills it, the units left
	// do not run (a Resident's sessions cannot be replayed elsewhere).
	Once bool
}

// WallFactor is the wall-clock backstop of a unit whose CPU time is
// counted: past WallFactor times its limit of wall-clock time, a unit that
// is not computing (under a tenth of a core over the last second: a sleep,
// a deadlock) fails; one that is computing, slowly on a loaded machine,
// goes on until its CPU time runs out, or until WallCeiling times its limit
// of wall-clock time, so that every unit ends.
const (
	WallFactor  = 4
	WallCeiling = 20
)

// idleShare is the share of one core below which a unit counts as not
// computing.
const idleShare = 0.1

// StartFunc starts a process that runs a job.
type StartFunc func(ctx context.Context, j *Job) (Proc, error)

// Run runs units through processes started by start, with the book's
// package sources (see [Job].Sources), and returns an outcome per unit
// number. After a unit that kills its process it starts a
// new one, which replays the finished units of the sessions still needed
// (and the declarations of the unit that failed), unless lim.Program.
func Run(ctx context.Context, units []Unit, lim Limits, start StartFunc, memLimit int64, sources map[string]string) map[int]*Outcome {
	res := map[int]*Outcome{}
	todo := units
	for len(todo) > 0 {
		need := map[int]bool{}
		for _, u := range todo {
			need[u.Session] = true
		}
		j := Job{Nonce: nonce(), MemoryLimit: memLimit, OutputLimit: lim.Output, Sources: sources}
		replay := map[int]bool{}
		for _, u := range units {
			o := res[u.U]
			if o == nil || !need[u.Session] {
				continue
			}
			switch {
			case o.Finished():
				j.Units = append(j.Units, u)
				replay[u.U] = true
			case o.Fail != "":
				// The unit that failed: keep its imports and declarations,
				// which later units may use, but not its statements.
				d := Unit{U: u.U, Session: u.Session}
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
		for _, u := range todo {
			if o := got[u.U]; o != nil {
				res[u.U] = o
			}
		}
		// Replayed units that no longer finish leave the rest unrunnable.
		broken := false
		for u := range replay {
			if o := got[u]; o != nil && o.Fail != "" {
				broken = true
			}
		}
		var rest []Unit
		for _, u := range todo {
			if res[u.U] == nil {
				rest = append(rest, u)
			}
		}
		if len(rest) == len(todo) || broken || lim.Program || lim.Raw || lim.Once {
			for _, u := range rest {
				res[u.U] = &Outcome{}
			}
			break
		}
		todo = rest
	}
	return res
}

// clock is where a unit's time started.
type clock struct {
	wall time.Time
	cpu  time.Duration
}

// runner is the state of one process's run.
type runner struct {
	j      *Job
	lim    Limits
	p      Proc
	res    map[int]*Outcome
	cur    int // the running unit, -1 between units
	last   int // the last unit that started
	ready  bool
	since  clock // when cur (or the wait for the next event) started
	usage  clock // the process's latest reading
	meter  bool  // whether usage can be read
	total  int64 // bytes printed so far
	reason string
	limit  Limit
	killed bool    // after a kill, what the process wrote no longer counts
	recent []clock // readings of about the last second, oldest first
	stray  []byte  // output outside any unit
}

// tick is how often a run reads the process's use and checks its limits.
const tick = 20 * time.Millisecond

// runOnce runs one job in one process.
func runOnce(ctx context.Context, j *Job, lim Limits, start StartFunc) map[int]*Outcome {
	r := &runner{j: j, lim: lim, res: map[int]*Outcome{}, cur: -1, last: -1}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p, err := start(ctx, j)
	if err != nil {
		for _, u := range j.Units {
			r.res[u.U] = &Outcome{Ran: true, Fail: err.Error()}
		}
		return r.res
	}
	r.p = p
	r.read()
	r.since = r.usage
	if (lim.Program || lim.Raw) && len(j.Units) > 0 {
		// The time before the first marker is the first unit's: package
		// initialization runs the snippets' init functions.
		r.begin(j.Units[0].U)
		r.ready = lim.Raw
	}
	pieces := make(chan piece, 64)
	maxLine := int(lim.Output) + 64<<10
	go decode(p.Stdout(), j.Nonce, lim.Raw, maxLine, pieces)
	t := time.NewTicker(tick)
	defer t.Stop()
loop:
	for {
		select {
		case pc := <-pieces:
			if pc.eof {
				break loop
			}
			r.piece(pc)
		case <-t.C:
			r.read()
			r.check()
		case <-ctx.Done():
			r.stop("canceled", NoLimit)
			ctx = context.Background() // Done fires once
		}
	}
	stderr, werr := p.Wait()
	r.finish(stderr, werr)
	return r.res
}

// read samples the process's CPU time and memory.
func (r *runner) read() {
	cpu, rss, ok := readUsage(r.p.Pid())
	r.usage = clock{wall: time.Now(), cpu: cpu}
	r.meter = ok
	r.recent = append(r.recent, r.usage)
	for len(r.recent) > 1 && r.usage.wall.Sub(r.recent[0].wall) > time.Second {
		r.recent = r.recent[1:]
	}
	if ok && r.lim.Memory > 0 && rss > r.lim.Memory {
		r.stop(OverMemory(r.lim.Memory), MemoryLimit)
	}
}

// begin starts unit u's outcome and clock.
func (r *runner) begin(u int) {
	r.cur, r.last = u, u
	r.res[u] = &Outcome{Ran: true}
	r.since = r.usage
}

// stop kills the process for a reason, keeping the first.
func (r *runner) stop(reason string, l Limit) {
	if r.reason == "" {
		r.reason, r.limit = reason, l
	}
	r.kill()
}

// kill ends the process; what it wrote after this is ignored.
func (r *runner) kill() {
	r.killed = true
	r.p.Kill()
}

// check enforces the time limits.
func (r *runner) check() {
	wall := r.usage.wall.Sub(r.since.wall)
	if r.cur < 0 {
		if wall > r.lim.Startup {
			if r.ready {
				r.stop("the worker stopped responding", NoLimit)
			} else {
				r.stop("the worker did not start", NoLimit)
			}
		}
		return
	}
	limit := r.lim.Timeout[r.cur]
	what := ""
	if !r.ready {
		what = " before its first line ran (an init function or a package-level variable's initializer?)"
	}
	switch cpu := r.usage.cpu - r.since.cpu; {
	case !r.meter && wall > limit:
		r.stop(WallTimeout(limit, what), TimeLimit)
	case r.meter && cpu > limit:
		r.stop(fmt.Sprintf("used more than %s of CPU time%s (an infinite loop?)", limit, what), TimeLimit)
	case r.meter && wall > WallFactor*limit && r.idle():
		r.stop(fmt.Sprintf("did not finish within %s of wall-clock time (%d× its limit of %s), though it used only %s of CPU time: is it waiting for something?",
			WallFactor*limit, WallFactor, limit, cpu.Round(10*time.Millisecond)), TimeLimit)
	case r.meter && wall > WallCeiling*limit:
		r.stop(fmt.Sprintf("did not finish within %s of wall-clock time (%d× its limit of %s; it used %s of CPU time)",
			WallCeiling*limit, WallCeiling, limit, cpu.Round(10*time.Millisecond)), TimeLimit)
	}
}

// OverMemory says that a unit used more than limit bytes of memory.
func OverMemory(limit int64) string {
	return "used more than the memory limit of " + bytesize.Format(limit)
}

// WallTimeout says that a unit ran past its limit of wall-clock time
// (where CPU time cannot be read, and in the browser); what says when, if
// it was not in the unit's own lines.
func WallTimeout(limit time.Duration, what string) string {
	return fmt.Sprintf("did not finish within %s%s (an infinite loop?)", limit, what)
}

// idle reports whether the process used under idleShare of a core over
// the last second of readings.
func (r *runner) idle() bool {
	if len(r.recent) == 0 {
		return true
	}
	old := r.recent[0]
	span := r.usage.wall.Sub(old.wall)
	return span <= 0 || float64(r.usage.cpu-old.cpu) < idleShare*float64(span)
}

// piece handles what the process wrote.
func (r *runner) piece(pc piece) {
	if r.killed {
		return
	}
	if len(pc.out) > 0 {
		if r.cur >= 0 {
			r.res[r.cur].Output += string(pc.out)
		} else {
			r.stray = append(r.stray, pc.out...)
		}
		r.count(len(pc.out))
	}
	if pc.long {
		r.stop("printed more than the output limit of "+bytesize.Format(r.lim.Output), OutputLimit)
	}
	if pc.ev == nil {
		return
	}
	e := pc.ev
	switch e.Kind {
	case Ready:
		r.ready = true
		if r.cur < 0 {
			r.read()
			r.since = r.usage
		}
	case Start:
		if r.cur != e.U {
			r.read()
			r.begin(e.U)
		}
	case Done:
		o := r.res[e.U]
		if o == nil {
			return
		}
		r.read()
		o.Panic, o.Error, o.Value, o.Chunk, o.PanicLine = e.Panic, e.Error, e.Value, e.Chunk, e.PanicLine
		o.Elapsed = r.usage.wall.Sub(r.since.wall)
		o.CPU = r.usage.cpu - r.since.cpu
		for _, s := range []*string{e.Panic, e.Value} {
			if s != nil {
				r.count(len(*s))
			}
		}
		r.cur = -1
		r.since = r.usage
		if e.Leaked > 0 {
			o.Fail = fmt.Sprintf("left %s running when it ended (what %s later would be blamed on another snippet); wait for %s to finish, with a sync.WaitGroup or a channel",
				plural(e.Leaked, "goroutine"), pronoun(e.Leaked, "it prints or a panic it raises", "they print or a panic they raise"), pronoun(e.Leaked, "it", "them"))
			r.kill()
		}
	}
}

// count adds n printed bytes and enforces the output limit.
func (r *runner) count(n int) {
	r.total += int64(n)
	if r.lim.Output > 0 && r.total > r.lim.Output {
		r.stop("printed more than the output limit of "+bytesize.Format(r.lim.Output), OutputLimit)
	}
}

// finish records how the process ended.
func (r *runner) finish(stderr []byte, werr error) {
	switch {
	case r.lim.Raw && r.cur >= 0:
		o := r.res[r.cur]
		o.Elapsed = time.Since(r.since.wall)
		if r.reason != "" {
			o.Fail, o.Limit = r.reason, r.limit
			return
		}
		if werr != nil {
			if msg, ok := panicLine(stderr); ok {
				o.Panic = &msg
				return
			}
			o.Fail = CrashMessage(stderr, werr, nil)
		}
	case !r.ready && r.cur < 0:
		reason := r.reason
		if reason == "" {
			reason = "the worker did not start: " + CrashMessage(stderr, werr, r.stray) +
				" (a program that runs pages must begin with: if snippets.IsWorker() { os.Exit(snippets.ServeWorker()) }, in main or TestMain)"
		}
		for _, u := range r.j.Units {
			r.res[u.U] = &Outcome{Ran: true, Fail: reason, Limit: r.limit}
		}
	case r.cur >= 0:
		o := r.res[r.cur]
		o.Elapsed = time.Since(r.since.wall)
		reason := r.reason
		if reason == "" {
			reason = CrashMessage(stderr, werr, nil)
		}
		o.Fail, o.Limit = reason, r.limit
	case werr != nil && r.last >= 0 && r.res[r.last] != nil && r.res[r.last].Fail == "" &&
		!(r.lim.Program && r.res[r.last].Panic != nil && r.reason == ""):
		// The process died between units, after the last one ended. (A
		// compiled program ends with the unit whose panic it did not
		// recover, as Go programs do: that unit's outcome is the panic,
		// which says it all.)
		reason := r.reason
		if reason == "" {
			reason = CrashMessage(stderr, werr, nil)
		}
		r.res[r.last].Fail, r.res[r.last].Limit = reason, r.limit
	}
}

// panicLine finds the message of a Go panic in a process's stderr.
func panicLine(stderr []byte) (string, bool) {
	for _, line := range strings.Split(string(stderr), "\n") {
		if msg, ok := strings.CutPrefix(line, "panic: "); ok {
			return strings.TrimSuffix(msg, " [recovered]"), true
		}
	}
	return "", false
}

// OutOfMemory is [CrashMessage] for a process whose runtime ran out of
// memory.
const OutOfMemory = "crashed: out of memory"

// CrashMessage explains how a process died, from its stderr.
func CrashMessage(stderr []byte, err error, stdout []byte) string {
	s := string(stderr)
	// What the program wrote itself: its standard error up to the
	// runtime's report (a panic, a fatal error), else its standard output.
	own := tail(ownOutput(s), 10)
	if own == "" {
		own = tail(string(stdout), 10)
	}
	if own != "" {
		own = "; the program's own output ends:\n" + own
	}
	switch {
	case strings.Contains(s, "stack exceeds") || strings.Contains(s, "stack overflow") ||
		// In a browser, Go's calls nest in the JavaScript engine's own
		// stack, which overflows first: V8's and WebKit's message, and
		// Firefox's.
		strings.Contains(s, "Maximum call stack size exceeded") || strings.Contains(s, "too much recursion"):
		return "crashed: stack overflow (runaway recursion?)"
	case strings.Contains(s, "out of memory"):
		return OutOfMemory
	}
	for _, line := range strings.Split(s, "\n") {
		if msg, ok := strings.CutPrefix(line, "panic: "); ok {
			msg = strings.TrimSuffix(msg, " [recovered, repanicked]")
			msg = strings.TrimSuffix(msg, " [recovered]")
			if strings.Contains(s, "\ngoroutine ") {
				return "crashed: panic in a goroutine: " + msg + " (a goroutine's panic cannot be recovered; it ends the program)" + own
			}
			return "crashed: panic: " + msg + own
		}
		if msg, ok := strings.CutPrefix(line, "fatal error: "); ok {
			return "crashed: fatal error: " + msg + own
		}
	}
	if err != nil {
		return "crashed: " + err.Error() + own
	}
	return "the process ended before the snippet finished" + own
}

// ownOutput returns s, a process's standard error, up to the report of
// the Go runtime (or of yaegi) on why it stopped.
func ownOutput(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(l, "panic: ") || strings.HasPrefix(l, "fatal error: ") || strings.HasPrefix(l, "runtime: ") || yaegiPanic.MatchString(l) {
			break
		}
		b.WriteString(l)
	}
	return b.String()
}

// yaegiPanic matches the line yaegi writes for each function a panic
// leaves ("12:3: panic: main.f(...)").
var yaegiPanic = regexp.MustCompile(`^(\S*:)?\d+:\d+: panic`)

// tail returns the last n non-blank lines of s, each indented by a tab,
// each cut to 200 bytes.
func tail(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimRight(l, " \t\r"); l != "" {
			if len(l) > 200 {
				l = l[:200] + "…"
			}
			lines = append(lines, "\t"+l)
		}
	}
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func pronoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
