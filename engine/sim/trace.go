package sim

import "sort"

// Trace is the per-cycle, per-warp-slot record of a run, for timeline
// figures and the occupancy stepper. It is recorded only when asked for
// ([Config].Trace) and only inside its cycle window, so its size is bounded
// by (To-From) × Slots cells.
//
// A warp slot is one of the SM's MaxWarps places for a resident warp; the
// slot's scheduler is slot mod Schedulers. Over a run with several blocks a
// slot holds several warps one after the other: Spans says which.
type Trace struct {
	From, To   int // the cycle window [From, To)
	End        int // the cycle the run ended; cells at or after End are Empty
	Slots      int // warp slots (rows)
	Schedulers int // schedulers of the SM; slot s belongs to s mod Schedulers
	// States holds the state of each slot in each cycle of the window, row
	// by row: States[slot*(To-From) + cycle-From]. Use At.
	States []State
	// Spans lists the warps resident during the window, in launch order.
	Spans []Span
	// Issues lists every instruction issued in the window, by cycle and
	// then by scheduler.
	Issues []Issue
}

// Span is one warp's stay in a warp slot: from launch (Start) until it
// retired (End, exclusive).
type Span struct {
	Slot      int // the warp slot
	Scheduler int // the slot's scheduler
	Block     int // the block's launch order on this SM (0 first)
	Warp      int // warp index within the block
	Start     int // cycle of launch
	End       int // cycle of retirement (exclusive); the run's end if it was still resident
}

// Issue is one issued instruction.
type Issue struct {
	Cycle     int    // the cycle it issued in
	Slot      int    // the issuing warp's slot
	Scheduler int    // the scheduler that issued it
	Block     int    // the block's launch order on this SM
	Warp      int    // warp index within the block
	Op        string // opcode, e.g. "FFMA"
	Threads   int    // active threads (lanes) that executed it
	// PC is the instruction's index in the flattened program, the same for
	// every warp and every trip through a loop: Program.Listing()[PC] is
	// the instruction. A warp's stalled cycles before an issue are spent
	// waiting to issue that PC, so the cells of a slot's row can be charged
	// to the PC of the warp's next issue (its drain cells, after EXIT, to
	// the EXIT).
	PC int
}

// At returns the state of a warp slot in a cycle; Empty outside the window
// or when no warp held the slot.
func (t *Trace) At(slot, cycle int) State {
	if t == nil || slot < 0 || slot >= t.Slots || cycle < t.From || cycle >= t.To {
		return Empty
	}
	return t.States[slot*(t.To-t.From)+cycle-t.From]
}

// Row returns a copy of one slot's states over the window.
func (t *Trace) Row(slot int) []State {
	if t == nil || slot < 0 || slot >= t.Slots {
		return nil
	}
	w := t.To - t.From
	return append([]State(nil), t.States[slot*w:(slot+1)*w]...)
}

// Count returns how many cells of the window are in state st.
func (t *Trace) Count(st State) int {
	if t == nil {
		return 0
	}
	n := 0
	for _, s := range t.States {
		if s == st {
			n++
		}
	}
	return n
}

// SpanAt returns the warp that held slot in cycle, if any.
func (t *Trace) SpanAt(slot, cycle int) (Span, bool) {
	if t == nil {
		return Span{}, false
	}
	for _, s := range t.Spans {
		if s.Slot == slot && s.Start <= cycle && cycle < s.End {
			return s, true
		}
	}
	return Span{}, false
}

// IssueOrder returns, for each warp that issued in the window, its first
// issue, ordered by cycle and then scheduler: the order in which an
// occupancy stepper lights the warp slots.
func (t *Trace) IssueOrder() []Issue {
	if t == nil {
		return nil
	}
	type key struct{ block, warp int }
	seen := map[key]bool{}
	var out []Issue
	for _, is := range t.Issues {
		k := key{is.Block, is.Warp}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, is)
	}
	return out
}

// traceRec records a Trace during a run.
type traceRec struct {
	from, to int64
	width    int64
	t        Trace
}

func newTraceRec(from, to int64, slots, scheds int) *traceRec {
	r := &traceRec{from: from, to: to, width: to - from}
	r.t = Trace{From: int(from), To: int(to), Slots: slots, Schedulers: scheds,
		States: make([]State, int64(slots)*(to-from))}
	return r
}

func (r *traceRec) fill(slot int32, st State, a, b int64) {
	a, b = max(a, r.from), min(b, r.to)
	if a >= b {
		return
	}
	row := r.t.States[int64(slot)*r.width : int64(slot+1)*r.width]
	for c := a; c < b; c++ {
		row[c-r.from] = st
	}
}

func (r *traceRec) launch(w *warp, block int32, now int64) {
	if now >= r.to {
		return
	}
	w.span = int32(len(r.t.Spans))
	r.t.Spans = append(r.t.Spans, Span{Slot: int(w.slot), Scheduler: int(w.sched), Block: int(block),
		Warp: int(w.widx), Start: int(now), End: -1})
}

func (r *traceRec) retire(w *warp, now int64) {
	if w.span >= 0 {
		r.t.Spans[w.span].End = int(now)
	}
}

func (r *traceRec) issue(now int64, w *warp, block int32, op string, pc int32, threads int) {
	if now < r.from || now >= r.to {
		return
	}
	r.t.Issues = append(r.t.Issues, Issue{Cycle: int(now), Slot: int(w.slot), Scheduler: int(w.sched),
		Block: int(block), Warp: int(w.widx), Op: op, Threads: threads, PC: int(pc)})
}

func (r *traceRec) finish(end int64) {
	r.t.End = int(end)
	spans := r.t.Spans[:0]
	for _, s := range r.t.Spans {
		if s.End < 0 {
			s.End = int(end)
		}
		if s.End > r.t.From {
			spans = append(spans, s)
		}
	}
	r.t.Spans = spans
	sort.SliceStable(r.t.Issues, func(i, j int) bool {
		a, b := r.t.Issues[i], r.t.Issues[j]
		if a.Cycle != b.Cycle {
			return a.Cycle < b.Cycle
		}
		return a.Scheduler < b.Scheduler
	})
}
