package sim

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// one returns m with one SM, so that a grid of b blocks puts all b on the
// simulated SM.
func one(m Machine) *Machine {
	m.SMs = 1
	return &m
}

func runOn(t *testing.T, m *Machine, w Workload) *Result {
	t.Helper()
	return runWith(t, Config{Machine: m}, w)
}

// TestSectorsAndWavefronts: a warp's access touches the 32-byte sectors of
// its threads' bytes (the CUDA C++ Best Practices Guide's coalescing
// model), and a shared-memory access takes one pass over the 32 banks per
// 128-byte phase, more for bank conflicts (the Programming Guide's model
// for compute capability 5.x and later).
func TestSectorsAndWavefronts(t *testing.T) {
	cases := []struct {
		width, stride, sectors, waves int
	}{
		{4, 1, 4, 1},    // 128 contiguous bytes: 4 sectors, one pass
		{4, 2, 8, 2},    // every other word: twice the sectors, 2-way conflict
		{4, 8, 32, 8},   // a sector per thread
		{4, 32, 32, 32}, // every thread in bank 0: 32-way
		{4, 3, 12, 1},   // odd stride: no conflict
		{8, 1, 8, 2},    // 256 bytes in two half-warp phases
		{16, 1, 16, 4},  // 512 bytes in four quarter-warp phases
		{8, 2, 16, 4},   // 64-bit words two apart: 2-way in each phase
		{1, 1, 1, 1},    // 32 bytes: one sector, the threads share words
		{4, 0, 1, 1},    // broadcast: one word for every thread
		{16, 0, 1, 1},   // broadcast of 16 bytes
	}
	for _, c := range cases {
		if got := sectors(c.width, c.stride); got != c.sectors {
			t.Errorf("width %d stride %d: %d sectors, want %d", c.width, c.stride, got, c.sectors)
		}
		if got := wavefronts(c.width, c.stride); got != c.waves {
			t.Errorf("width %d stride %d: %d wavefronts, want %d", c.width, c.stride, got, c.waves)
		}
	}
}

// TestBankConflictSlowdown: an n-way conflict makes a load take n passes
// over the banks. Shared-memory instructions do not wait for the L1TEX
// stage (a memory instruction every 2 cycles), so the banks bound them:
// 1, 2, 8 and 32 passes per load.
func TestBankConflictSlowdown(t *testing.T) {
	perLoad := func(stride int) float64 {
		p := NewProgram().Loop(200, NewProgram().Add(Inst{Op: "LDS", Dst: "r2", Src: []string{"r1"}, Stride: stride}))
		r := runWith(t, Config{Machine: one(Volta()), Steady: true}, Workload{Name: fmt.Sprintf("stride %d", stride), Launch: Launch{Block: 1024, Blocks: 2}, Program: p})
		return float64(r.Cycles) / float64(r.Instructions)
	}
	for _, c := range []struct {
		stride int
		want   float64
	}{{1, 1}, {2, 2}, {8, 8}, {32, 32}} {
		if got := perLoad(c.stride); !within(got, c.want, 0.05*c.want) {
			t.Errorf("LDS with stride %d: %.2f cycles per load on the SM, want %.0f", c.stride, got, c.want)
		}
	}
}

// TestGreedyThenYoungest: with every warp ready, gty keeps issuing the
// warp it issued last and, when that one stalls, the youngest ready warp;
// gto the oldest.
func TestGreedyThenYoungest(t *testing.T) {
	// Four warps on one scheduler, each: two independent instructions, a
	// third that waits 4 cycles for the second, then 29 more.
	p := NewProgram().FFMA("a", "x", "y").FFMA("b", "x", "y").FFMA("c", "b", "y")
	for i := 0; i < 29; i++ {
		p.FFMA(fmt.Sprintf("d%d", i), "x", "y")
	}
	order := func(policy string) string {
		r, err := Config{Machine: one(Toy()), Trace: Window{From: 0, To: 200}}.Run(Workload{Policy: policy, Launch: Launch{Block: 128, Blocks: 1}, Program: p})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, is := range r.Trace.Issues {
			if i < 8 {
				fmt.Fprintf(&b, "W%d ", is.Warp)
			}
		}
		return strings.TrimSpace(b.String())
	}
	// Huerta et al. Figure 4(b): W3 twice, W2 twice, W1 twice, then back
	// to W3, whose wait is over.
	if got, want := order("gty"), "W3 W3 W2 W2 W1 W1 W3 W3"; got != want {
		t.Errorf("gty issue order %s, want %s", got, want)
	}
	if got, want := order("gto"), "W0 W0 W1 W1 W2 W2 W0 W0"; got != want {
		t.Errorf("gto issue order %s, want %s", got, want)
	}
}

