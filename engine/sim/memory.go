package sim

import "math"

// access runs one memory instruction issued at cycle now by a warp of
// scheduler sc with n active threads through the memory pipeline and
// returns the cycle its data is ready (for a store: written). It reserves
// every stage it passes, so later accesses queue behind it.
//
// Without the queue model the access takes its level's latency. With it,
// the instruction first goes through the sub-partition's queue and, for a
// global or local one, its address unit and the SM's L1TEX stage
// (Machine.MemQueue on), then through the
// data paths of its level: the shared-memory banks, the L1TEX data path,
// the L2 and the DRAM channel. Each stage serves first come first served,
// and the access is ready its level's latency after issue plus however long
// it waited at the stages; the latency itself is what the instruction
// takes with nothing else in flight.
func (s *sm) access(sc *scheduler, in *inst, n int64, now int64) int64 {
	m := &s.m
	lat := int64(m.DRAMLatency)
	switch {
	case in.act == actShared && in.level == levelDSMEM:
		lat = int64(m.DSMEMLatency)
		if s.cluster > 2 && m.DSMEMWideLatency > 0 {
			lat = int64(m.DSMEMWideLatency)
		}
	case in.act == actShared:
		lat = int64(m.SharedLatency)
	case in.level == levelL1:
		lat = int64(m.L1Latency)
	case in.level == levelL2:
		lat = int64(m.L2Latency)
	case in.level == levelL2Far:
		lat = int64(m.L2Latency)
		if m.L2FarLatency > 0 {
			lat = int64(m.L2FarLatency)
		}
	}
	if in.act == actBulkCopy {
		lat += int64(m.TMALatency)
	}
	lat += int64(in.extra)
	if !m.QueueModel {
		return now + lat
	}
	s.memIssuer = sc.index
	// base is when the access reaches the data paths with nothing in
	// flight, at when it does.
	base, at := now, now
	if sc.memq != nil {
		base = now + int64(m.MemPipeDelay+m.AddrInterval)
		var acc int64
		if in.act == actShared {
			// A shared-memory instruction computes its addresses in
			// the SM's shared structures, not in the sub-partition's
			// address unit, and goes to the banks as soon as they are
			// free of the previous one (a conflict's replays back up
			// into the queue); it does not wait for the L1TEX stage.
			acc = max(base, int64(s.mioFree))
		} else {
			au := max(now+int64(m.MemPipeDelay), sc.auFree)
			sc.auFree = au + int64(m.AddrInterval)
			// The stage hands instructions to the L1TEX data path in
			// order: one waits while the path is still busy with the
			// previous ones.
			acc = max(au+int64(m.AddrInterval), s.stageFree)
			if in.act == actGlobal || in.act == actAsyncCopy {
				acc = max(acc, s.lsuFree)
			}
			s.stageFree = acc + int64(m.MemIssueInterval)
		}
		s.memqPush(sc, acc+1)
		at = acc
	}
	waves := scaled(in.waves, n)
	if in.act == actShared {
		// The banks take a pass per wavefront; the passes a conflict
		// adds are replays, ReplayInterval each.
		start := math.Max(float64(at), s.mioFree)
		replays := min(waves-1, scaled(in.replays, n))
		if in.replays == 0 {
			replays = 0
		}
		busy := float64((waves - replays) * int64(m.MIOInterval))
		if m.ReplayInterval > 0 {
			busy += float64(replays) * m.ReplayInterval
		} else {
			busy += float64(replays * int64(m.MIOInterval))
		}
		s.mioFree = start + busy
		ready := now + lat + int64(math.Ceil(start)) - base
		if in.level == levelDSMEM && m.DSMEMBytesPerCycle > 0 {
			// The SM-to-SM network carries the bytes to or from the
			// other block's SM, first come first served at the SM's
			// share, with one latency's worth of credit for a burst
			// (as the L2 and DRAM channels keep): an access waits only
			// for the bytes queued ahead of it.
			bytes := float64(int64(in.width) * n)
			v := math.Max(s.dsmemFree, start-float64(lat))
			s.dsmemFree = v + bytes/m.DSMEMBytesPerCycle
			ready = max(ready, now+lat+int64(math.Ceil(math.Max(start, v)))-base)
		}
		return ready
	}
	bytes := float64(32 * waves) // global: waves counts 32-byte sectors
	transfer := 0.0
	if in.act == actBulkCopy {
		// A bulk copy's own bytes take time to stream in through the
		// SM's tensor memory accelerator, at its rate for one copy; a
		// load's latency is measured with its few sectors included.
		// Copies in flight together overlap (the L2 and DRAM channels
		// below bound their sum).
		bytes = float64(in.arg)
		rate := m.TMABytesPerCycle
		if rate == 0 {
			rate = 128
		}
		transfer = bytes / rate
	} else {
		start := max(at, s.lsuFree)
		s.lsuFree = start + int64(ceilDiv(int(waves), 4)*m.LSUInterval)
		at = start
	}
	t := float64(at)
	// channel is when the access's bytes start on the last channel it
	// queues for (L2 or DRAM).
	channel := t
	if in.level >= levelL2 && m.L2BytesPerCycle > 0 {
		if s.l2.tc > 0 {
			// An L2 hit's latency rises with the L2's load, as the
			// DRAM's does (below).
			s.l2.add(now, bytes, in.store)
			if in.level != levelDRAM {
				u := min(maxDRAMLoad, (s.l2.rd+s.l2.wr)/m.L2BytesPerCycle)
				lat += int64(u * float64(m.L2LoadedLatency-m.L2Latency))
			}
		}
		// The L2 keeps credit for a burst as the DRAM channel does
		// (below), one L2 latency's worth.
		v := math.Max(s.l2Free, t-float64(m.L2Latency))
		t = math.Max(t, v)
		s.l2Free = v + bytes/m.L2BytesPerCycle
		transfer = math.Max(transfer, bytes/m.L2BytesPerCycle)
		channel = t
	}
	if in.level == levelDRAM && m.DRAMBytesPerCycle > 0 {
		lat += s.dramLoad(now, bytes, in.store)
		// The channel serves the SM first come first served at its
		// share of the bandwidth, but a burst after a quiet spell does
		// not queue behind itself: the channel keeps up to
		// DRAMLatency cycles of unused time as credit (a token bucket
		// of one latency's worth of its bytes), as the part's other
		// channels take the burst while the other SMs are not using
		// them.
		v := math.Max(s.dramFree, t-s.dramCredit)
		cost := bytes / m.DRAMBytesPerCycle
		if m.TurnaroundCost > 0 {
			// A stream that mixes reads and writes loses channel time
			// to turning the bus around, the less the more writes the
			// controller can batch: the deeper the backlog.
			backlog := math.Max(0, s.dramFree-t)
			cost *= 1 + s.dram.mix()*m.TurnaroundCost/(1+backlog/float64(max(1, m.TurnaroundBacklog)))
		}
		t = math.Max(t, v)
		s.dramFree = v + cost
		transfer = math.Max(transfer, bytes/m.DRAMBytesPerCycle)
		channel = t
	}
	if in.act != actBulkCopy {
		transfer = 0
	}
	ready := now + lat + int64(math.Ceil(t+transfer)) - base
	if in.store && in.level >= levelL2 && m.StoreRetire > 0 {
		// The write-back L2 takes the store: it retires after the
		// stages before the L2, or once a backed-up channel starts on
		// its bytes.
		ready = max(now+int64(m.StoreRetire)+at-base, int64(math.Ceil(channel)))
	}
	if s.lg != nil && in.act != actBulkCopy {
		s.lgPush(ready)
	}
	return ready
}

