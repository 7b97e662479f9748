package sim

import "math/bits"

// A warp whose next instruction has its operands and is not held by
// anything it issued is ready: in each cycle it is eligible when the
// resource its instruction needs is free, and in that resource's throttle
// state otherwise (math_pipe_throttle, lg_throttle, mio_throttle). Rather
// than classify every ready warp in every cycle, a scheduler keeps its
// ready warps in a list and counts, for each resource, the cycles it was
// free while some ready warp wanted it, in the scheduler's visits (it
// skips a cycle only while every resource a ready warp wants is busy);
// when a ready warp issues, the free cycles of its resource since it
// became ready are its not_selected cycles and the others its throttle
// cycles. The counts are the same as a
// cycle-by-cycle classification's; only the two-level policy (whose fetch
// groups change a ready warp's state) and a trace (which records every
// cycle) classify cycle by cycle.

// rclass is the resource a ready warp's instruction needs.
type rclass uint8

// The scheduler pipes are classes 0 to numSchedPipes-1.
const (
	classFMAAlt     rclass = rclass(numSchedPipes) + iota // FFMA that may also use Machine.FMA2
	classFP64Shared                                       // FP64 on an SM-wide unit (Machine.FP64Shared)
	classLSU                                              // global and local memory: the memory queue and the LG bound
	classMIO                                              // shared memory: the memory queue
	classNone                                             // needs nothing
	numClasses
)

// classOf returns the resource the warp's next instruction needs (its
// operands having been looked at for this instruction).
func (s *sm) classOf(w *warp) rclass {
	switch p := w.opsPipe; {
	case p == pipeFMA && w.opsAlt:
		return classFMAAlt
	case p == pipeFP64 && s.m.FP64Shared:
		return classFP64Shared
	case p < numSchedPipes:
		return rclass(p)
	case p == pipeLSU:
		return classLSU
	case p == pipeMIO:
		return classMIO
	}
	return classNone
}

// freeAt returns the first cycle at which class c is free for a warp of
// scheduler sc, as eval decides it (free in cycle t when freeAt ≤ t).
func (s *sm) freeAt(sc *scheduler, c rclass) int64 {
	switch {
	case c < rclass(numSchedPipes):
		return sc.pipeFree[c]
	case c == classFMAAlt:
		return min(sc.pipeFree[pipeFMA], sc.fma2Free)
	case c == classFP64Shared:
		return s.fp64Free
	case c == classLSU:
		var t int64
		if sc.memq != nil {
			t = sc.memqMin
		}
		if s.lg != nil {
			t = max(t, s.lgMin)
		}
		return t
	case c == classMIO:
		if sc.memq != nil {
			return sc.memqMin
		}
	}
	return 0
}

// throttleOf is the state of a ready warp whose class is busy.
func throttleOf(c rclass) State {
	switch c {
	case classLSU:
		return LGThrottle
	case classMIO:
		return MIOThrottle
	}
	return MathPipeThrottle
}

// readyCycle counts cycle now as free for every class some ready warp
// wants that is free in it and returns the set of the ready warps of the
// free classes, nil when there are none: one class's own set, read-only,
// or their union in u.
func (s *sm) readyCycle(sc *scheduler, now int64, u *wset) *wset {
	var free *wset
	for m := sc.rmask; m != 0; m &= m - 1 {
		c := rclass(bits.TrailingZeros16(m))
		if s.freeAt(sc, c) > now {
			continue
		}
		sc.free[c]++
		switch {
		case free == nil:
			free = &sc.ready[c]
		case free != u:
			*u = *free
			free = u
			fallthrough
		default:
			for i := range sc.due.nw {
				u[i] |= sc.ready[c][i]
			}
		}
	}
	return free
}

// readyNext returns the first cycle after now in which a ready warp can be
// eligible (never when there is none): until then every class a ready
// warp wants is busy, so the scheduler may skip the cycles in between
// (none of them is free).
func (s *sm) readyNext(sc *scheduler, now int64) int64 {
	next := never
	for m := sc.rmask; m != 0; m &= m - 1 {
		next = min(next, s.freeAt(sc, rclass(bits.TrailingZeros16(m))))
	}
	return max(next, now+1)
}

// enterReady makes a warp that eval found ready, in no set of the wheel,
// one of its scheduler's ready warps, from cycle now.
func (s *sm) enterReady(sc *scheduler, w *warp, now int64) {
	s.setState(sc, w, NotSelected, now)
	c := s.classOf(w)
	w.rdy, w.rcls, w.rmark = true, c, sc.free[c]
	sc.rmask |= 1 << c
	sc.ready[c].add(w.local)
}

// readySplit returns the throttle cycles of a ready warp's span up to
// cycle b (exclusive), after the scheduler's last visit: the cycles of
// the span its class was not counted free in.
func (s *sm) readySplit(sc *scheduler, w *warp, b int64) int64 {
	return b - w.since - (sc.free[w.rcls] - w.rmark)
}

// leaveReady ends a ready warp's span at cycle now, when it is selected:
// its throttle and not_selected cycles are charged, and it is selected
// (its instruction is charged the selected cycle, as issueWarp's callers
// charge it).
func (s *sm) leaveReady(sc *scheduler, w *warp, now int64) {
	d := now - w.since
	// Its class is free in cycle now, which is counted and is not in
	// the span.
	thr := d - (sc.free[w.rcls] - w.rmark - 1)
	st := throttleOf(w.rcls)
	sc.cycles[st] += thr
	sc.cycles[NotSelected] += d - thr
	row := &s.pcc.rows[w.pc].states
	row[st] += thr
	row[NotSelected] += d - thr
	row[Selected]++
	w.rdy = false
	sc.ready[w.rcls].del(w.local)
	if sc.ready[w.rcls].empty(sc.due.nw) {
		sc.rmask &^= 1 << w.rcls
	}
	w.state, w.since, w.stateCause, w.stateSB = Selected, now, -1, -1
}
