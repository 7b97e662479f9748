package sim

import (
	"fmt"
	"math"
	"testing"
)

// runWith runs a workload under c and checks the identities on its result.
func runWith(t *testing.T, c Config, w Workload) *Result {
	t.Helper()
	r, err := c.Run(w)
	if err != nil {
		t.Fatalf("%s: %v", w.Name, err)
	}
	checkIdentities(t, w.Name, r)
	return r
}

// run runs a workload and checks the identities on its result.
func run(t *testing.T, w Workload) *Result {
	t.Helper()
	return runWith(t, Config{}, w)
}

func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// chain is a loop of n dependent instructions op r0 ← r0, r1.
func chain(op string, n int) *Program {
	return NewProgram().Loop(n, NewProgram().Op(op, "r0", "r0", "r1"))
}

// TestDependentChainToy: one scheduler, FFMA latency 4, interval 1. W warps
// each running a dependent FFMA chain keep the issue slot busy on
// min(1, W/4) of the cycles: 25, 50, 75, 100 %. Past four warps the surplus
// shows up as not_selected (W-4 per issued instruction under LRR), while
// wait stays at 3: the 4-cycle latency minus the issue cycle.
func TestDependentChainToy(t *testing.T) {
	for _, pol := range []string{"gto", "lrr"} {
		for W := 1; W <= 4; W++ {
			r := run(t, Workload{Name: fmt.Sprintf("%s/W=%d", pol, W), GPU: "toy", Policy: pol,
				Launch: Launch{Block: 32 * W, Blocks: 1}, Program: chain("FFMA", 1000)})
			if want := 25.0 * float64(W); !within(r.IssueActive, want, 0.3) {
				t.Errorf("%s W=%d: issue active %.2f%%, want %.0f%%", pol, W, r.IssueActive, want)
			}
			if r.Stall(NotSelected) > 0.01 {
				t.Errorf("%s W=%d: not_selected %.3f, want 0 (no surplus warps)", pol, W, r.Stall(NotSelected))
			}
			if r.Dominant() != Wait && W < 4 {
				t.Errorf("%s W=%d: dominant stall %s, want wait", pol, W, r.Dominant())
			}
		}
	}
	for W := 5; W <= 8; W++ {
		r := run(t, Workload{Name: fmt.Sprintf("lrr/W=%d", W), GPU: "toy", Policy: "lrr",
			Launch: Launch{Block: 32 * W, Blocks: 1}, Program: chain("FFMA", 1000)})
		if r.IssueActive < 99.5 {
			t.Errorf("lrr W=%d: issue active %.2f%%, want 100%%", W, r.IssueActive)
		}
		if !within(r.Stall(NotSelected), float64(W-4), 0.05) {
			t.Errorf("lrr W=%d: not_selected %.3f, want %d (the surplus warps)", W, r.Stall(NotSelected), W-4)
		}
		if !within(r.Stall(Wait), 3, 0.05) {
			t.Errorf("lrr W=%d: wait %.3f, want 3", W, r.Stall(Wait))
		}
	}
	// GTO with 8 warps: still every slot busy, the younger four not_selected
	// while the older four run.
	r := run(t, Workload{Name: "gto/W=8", GPU: "toy", Policy: "gto", Launch: Launch{Block: 256, Blocks: 1}, Program: chain("FFMA", 1000)})
	if r.IssueActive < 99.5 || r.Stall(NotSelected) < 1.5 {
		t.Errorf("gto W=8: issue active %.2f%%, not_selected %.2f; want 100%% and the surplus as not_selected", r.IssueActive, r.Stall(NotSelected))
	}
}

// TestILPWarpsNeeded: with k independent FFMA chains per warp (ilp: k) the
// toy scheduler needs ceil(4/k) warps to issue every cycle: W_needed = L/k.
func TestILPWarpsNeeded(t *testing.T) {
	for _, k := range []int{1, 2, 3, 4, 8} {
		need := 0
		for W := 1; W <= 8; W++ {
			p := NewProgram().Loop(500, NewProgram().ILP(k, "FFMA", "r0", "r0", "r1"))
			r := run(t, Workload{Name: fmt.Sprintf("k=%d/W=%d", k, W), GPU: "toy", Policy: "lrr",
				Launch: Launch{Block: 32 * W, Blocks: 1}, Program: p})
			if r.IssueActive >= 99 {
				need = W
				break
			}
			if want := 100 * math.Min(1, float64(W*k)/4); !within(r.IssueActive, want, 0.5) {
				t.Errorf("k=%d W=%d: issue active %.2f%%, want %.1f%%", k, W, r.IssueActive, want)
			}
		}
		if want := (4 + k - 1) / k; need != want {
			t.Errorf("k=%d independent chains: %d warps fill the issue slot, want ceil(4/k) = %d", k, need, want)
		}
	}
}