// dramAverage is the number of DRAM latencies over which the channel's
// load is averaged (the time constant of an exponential moving average):
// long enough to average over the bursts of a block launch, so that the
// load is the channel's steady use, short enough to follow a kernel's
// phases.
const dramAverage = 8

// dramLoadWindow is the SM's recent demand on its share of the DRAM
// channel: exponential moving averages of the bytes per cycle it read
// and wrote, as of cycle at.
type dramLoadWindow struct {
	tc     float64 // time constant in cycles; 0: no average (no DRAMLoadedLatency, no TurnaroundCost)
	at     int64
	rd, wr float64
}

// add decays the averages to now and adds an access of bytes.
func (w *dramLoadWindow) add(now int64, bytes float64, store bool) {
	if now > w.at {
		f := math.Exp(-float64(now-w.at) / w.tc)
		w.rd *= f
		w.wr *= f
		w.at = now
	}
	if store {
		w.wr += bytes / w.tc
	} else {
		w.rd += bytes / w.tc
	}
}

// mix is how evenly the recent traffic mixes reads and writes: 0 for a
// pure stream of either, 1 for as many bytes written as read.
func (w *dramLoadWindow) mix() float64 {
	t := w.rd + w.wr
	if t <= 0 {
		return 0
	}
	return 4 * w.rd * w.wr / (t * t)
}

// dramLoad records an access of the given bytes issued at now and returns
// the cycles the channel's load u adds to its latency:
// (DRAMLoadedLatency − DRAMLatency)·u + DRAMServiceCycles·u/(1−u), where u
// is the bytes per cycle asked of the channel recently (this access
// included) against what it moves, at most maxDRAMLoad.
func (s *sm) dramLoad(now int64, bytes float64, store bool) int64 {
	w := &s.dram
	if w.tc == 0 {
		return 0
	}
	w.add(now, bytes, store)
	load := min(maxDRAMLoad, (w.rd+w.wr)/s.m.DRAMBytesPerCycle)
	extra := load * float64(max(0, s.m.DRAMLoadedLatency-s.m.DRAMLatency))
	if s.m.DRAMServiceCycles > 0 {
		extra += float64(s.m.DRAMServiceCycles) * load / (1 - load)
	}
	return int64(extra)
}

