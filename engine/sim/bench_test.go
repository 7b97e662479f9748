package sim

import "testing"

// benchWorkload is the benchmark's SM: a 4-scheduler Volta SM holding 64
// resident warps (two blocks of 1024 threads) running a mix of dependent
// math, shared and global loads.
func benchWorkload() (Config, Workload) {
	m := Volta()
	m.SMs = 1
	body := NewProgram().
		FFMA("r0", "r0", "r1").
		IADD3("r5", "r5", "r6").
		LDS("r7", "r5").
		FFMA("r8", "r7", "r0").
		LDG("r2", "r3", "l2").
		FFMA("r4", "r2", "r1").
		FFMA("r9", "r9", "r4")
	w := Workload{
		Name:    "bench",
		Policy:  "gto",
		Launch:  Launch{Block: 1024, Blocks: 2},
		Program: NewProgram().Loop(200, body).EXIT(),
	}
	return Config{Machine: &m}, w
}

// BenchmarkRun measures simulated warp-cycles per second (one resident warp
// for one cycle is one warp-cycle) against a baseline in the same binary:
// the least a cycle-driven simulator must do, one compare and one counter
// update per warp per cycle, over the same number of warp-cycles.
func BenchmarkRun(b *testing.B) {
	c, w := benchWorkload()
	r, err := c.Run(w)
	if err != nil {
		b.Fatal(err)
	}
	if r.WarpsActive*4 < 60 {
		b.Fatalf("benchmark SM holds %.1f warps on average, want about 64", r.WarpsActive*4)
	}
	warpCycles := float64(r.WarpCycles)
	cycles := r.Cycles
	b.Run("baseline", func(b *testing.B) {
		ready := make([]int64, 64)
		for i := range ready {
			ready[i] = int64(i % 7)
		}
		var counts [16]int64
		b.ResetTimer()
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
		b.ReportMetric(warpCycles*float64(b.N)/b.Elapsed().Seconds(), "warp-cycles/s")
		if counts[0] < 0 {
			b.Fatal("unreachable")
		}
	})
	b.Run("sim", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := c.Run(w); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(warpCycles*float64(b.N)/b.Elapsed().Seconds(), "warp-cycles/s")
	})
}