// TestVoltaFFMAThrottle: a Volta sub-partition has 16 FP32 lanes, so FFMA
// enters its pipe every other cycle: FFMA-only code issues on at most 50 %
// of cycles however many warps there are, and the rest shows as
// math_pipe_throttle. Interleaving IADD3 (on the separate 16-lane INT32
// pipe) fills every slot.
func TestVoltaFFMAThrottle(t *testing.T) {
	ffma := NewProgram().Loop(500, NewProgram().ILP(4, "FFMA", "r0", "r0", "r1"))
	r := run(t, Workload{Name: "ffma", GPU: "volta", Launch: Launch{Block: 512, Blocks: 1}, Program: ffma})
	if !within(r.IssueActive, 50, 0.5) {
		t.Errorf("FFMA only: issue active %.2f%%, want 50%%", r.IssueActive)
	}
	if r.Dominant() != MathPipeThrottle {
		t.Errorf("FFMA only: dominant stall %s, want math_pipe_throttle", r.Dominant())
	}
	mixed := NewProgram().Loop(500, NewProgram().
		FFMA("r0", "r0", "r1").IADD3("r5", "r5", "r6").
		FFMA("r2", "r2", "r1").IADD3("r7", "r7", "r6"))
	r = run(t, Workload{Name: "ffma+iadd3", GPU: "volta", Launch: Launch{Block: 512, Blocks: 1}, Program: mixed})
	if r.IssueActive < 99 {
		t.Errorf("FFMA interleaved with IADD3: issue active %.2f%%, want 100%%", r.IssueActive)
	}
}

// TestDominantStall: on every preset the dominant stall of a dependent
// chain names where the producer's result comes from: LDS and MUFU through
// the MIO scoreboard (short_scoreboard), LDG through L1TEX
// (long_scoreboard), FFMA by a fixed latency (wait).
func TestDominantStall(t *testing.T) {
	cases := []struct {
		op   string
		want State
	}{{"LDS", ShortScoreboard}, {"LDG", LongScoreboard}, {"MUFU", ShortScoreboard}, {"FFMA", Wait}}
	for _, m := range Presets() {
		for _, c := range cases {
			r := run(t, Workload{Name: m.Name + "/" + c.op, GPU: m.Name, Launch: Launch{Block: 32, Blocks: 1},
				Program: NewProgram().Loop(50, NewProgram().Op(c.op, "r0", "r0"))})
			if got := r.Dominant(); got != c.want {
				t.Errorf("%s: dependent %s chain: dominant stall %s, want %s", m.Name, c.op, got, c.want)
			}
		}
	}
}

// TestDivergence: a branch taken by lanes 0-15 runs both paths, one after
// the other, each with 16 active lanes: the body's issue slots double and
// its average active threads per instruction halve.
func TestDivergence(t *testing.T) {
	body := func() *Program { return NewProgram().Loop(10, NewProgram().FFMA("r0", "r1", "r2")) }
	const iters = 20
	uniform := run(t, Workload{Name: "uniform", GPU: "toy", Launch: Launch{Block: 32, Blocks: 1},
		Program: NewProgram().Loop(iters, NewProgram().Branch("0-31", body(), body()))})
	split := run(t, Workload{Name: "lanes 0-15", GPU: "toy", Launch: Launch{Block: 32, Blocks: 1},
		Program: NewProgram().Loop(iters, NewProgram().Branch("0-15", body(), body()))})
	overhead := iters + 1 // one BRA per iteration, one EXIT, all 32 lanes
	ub, sb := uniform.Instructions-overhead, split.Instructions-overhead
	if sb != 2*ub {
		t.Errorf("body issue slots: %d with lanes 0-15, %d uniform; want twice as many", sb, ub)
	}
	uTh := float64(uniform.ThreadInstructions-32*overhead) / float64(ub)
	sTh := float64(split.ThreadInstructions-32*overhead) / float64(sb)
	if uTh != 32 || sTh != 16 {
		t.Errorf("body active threads per instruction: %.2f uniform, %.2f with lanes 0-15; want 32 and 16", uTh, sTh)
	}
	if split.ThreadsPerInst >= uniform.ThreadsPerInst*0.6 {
		t.Errorf("smsp__thread_inst_executed_per_inst_executed.ratio %.2f (split) vs %.2f (uniform): want about half", split.ThreadsPerInst, uniform.ThreadsPerInst)
	}
}

