package occupancy

import (
	"fmt"
	"math/bits"

	"github.com/warpbook/warpbook/engine/gpu"
)

// Compute returns the occupancy of kernel k on device d: how many of its
// blocks fit on one SM at once, what each resource allows, and what is
// allocated. It agrees with NVIDIA's cudaOccMaxActiveBlocksPerMultiprocessor
// on every input; the package documentation describes the model.
//
// An invalid device or kernel is an error; a kernel that is valid but
// cannot run (too many registers, too much shared memory) is not: its
// Result has ActiveBlocks 0 and says why in Obstacles.
func Compute(d gpu.Device, k Kernel) (r Result, err error) {
	// Compute is small enough to be inlined: r and the copies of d and k
	// live in the caller's frame, compute works on them through pointers,
	// and r is copied once, into the caller's variable. Through a call by
	// value, the Device and the Kernel were copied in and the Result twice
	// out, a large part of what a call cost (BenchmarkComputeRatio's
	// call-ns measures it); what remains is mostly the one copy of r, whose
	// wide loads wait for compute's narrow stores to reach the cache.
	err = compute(&d, &k, &r)
	return r, err
}

// compute is Compute on pointers. It fills in r, which must be zero, and
// leaves it zero on an error.
func compute(d *gpu.Device, k *Kernel, r *Result) error {
	if err := d.Validate(); err != nil {
		return fmt.Errorf("occupancy: %w", err)
	}
	if !k.valid() {
		return k.invalid()
	}
	// r is written in place, field by field: the helpers return plain
	// values or fill r in through a pointer, and no struct is assigned
	// whole. Copying a struct whose fields were just stored one by one
	// stalls the processor (its wide loads cannot take the narrow stores'
	// data), and such copies of small result structs, of Limits and of r
	// itself were most of what Compute cost.
	r.WarpsPerBlock = ceilDiv(k.BlockSize, d.WarpSize)
	r.MaxWarps = div(d.MaxThreadsPerSM, d.WarpSize)

	// Partitioned global caching only exists where the device honours it.
	gc := k.PartitionedGC
	if !d.PartitionedGlobalCaching {
		gc = PartitionedGCOff
	}

	// Registers. This may turn partitioned global caching off.
	r.RegistersPerWarp = roundUp(k.Registers*d.WarpSize, d.RegisterAllocUnit)
	r.RegistersPerBlock = r.RegistersPerWarp * r.WarpsPerBlock
	limit, obstacles, gc := registerLimit(d, k, r.RegistersPerWarp, r.WarpsPerBlock, d.SubPartitions, gc)
	r.Limits.Registers = limit
	r.Obstacles |= obstacles
	// GP100 (6.0) has two sub-partitions, the other Pascal chips four. A
	// kernel that fits a GP100 SM but no GP10x SM is refused on GP100 too,
	// so that a Pascal binary runs on every Pascal part or on none.
	if d.CC == (gpu.CC{Major: 6, Minor: 0}) && limit != Blocks(0) {
		if check, _, _ := registerLimit(d, k, r.RegistersPerWarp, r.WarpsPerBlock, 4, gc); check == Blocks(0) {
			r.Limits.Registers = Blocks(0)
			r.Obstacles |= GP10xCrossCheck
		}
	}
	r.PartitionedGC = gc

	// Warp slots.
	switch {
	case k.BlockSize > d.MaxThreadsPerBlock:
		r.Limits.Warps = Blocks(0)
		r.Obstacles |= BlockTooLarge
	case gc != PartitionedGCOff:
		// A block is confined to half the SM and its warp slots.
		r.Limits.Warps = Blocks(div(r.MaxWarps/2, r.WarpsPerBlock) * 2)
	default:
		r.Limits.Warps = Blocks(div(r.MaxWarps, r.WarpsPerBlock))
	}

	// Resident blocks.
	r.Limits.Blocks = Blocks(d.MaxBlocksPerSM)

	// Shared memory.
	if err := sharedMemLimit(d, k, r); err != nil {
		*r = Result{}
		return err
	}

	// The answer is the smallest limit; every limit equal to it is a
	// limiter.
	answer := r.Limits.beforeBarriers()
	if r.Limits.Warps == answer {
		r.Limiters |= LimitWarps
	}
	if r.Limits.Registers == answer {
		r.Limiters |= LimitRegisters
	}
	if r.Limits.SharedMem == answer {
		r.Limiters |= LimitSharedMem
	}
	if r.Limits.Blocks == answer {
		r.Limiters |= LimitBlocks
	}

	// Barriers come last and may lower the answer without clearing the
	// flags already set (the reference does the same).
	r.Limits.Barriers = Unlimited()
	if d.BarriersPerSM > 0 && k.Barriers > 0 {
		r.Limits.Barriers = Blocks(d.BarriersPerSM / k.Barriers)
		if r.Limits.Barriers.less(answer) {
			answer = r.Limits.Barriers
		}
		if r.Limits.Barriers == answer {
			r.Limiters |= LimitBarriers
		}
		if r.Limits.Barriers == Blocks(0) {
			r.Obstacles |= NotEnoughBarriers
		}
	}

	// The warp and block limits are always finite, so the answer is too.
	r.ActiveBlocks = answer.Blocks
	r.ActiveWarps = r.ActiveBlocks * r.WarpsPerBlock
	if r.MaxWarps > 0 {
		r.Occupancy = float64(r.ActiveWarps) / float64(r.MaxWarps)
	}
	if r.ActiveBlocks > 0 {
		r.Obstacles = 0
	}
	return nil
}

