package sim

import (
	"strings"
	"testing"
)

// loadedToy is a toy machine with the queue model and a DRAM channel, so
// that each memory-under-load setting can be turned on alone.
func loadedToy() Machine {
	m := Toy()
	m.QueueModel = true
	m.LGQueue = 0
	m.DRAMBytesPerCycle = 8
	return m
}

// spans runs w on m with a trace of its first cycles and returns the
// warps' stays.
func spans(t *testing.T, m Machine, w Workload, to int) []Span {
	t.Helper()
	return runWith(t, Config{Machine: &m, Trace: Window{From: 0, To: to}}, w).Trace.Spans
}

// TestBlockLaunch: a block's place is taken BlockLaunch cycles after its
// last warp leaves, and the SM is not active in between.
func TestBlockLaunch(t *testing.T) {
	w := Workload{Name: "launch", Launch: Launch{Block: 32, Blocks: 3, Resident: 1}, Program: NewProgram().FFMA("r0", "r1", "r2")}
	for _, launch := range []int{0, 1, 100} {
		m := loadedToy()
		m.BlockLaunch = launch
		sp := spans(t, m, w, 1000)
		if len(sp) != 3 {
			t.Fatalf("launch %d: %d spans, want 3", launch, len(sp))
		}
		for i := 1; i < 3; i++ {
			if gap := sp[i].Start - sp[i-1].End; gap != launch {
				t.Errorf("BlockLaunch %d: block %d starts %d cycles after block %d left", launch, i, gap, i-1)
			}
		}
		m.SMs = 1
		r, err := Config{Machine: &m}.Run(w)
		if err != nil {
			t.Fatal(err)
		}
		if idle := r.RunCycles - r.ActiveCycles; idle != 2*launch {
			t.Errorf("BlockLaunch %d: %d of %d cycles inactive, want %d", launch, idle, r.RunCycles, 2*launch)
		}
	}
}

// TestStoreRetire: a warp whose last instruction is a DRAM store leaves
// StoreRetire cycles after it (the write-back L2 takes the store), not a
// DRAM latency later; without StoreRetire it waits for DRAM.
func TestStoreRetire(t *testing.T) {
	w := Workload{Name: "store", Launch: Launch{Block: 32, Blocks: 1}, Program: NewProgram().Add(Inst{Op: "STG", Src: []string{"a", "v"}})}
	for _, c := range []struct{ retire, want int }{{0, 400}, {50, 50}} {
		m := loadedToy()
		m.StoreRetire = c.retire
		sp := spans(t, m, w, 1000)
		// The store issues in cycle 0, EXIT in cycle 1; the warp leaves
		// when the store has retired.
		if got := sp[0].End; got != c.want {
			t.Errorf("StoreRetire %d: the warp left at cycle %d, want %d", c.retire, got, c.want)
		}
	}
}

// chaseCycles is the cycles per load of one warp's dependent DRAM loads on
// m while other warps stream independent loads (none when streamers is 0).
func chaseCycles(t *testing.T, m Machine, streamers int) float64 {
	chase := NewProgram().Loop(40, NewProgram().Add(Inst{Op: "LDG", Dst: "p", Src: []string{"p"}}))
	stream := NewProgram().Loop(400, NewProgram().ILP(4, "LDG", "v", "a"))
	p := NewProgram().BranchWarps("0", chase, stream)
	m.SMs = 1
	r, err := Config{Machine: &m, Trace: Window{From: 0, To: 100000}}.Run(Workload{Name: "chase", Launch: Launch{Block: 32 * (1 + streamers), Blocks: 1}, Program: p})
	if err != nil {
		t.Fatal(err)
	}
	var first, last int
	n := 0
	for _, is := range r.Trace.Issues {
		if is.Op == "LDG" && is.Warp == 0 {
			if n == 0 {
				first = is.Cycle
			}
			last = is.Cycle
			n++
		}
	}
	return float64(last-first) / float64(n-1)
}

// TestLoadedLatency: a dependent chain of DRAM loads takes DRAMLatency per
// load alone, and more while other warps keep the channel busy, up to
// DRAMLoadedLatency and the queue's wait; without DRAMLoadedLatency the
// busy channel adds only its queue.
func TestLoadedLatency(t *testing.T) {
	m := loadedToy()
	m.DRAMLoadedLatency = 800
	// Alone, the chase's own load is one 128-byte access per 400 cycles,
	// 4 % of the channel: 16 cycles more than unloaded.
	alone := chaseCycles(t, m, 0)
	if alone < 400 || alone > 420 {
		t.Errorf("a chase alone: %.1f cycles per load, want the unloaded 400 and its own load's 16", alone)
	}
	busy := chaseCycles(t, m, 16)
	if busy < 700 {
		t.Errorf("a chase beside 16 streaming warps: %.1f cycles per load, want near DRAMLoadedLatency (800)", busy)
	}
	flat := loadedToy()
	if got := chaseCycles(t, flat, 16); got >= busy {
		t.Errorf("without DRAMLoadedLatency the busy chase takes %.1f cycles, want less than the loaded %.1f", got, busy)
	}
}

