package sim

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/warpbook/warpbook/engine/sass"
)

// sbEntry is one outstanding operation on a dependence counter.
type sbEntry struct {
	t    int64   // the cycle it releases the counter
	pc   int32   // the instruction that incremented it
	kind sbClass // the scoreboard a wait for it reports
	n    uint8   // operations it stands for (merged entries stand for several)
}

// sbCap is how many operations a counter keeps apart; beyond it the two
// that complete first merge into one that completes when the later does
// (a wait then waits for both, never less).
const sbCap = 8

// sbCounter is one dependence counter: its outstanding operations, sorted
// by release time.
type sbCounter struct {
	n int8
	e [sbCap]sbEntry
}

// sbState is a warp's six dependence counters.
type sbState [sass.Counters]sbCounter

// push adds an operation that releases the counter at t.
func (c *sbCounter) push(now, t int64, kind sbClass, pc int32) {
	// Forget the operations that have completed.
	k := 0
	for k < int(c.n) && c.e[k].t <= now {
		k++
	}
	if k > 0 {
		copy(c.e[:], c.e[k:c.n])
		c.n -= int8(k)
	}
	if int(c.n) == sbCap {
		c.e[1].n += c.e[0].n
		copy(c.e[:], c.e[1:c.n])
		c.n--
	}
	e := sbEntry{t: t, pc: pc, kind: kind, n: 1}
	i := int(c.n)
	for i > 0 && c.e[i-1].t > t {
		c.e[i] = c.e[i-1]
		i--
	}
	c.e[i] = e
	c.n++
}

// atMost returns the entry whose completion brings the counter down to
// limit or below (so the cycle a wait ends and what it waited for), and
// false when it is there already.
func (c *sbCounter) atMost(limit int) (sbEntry, bool) {
	total := 0
	for k := 0; k < int(c.n); k++ {
		total += int(c.e[k].n)
	}
	if total <= limit {
		return sbEntry{}, false
	}
	for k := 0; k < int(c.n); k++ {
		total -= int(c.e[k].n)
		if total <= limit {
			return c.e[k], true
		}
	}
	return c.e[c.n-1], true
}

// simtEntry is a deferred path of a divergent warp: where it resumes, with
// which lanes, and where it reconverges.
type simtEntry struct {
	pc, rpc int32
	mask    uint32
}

// errSASS marks a run stopped by something the kernel did that the model
// cannot follow (a RET with no CALL, nesting past a bound).
var errSASS = errors.New("sim: the kernel")

// sbOperands finds when a SASS instruction's wait mask (and a DEPBAR.LE's
// count) is satisfied: the counter released last decides, and on equal
// times long beats short.
func (s *sm) sbOperands(w *warp) {
	in := &s.code[w.pc]
	if in.wait == 0 && in.depSB < 0 {
		// It waits for no counter (most instructions).
		w.opsPC, w.opsReady, w.opsKind, w.opsPipe, w.opsAlt = w.pc, 0, sbFixed, in.pipe, false
		w.opsCause, w.opsSB = -1, -1
		return
	}
	var latest int64
	kind, cause, csb := sbFixed, int32(-1), int8(-1)
	st := &s.sbs[w.slot]
	for m := in.wait; m != 0; m &= m - 1 {
		b := bits.TrailingZeros8(m)
		// Waiting for zero is waiting for the last of its operations.
		if c := &st[b]; c.n > 0 {
			if e := c.e[c.n-1]; e.t > latest || e.t == latest && e.kind > kind {
				latest, kind, cause, csb = e.t, e.kind, e.pc, int8(b)
			}
		}
	}
	if in.depSB >= 0 {
		if e, ok := st[in.depSB].atMost(int(in.depN)); ok && (e.t > latest || e.t == latest && e.kind > kind) {
			latest, kind, cause, csb = e.t, e.kind, e.pc, in.depSB
		}
	}
	w.opsPC, w.opsReady, w.opsKind, w.opsPipe, w.opsAlt = w.pc, latest, kind, in.pipe, false
	w.opsCause, w.opsSB = cause, csb
}

