package sim

// causeSlots is how many causes of stalls each instruction keeps apart;
// the cycles of any others count in the instruction's total alone.
const causeSlots = 4

// causeCount is the warp-cycles one instruction stalled in one state
// because of another instruction.
type causeCount struct {
	pc int32 // the instruction that caused the stall; 0 with n 0: an empty slot
	sb int8  // the dependence counter waited on, -1 none
	st State
	n  int64
}

// pcCounts are the per-instruction counts of a run: issues, threads and
// warp-cycles by state, each charged to the instruction the warp was about
// to issue (the PC Nsight Compute's source view samples), and the causes
// of stalls.
type pcCounts struct {
	npc     int
	issued  []int64
	threads []int64
	states  []int64      // npc × numStates
	causes  []causeCount // npc × causeSlots
}

func newPCCounts(npc int) pcCounts {
	return pcCounts{npc: npc, issued: make([]int64, npc), threads: make([]int64, npc),
		states: make([]int64, npc*int(numStates)), causes: make([]causeCount, npc*causeSlots)}
}

// causeStates are the states whose cycles are also charged to a causing
// instruction: a fixed-latency or scoreboard dependency, or a wait that an
// instruction started (branch, barrier, membar, sleep, drain, warpgroup
// MMA).
var causeStates = [numStates]bool{Wait: true, ShortScoreboard: true, LongScoreboard: true, GMMA: true,
	BranchResolving: true, Barrier: true, Membar: true, Sleeping: true, Drain: true}

func (c *pcCounts) issue(pc int32, threads int64) {
	if pc < 0 || int(pc) >= c.npc {
		return
	}
	c.issued[pc]++
	c.threads[pc] += threads
}

// selected charges one cycle in the selected state to pc, the instruction
// a warp issues in it.
func (c *pcCounts) selected(pc int32) {
	if pc >= 0 && int(pc) < c.npc {
		c.states[int(pc)*int(numStates)+int(Selected)]++
	}
}

// charge adds d warp-cycles in state st to instruction pc, and to its
// cause when it has one.
func (c *pcCounts) charge(pc int32, st State, cause int32, sb int8, d int64) {
	if pc < 0 || int(pc) >= c.npc {
		return
	}
	c.states[int(pc)*int(numStates)+int(st)] += d
	if cause >= 0 {
		c.cause(pc, cause, sb, st, d)
	}
}

// cause adds d warp-cycles that pc stalled in st because of instruction
// cause (on counter sb) to the first free or matching of pc's slots.
func (c *pcCounts) cause(pc, cause int32, sb int8, st State, d int64) {
	slots := c.causes[int(pc)*causeSlots : int(pc+1)*causeSlots]
	for i := range slots {
		sl := &slots[i]
		if sl.n == 0 && sl.pc == 0 && sl.st == Empty {
			*sl = causeCount{pc: cause, sb: sb, st: st, n: d}
			return
		}
		if sl.pc == cause && sl.sb == sb && sl.st == st {
			sl.n += d
			return
		}
	}
}

// copyFrom makes c a copy of o (same size, no allocation).
func (c *pcCounts) copyFrom(o *pcCounts) {
	copy(c.issued, o.issued)
	copy(c.threads, o.threads)
	copy(c.states, o.states)
	copy(c.causes, o.causes)
}

// sub returns c - base. A cause slot, once taken, never changes its
// identity, so base's slots are the same as c's or still empty.
func (c *pcCounts) sub(base *pcCounts) pcCounts {
	out := newPCCounts(c.npc)
	for i := range out.issued {
		out.issued[i] = c.issued[i] - base.issued[i]
		out.threads[i] = c.threads[i] - base.threads[i]
	}
	for i := range out.states {
		out.states[i] = c.states[i] - base.states[i]
	}
	for i := range out.causes {
		out.causes[i] = c.causes[i]
		out.causes[i].n -= base.causes[i].n
	}
	return out
}