// registerLimit applies the register rules with subParts sub-partitions
// per SM, for warps warps per block of perWarp registers each. It returns
// the blocks the register file allows, what stops even one, and the
// partitioned global caching in effect, which it turns off when a block
// does not fit half the SM and gc allows the fall-back.
func registerLimit(d *gpu.Device, k *Kernel, perWarp, warps, subParts int, gc PartitionedGC) (Limit, Obstacle, PartitionedGC) {
	// The hardware checks the per-block limit as if every sub-partition
	// received the same number of the block's warps.
	perBlockAsChecked := perWarp * roundUp(warps, subParts)

	var obstacles Obstacle
	if k.Registers > d.MaxRegistersPerThread {
		obstacles |= TooManyRegistersPerThread
	}
	if perWarp*warps > d.RegistersPerBlock {
		obstacles |= TooManyRegistersPerBlock
	} else if perBlockAsChecked > d.RegistersPerBlock {
		obstacles |= SubPartitionRounding
	}
	if obstacles != 0 {
		return Blocks(0), obstacles, gc
	}
	if perWarp == 0 {
		return Unlimited(), 0, gc
	}
	// A warp's registers live in one sub-partition's share of the file.
	warpsPerSubPart := div(div(d.RegistersPerSM, subParts), perWarp)
	blocks := 0
	if gc != PartitionedGCOff {
		// A block is confined to half the SM's sub-partitions.
		blocks = div(warpsPerSubPart*(subParts/2), warps) * 2
		if blocks == 0 && gc == PartitionedGCOnStrict {
			obstacles |= PartitionedGCHalfSM
		}
	}
	if blocks == 0 && gc != PartitionedGCOnStrict {
		gc = PartitionedGCOff
		blocks = div(warpsPerSubPart*subParts, warps)
	}
	return Blocks(blocks), obstacles, gc
}