// issueSASS performs a SASS kernel's instruction, in, for the warp's n
// active threads: its action, then the dependence counters it sets, then
// its stall count.
func (s *sm) issueSASS(sc *scheduler, w *warp, in *inst, n, now int64) {
	pc := w.pc
	lat := s.reservePipe(sc, in, now)
	ready := int64(-1)
	next, state := true, Wait
	switch in.act {
	case actMath:
		ready = now + lat
	case actGMMA:
		ready = now + lat
		s.groupAdd(w, groupMMA, ready)
	case actShared, actGlobal:
		ready = s.access(sc, in, n, now)
		s.memResult(w, in, ready)
	case actAsyncCopy:
		ready = s.access(sc, in, n, now)
		s.groupAdd(w, groupCopy, ready)
		w.memDone = max(w.memDone, ready)
	case actCommit:
		// LDGDEPBAR: its counter is released when the group it commits
		// has landed in shared memory.
		g := s.groupsOf(w, groupCopy)
		ready = max(now+1, g.open)
		g.open, g.hasOpen = 0, false
	case actWaitGroup:
		s.groupCommit(w, groupMMA)
		t := s.groupWait(w, groupMMA, int(in.arg))
		w.blockUntil, w.blockState, w.blockCause = max(now+1, t), GMMA, int32(pc)
	case actBar:
		s.arrive(w, now)
		next = false
	case actMembar:
		w.blockUntil = max(now+int64(s.m.MembarLatency), w.memDone)
		w.blockState, w.blockCause = Membar, int32(pc)
	case actSleep:
		w.blockUntil = now + 1 + int64(in.arg)*int64(max(1, s.m.ClockMHz))/1000
		w.blockState, w.blockCause = Sleeping, int32(pc)
	case actExit:
		if s.sassExit(w, in, now) {
			return
		}
		next = false
	case actBranch:
		s.jump(w, in)
		next, state = false, BranchResolving
	}
	s.sassTail(w, in, pc, ready, next, state, now)
}

// sassTail ends the issue of a SASS kernel's instruction in at pc, whose
// result is ready at cycle ready (-1: it has none): the dependence
// counters it sets, its stall count, which holds the warp in state, and
// the warp's move to its next instruction (when next).
func (s *sm) sassTail(w *warp, in *inst, pc int32, ready int64, next bool, state State, now int64) {
	if in.wbar >= 0 || in.rbar >= 0 {
		s.sassCounters(w, in, pc, ready, now)
	}
	t := now + int64(in.stall)
	if in.yield && in.stall < 2 {
		t = now + 2 // Huerta et al.: the warp may not issue in the next cycle
	}
	if w.blockUntil < t {
		w.blockUntil, w.blockState, w.blockCause = t, state, int32(pc)
	}
	if next {
		w.pc++
	}
	s.sassSettle(w)
}

// sassCounters sets the dependence counters of instruction in at pc.
func (s *sm) sassCounters(w *warp, in *inst, pc int32, ready, now int64) {
	st := &s.sbs[w.slot]
	if in.wbar >= 0 && ready >= 0 {
		st[in.wbar].push(now, ready, in.sb, int32(pc))
	}
	if in.rbar >= 0 {
		st[in.rbar].push(now, now+int64(in.rlat), in.sb, int32(pc))
	}
}

// arrive makes the warp arrive at its block's barrier (BAR) and releases
// the block when it is the last.
func (s *sm) arrive(w *warp, now int64) {
	b := &s.blocks[w.block]
	b.arrived++
	b.waiting = append(b.waiting, w.slot)
	w.barPC = w.pc
	w.blockUntil, w.blockState, w.blockCause = never, Barrier, s.pcs[w.pc]
	w.pc++
	if b.arrived >= b.live {
		s.release(b, now)
	}
}

// jump moves a warp past a SASS control instruction (BRA, JMP, CALL, RET).
func (s *sm) jump(w *warp, in *inst) {
	taken := false
	switch in.jump {
	case jumpAlways:
		taken = true
	case jumpTrips:
		c := &s.trips[int(w.slot)*s.ntrips+int(in.trip)]
		if *c == 0 {
			*c = in.arg
		}
		*c--
		taken = *c > 0
	case jumpExitAfter:
		c := &s.trips[int(w.slot)*s.ntrips+int(in.trip)]
		if *c == 0 {
			*c = in.arg + 1
		}
		*c--
		taken = *c == 0
	case jumpWarps:
		taken = in.warps>>uint(w.widx)&1 != 0
	case jumpLanes:
		t := w.mask & in.lanes
		switch {
		case t == w.mask:
			taken = true
		case t != 0:
			s.diverge(w, in, t)
			return
		}
	case jumpCall:
		if w.callN >= maxCalls {
			s.failf("calls nested deeper than %d at %s", maxCalls, s.where(w.pc))
			return
		}
		s.calls[int(w.slot)*maxCalls+int(w.callN)] = w.pc + 1
		w.callN++
		w.pc = in.target
		return
	case jumpRet:
		if w.callN == 0 {
			s.failf("%s returns with no CALL to return to", s.where(w.pc))
			return
		}
		w.callN--
		w.pc = s.calls[int(w.slot)*maxCalls+int(w.callN)]
		return
	}
	if taken {
		w.pc = in.target
	} else {
		w.pc++
	}
}

