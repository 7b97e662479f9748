package sim

import "math/bits"

// A scheduler looks at a warp again only when its state may change: at
// the cycle until which its current state holds (its until), or when
// another warp wakes it (a barrier's release, an mbarrier's phase).
// Rather than scan every warp in every cycle it visits, a scheduler keeps
// its warps in a timing wheel by that cycle: the warps due in the next
// wheelSize cycles in one set per cycle, the others in a far set. A visit
// takes the set of its cycle; the next cycle with a warp due is the first
// non-empty set after it. A ready warp (ready.go) and a free slot are due
// never and are in no set.

// setWords is the number of 64-bit words of a wset: 256 warps, the most
// warp slots a machine may have (Machine.MaxWarps), so that one scheduler
// may hold them all.
const setWords = 4

// A wset is a set of a scheduler's warps, a bit per local index (slot ÷
// Schedulers). Loops over one look at its first nw words, the ones a
// scheduler's warp slots use (a word for up to 64 warps, as on every
// GPU's scheduler): see scheduler.nw.
type wset [setWords]uint64

// The word of local index li is li>>6, which is below setWords (li <
// Machine.MaxWarps ≤ 256): the mask changes no index and spares the
// bounds check.
func (x *wset) add(li int32)      { x[li>>6&(setWords-1)] |= 1 << (li & 63) }
func (x *wset) del(li int32)      { x[li>>6&(setWords-1)] &^= 1 << (li & 63) }
func (x *wset) has(li int32) bool { return x[li>>6&(setWords-1)]&(1<<(li&63)) != 0 }

// empty reports whether the set's first nw words are empty.
func (x *wset) empty(nw int) bool {
	for i := range nw {
		if x[i] != 0 {
			return false
		}
	}
	return true
}

// wheelSize is the number of cycles the wheel covers, one set each.
const wheelSize = 64

// dueWheel holds a scheduler's waiting warps by the cycle they are due.
type dueWheel struct {
	until []int64 // per local index: the cycle the warp is due, never: in no set
	nw    int     // the words of a set in use
	base  int64   // the cycle of the last visit: every warp in a set is due at or after it
	sets  [wheelSize]wset
	occ   uint64 // bit b: sets[b] is not empty
	far   wset
	// farMin is at most the earliest cycle a warp of far is due.
	farMin int64
}

// newDueWheel returns an empty wheel for len(until) warps, with until as
// its per-warp cycles.
func newDueWheel(until []int64) dueWheel {
	d := dueWheel{until: until, nw: (len(until) + 63) / 64, base: -1, farMin: never}
	for i := range d.until {
		d.until[i] = never
	}
	return d
}

// place puts warp li, in no set, into the one of cycle t.
func (d *dueWheel) place(li int32, t int64) {
	d.until[li] = t
	switch {
	case t >= never:
	case t < d.base+wheelSize:
		b := t & (wheelSize - 1)
		d.sets[b].add(li)
		d.occ |= 1 << b
	default:
		d.far.add(li)
		d.farMin = min(d.farMin, t)
	}
}

// unplace takes warp li out of its set.
func (d *dueWheel) unplace(li int32) {
	t := d.until[li]
	if t >= never {
		return
	}
	d.until[li] = never
	if d.far.has(li) {
		d.far.del(li) // farMin stays a lower bound
		return
	}
	b := t & (wheelSize - 1)
	d.sets[b].del(li)
	if d.sets[b].empty(d.nw) {
		d.occ &^= 1 << b
	}
}

// set makes warp li due at cycle t.
func (d *dueWheel) set(li int32, t int64) {
	if d.until[li] != t {
		d.unplace(li)
		d.place(li, t)
	}
}

// take appends to due the local indices of the warps due at cycle now,
// the cycle of a visit (no warp is due before it), in ascending order,
// and takes them out of their sets: each is due never until placed again.
func (d *dueWheel) take(now int64, due []int32) []int32 {
	d.base = now
	if d.farMin < now+wheelSize {
		d.migrate(now)
	}
	b := now & (wheelSize - 1)
	if d.occ&(1<<b) == 0 {
		return due
	}
	set := &d.sets[b]
	for i := range d.nw {
		for x := set[i]; x != 0; x &= x - 1 {
			li := int32(i<<6 | bits.TrailingZeros64(x))
			d.until[li] = never
			due = append(due, li)
		}
	}
	*set = wset{}
	d.occ &^= 1 << b
	return due
}

// takeSet returns the set of the warps due at cycle now, the cycle of a
// visit (no warp is due before it), still in the wheel: the caller empties
// it, word by word as it reads them, and makes each of its warps due never
// (until) before it places it again. Until it has, it places no warp in
// it: every other cycle it may place a warp at, in (now, now+wheelSize),
// has another set.
func (d *dueWheel) takeSet(now int64) *wset {
	d.base = now
	if d.farMin < now+wheelSize {
		d.migrate(now)
	}
	b := now & (wheelSize - 1)
	d.occ &^= 1 << b // an empty set's bit is clear already
	return &d.sets[b]
}

// migrate moves the far warps due before now+wheelSize into the wheel.
func (d *dueWheel) migrate(now int64) {
	d.farMin = never
	for i := range d.nw {
		for x := d.far[i]; x != 0; x &= x - 1 {
			li := int32(i<<6 | bits.TrailingZeros64(x))
			if t := d.until[li]; t < now+wheelSize {
				d.far.del(li)
				b := t & (wheelSize - 1)
				d.sets[b].add(li)
				d.occ |= 1 << b
			} else {
				d.farMin = min(d.farMin, t)
			}
		}
	}
}

// next returns the first cycle after now, the cycle of the visit in
// progress, at which a warp is due (never: none).
func (d *dueWheel) next(now int64) int64 {
	if d.occ == 0 {
		return d.farMin
	}
	// Every warp in the wheel is due in (now, now+wheelSize).
	k := bits.TrailingZeros64(bits.RotateLeft64(d.occ, -int((now+1)&(wheelSize-1))))
	return min(d.farMin, now+1+int64(k))
}
