package occupancy_test

import (
	"testing"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// FuzzCompute feeds arbitrary kernels to every capability preset. Compute
// must never panic, and a result it returns must be possible: no negative
// figure, no more warps than the SM has, occupancy between 0 and 1, an
// answer equal to the smallest limit, a limiter for every positive answer,
// and obstacles exactly when nothing fits.
func FuzzCompute(f *testing.F) {
	f.Add(uint8(8), 64, 33, 0, 0, 0, int8(-1), uint8(0), uint8(0), 1, uint8(0), 0)
	f.Add(uint8(13), 32, 0, 0, 0, 0, int8(-1), uint8(0), uint8(0), 16, uint8(0), 0)
	f.Add(uint8(4), 352, 200, 0, 0, 0, int8(-1), uint8(0), uint8(0), 1, uint8(0), 0)
	f.Add(uint8(2), 256, 64, 1024, 16384, 8192, int8(25), uint8(1), uint8(1), 0, uint8(2), 1024)
	f.Add(uint8(9), -1, -1, -1, -1, -1, int8(101), uint8(9), uint8(9), -1, uint8(9), -1)
	devices := gpu.Parts()
	f.Fuzz(func(t *testing.T, dev uint8, block, regs, static, dyn, maxDyn int, carveout int8, cache, mode uint8, barriers int, gc uint8, funcMax int) {
		d := devices[int(dev)%len(devices)]
		k := occupancy.Kernel{
			BlockSize:           block,
			Registers:           regs,
			StaticSharedMem:     static,
			DynamicSharedMem:    dyn,
			MaxDynamicSharedMem: maxDyn,
			SharedMemLimit:      occupancy.SharedMemLimit(mode % 3),
			CachePreference:     occupancy.CachePreference(cache % 5),
			Barriers:            barriers,
			PartitionedGC:       occupancy.PartitionedGC(gc % 4),
			MaxThreadsPerBlock:  funcMax,
		}
		if carveout != -1 {
			k.Carveout = occupancy.CarveoutPercent(int(carveout))
		}
		r, err := occupancy.Compute(d, k)
		if err != nil {
			if r != (occupancy.Result{}) {
				t.Fatalf("error %v with a non-zero result %+v", err, r)
			}
			return
		}
		if r.ActiveBlocks < 0 || r.ActiveWarps < 0 || r.RegistersPerBlock < 0 || r.SharedMemPerBlock < 0 || r.SharedMemPreference < 0 || r.SharedMemConfig < 0 {
			t.Fatalf("negative figure: %+v", r)
		}
		if r.ActiveWarps > r.MaxWarps || r.ActiveBlocks > d.MaxBlocksPerSM || r.Occupancy < 0 || r.Occupancy > 1 {
			t.Fatalf("impossible result on %s for %+v: %+v", d.Name, k, r)
		}
		if r.ActiveWarps != r.ActiveBlocks*r.WarpsPerBlock {
			t.Fatalf("active warps %d ≠ %d blocks × %d", r.ActiveWarps, r.ActiveBlocks, r.WarpsPerBlock)
		}
		smallest := -1
		for _, l := range []occupancy.Limit{r.Limits.Warps, r.Limits.Registers, r.Limits.SharedMem, r.Limits.Blocks, r.Limits.Barriers} {
			if !l.Unlimited && l.Blocks < 0 {
				t.Fatalf("negative limit: %+v", r.Limits)
			}
			if !l.Unlimited && (smallest < 0 || l.Blocks < smallest) {
				smallest = l.Blocks
			}
		}
		if smallest != r.ActiveBlocks {
			t.Fatalf("answer %d is not the smallest limit %d: %+v", r.ActiveBlocks, smallest, r.Limits)
		}
		if r.Limiters == 0 {
			t.Fatalf("no limiter: %+v", r)
		}
		if (r.ActiveBlocks == 0) != (r.Obstacles != 0) {
			t.Fatalf("%d blocks with obstacles %q", r.ActiveBlocks, r.Obstacles)
		}
		if _, err := occupancy.Explain(d, k); err != nil {
			t.Fatalf("Explain fails where Compute succeeds: %v", err)
		}
	})
}
