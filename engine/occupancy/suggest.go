package occupancy

import (
	"fmt"

	"github.com/warpbook/warpbook/engine/gpu"
)

// Suggestion is a block size that gives a kernel the most resident threads
// per SM, as cudaOccupancyMaxPotentialBlockSize picks it.
type Suggestion struct {
	// BlockSize is the suggested number of threads per block; 0 when no
	// block size lets the kernel run.
	BlockSize int `json:"block_size"`
	// MinGridSize is the number of blocks that fills every SM of the
	// device once: blocks per SM at BlockSize × SMs.
	MinGridSize int `json:"min_grid_size"`
	// Ties are the other block sizes that keep as many threads resident
	// per SM, largest first.
	Ties []int `json:"ties,omitempty"`
	// Result is the occupancy at BlockSize. When BlockSize is 0 it is the
	// result at the largest block size tried, whose Obstacles say why the
	// kernel cannot run.
	Result Result `json:"result"`
}

// SuggestBlockSize returns the block size with the highest occupancy for k
// on d, with k's DynamicSharedMem for every block size. k.BlockSize is
// ignored.
//
// The search tries every multiple of the warp size from the largest block
// the device and the kernel allow (k.MaxThreadsPerBlock, when set) down to
// one warp; the largest allowed size is tried as it is, even when it is not
// a multiple of the warp size. A size is kept only when it gives strictly
// more resident threads than the best so far, so among equals the largest
// block wins. The search stops early once every thread slot of the SM is
// used.
func SuggestBlockSize(d gpu.Device, k Kernel) (Suggestion, error) {
	dyn := k.DynamicSharedMem
	return suggest(d, k, func(int) int { return dyn })
}

// SuggestBlockSizeFunc is SuggestBlockSize for a kernel whose dynamic
// shared memory depends on its block size: dynamicSharedMem returns the
// bytes needed by a block of the given size. k.DynamicSharedMem is
// ignored. A negative return value is an error.
func SuggestBlockSizeFunc(d gpu.Device, k Kernel, dynamicSharedMem func(blockSize int) int) (Suggestion, error) {
	if dynamicSharedMem == nil {
		return Suggestion{}, fmt.Errorf("occupancy: SuggestBlockSizeFunc needs a dynamic shared memory function")
	}
	return suggest(d, k, dynamicSharedMem)
}

func suggest(d gpu.Device, k Kernel, dyn func(int) int) (Suggestion, error) {
	if err := d.Validate(); err != nil {
		return Suggestion{}, fmt.Errorf("occupancy: %w", err)
	}
	if k.MaxThreadsPerBlock < 0 {
		return Suggestion{}, fmt.Errorf("occupancy: kernel max threads per block must not be negative, got %d", k.MaxThreadsPerBlock)
	}
	limit := d.MaxThreadsPerBlock
	if k.MaxThreadsPerBlock > 0 && k.MaxThreadsPerBlock < limit {
		limit = k.MaxThreadsPerBlock
	}
	var best Suggestion
	bestThreads := 0
	threadsAt := map[int]int{} // resident threads per SM, by block size
	var sizes []int
	for aligned := roundUp(limit, d.WarpSize); aligned > 0; aligned -= d.WarpSize {
		size := min(aligned, limit)
		try := k
		try.BlockSize = size
		try.DynamicSharedMem = dyn(size)
		if try.DynamicSharedMem < 0 {
			return Suggestion{}, fmt.Errorf("occupancy: dynamic shared memory for block size %d is negative (%d)", size, try.DynamicSharedMem)
		}
		r, err := Compute(d, try)
		if err != nil {
			return Suggestion{}, fmt.Errorf("occupancy: block size %d: %w", size, err)
		}
		if aligned == roundUp(limit, d.WarpSize) {
			best.Result = r
		}
		threads := size * r.ActiveBlocks
		threadsAt[size] = threads
		sizes = append(sizes, size)
		// Larger sizes come first: the largest of those that tie wins,
		// as in the reference, which stops at the first that fills the SM.
		if threads > bestThreads {
			bestThreads = threads
			best = Suggestion{BlockSize: size, MinGridSize: r.ActiveBlocks * d.SMs, Result: r}
		}
	}
	if best.BlockSize > 0 {
		for _, size := range sizes {
			if size != best.BlockSize && threadsAt[size] == bestThreads {
				best.Ties = append(best.Ties, size)
			}
		}
	}
	return best, nil
}