// diverge splits the warp at a branch that some of its lanes take: the
// taken lanes run first, the others when those reach the reconvergence
// point, and the whole warp goes on from there.
func (s *sm) diverge(w *warp, in *inst, taken uint32) {
	if w.simtN+2 > maxSIMT {
		s.failf("divergent branches nested deeper than %d at %s", maxSIMT/2, s.where(w.pc))
		return
	}
	stack := s.simt[int(w.slot)*maxSIMT:]
	r := in.trip
	stack[w.simtN] = simtEntry{pc: r, mask: w.mask, rpc: w.rpc}
	stack[w.simtN+1] = simtEntry{pc: w.pc + 1, mask: w.mask &^ taken, rpc: r}
	w.simtN += 2
	w.pc, w.mask, w.rpc = in.target, taken, r
}

// sassSettle reconverges a warp whose path has reached its reconvergence
// point.
func (s *sm) sassSettle(w *warp) {
	for w.rpc >= 0 && w.pc == w.rpc && w.simtN > 0 {
		s.popPath(w)
	}
}

// popPath resumes the warp's most recently deferred path.
func (s *sm) popPath(w *warp) {
	w.simtN--
	e := s.simt[int(w.slot)*maxSIMT+int(w.simtN)]
	w.pc, w.mask, w.rpc = e.pc, e.mask, e.rpc
}

// sassExit runs an EXIT of a SASS kernel: the lanes it ends leave the
// warp, and the warp leaves when none are left on any path. It reports
// whether the warp has left (in the drain state).
func (s *sm) sassExit(w *warp, in *inst, now int64) bool {
	gone := w.mask
	switch in.jump {
	case jumpNever:
		gone = 0
	case jumpLanes:
		gone = w.mask & in.lanes
	case jumpWarps:
		if in.warps>>uint(w.widx)&1 == 0 {
			gone = 0
		}
	}
	if gone == 0 {
		w.pc++
		return false
	}
	w.mask &^= gone
	if s.simt != nil {
		stack := s.simt[int(w.slot)*maxSIMT : int(w.slot)*maxSIMT+int(w.simtN)]
		for i := range stack {
			stack[i].mask &^= gone
		}
	}
	if w.mask != 0 {
		w.pc++
		return false
	}
	for w.simtN > 0 {
		s.popPath(w)
		if w.mask != 0 && w.pc >= 0 {
			return false
		}
	}
	s.exitWarp(w, now)
	return true
}

// exitWarp ends a warp that has executed EXIT with all its lanes: it drains
// its stores and leaves its slot.
func (s *sm) exitWarp(w *warp, now int64) {
	b := &s.blocks[w.block]
	w.exited = true
	b.live--
	w.blockUntil = max(now+1, w.storeDone)
	w.blockState, w.blockCause = Drain, s.pcs[w.pc]
	if s.meas != nil {
		s.steadyEnd(now)
	}
	if w.blockUntil < s.nextRetire {
		s.nextRetire = w.blockUntil
	}
	if b.arrived > 0 && b.arrived >= b.live {
		s.release(b, now)
	}
	for i := range b.named {
		if nb := &b.named[i]; nb.all && nb.arrived > 0 && nb.arrived >= 32*b.live {
			s.releaseNamed(nb, now)
		}
	}
}

// where names instruction pc of the kernel for run-time errors.
func (s *sm) where(pc int32) string {
	in := &s.code[pc]
	if s.listing != "" {
		return fmt.Sprintf("%s (%s:%d:%d)", in.op, s.listing, in.pos.line, in.pos.col)
	}
	return in.op
}

// failf stops the run with an error.
func (s *sm) failf(format string, args ...any) {
	if s.fail == nil {
		s.fail = fmt.Errorf("%w %s", errSASS, fmt.Sprintf(format, args...))
	}
}
