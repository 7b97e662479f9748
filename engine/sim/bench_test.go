package sim

import (
	"reflect"
	"sync"
	"testing"
)

// benchSM is the benchmark's SM: a 4-scheduler Volta SM holding 64 resident
// warps (two blocks of 1024 threads).
func benchSM() (Config, Launch) {
	m := Volta()
	m.SMs = 1
	return Config{Machine: &m}, Launch{Block: 1024, Blocks: 2}
}

// benchMixed is a loop of dependent math, a shared load and an L2 load: most
// warps wait most of the time.
func benchMixed() *Program {
	return NewProgram().Loop(200, NewProgram().
		FFMA("r0", "r0", "r1").
		IADD3("r5", "r5", "r6").
		LDS("r7", "r5").
		FFMA("r8", "r7", "r0").
		LDG("r2", "r3", "l2").
		FFMA("r4", "r2", "r1").
		FFMA("r9", "r9", "r4"))
}

// benchMath is independent FFMA and IADD3 chains: many warps are eligible
// every cycle, the simulator's most expensive case.
func benchMath() *Program {
	return NewProgram().Loop(500, NewProgram().
		FFMA("r0", "r0", "r1").IADD3("r5", "r5", "r6").
		FFMA("r2", "r2", "r1").IADD3("r7", "r7", "r6"))
}

// reportRate reports warp-cycles per second of wall time and per second of
// CPU time; on a shared machine the second is the one-core figure.
func reportRate(b *testing.B, perOp, cpu0 float64) {
	n := perOp * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "warp-cycles/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(n/cpu, "warp-cycles/cpu-s")
	}
}

// BenchmarkRun measures simulated warp-cycles per second (one resident warp
// for one cycle is one warp-cycle) on one core, for a 4-scheduler SM with 64
// resident warps, next to a baseline in the same binary: the least any
// cycle-driven simulator must do, one compare and one counter update per
// warp per cycle, over the same number of warp-cycles as the mixed run.
//
//	go test -run XXX -bench BenchmarkRun -cpu 1 ./engine/sim
//
// warp-cycles/cpu-s divides by the CPU time the process used instead of
// wall time, which is the one-core rate when other processes share the
// machine.
func BenchmarkRun(b *testing.B) {
	c, l := benchSM()
	mixed := Workload{Name: "mixed", Launch: l, Program: benchMixed()}
	math := Workload{Name: "math", Launch: l, Program: benchMath()}
	r, err := c.Run(mixed)
	if err != nil {
		b.Fatal(err)
	}
	if r.WarpsActive*4 < 60 {
		b.Fatalf("benchmark SM holds %.1f warps on average, want about 64", r.WarpsActive*4)
	}
	cycles := r.Cycles
	b.Run("baseline", func(b *testing.B) {
		ready := make([]int64, 64)
		for i := range ready {
			ready[i] = int64(i % 7)
		}
		var counts [16]int64
		cpu0 := cpuSeconds()
		for i := 0; i < b.N; i++ {
			for c := int64(0); c < int64(cycles); c++ {
				for wi := range ready {
					if ready[wi] <= c {
						counts[wi&15]++
						ready[wi] = c + int64(wi&3) + 1
					}
				}
			}
		}
		reportRate(b, float64(cycles)*64, cpu0)
		if counts[0] < 0 {
			b.Fatal("unreachable")
		}
	})
	for _, w := range []Workload{mixed, math} {
		r, err := c.Run(w)
		if err != nil {
			b.Fatal(err)
		}
		warpCycles := float64(r.WarpCycles)
		b.Run(w.Name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				if _, err := c.Run(w); err != nil {
					b.Fatal(err)
				}
			}
			reportRate(b, warpCycles, cpu0)
		})
	}
}

// TestNoAllocationPerCycle: a run allocates at setup only, so a run ten
// times as long allocates the same, whether it measures the whole run, a
// window or the steady state.
func TestNoAllocationPerCycle(t *testing.T) {
	c, l := benchSM()
	short := Workload{Launch: l, Program: NewProgram().Loop(1, benchMixed())}
	long := Workload{Launch: l, Program: NewProgram().Loop(10, benchMixed())}
	window, steady := c, c
	window.Measure = Window{From: 100, To: 1000}
	steady.Steady = true
	for name, c := range map[string]Config{"whole run": c, "window": window, "steady": steady} {
		a := testing.AllocsPerRun(3, func() { _, _ = c.Run(short) })
		b := testing.AllocsPerRun(3, func() { _, _ = c.Run(long) })
		if a != b {
			t.Errorf("%s: %v allocations for a short run, %v for a run ten times as long", name, a, b)
		}
	}
	// The same with the queue model's DRAM and L2 windows, bulk copies,
	// mbarrier arrivals, named barriers and distributed shared memory.
	m := Hopper()
	m.SMs = 1
	hc := Config{Machine: &m}
	stage := NewProgram().
		BranchWarps("0", NewProgram().Add(Inst{Op: "UBLKCP", Src: []string{"a"}, Bytes: 4096, Bar: "full", Level: "dram"}), nil).
		Add(Inst{Op: "SYNCS", Bar: "full"}).
		Add(Inst{Op: "LDS", Dst: "r0", Src: []string{"r1"}, Level: "dsmem"}).
		LDG("r2", "r3", "l2").
		FFMA("r4", "r2", "r0").
		Add(Inst{Op: "BAR", Barrier: 1, Threads: 128}).
		Add(Inst{Op: "ARRIVE", Bar: "empty"}).
		Add(Inst{Op: "SYNCS", Bar: "empty"})
	hopper := func(n int) Workload {
		return Workload{Memory: Memory{Model: "queue"}, Launch: Launch{Block: 128, Blocks: 2, Cluster: 2},
			Program: NewProgram().Add(Inst{Op: "MBARINIT", Bar: "empty", Arrivals: 4}).Loop(n, stage)}
	}
	if _, err := hc.Run(hopper(1)); err != nil {
		t.Fatal(err)
	}
	a := testing.AllocsPerRun(3, func() { _, _ = hc.Run(hopper(10)) })
	b := testing.AllocsPerRun(3, func() { _, _ = hc.Run(hopper(100)) })
	if a != b {
		t.Errorf("hopper features: %v allocations for a short run, %v for a run ten times as long", a, b)
	}
}