// TestT4IssueOrder: the T4 measurement of the source notes (book/data/
// measured/t4/issue-order.csv): one block of eight warps, warp s and warp
// s+4 on sub-partition s; the younger of each pair issues first, and
// corresponding warps of neighbouring sub-partitions 2 cycles apart.
func TestT4IssueOrder(t *testing.T) {
	first := t4Order(t)
	for s := 0; s < 4; s++ {
		if first[s+4] >= first[s] {
			t.Errorf("sub-partition %d: warp %d first issues at %d, warp %d at %d; want the younger first", s, s+4, first[s+4], s, first[s])
		}
		if s > 0 && first[s+4]-first[s+3] != 2 {
			t.Errorf("warps %d and %d first issue %d cycles apart, want 2", s+3, s+4, first[s+4]-first[s+3])
		}
	}
}

// TestAsyncCopyGroups: LDGSTS copies overlap with what follows until a
// DEPBAR waits for their group (in long_scoreboard); waiting for all but the
// newest group lets a double-buffered loop hide most of the latency.
func TestAsyncCopyGroups(t *testing.T) {
	single := NewProgram().Loop(10, NewProgram().Add(Inst{Op: "LDGSTS", Src: []string{"a"}}).Add(Inst{Op: "LDGDEPBAR"}).Add(Inst{Op: "DEPBAR"}).Loop(40, NewProgram().FFMA("x", "x", "y")))
	double := NewProgram().Add(Inst{Op: "LDGSTS", Src: []string{"a"}}).Add(Inst{Op: "LDGDEPBAR"}).
		Loop(10, NewProgram().Add(Inst{Op: "LDGSTS", Src: []string{"a"}}).Add(Inst{Op: "LDGDEPBAR"}).Add(Inst{Op: "DEPBAR", Groups: 1}).Loop(40, NewProgram().FFMA("x", "x", "y")))
	a := runOn(t, one(Ampere()), Workload{Name: "single", Launch: Launch{Block: 32, Blocks: 1}, Program: single})
	b := runOn(t, one(Ampere()), Workload{Name: "double", Launch: Launch{Block: 32, Blocks: 1}, Program: double})
	if a.Dominant() != LongScoreboard {
		t.Errorf("waiting for each copy: dominant stall %s, want long_scoreboard", a.Dominant())
	}
	if float64(b.Cycles) > 0.7*float64(a.Cycles) {
		t.Errorf("double buffered %d cycles, single %d: want the overlap to save a third or more", b.Cycles, a.Cycles)
	}
	if _, err := Run(Workload{GPU: "volta", Launch: Launch{Block: 32, Blocks: 1}, Program: NewProgram().Add(Inst{Op: "LDGSTS", Src: []string{"a"}})}); err == nil ||
		!strings.Contains(err.Error(), "LDGSTS needs asynchronous copies") {
		t.Errorf("LDGSTS on volta: %v, want an error saying it needs cp.async", err)
	}
}

// TestBulkCopyMbarrier: a producer warp's UBLKCP completes a phase of an
// mbarrier that consumer warps wait for at SYNCS (short_scoreboard); a
// SYNCS on a phase nobody starts is a deadlock, reported at the SYNCS.
func TestBulkCopyMbarrier(t *testing.T) {
	copyStage := NewProgram().Add(Inst{Op: "UBLKCP", Src: []string{"a"}, Bytes: 16384, Bar: "full"})
	p := NewProgram().Loop(4, NewProgram().
		BranchWarps("0", copyStage, nil).
		Add(Inst{Op: "SYNCS", Bar: "full"}).
		Loop(20, NewProgram().FFMA("x", "x", "y")))
	r := runOn(t, one(Hopper()), Workload{Name: "tma", Launch: Launch{Block: 128, Blocks: 1}, Program: p})
	if r.Dominant() != ShortScoreboard {
		t.Errorf("consumers waiting on the mbarrier: dominant stall %s, want short_scoreboard", r.Dominant())
	}
	m := Hopper()
	// 16 KB from DRAM: the latency plus the bytes at this SM's bandwidth share.
	if min := m.DRAMLatency + int(16384/m.DRAMBytesPerCycle); r.Cycles < 4*min {
		t.Errorf("%d cycles for four 16 KB stages, want at least %d each", r.Cycles, min)
	}
	_, err := Run(Workload{Name: "w.yaml", GPU: "hopper", Launch: Launch{Block: 32, Blocks: 1}, Program: NewProgram().Add(Inst{Op: "SYNCS", Bar: "full"})})
	if err == nil || !strings.Contains(err.Error(), "deadlock") || !strings.Contains(err.Error(), "SYNCS") {
		t.Errorf("SYNCS with no UBLKCP: %v, want a deadlock at the SYNCS", err)
	}
}

