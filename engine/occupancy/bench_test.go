package occupancy_test

import (
	"math"
	"testing"
	"time"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// naiveBlocks is the textbook whole-SM division (the source notes'
// calculator): the baseline the exact calculator is measured against. It
// is wrong on sub-partition rounding, which is the point of the engine.
func naiveBlocks(d gpu.Device, k occupancy.Kernel) int {
	warps := (k.BlockSize + d.WarpSize - 1) / d.WarpSize
	n := min(d.MaxWarpsPerSM()/warps, d.MaxBlocksPerSM)
	if k.Registers > 0 {
		n = min(n, d.RegistersPerSM/(k.Registers*k.BlockSize))
	}
	if s := k.StaticSharedMem + k.DynamicSharedMem; s > 0 {
		n = min(n, d.SharedMemPerSM/s)
	}
	return n
}

// BenchmarkCompute measures one configuration (the 33-register textbook
// kernel on an A100): exact is occupancy.Compute, naive the whole-SM
// division beside it in the same binary. Compare them as a ratio.
func BenchmarkCompute(b *testing.B) {
	d := gpu.A100()
	k := occupancy.Kernel{BlockSize: 64, Registers: 33}
	b.Run("naive", func(b *testing.B) {
		sink := 0
		for b.Loop() {
			sink += naiveBlocks(d, k)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "configs/s")
		_ = sink
	})
	b.Run("exact", func(b *testing.B) {
		sink := 0
		for b.Loop() {
			r, _ := occupancy.Compute(d, k)
			sink += r.ActiveBlocks
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "configs/s")
		_ = sink
	})
}

// emptyCompute has Compute's signature and shape and does next to
// nothing: what a call costs before any work. Like Compute it is inlined
// into the caller, copies the Device and the Kernel there, and passes
// pointers to a function that is not inlined, which fills in one field of
// the Result that is then copied out.
func emptyCompute(d gpu.Device, k occupancy.Kernel) (r occupancy.Result, err error) {
	err = emptyFill(&d, &k, &r)
	return r, err
}

//go:noinline
func emptyFill(d *gpu.Device, k *occupancy.Kernel, r *occupancy.Result) error {
	r.ActiveBlocks = k.BlockSize + d.WarpSize
	return nil
}

// BenchmarkComputeRatio runs the two sides of BenchmarkCompute in
// alternating batches of 10,000 calls and reports the fastest batch of
// each, per configuration, and their ratio. On a shared, busy machine the
// fastest batch is the least disturbed one, and alternating exposes both
// sides to the same load, so the ratio holds still where the sequential
// sub-benchmarks' does not. call-ns/config is emptyCompute's cost, the
// part of exact's that the signature fixes.
func BenchmarkComputeRatio(b *testing.B) {
	d := gpu.A100()
	k := occupancy.Kernel{BlockSize: 64, Registers: 33}
	const batch = 10000
	var best [3]time.Duration
	for i := range best {
		best[i] = math.MaxInt64
	}
	sink := 0
	for b.Loop() {
		t0 := time.Now()
		for range batch {
			sink += naiveBlocks(d, k)
		}
		t1 := time.Now()
		for range batch {
			r, _ := occupancy.Compute(d, k)
			sink += r.ActiveBlocks
		}
		t2 := time.Now()
		for range batch {
			r, _ := emptyCompute(d, k)
			sink += r.ActiveBlocks
		}
		best[0] = min(best[0], t1.Sub(t0))
		best[1] = min(best[1], t2.Sub(t1))
		best[2] = min(best[2], time.Since(t2))
	}
	b.ReportMetric(float64(best[0])/batch, "naive-ns/config")
	b.ReportMetric(float64(best[1])/batch, "exact-ns/config")
	b.ReportMetric(float64(best[2])/batch, "call-ns/config")
	b.ReportMetric(float64(best[1])/float64(best[0]), "exact/naive")
	_ = sink
}

// BenchmarkGoldenSample computes every row of the reference sample (23,736
// configurations over 14 capabilities, parsed beforehand), one op per
// whole sample.
func BenchmarkGoldenSample(b *testing.B) {
	type job struct {
		d gpu.Device
		k occupancy.Kernel
	}
	var jobs []job
	for _, row := range readGolden(b, sampleFile) {
		if row.s("group") == "edge_other_cc" {
			continue
		}
		d, err := goldenDevice(row)
		if err != nil {
			continue
		}
		k, _ := goldenKernel(b, row)
		jobs = append(jobs, job{d, k})
	}
	b.ResetTimer()
	for b.Loop() {
		for _, j := range jobs {
			occupancy.Compute(j.d, j.k)
		}
	}
	b.ReportMetric(float64(b.N*len(jobs))/b.Elapsed().Seconds(), "configs/s")
}
