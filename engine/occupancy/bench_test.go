package occupancy_test

import (
	"testing"

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