// TestTensorCopyIsBulkCopy: UTMALDG (the tensor-map tile copy) and UBLKCP
// (the plain bulk copy) are two SASS names the model runs alike, so a
// pipeline gives the same result, metric for metric, with either; both
// need a machine with TMA.
func TestTensorCopyIsBulkCopy(t *testing.T) {
	pipeline := func(op string) *Program {
		copyStage := NewProgram().Add(Inst{Op: op, Src: []string{"tmap"}, Bytes: 8192, Bar: "full", Level: "l2"})
		return NewProgram().Loop(6, NewProgram().
			BranchWarps("0", copyStage, nil).
			Add(Inst{Op: "SYNCS", Bar: "full"}).
			ILP(16, "FFMA", "x", "x", "y"))
	}
	res := map[string]*Result{}
	for _, op := range []string{"UTMALDG", "UBLKCP"} {
		res[op] = runOn(t, one(Hopper()), Workload{Name: op, Launch: Launch{Block: 256, Blocks: 2}, Program: pipeline(op)})
	}
	a, b := res["UTMALDG"], res["UBLKCP"]
	if a.Cycles != b.Cycles || a.Instructions != b.Instructions || a.IssueActive != b.IssueActive {
		t.Errorf("UTMALDG: %d cycles, %d instructions, %.3f %% issue-active; UBLKCP: %d, %d, %.3f %%; want the same",
			a.Cycles, a.Instructions, a.IssueActive, b.Cycles, b.Instructions, b.IssueActive)
	}
	for _, st := range States() {
		if a.StateCycles(st) != b.StateCycles(st) {
			t.Errorf("%s: UTMALDG %d warp-cycles, UBLKCP %d, want the same", st, a.StateCycles(st), b.StateCycles(st))
		}
	}
	if a.Stall(ShortScoreboard) == 0 {
		t.Errorf("consumers never waited on the mbarrier: short_scoreboard 0, want the copy's latency to show")
	}
	_, err := Run(Workload{GPU: "ampere", Launch: Launch{Block: 32, Blocks: 1},
		Program: NewProgram().Add(Inst{Op: "UTMALDG", Src: []string{"tmap"}, Bytes: 16, Bar: "full"})})
	if err == nil || !strings.Contains(err.Error(), "UTMALDG") {
		t.Errorf("UTMALDG on ampere: %v, want an error naming UTMALDG", err)
	}
}

// TestWarpgroupMMA: HGMMA runs asynchronously; WARPGROUP.DEPBAR waits for
// its group in the gmma state, and keeping one group in flight overlaps the
// tensor pipe with the next group's issue.
func TestWarpgroupMMA(t *testing.T) {
	mma := NewProgram().Add(Inst{Op: "HGMMA", Dst: "acc", Src: []string{"acc", "b"}})
	body := func(keep int) *Program {
		return NewProgram().Loop(8, NewProgram().Add(mma.stmts[0].inst).Add(Inst{Op: "WARPGROUP.DEPBAR", Groups: keep}).ILP(4, "FFMA", "x", "x", "y"))
	}
	r := runOn(t, one(Hopper()), Workload{Name: "wgmma", Launch: Launch{Block: 128, Blocks: 1}, Program: body(0)})
	if r.Dominant() != GMMA {
		t.Errorf("waiting for each HGMMA: dominant stall %s, want gmma", r.Dominant())
	}
	// HGMMA m64n128k16 holds each warp's tensor pipe 16·128·16/512 = 64
	// cycles: back to back, 8 of them take about 8 × 64 cycles, waited for
	// or not.
	if r.Cycles < 8*64 {
		t.Errorf("8 HGMMA m64n128k16: %d cycles, want at least %d", r.Cycles, 8*64)
	}
	if _, err := Run(Workload{GPU: "ampere", Launch: Launch{Block: 128, Blocks: 1}, Program: mma}); err == nil || !strings.Contains(err.Error(), "warpgroup MMA") {
		t.Errorf("HGMMA on ampere: %v, want an error", err)
	}
	// HMMA shapes: m16n8k16 holds Ampere's tensor pipe 2048/256 = 8 cycles.
	chain := NewProgram().Loop(200, NewProgram().ILP(8, "HMMA", "d", "a", "b"))
	r = runOn(t, one(Ampere()), Workload{Name: "hmma", Launch: Launch{Block: 32, Blocks: 1}, Program: chain})
	if perInst := float64(r.Cycles) / float64(r.Instructions); !within(perInst, 8, 0.2) {
		t.Errorf("independent HMMA.16816 on ampere: %.2f cycles each, want 8", perInst)
	}
}