// TestRunsShareNoState: runs take their buffers from runs that finished
// before them, so runs on several goroutines at once, on different
// machines, programs and kernels, must return what each returns alone.
func TestRunsShareNoState(t *testing.T) {
	c, l := benchSM()
	a := Ampere()
	a.SMs = 1
	ac := Config{Machine: &a}
	micro := listing(t, "micro_sm_80.sass")
	runs := []struct {
		c Config
		w Workload
	}{
		{c, Workload{Launch: l, Program: NewProgram().Loop(2, benchMixed())}},
		{c, Workload{Launch: Launch{Block: 96, Blocks: 3}, Program: benchMath()}},
		{ac, kernelOf(t, micro, "ffma_ilp4", 256, 4, 1, 3)},
		{ac, kernelOf(t, micro, "lds_chase", 128, 2, 1, 3)},
	}
	want := make([]*Result, len(runs))
	for i, r := range runs {
		res, err := r.c.Run(r.w)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = res
	}
	var wg sync.WaitGroup
	got := make([][]*Result, 4)
	for g := range got {
		got[g] = make([]*Result, len(runs))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range runs {
				i := (k + g) % len(runs) // each goroutine in another order
				res, err := runs[i].c.Run(runs[i].w)
				if err != nil {
					t.Error(err)
					return
				}
				got[g][i] = res
			}
		}()
	}
	wg.Wait()
	for g := range got {
		for i := range runs {
			if !reflect.DeepEqual(got[g][i], want[i]) {
				t.Errorf("goroutine %d, run %d: the result differs from the same run alone", g, i)
			}
		}
	}
}

// BenchmarkSASS measures simulated warp instructions per second (one
// instruction issued by one warp is one warp-instruction) for kernels run
// from their SASS, next to programs run from YAML in the same binary: the
// synthetic program of TestSASSMatchesYAML written both ways, and the
// tiled matrix multiply and the FFMA loop of engine/sass/testdata as nvcc
// compiled them for sm_80, on one A100 SM full of warps.
//
//	go test -run XXX -bench BenchmarkSASS -cpu 1 ./engine/sim
//
// warp-inst/cpu-s divides by the process's CPU time, the one-core rate
// when other processes share the machine. warpbook is compiled with
// tools/warpbook/default.pgo, a CPU profile of this benchmark, which go
// test applies only when asked (-pgo=tools/warpbook/default.pgo, from the
// module's root); docs/sass.md has the command that remakes it.
func BenchmarkSASS(b *testing.B) {
	m := Ampere()
	m.SMs = 1
	c := Config{Machine: &m}
	both, prog := bothWays(b)
	body := NewProgram()
	for i := 0; i < 50; i++ {
		body.FFMA("r4", "r4", "r1").FFMA("r5", "r5", "r1")
	}
	runs := []struct {
		name string
		w    Workload
	}{
		{"yaml/both", Workload{Launch: Launch{Block: 1024, Blocks: 2, Regs: 32}, Program: prog}},
		{"sass/both", Workload{Launch: Launch{Block: 1024, Blocks: 2, Regs: 32}, Kernel: both}},
		{"yaml/mixed", Workload{Launch: Launch{Block: 1024, Blocks: 2}, Program: benchMixed()}},
		{"yaml/ffma", Workload{Launch: Launch{Block: 1024, Blocks: 2}, Program: NewProgram().Loop(32, body)}},
	}
	micro, kernels := listing(b, "micro_sm_80.sass"), listing(b, "kernels_sm_80.sass")
	ffma := kernelOf(b, micro, "ffma_ilp4", 1024, 2, 1, 100)
	sgemm := kernelOf(b, kernels, "sgemm_tiled", 256, 8, 4, 16)
	runs = append(runs, struct {
		name string
		w    Workload
	}{"sass/ffma_ilp4", ffma}, struct {
		name string
		w    Workload
	}{"sass/sgemm_tiled", sgemm})
	for _, r := range runs {
		res, err := c.Run(r.w)
		if err != nil {
			b.Fatal(err)
		}
		inst := float64(res.Instructions)
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuSeconds()
			for i := 0; i < b.N; i++ {
				if _, err := c.Run(r.w); err != nil {
					b.Fatal(err)
				}
			}
			n := inst * float64(b.N)
			b.ReportMetric(n/b.Elapsed().Seconds(), "warp-inst/s")
			if cpu := cpuSeconds() - cpu0; cpu > 0 {
				b.ReportMetric(n/cpu, "warp-inst/cpu-s")
			}
		})
	}
}
