package occupancy_test

import (
	"fmt"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// A kernel with 33 registers per thread and 64-thread blocks on an A100:
// registers are allocated per warp-scheduler sub-partition, so 24 blocks
// fit, not the 25 a whole-SM division suggests.
func ExampleCompute() {
	r, err := occupancy.Compute(gpu.A100(), occupancy.Kernel{BlockSize: 64, Registers: 33})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.ActiveBlocks, "blocks,", r.ActiveWarps, "of", r.MaxWarps, "warps")
	fmt.Printf("occupancy %.1f %%, limited by %v\n", 100*r.Occupancy, r.Limiters)
	fmt.Println("registers allow", r.Limits.Registers, "blocks; shared memory allows", r.Limits.SharedMem)
	// Output:
	// 24 blocks, 48 of 64 warps
	// occupancy 75.0 %, limited by registers
	// registers allow 24 blocks; shared memory allows 164
}

// A kernel that uses no registers and no shared memory of its own is
// limited by neither: the limits say so explicitly.
func ExampleCompute_unlimited() {
	r, _ := occupancy.Compute(gpu.V100(), occupancy.Kernel{BlockSize: 128})
	fmt.Println(r.Limits.Registers, r.Limits.SharedMem, r.Limits.Warps)
	// Output:
	// unlimited unlimited 16
}

// A kernel that cannot run at all is not an error: it has 0 blocks and
// Obstacles says why.
func ExampleCompute_cannotRun() {
	r, _ := occupancy.Compute(gpu.T4(), occupancy.Kernel{BlockSize: 256, Registers: 64, DynamicSharedMem: 80 * 1024})
	fmt.Println(r.ActiveBlocks, r.Obstacles)
	// Output:
	// 0 smem_per_block_exceeded
}

func ExampleExplain() {
	s, _ := occupancy.Explain(gpu.A100(), occupancy.Kernel{BlockSize: 64, Registers: 33})
	fmt.Print(s)
	// Output:
	// warps: 64 threads ÷ 32 = 2 warps per block; 64 warp slots per SM ÷ 2 = 32 blocks
	// registers: 33 regs × 32 lanes = 1,056 → 1,280 per warp (256-register granularity); 16,384 per sub-partition ÷ 1,280 = 12 warps; × 4 sub-partitions = 48 warps = 24 blocks of 2 warps
	// shared memory: 0 static + 1,024 reserved + 0 dynamic = 1,024 bytes per block (a multiple of the 128-byte granularity); no carveout preference: the SM is configured with its largest size, 167,936 bytes; 167,936 ÷ 1,024 = 164 blocks
	// blocks: the SM holds at most 32 blocks
	// barriers: barriers do not limit occupancy on this architecture: no limit
	// result: the smallest limit is 24 blocks, set by registers; 24 × 2 warps = 48 of 64 warp slots = 75 % occupancy
}

// The carveout asks for a share of the SM's shared memory; the SM rounds
// it up to a size it supports, and a small one caps the blocks.
func ExampleCarveoutPercent() {
	for _, p := range []int{0, 25, 100} {
		k := occupancy.Kernel{BlockSize: 64, Registers: 16, StaticSharedMem: 4096, Carveout: occupancy.CarveoutPercent(p)}
		r, _ := occupancy.Compute(gpu.A100(), k)
		fmt.Printf("carveout %3d%%: %6d bytes per SM, %2d blocks\n", p, r.SharedMemConfig, r.ActiveBlocks)
	}
	// Output:
	// carveout   0%:   8192 bytes per SM,  1 blocks
	// carveout  25%:  65536 bytes per SM, 12 blocks
	// carveout 100%: 167936 bytes per SM, 32 blocks
}

// 72 registers per thread is 2,304 per warp; a sub-partition's 16,384
// hold 7 such warps, the SM 28: one block of 896 threads fills them.
func ExampleSuggestBlockSize() {
	s, _ := occupancy.SuggestBlockSize(gpu.H100(), occupancy.Kernel{Registers: 72})
	fmt.Println(s.BlockSize, "threads per block,", s.MinGridSize, "blocks to fill the GPU,", s.Result.ActiveWarps, "warps per SM")
	// Output:
	// 896 threads per block, 132 blocks to fill the GPU, 28 warps per SM
}

// A kernel whose dynamic shared memory grows with its block size: 64
// bytes per thread.
func ExampleSuggestBlockSizeFunc() {
	s, _ := occupancy.SuggestBlockSizeFunc(gpu.RTX4090(), occupancy.Kernel{Registers: 32},
		func(blockSize int) int { return 64 * blockSize })
	fmt.Println(s.BlockSize, s.Result.ActiveBlocks, s.Result.Limiters)
	// Output:
	// 768 2 warps|registers|shared_memory
}

// Occupancy as registers per thread grow: the cliffs are where whole warps
// stop fitting in a sub-partition.
func ExampleCurve() {
	pts, _ := occupancy.Curve(gpu.A100(), occupancy.Kernel{BlockSize: 256}, occupancy.ByRegisters, 24, 72, 8)
	for _, p := range pts {
		fmt.Printf("%d registers: %.1f %%\n", p.X, 100*p.Result.Occupancy)
	}
	// Output:
	// 24 registers: 100.0 %
	// 32 registers: 100.0 %
	// 40 registers: 75.0 %
	// 48 registers: 62.5 %
	// 56 registers: 50.0 %
	// 64 registers: 50.0 %
	// 72 registers: 37.5 %
}