// TestDRAMCredit: a burst after a quiet spell does not queue behind itself
// as long as it fits in one DRAM latency's worth of the channel.
func TestDRAMCredit(t *testing.T) {
	m := loadedToy()
	// 4 warps × 4 loads × 128 bytes = 2 KB; the channel moves 8 bytes a
	// cycle, so 3.2 KB in 400 cycles: the burst fits.
	p := NewProgram().ILP(4, "LDG", "v", "a").FFMA("s", "v~3", "v~3")
	w := Workload{Name: "burst", Launch: Launch{Block: 128, Blocks: 1}, Program: p}
	m.SMs = 1
	r, err := Config{Machine: &m}.Run(w)
	if err != nil {
		t.Fatal(err)
	}
	// Issue (16 loads, one scheduler), the unloaded latency, the FFMA and EXIT.
	if r.RunCycles > 400+16+4+4 {
		t.Errorf("a 2 KB burst on an idle 8 B/cycle channel took %d cycles, want about the 400-cycle latency", r.RunCycles)
	}
}

// TestAtClock: the memory system keeps its nanoseconds, the SM its cycles.
func TestAtClock(t *testing.T) {
	h := Hopper()
	at := h.AtClock(990) // half the boost clock
	if at.ClockMHz != 990 || at.DRAMLatency != h.DRAMLatency/2 || at.L2Latency != (h.L2Latency+1)/2 ||
		at.BlockLaunch != h.BlockLaunch/2 || at.DRAMBytesPerCycle != 2*h.DRAMBytesPerCycle || at.L2BytesPerCycle != 2*h.L2BytesPerCycle {
		t.Errorf("Hopper().AtClock(990) = clock %d, DRAM %d, L2 %d, launch %d, %g and %g B/cycle; want half the latencies and twice the bytes of %d, %d, %d, %g, %g",
			at.ClockMHz, at.DRAMLatency, at.L2Latency, at.BlockLaunch, at.DRAMBytesPerCycle, at.L2BytesPerCycle,
			h.DRAMLatency, h.L2Latency, h.BlockLaunch, h.DRAMBytesPerCycle, h.L2BytesPerCycle)
	}
	if at.SharedLatency != h.SharedLatency || at.L1Latency != h.L1Latency || at.FMA != h.FMA || at.MemIssueInterval != h.MemIssueInterval {
		t.Errorf("AtClock changed the SM's own cycles")
	}
	if got := h.AtClock(h.ClockMHz); got.DRAMLatency != h.DRAMLatency || got.DRAMBytesPerCycle != h.DRAMBytesPerCycle {
		t.Errorf("AtClock(ClockMHz) changed the machine")
	}
	if got := Toy().AtClock(1000); got.ClockMHz != 0 || got.DRAMLatency != Toy().DRAMLatency {
		t.Errorf("the toy has no clock; AtClock changed it")
	}
	// The H100 SXM's tensor peak holds at 1.83 GHz: 989.4 TFLOPS there.
	tc := h.AtClock(h.TensorClockMHz)
	tflops := float64(h.SMs*h.Schedulers*h.TensorFMA*2) * float64(tc.ClockMHz) * 1e6 / 1e12
	if tflops < 989.0 || tflops > 989.5 {
		t.Errorf("hopper at its tensor clock: %.1f TFLOPS, want NVIDIA's 989.4", tflops)
	}
}

// TestLoadedValidate: the memory-under-load fields are checked.
func TestLoadedValidate(t *testing.T) {
	for _, c := range []struct {
		edit func(*Machine)
		want string
	}{
		{func(m *Machine) { m.DRAMLoadedLatency = 10 }, "DRAMLoadedLatency = 10"},
		{func(m *Machine) { m.StoreRetire = -1 }, "StoreRetire = -1"},
		{func(m *Machine) { m.DRAMServiceCycles = -1 }, "DRAMServiceCycles = -1"},
		{func(m *Machine) { m.BlockLaunch = -1 }, "BlockLaunch"},
		{func(m *Machine) { m.TensorClockMHz = -1 }, "TensorClockMHz"},
	} {
		m := loadedToy()
		c.edit(&m)
		if err := m.validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("validate: %v, want an error naming %q", err, c.want)
		}
	}
}

// TestWarpsPerScheduler: a scheduler's warp sets span several words
// (see due.go) when it holds more than 64 warps, up to all 256 slots a
// machine may have on one scheduler: every warp issues its instructions,
// under every policy, with one scheduler kept busy (256 warps hide a
// 4-cycle chain), and the run's identities hold.
func TestWarpsPerScheduler(t *testing.T) {
	m := loadedToy()
	m.Schedulers, m.MaxWarps, m.MaxBlocks = 1, 256, 8
	const n = 20
	for _, pol := range []string{"lrr", "gto", "gty", "oldest", "two_level:8"} {
		name := "256 warps on one scheduler, " + pol
		res := runWith(t, Config{Machine: &m}, Workload{Name: name, Policy: pol, Launch: Launch{Block: 1024, Blocks: 8}, Program: chain("FFMA", n)})
		if res.Instructions < 256*n {
			t.Errorf("%s: %d warp instructions issued, want at least %d (256 warps × %d)", name, res.Instructions, 256*n, n)
		}
		if res.IssuedPerCycle < 0.9 {
			t.Errorf("%s: %.2f instructions issued per cycle, want the scheduler kept busy", name, res.IssuedPerCycle)
		}
	}
}