// TestDualIssue: a Kepler scheduler dual-issues independent FFMAs of one
// warp into its 32 + 16 lanes, 1.5 warp instructions per cycle over long
// runs of independent work (a warp's run of 8 loses a little each time the
// scheduler changes warps); dependent ones cannot pair.
func TestDualIssue(t *testing.T) {
	ind := NewProgram().Loop(100, NewProgram().ILP(48, "FFMA", "r0", "r0", "r1"))
	r := runWith(t, Config{Machine: one(GK110()), Steady: true}, Workload{Name: "ilp8", Launch: Launch{Block: 1024, Blocks: 2}, Program: ind})
	if perSched := float64(r.Instructions) / float64(r.ActiveCycles); !within(perSched, 1.5, 0.02) {
		t.Errorf("independent FFMA on gk110: %.3f warp instructions per scheduler cycle, want 1.5 (192 lanes)", perSched)
	}
	dep := NewProgram().Loop(300, NewProgram().FFMA("r0", "r0", "r1"))
	r = runOn(t, one(GK110()), Workload{Name: "chain", Launch: Launch{Block: 1024, Blocks: 2}, Program: dep})
	if perSched := float64(r.Instructions) / float64(r.ActiveCycles); perSched > 1.001 {
		t.Errorf("dependent FFMA chains on gk110: %.3f per scheduler cycle, want at most 1 (no pair is independent)", perSched)
	}
}

// TestSharedFP64: on a T4 the FP64 unit belongs to the whole SM: one warp's
// dependent DFMA chain runs at DFMA's 54-cycle latency, and warps on all
// four schedulers together get one DFMA every 16 cycles.
func TestSharedFP64(t *testing.T) {
	chain := NewProgram().Loop(50, NewProgram().Op("DFMA", "d", "d", "e"))
	one1 := runOn(t, one(Turing()), Workload{Name: "one warp", Launch: Launch{Block: 32, Blocks: 1}, Program: chain})
	if perInst := float64(one1.Cycles) / 50; !within(perInst, 54, 1) {
		t.Errorf("one warp's DFMA chain: %.1f cycles per DFMA, want 54", perInst)
	}
	ind := NewProgram().Loop(50, NewProgram().ILP(4, "DFMA", "d", "d", "e"))
	all := runOn(t, one(Turing()), Workload{Name: "all", Launch: Launch{Block: 1024, Blocks: 1}, Program: ind})
	if perInst := float64(all.Cycles) / float64(all.Instructions-32); !within(perInst, 16, 0.5) {
		t.Errorf("32 warps of DFMA: %.2f cycles per DFMA on the SM, want 16", perInst)
	}
	add := runOn(t, one(Turing()), Workload{Name: "dadd", Launch: Launch{Block: 32, Blocks: 1}, Program: NewProgram().Loop(50, NewProgram().Op("DADD", "d", "d", "e"))})
	if perInst := float64(add.Cycles) / 50; !within(perInst, 48, 1) {
		t.Errorf("one warp's DADD chain: %.1f cycles each, want 48", perInst)
	}
	_ = math.Abs
}

// TestAccessErrors: Sectors and Wavefronts refuse what no memory
// instruction could be, and agree with the counts the simulator moves.
func TestAccessErrors(t *testing.T) {
	for _, c := range []struct{ width, stride int }{{3, 1}, {0, 1}, {32, 1}, {4, -1}, {4, 1025}} {
		if _, err := Sectors(c.width, c.stride); err == nil {
			t.Errorf("Sectors(%d, %d) is no error", c.width, c.stride)
		}
		if _, err := Wavefronts(c.width, c.stride); err == nil {
			t.Errorf("Wavefronts(%d, %d) is no error", c.width, c.stride)
		}
		if _, err := ExplainSectors(c.width, c.stride); err == nil {
			t.Errorf("ExplainSectors(%d, %d) is no error", c.width, c.stride)
		}
	}
	for _, w := range []int{1, 2, 4, 8, 16} {
		for s := 0; s <= 40; s++ {
			n, err := Sectors(w, s)
			if err != nil || n != sectors(w, s) {
				t.Fatalf("Sectors(%d, %d) = %d, %v", w, s, n, err)
			}
			m, err := Wavefronts(w, s)
			if err != nil || m != wavefronts(w, s) {
				t.Fatalf("Wavefronts(%d, %d) = %d, %v", w, s, m, err)
			}
			steps, err := ExplainWavefronts(w, s)
			if err != nil || len(steps) == 0 || !strings.Contains(steps[len(steps)-1], fmt.Sprintf("= %d wavefronts", m)) && s != 0 {
				t.Errorf("ExplainWavefronts(%d, %d) = %q, %v; want it to end in %d wavefronts", w, s, steps, err, m)
			}
			ss, err := ExplainSectors(w, s)
			if err != nil || !strings.Contains(strings.Join(ss, "\n"), fmt.Sprintf("%d sector", n)) {
				t.Errorf("ExplainSectors(%d, %d) = %q, %v; want it to name %d sectors", w, s, ss, err, n)
			}
		}
	}
}
