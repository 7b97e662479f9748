package sim

import "fmt"

// counts are the counters of a run up to some cycle: everything a Result
// is computed from.
type counts struct {
	scheds   []schedCounts
	smActive int64 // cycles with a resident warp
	pc       pcCounts
}

// schedCounts are one scheduler's counters; a scheduler keeps its running
// counts in one.
type schedCounts struct {
	active  int64
	issued  int64 // cycles in which it issued (one or, with dual issue, two instructions)
	inst    int64
	threads int64
	cycles  [numStates]int64
}

func newCounts(schedulers, npc int) counts {
	return counts{scheds: make([]schedCounts, schedulers), pc: newPCCounts(npc)}
}

// sub returns c - base, scheduler by scheduler.
func (c counts) sub(base counts) counts {
	out := newCounts(len(c.scheds), 0)
	out.pc = c.pc.sub(&base.pc)
	out.smActive = c.smActive - base.smActive
	for i := range c.scheds {
		a, b, o := &c.scheds[i], &base.scheds[i], &out.scheds[i]
		o.active = a.active - b.active
		o.issued = a.issued - b.issued
		o.inst = a.inst - b.inst
		o.threads = a.threads - b.threads
		for st := range o.cycles {
			o.cycles[st] = a.cycles[st] - b.cycles[st]
		}
	}
	return out
}

// measureRec takes the snapshots of a measurement window during a run.
type measureRec struct {
	from, to int64 // the window; to is -1 until known (Steady)
	steady   bool
	taken    int       // snapshots taken: 0, 1 (at from) or 2 (at to)
	at       [2]counts // the counters at from and at to
}

func newMeasureRec(from, to int64, steady bool, schedulers, npc int) *measureRec {
	return &measureRec{from: from, to: to, steady: steady,
		at: [2]counts{newCounts(schedulers, npc), newCounts(schedulers, npc)}}
}

// pending returns the next cycle at which a snapshot is due, never when
// none is (yet) known.
func (m *measureRec) pending() int64 {
	switch {
	case m.taken == 0:
		return m.from
	case m.taken == 1 && m.to >= 0:
		return m.to
	}
	return never
}

// snapshot records the counters as they stand at the start of cycle b, for
// each window boundary b in (now, next]: the run has finished cycle now
// and nothing changes before next, so a warp is in its current state and a
// scheduler with warps is active through every cycle in between. It reads
// the run's state and changes none of it.
func (s *sm) snapshot(now, next int64) {
	m := s.meas
	for {
		b := m.pending()
		if b > next || b <= now {
			break
		}
		c := &m.at[m.taken]
		c.smActive = s.smActive
		if s.resident > 0 {
			c.smActive += b - s.residentSince
		}
		c.pc.copyFrom(&s.pcc)
		for i := range s.scheds {
			sc, o := &s.scheds[i], &c.scheds[i]
			*o = sc.schedCounts
			if len(sc.warps) > 0 {
				o.active += b - sc.activeSince
			}
			for _, slot := range sc.warps {
				w := &s.ws[slot]
				d := b - w.since
				if w.rdy {
					thr := s.readySplit(sc, w, b)
					st := throttleOf(w.rcls)
					o.cycles[st] += thr
					o.cycles[NotSelected] += d - thr
					c.pc.charge(w.pc, st, -1, -1, thr)
					c.pc.charge(w.pc, NotSelected, -1, -1, d-thr)
					continue
				}
				o.cycles[w.state] += d
				if d > 0 && w.state != Selected {
					c.pc.charge(w.pc, w.state, w.stateCause, w.stateSB, d)
				}
			}
		}
		m.taken++
	}
	s.measNext = m.pending()
}

// steadyEnd is called when a warp issues EXIT at cycle now: the first one
// after the grid's last block launched ends a Steady window after this
// cycle.
func (s *sm) steadyEnd(now int64) {
	if s.meas == nil || !s.meas.steady || s.meas.to >= 0 || s.blocksLaunch < s.blocksTotal {
		return
	}
	s.meas.to = now + 1
	s.measNext = s.meas.pending()
}

// total returns the counters of the whole run, which ended at end.
func (s *sm) total() counts {
	c := newCounts(len(s.scheds), 0)
	c.pc = s.pcc
	c.smActive = s.smActive
	for i := range s.scheds {
		c.scheds[i] = s.scheds[i].schedCounts
	}
	return c
}

// measured returns the counters over the measured window and the window,
// or an error when the window does not lie inside the run.
func (s *sm) measured(end int64) (counts, Window, error) {
	m := s.meas
	if m == nil {
		return s.total(), Window{From: 0, To: int(end)}, nil
	}
	w := Window{From: int(m.from), To: int(m.to)}
	// A Steady window always lies inside the run: its first EXIT issues at
	// or after FetchLatency, and the run ends after it.
	if m.taken < 2 {
		return counts{}, w, fmt.Errorf("sim: measure window [%d, %d) reaches past the end of the run at cycle %d; want 0 ≤ From < To ≤ %d",
			m.from, m.to, end, end)
	}
	return m.at[1].sub(m.at[0]), w, nil
}