// TestBarrierImbalance: when warp 0 of each block does extra work before
// every BAR, the other warps of its block wait in barrier. With one
// resident block the scheduler idles; a second resident block fills the
// gaps and the run takes about half as long.
func TestBarrierImbalance(t *testing.T) {
	extra := NewProgram().Loop(50, NewProgram().FFMA("r0", "r0", "r1"))
	prog := NewProgram().Loop(20, NewProgram().BranchWarps("0", extra, nil).BAR())
	one := run(t, Workload{Name: "one resident", GPU: "toy", Launch: Launch{Block: 128, Blocks: 2, Resident: 1}, Program: prog})
	two := run(t, Workload{Name: "two resident", GPU: "toy", Launch: Launch{Block: 128, Blocks: 2}, Program: prog})
	if one.Dominant() != Barrier {
		t.Errorf("one resident block: dominant stall %s, want barrier", one.Dominant())
	}
	if one.ResidentBlocks != 1 || two.ResidentBlocks != 2 {
		t.Fatalf("resident blocks %d and %d, want 1 and 2", one.ResidentBlocks, two.ResidentBlocks)
	}
	if float64(two.Cycles) > 0.6*float64(one.Cycles) {
		t.Errorf("two resident blocks take %d cycles, one takes %d; want about half", two.Cycles, one.Cycles)
	}
	if two.IssueActive < 1.8*one.IssueActive {
		t.Errorf("issue active %.1f%% with two resident blocks, %.1f%% with one; want about double", two.IssueActive, one.IssueActive)
	}
}

// TestLittlesLaw: warps that each keep one DRAM load in flight deliver
// W / (L + 1) loads per cycle (Little's law: throughput = concurrency /
// latency) until the LG queue (8 requests on toy) is full; then throughput
// stays at 8 / L and the extra warps wait in lg_throttle.
func TestLittlesLaw(t *testing.T) {
	m := Toy()
	L := float64(m.DRAMLatency)
	prog := NewProgram().Loop(40, NewProgram().LDG("r1", "r2", "dram").FFMA("r3", "r1", "r1"))
	for _, W := range []int{1, 2, 4, 8, 16, 32} {
		r := run(t, Workload{Name: fmt.Sprintf("W=%d", W), GPU: "toy", Memory: Memory{Model: "queue"},
			Launch: Launch{Block: 32 * W, Blocks: 1}, Program: prog})
		loads := float64(40*W) / float64(r.Cycles)
		want := math.Min(float64(W)/(L+1), float64(m.LGQueue)/L)
		if math.Abs(loads-want) > 0.04*want {
			t.Errorf("W=%d: %.5f loads per cycle, want %.5f (Little's law with the LG queue of %d)", W, loads, want, m.LGQueue)
		}
		if W <= m.LGQueue && r.Stall(LGThrottle) != 0 {
			t.Errorf("W=%d: lg_throttle %.2f below saturation, want 0", W, r.Stall(LGThrottle))
		}
		if W >= 2*m.LGQueue && r.Stall(LGThrottle) == 0 {
			t.Errorf("W=%d: no lg_throttle past saturation", W)
		}
		if W == 32 && r.Dominant() != LGThrottle {
			t.Errorf("W=32: dominant stall %s, want lg_throttle", r.Dominant())
		}
	}
	// Without the queue model latency alone limits: 32 warps, 32 loads in flight.
	r := run(t, Workload{Name: "latency model", GPU: "toy", Launch: Launch{Block: 32 * 32, Blocks: 1}, Program: prog})
	if loads := float64(40*32) / float64(r.Cycles); math.Abs(loads-32/(L+1)) > 0.04*32/(L+1) {
		t.Errorf("latency model, 32 warps: %.5f loads per cycle, want %.5f", loads, 32/(L+1))
	}
}

