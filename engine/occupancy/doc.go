// Package occupancy computes how many thread blocks of a CUDA kernel can be
// resident on one streaming multiprocessor (SM) at once, and so the
// kernel's theoretical occupancy: resident warps ÷ the SM's warp slots.
//
// It agrees exactly with NVIDIA's reference calculator, the logic behind
// cudaOccupancyMaxActiveBlocksPerMultiprocessor (cuda_occupancy.h, CUDA
// 11.8), quirks included: the tests hold it to every row of the reference
// figures in testdata (see testdata/README.md for their provenance).
//
//	r, err := occupancy.Compute(gpu.A100(), occupancy.Kernel{BlockSize: 64, Registers: 33})
//	// r.ActiveBlocks == 24, r.ActiveWarps == 48, r.Occupancy == 0.75
//
// [Compute] gives the answer, [Explain] the arithmetic in words,
// [SuggestBlockSize] the block size with the best occupancy, and [Curve]
// occupancy as one input varies, for plots.
//
// # Units
//
// Block sizes are in threads, register counts in 32-bit registers per
// thread, shared memory in bytes. Limits are in blocks per SM. Occupancy is
// a fraction from 0 to 1. A [Limit] is either a number of blocks or
// explicitly unlimited (a kernel using no registers is not limited by the
// register file); no sentinel number stands for "no limit".
//
// # The model
//
// Each resource allows some number of blocks; the answer is the smallest.
//
// Warps. A block takes ceil(BlockSize ÷ WarpSize) warp slots: a partial
// warp costs a whole one. The SM has MaxThreadsPerSM ÷ WarpSize slots, so
// warp slots allow slots ÷ warps-per-block blocks (integer division). A
// block larger than the device's MaxThreadsPerBlock allows none.
//
// Blocks. The SM holds at most MaxBlocksPerSM blocks.
//
// Registers. Registers are allocated per warp: registers per thread × 32,
// rounded up to the allocation unit of 256. The register file is split
// evenly between the SM's warp-scheduler sub-partitions (four, or two on
// GP100), and a warp's registers must come from one of them. So the SM
// holds floor(registers per sub-partition ÷ registers per warp) warps per
// sub-partition, times the number of sub-partitions, and blocks are that
// ÷ warps per block. For 33 registers on an A100: 33 × 32 = 1,056, rounded
// to 1,280 per warp; 65,536 ÷ 4 = 16,384 per sub-partition holds 12 warps
// (15,360 registers; the rest is stranded), 48 warps in all, 24 blocks of
// 2 warps, 75 %. Dividing the whole file instead (65,536 ÷ 2,560 per block)
// would give 25 blocks and 78.1 %, which no GPU achieves.
//
// A block whose registers (per warp × warps) exceed RegistersPerBlock
// cannot run. The hardware checks this limit as if the block's warps were
// spread evenly over the sub-partitions, so it rounds the warp count up to
// a multiple of the sub-partitions first: a block can be refused although
// its exact register total fits. More than MaxRegistersPerThread registers
// per thread (255; 256 accepted from Volta on) cannot run either. On
// compute capability 6.0 the reference also checks the kernel against the
// four sub-partitions of the other Pascal chips and refuses it if it would
// not run there.
//
// Shared memory. A block is allocated its static shared memory plus the
// driver's reserve (1 KB from Ampere on) plus the launch's dynamic shared
// memory, rounded up to the allocation unit (256 bytes; 128 from Ampere
// on). It must fit the per-block limit: 48 KB, or, in OptInLimit mode for a
// kernel whose static + reserve + maximum dynamic attribute exceeds 48 KB,
// the device's opt-in limit; in both cases plus the reserve. In OptInLimit
// mode the launch's dynamic shared memory must also not exceed the
// kernel's MaxDynamicSharedMem attribute.
//
// From Volta on, shared memory and L1 share one array and the SM is
// configured with one of a few shared-memory sizes (the device's
// SharedMemCapacities; Volta: 0, 8, 16, 32, 64, 96 KB). The carveout
// preference, in percent of the largest size (or, without one, the legacy
// cache preference: L1 0 %, equal 50 %, shared 100 %; no preference
// means the largest), is rounded up to a supported size. If one block
// fits, the SM is configured with that size; if not, with the smallest
// size that holds one block. Blocks are that size ÷ the block's
// allocation. So a carveout of 0 % on an A100 gives an 8 KB configuration,
// and at most 8 blocks of the 1 KB reserve, whatever the kernel. Before
// Volta the shared memory is fixed and both preferences are ignored.
//
// Barriers. From Hopper on an SM has 64 block barriers (2 per block slot),
// and a kernel using n barriers allows 64 ÷ n blocks.
//
// Partitioned global caching. On 5.2, 5.3, 6.1 and 6.2 a kernel may ask for
// it; each block is then confined to half the SM: half the warp slots and
// half the sub-partitions, and the block limits are computed per half and
// doubled. If not even one block fits in half an SM, PartitionedGCOn falls
// back to off; PartitionedGCOnStrict does not, and no block fits.
//
// # Limiting factors
//
// [Result.Limiters] holds every resource whose limit equals the answer,
// computed before the barrier limit, exactly as the reference does: when
// barriers then lower the answer, the earlier flags stay set (see
// [Limiter]).
//
// # Errors
//
// An invalid device or kernel (a non-positive block size, negative counts,
// a carveout outside 0–100 on a device that has one) is an error value,
// never a panic. A valid kernel that cannot run is not an error: its
// Result has ActiveBlocks 0 and [Result.Obstacles] says why.
package occupancy