// maxDRAMLoad is the highest load the latency curve is evaluated at:
// beyond it the channel's queue, not the curve, decides.
const maxDRAMLoad = 31.0 / 32

// scaled returns the wavefronts or sectors of an instruction with n of
// 32 threads active: w for a full warp, proportionally fewer (at least one)
// for a partial one.
func scaled(w int32, n int64) int64 {
	if n >= 32 {
		return int64(w)
	}
	return max(1, (int64(w)*n+31)/32)
}

// memqPush takes a free entry of the scheduler's memory queue until cycle
// free; an instruction only issues when one is free (memqMin ≤ now).
func (s *sm) memqPush(sc *scheduler, free int64) {
	sc.memq[sc.memqMinAt] = free
	sc.memqMin, sc.memqMinAt = sc.memq[0], 0
	for i, t := range sc.memq {
		if t < sc.memqMin {
			sc.memqMin, sc.memqMinAt = t, i
		}
	}
}

// lgPush records one more in-flight LG request completing at ready; the
// queue model only issues one when an entry is free (lgMin ≤ now).
func (s *sm) lgPush(ready int64) {
	s.lg[s.lgMinAt] = ready
	s.lgMin, s.lgMinAt = s.lg[0], 0
	for i, t := range s.lg {
		if t < s.lgMin {
			s.lgMin, s.lgMinAt = t, i
		}
	}
}

func (s *sm) groupsOf(w *warp, kind uint8) *asyncGroups {
	return &s.groups[int(w.slot)*int(numGroups)+int(kind)]
}

// groupAdd adds an asynchronous operation completing at done to the warp's
// open group of kind.
func (s *sm) groupAdd(w *warp, kind uint8, done int64) {
	g := s.groupsOf(w, kind)
	g.open = max(g.open, done)
	g.hasOpen = true
}

// groupCommit closes the open group of kind (LDGDEPBAR, or the commit a
// WARPGROUP.DEPBAR makes); an empty group commits nothing.
func (s *sm) groupCommit(w *warp, kind uint8) {
	g := s.groupsOf(w, kind)
	if !g.hasOpen {
		return
	}
	if g.n == maxGroups {
		g.done[1] = max(g.done[0], g.done[1])
		copy(g.done[:], g.done[1:])
		g.n--
	}
	g.done[g.n] = g.open
	g.n++
	g.open, g.hasOpen = 0, false
}

// groupWait returns the cycle by which at most keep of the warp's committed
// groups of kind are still in flight (they complete in commit order), and
// forgets the groups it waited for.
func (s *sm) groupWait(w *warp, kind uint8, keep int) int64 {
	g := s.groupsOf(w, kind)
	t := int64(0)
	drop := int(g.n) - keep
	if drop <= 0 {
		return 0
	}
	for _, d := range g.done[:drop] {
		t = max(t, d)
	}
	copy(g.done[:], g.done[drop:g.n])
	g.n -= int32(drop)
	return t
}

// mbarArrive brings one arrival, landing at done, to the warp's block's
// mbarrier bar; the arrival that completes a phase's count starts it,
// completing when the latest of its arrivals lands.
func (s *sm) mbarArrive(w *warp, bar int16, done, now int64) {
	b := &s.blocks[w.block].bars[bar]
	b.pendN++
	b.pendDone = max(b.pendDone, done)
	if b.pendN < max(1, b.expected) {
		return
	}
	d := b.pendDone
	b.pendN, b.pendDone = 0, 0
	s.mbarStart(w, bar, d, now)
}

// mbarStart starts the next phase of the warp's block's mbarrier bar,
// completing at done, and wakes the warps that wait for it.
func (s *sm) mbarStart(w *warp, bar int16, done, now int64) {
	b := &s.blocks[w.block].bars[bar]
	phase := b.issued
	b.done[phase%mbarRing] = done
	b.issued++
	keep := b.waiting[:0]
	for _, slot := range b.waiting {
		o := &s.ws[slot]
		if s.mbarSeen[int(slot)*s.nbars+int(bar)]-1 != phase {
			keep = append(keep, slot)
			continue
		}
		o.blockUntil = max(done, now+1)
		s.wake(slot, now+1)
	}
	b.waiting = keep
}

// mbarWait makes the warp wait for the next phase of its block's mbarrier
// bar: until that phase completes, or, when no UTMALDG or UBLKCP has started it yet,
// until one does (in short_scoreboard: the wait is an MIO operation).
func (s *sm) mbarWait(w *warp, bar int16, now int64) {
	b := &s.blocks[w.block].bars[bar]
	seen := &s.mbarSeen[int(w.slot)*s.nbars+int(bar)]
	phase := *seen
	*seen++
	w.blockState = ShortScoreboard
	switch {
	case phase < b.issued-mbarRing:
		w.blockUntil = now + 1 // long complete
	case phase < b.issued:
		w.blockUntil = max(now+1, b.done[phase%mbarRing])
	default:
		w.blockUntil = never
		b.waiting = append(b.waiting, w.slot)
	}
}