// TestVolkovSaturation reproduces the saturation points of Volkov's GTC
// 2010 talk with Little's law (needed parallelism = latency × throughput):
// on GT200, 24 cycles × 8 lanes = 192 threads of dependent FFMA saturate the
// SM; on GF100, 18 cycles × 32 lanes = 576 threads.
func TestVolkovSaturation(t *testing.T) {
	const n = 1000
	rate := func(gpu string, threads int) float64 {
		r := run(t, Workload{Name: fmt.Sprintf("%s/%d threads", gpu, threads), GPU: gpu, Policy: "lrr",
			Launch: Launch{Block: threads, Blocks: 1}, Program: chain("FFMA", n)})
		warps := (threads + 31) / 32
		return float64(n*warps) / float64(r.Cycles) // FFMA warp instructions per cycle
	}
	for _, c := range []struct {
		gpu        string
		saturation int     // threads
		peak       float64 // FFMA warp instructions per SM cycle
	}{{"gt200", 192, 0.25}, {"gf100", 576, 1.0}} {
		at := rate(c.gpu, c.saturation)
		below := rate(c.gpu, c.saturation-32)
		above := rate(c.gpu, c.saturation+64)
		if at < 0.99*c.peak {
			t.Errorf("%s: %d threads reach %.4f FFMA/cycle, want the peak %.2f", c.gpu, c.saturation, at, c.peak)
		}
		if below > 0.97*c.peak {
			t.Errorf("%s: %d threads already reach %.4f FFMA/cycle, want below the peak %.2f", c.gpu, c.saturation-32, below, c.peak)
		}
		if above > at*1.005 {
			t.Errorf("%s: %d threads give %.4f FFMA/cycle, more than %.4f at %d", c.gpu, c.saturation+64, above, at, c.saturation)
		}
	}
}

// TestPolicies: warps that load, then compute on the loaded value for a
// while. Loose round robin keeps them in lockstep, so they all wait for
// memory at the same time; greedy-then-oldest and a two-level scheduler let
// some warps compute while others wait, and finish sooner.
func TestPolicies(t *testing.T) {
	prog := NewProgram().Loop(10, NewProgram().
		LDG("r1", "r2", "dram").
		Loop(50, NewProgram().FFMA("r3", "r1", "r4").FFMA("r5", "r1", "r6")))
	cycles := map[string]int{}
	for _, pol := range []string{"lrr", "gto", "oldest", "two_level:2"} {
		r := run(t, Workload{Name: pol, GPU: "toy", Policy: pol, Launch: Launch{Block: 256, Blocks: 1}, Program: prog})
		cycles[pol] = r.Cycles
	}
	for _, pol := range []string{"gto", "oldest", "two_level:2"} {
		if float64(cycles[pol]) > 0.9*float64(cycles["lrr"]) {
			t.Errorf("%s: %d cycles, lrr %d; want %s clearly faster on load-then-compute warps", pol, cycles[pol], cycles["lrr"], pol)
		}
	}
	if cycles["two_level:2"] > cycles["gto"] {
		t.Errorf("two_level:2 took %d cycles, gto %d; want two-level no slower", cycles["two_level:2"], cycles["gto"])
	}
}

// TestWaves: a grid larger than what fits launches in waves: with two
// resident 1024-thread blocks per Volta SM, five blocks on the SM take 2.5
// waves, and a finished block's place is refilled at once.
func TestWaves(t *testing.T) {
	prog := chain("FFMA", 200)
	one := run(t, Workload{Name: "one wave", GPU: "volta", Launch: Launch{Block: 1024, Blocks: 2 * 80, Regs: 32}, Program: prog})
	many := run(t, Workload{Name: "waves", GPU: "volta", Launch: Launch{Block: 1024, Blocks: 5 * 80, Regs: 32}, Program: prog})
	if many.BlocksOnSM != 5 || many.ResidentBlocks != 2 || many.Waves != 2.5 {
		t.Fatalf("blocks on SM %d, resident %d, waves %v; want 5, 2, 2.5", many.BlocksOnSM, many.ResidentBlocks, many.Waves)
	}
	if float64(many.Cycles) < 2.4*float64(one.Cycles) || many.Cycles > 3*one.Cycles {
		t.Errorf("5 blocks take %d cycles, 2 blocks %d: want about 2.5× (two full waves and a half-empty one)", many.Cycles, one.Cycles)
	}
	// Registers limit residency through engine/occupancy: 64 registers per
	// thread leave room for one 1024-thread block.
	heavy := run(t, Workload{Name: "regs 64", GPU: "volta", Launch: Launch{Block: 1024, Blocks: 80, Regs: 64}, Program: prog})
	if heavy.OccupancyBlocks != 1 || heavy.TheoreticalOccupancy != 50 {
		t.Errorf("64 registers: %d blocks, %.1f%% theoretical occupancy; want 1 and 50%%", heavy.OccupancyBlocks, heavy.TheoreticalOccupancy)
	}
}
