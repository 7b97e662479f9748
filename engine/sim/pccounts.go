package sim

// causeSlots is how many causes of stalls each instruction keeps apart;
// the cycles of any others count in the instruction's total alone.
const causeSlots = 4

// causeCount is the warp-cycles one instruction stalled in one state
// because of another instruction: key packs the instruction that caused
// the stall, the dependence counter waited on and the state (causeKey),
// so that a slot is matched by one compare; key 0 is an empty slot (a
// cause's state is never Empty).
type causeCount struct {
	key uint64
	n   int64
}

// causeKey packs a cause: pc in bits 0-31, sb in 32-39, st in 40-47.
func causeKey(pc int32, sb int8, st State) uint64 {
	return uint64(uint32(pc)) | uint64(uint8(sb))<<32 | uint64(st)<<40
}

func (c causeCount) pc() int32 { return int32(uint32(c.key)) }
func (c causeCount) sb() int8  { return int8(uint8(c.key >> 32)) }
func (c causeCount) st() State { return State(c.key >> 40) }

// pcCounts are the per-instruction counts of a run: issues, threads and
// warp-cycles by state, each charged to the instruction the warp was about
// to issue (the PC Nsight Compute's source view samples), and the causes
// of stalls. Their rows are the program's code indices, not its PCs, so
// that the hot path charges w.pc without looking its PC up; a marker's row
// (no PC) is never charged, and lines reads each PC's row (a PC has one
// code index, so the rows' counts and cause slots are the PCs').
type pcCounts struct {
	n    int // rows: the program's code indices
	rows []pcRow
}

// pcRow is one instruction's counts, together so that a step of the run
// finds them all with one index.
type pcRow struct {
	states  [numStates]int64 // warp-cycles by state
	issued  int64
	threads int64
	causes  [causeSlots]causeCount
}

func newPCCounts(n int) pcCounts {
	return pcCounts{n: n, rows: make([]pcRow, n)}
}

// causeStates are the states whose cycles are also charged to a causing
// instruction (bit st: state st): a fixed-latency or scoreboard
// dependency, or a wait that an instruction started (branch, barrier,
// membar, sleep, drain, warpgroup MMA).
const causeStates = 1<<Wait | 1<<ShortScoreboard | 1<<LongScoreboard | 1<<GMMA |
	1<<BranchResolving | 1<<Barrier | 1<<Membar | 1<<Sleeping | 1<<Drain

// issue counts an issue of the instruction at code index i by a warp of
// threads threads.
func (c *pcCounts) issue(i int32, threads int64) {
	r := &c.rows[i]
	r.issued++
	r.threads += threads
}

// selected charges one cycle in the selected state to the instruction at
// code index i, the one a warp issues in it.
func (c *pcCounts) selected(i int32) {
	c.rows[i].states[Selected]++
}

// charge adds d warp-cycles in state st to the instruction at code index
// i, and to its cause when it has one.
func (c *pcCounts) charge(i int32, st State, cause int32, sb int8, d int64) {
	c.rows[i].states[st] += d
	if cause >= 0 {
		c.cause(i, cause, sb, st, d)
	}
}

// cause adds d warp-cycles that the instruction at code index i stalled in
// st because of instruction cause (a PC, on counter sb) to the first free
// or matching of its slots.
func (c *pcCounts) cause(i, cause int32, sb int8, st State, d int64) {
	c.rows[i].cause(cause, sb, st, d)
}

// cause adds d warp-cycles that the row's instruction stalled in st
// because of instruction cause (a PC, on counter sb) to the first free or
// matching of its slots.
func (r *pcRow) cause(cause int32, sb int8, st State, d int64) {
	key := causeKey(cause, sb, st)
	slots := &r.causes
	for i := range slots {
		sl := &slots[i]
		if sl.key == key {
			sl.n += d
			return
		}
		if sl.key == 0 {
			*sl = causeCount{key: key, n: d}
			return
		}
	}
}

// copyFrom makes c a copy of o (same size, no allocation).
func (c *pcCounts) copyFrom(o *pcCounts) {
	copy(c.rows, o.rows)
}

// sub returns c - base. A cause slot, once taken, never changes its
// identity, so base's slots are the same as c's or still empty.
func (c *pcCounts) sub(base *pcCounts) pcCounts {
	out := newPCCounts(c.n)
	for i := range out.rows {
		o, a, b := &out.rows[i], &c.rows[i], &base.rows[i]
		o.issued = a.issued - b.issued
		o.threads = a.threads - b.threads
		for st := range o.states {
			o.states[st] = a.states[st] - b.states[st]
		}
		o.causes = a.causes
		for k := range o.causes {
			o.causes[k].n -= b.causes[k].n
		}
	}
	return out
}