// sharedMemLimit applies the shared-memory rules and fills in r's
// shared-memory fields, its shared-memory limit and obstacles.
func sharedMemLimit(d *gpu.Device, k *Kernel, r *Result) error {
	// The preferred configuration: the SM size the kernel's carveout or
	// cache preference asks for, rounded up to a size the SM supports.
	// Shared memory that is a fixed array has nothing to configure.
	pref := d.SharedMemPerSM
	if d.SharedMemCapacities != nil {
		percent, set := k.carveout()
		if set && (percent < 0 || percent > 100) {
			return fmt.Errorf("occupancy: carveout %d%% is out of range (0 to 100)", percent)
		}
		size := d.SharedMemPerSM
		if set {
			size = percent * d.SharedMemPerSM / 100
		}
		c, ok := capacityFor(d, size)
		if !ok {
			return fmt.Errorf("occupancy: %s cannot be configured with %d bytes of shared memory per SM", d.Name, size)
		}
		pref = c
	}
	r.SharedMemPreference = pref
	perBlock := roundUp(k.StaticSharedMem+d.ReservedSharedMemPerBlock+k.DynamicSharedMem, d.SharedMemAllocUnit)
	r.SharedMemPerBlock = perBlock

	var obstacles Obstacle
	if k.SharedMemLimit == OptInLimit && k.DynamicSharedMem > k.maxDynamic() {
		obstacles |= DynamicSharedMemOverAttribute
	}
	// The per-block limit, plus the driver's reserve.
	limit, _ := sharedMemBlockLimit(d, k)
	limit += d.ReservedSharedMemPerBlock
	// A launch over its own attribute is refused for that reason alone,
	// even when the block also exceeds the per-block limit (a limit the
	// attribute itself chose).
	if perBlock > limit && obstacles == 0 {
		obstacles |= SharedMemPerBlockExceeded
	}
	if obstacles != 0 {
		r.Limits.SharedMem = Blocks(0)
		r.Obstacles |= obstacles
		return nil
	}

	// The SM runs with the preferred size when one block fits in it;
	// otherwise with the smallest size that holds one block.
	config := pref
	if pref < perBlock {
		if d.SharedMemCapacities != nil {
			c, ok := capacityFor(d, perBlock)
			if !ok {
				return fmt.Errorf("occupancy: %s cannot be configured with %d bytes of shared memory per SM (largest is %d)",
					d.Name, perBlock, d.SharedMemCapacities[len(d.SharedMemCapacities)-1])
			}
			config = c
		} else {
			config = d.SharedMemPerSM
		}
	}
	r.SharedMemConfig = config
	if perBlock == 0 {
		r.Limits.SharedMem = Unlimited()
		return nil
	}
	r.Limits.SharedMem = Blocks(div(config, perBlock))
	return nil
}

// sharedMemBlockLimit returns the per-block shared-memory limit k is held
// to, in bytes before the driver's reserve is added: the opt-in limit, in
// OptInLimit mode, once the kernel could need more than the default one
// (static + reserve + the maximum dynamic attribute); the default limit
// otherwise. optIn reports which.
func sharedMemBlockLimit(d *gpu.Device, k *Kernel) (limit int, optIn bool) {
	if k.SharedMemLimit == OptInLimit && k.StaticSharedMem+d.ReservedSharedMemPerBlock+k.maxDynamic() > d.SharedMemPerBlock {
		return d.SharedMemPerBlockOptIn, true
	}
	return d.SharedMemPerBlock, false
}

// capacityFor returns the smallest shared-memory capacity of d that holds
// size bytes. The capacities ascend, so those that hold it are the last
// ones; the walk starts from the largest because most kernels ask for the
// largest (no carveout preference means 100 %), which then takes two
// comparisons instead of one per capacity.
func capacityFor(d *gpu.Device, size int) (int, bool) {
	caps := d.SharedMemCapacities
	i := len(caps)
	for i > 0 && caps[i-1] >= size {
		i--
	}
	if i == len(caps) {
		return 0, false
	}
	return caps[i], true
}

func ceilDiv(x, y int) int { return div(x+y-1, y) }

// div is x / y for x >= 0 and y > 0. Most divisors here are powers of two
// (the warp size, sub-partitions, warps per block), and
// a shift costs a cycle where a 64-bit division costs ten (recent AMD) to
// tens (older Intel); Compute divides about seven times. The mask tells the
// compiler the shift is under 64, which spares it the code for wider ones.
func div(x, y int) int {
	if y&(y-1) == 0 {
		return x >> (bits.TrailingZeros(uint(y)) & 63)
	}
	return x / y
}

// roundUp is x rounded up to a multiple of y, for x >= 0 and y > 0; a
// power of two y (every allocation unit) needs only a mask.
func roundUp(x, y int) int {
	if y&(y-1) == 0 {
		return (x + y - 1) &^ (y - 1)
	}
	return ceilDiv(x, y) * y
}
