package occupancy

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Result is the occupancy of one kernel launch on one device.
type Result struct {
	// ActiveBlocks is the number of blocks resident on one SM at once.
	// 0 means the launch cannot run at all; Obstacles says why.
	ActiveBlocks int `json:"active_blocks"`
	// ActiveWarps is ActiveBlocks × WarpsPerBlock.
	ActiveWarps int `json:"active_warps"`
	// MaxWarps is the SM's warp slots, the device's MaxThreadsPerSM ÷
	// WarpSize.
	MaxWarps int `json:"max_warps"`
	// WarpsPerBlock is BlockSize ÷ WarpSize, rounded up: a partial warp
	// takes a whole warp's slot and registers.
	WarpsPerBlock int `json:"warps_per_block"`
	// Occupancy is ActiveWarps ÷ MaxWarps, a fraction from 0 to 1.
	Occupancy float64 `json:"occupancy"`

	// Limiters lists every resource whose limit equals the answer, as the
	// reference calculator reports it (see Limiter for its one quirk).
	Limiters Limiter `json:"limiters"`
	// Limits holds the number of blocks each resource alone would allow.
	Limits Limits `json:"limits"`
	// Obstacles lists what stops even one block from fitting. It is empty
	// whenever ActiveBlocks > 0.
	Obstacles Obstacle `json:"obstacles"`

	// RegistersPerWarp is the registers allocated to one warp: registers
	// per thread × warp size, rounded up to the allocation unit.
	RegistersPerWarp int `json:"registers_per_warp"`
	// RegistersPerBlock is the registers allocated to one block,
	// RegistersPerWarp × WarpsPerBlock.
	RegistersPerBlock int `json:"registers_per_block"`
	// SharedMemPerBlock is the shared memory allocated to one block in
	// bytes: static + driver reserve + dynamic, rounded up to the
	// allocation unit.
	SharedMemPerBlock int `json:"shared_mem_per_block"`
	// SharedMemPreference is the SM shared-memory size the carveout (or
	// cache preference) asks for, in bytes, rounded up to a size the SM
	// supports. On devices without a carveout it is the SM's shared
	// memory.
	SharedMemPreference int `json:"shared_mem_preference"`
	// SharedMemConfig is the shared memory the SM is configured with for
	// this kernel, in bytes: SharedMemPreference, or, when that is too
	// small for one block, the smallest supported size that holds one
	// block (Nsight Compute's "Shared Memory Configuration Size"). It is 0
	// when a block cannot fit at all.
	SharedMemConfig int `json:"shared_mem_config"`
	// PartitionedGC is the partitioned global caching setting in effect
	// after the device's support and the fall-back are applied.
	PartitionedGC PartitionedGC `json:"partitioned_gc"`
}

// Limits holds the blocks per SM that each resource alone would allow.
type Limits struct {
	// Warps is the limit from the SM's warp slots (0 when BlockSize
	// exceeds the device's MaxThreadsPerBlock).
	Warps Limit `json:"warps"`
	// Registers is the limit from the register file; unlimited when the
	// kernel uses no registers.
	Registers Limit `json:"registers"`
	// SharedMem is the limit from shared memory; unlimited when a block
	// is allocated none.
	SharedMem Limit `json:"shared_mem"`
	// Blocks is the device's MaxBlocksPerSM.
	Blocks Limit `json:"blocks"`
	// Barriers is the limit from block barriers; unlimited on devices
	// before Hopper or for a kernel using none.
	Barriers Limit `json:"barriers"`
}

// beforeBarriers returns the smallest of the warp, register, shared-memory
// and block limits: the answer before the barrier limit is applied, which
// is what the reference sets the limiter flags against.
func (l *Limits) beforeBarriers() Limit {
	return lower(lower(l.Warps, l.Registers), lower(l.SharedMem, l.Blocks))
}

// lower returns the limit that allows fewer blocks, l on a tie.
func lower(l, m Limit) Limit {
	if m.less(l) {
		return m
	}
	return l
}

// Limit is the number of blocks per SM one resource allows, or no limit.
type Limit struct {
	// Blocks is the number of blocks; meaningless when Unlimited.
	Blocks int
	// Unlimited reports that the resource sets no limit.
	Unlimited bool
}

// Unlimited is the Limit of a resource that sets no limit.
func Unlimited() Limit { return Limit{Unlimited: true} }

// Blocks is the Limit of a resource that allows n blocks per SM.
func Blocks(n int) Limit { return Limit{Blocks: n} }

// String returns the number of blocks, or "unlimited".
func (l Limit) String() string {
	if l.Unlimited {
		return "unlimited"
	}
	return strconv.Itoa(l.Blocks)
}

// MarshalJSON writes the number of blocks, or null when unlimited.
func (l Limit) MarshalJSON() ([]byte, error) {
	if l.Unlimited {
		return []byte("null"), nil
	}
	return []byte(strconv.Itoa(l.Blocks)), nil
}

// less reports whether l allows fewer blocks than m.
func (l Limit) less(m Limit) bool {
	return !l.Unlimited && (m.Unlimited || l.Blocks < m.Blocks)
}

// Limiter is a set of resources that limit occupancy. Its bits match the
// reference calculator's cudaOccLimitingFactor.
//
// Every resource whose limit equals the final answer is in the set, so a
// kernel limited by warps and registers at once has both. One quirk is
// kept on purpose, because the reference has it: the barrier limit is
// applied after the other flags are set, so when barriers lower the answer
// the flags of the earlier, now higher, limits stay set. On an H100 with
// 16 barriers and 32-thread blocks, the answer is 4 blocks and the
// limiters read "blocks|barriers".
type Limiter uint

const (
	// LimitWarps: the SM's warp slots.
	LimitWarps Limiter = 1 << iota
	// LimitRegisters: the register file.
	LimitRegisters
	// LimitSharedMem: shared memory.
	LimitSharedMem
	// LimitBlocks: the most blocks per SM.
	LimitBlocks
	// LimitBarriers: block barriers.
	LimitBarriers
)

var limiterNames = []string{"warps", "registers", "shared_memory", "blocks", "barriers"}

// Has reports whether every resource in x is in l.
func (l Limiter) Has(x Limiter) bool { return l&x == x }

// String returns the resources joined by "|", "warps|registers", in the
// words of the golden CSV; "" for the empty set.
func (l Limiter) String() string {
	var parts []string
	for i, name := range limiterNames {
		if l&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	return strings.Join(parts, "|")
}

// MarshalJSON writes the set as a list of its words, ["warps","registers"].
func (l Limiter) MarshalJSON() ([]byte, error) { return wordList(l.String()) }

// Obstacle is a set of reasons why not even one block fits on an SM.
type Obstacle uint

const (
	// BlockTooLarge: BlockSize exceeds the device's MaxThreadsPerBlock.
	BlockTooLarge Obstacle = 1 << iota
	// TooManyRegistersPerThread: Registers exceeds the device's
	// MaxRegistersPerThread.
	TooManyRegistersPerThread
	// TooManyRegistersPerBlock: the block's registers exceed the device's
	// RegistersPerBlock.
	TooManyRegistersPerBlock
	// SubPartitionRounding: the block's registers fit RegistersPerBlock,
	// but not once its warps are rounded up to a multiple of the
	// sub-partitions, which is how the hardware checks the limit.
	SubPartitionRounding
	// GP10xCrossCheck: on compute capability 6.0 the block fits the
	// GP100's two sub-partitions but not the four of the other Pascal
	// chips, and the reference refuses it on every Pascal part.
	GP10xCrossCheck
	// PartitionedGCHalfSM: PartitionedGCOnStrict confines a block to half
	// an SM, and its registers do not fit there.
	PartitionedGCHalfSM
	// SharedMemPerBlockExceeded: the block's shared memory exceeds the
	// per-block limit.
	SharedMemPerBlockExceeded
	// DynamicSharedMemOverAttribute: the launch's dynamic shared memory
	// exceeds the kernel's MaxDynamicSharedMem attribute.
	DynamicSharedMemOverAttribute
	// NotEnoughBarriers: the kernel uses more barriers than an SM has.
	NotEnoughBarriers
)

var obstacleNames = []string{
	"block_size_gt_max_threads_per_block",
	"regs_per_thread_gt_max",
	"regs_per_block_exceeded",
	"regs_per_block_exceeded_subpartition_rounding",
	"regs_gp10x_crosscheck_subpartition_rounding",
	"regs_partitioned_gc_half_sm",
	"smem_per_block_exceeded",
	"dyn_smem_gt_func_max_dynamic",
	"barriers",
}

// Has reports whether every reason in x is in o.
func (o Obstacle) Has(x Obstacle) bool { return o&x == x }

// String returns the reasons joined by "|", in the golden CSV's zero_reason
// words; "" for the empty set.
func (o Obstacle) String() string {
	var parts []string
	for i, name := range obstacleNames {
		if o&(1<<i) != 0 {
			parts = append(parts, name)
		}
	}
	return strings.Join(parts, "|")
}

// MarshalJSON writes the set as a list of its words.
func (o Obstacle) MarshalJSON() ([]byte, error) { return wordList(o.String()) }

func wordList(s string) ([]byte, error) {
	words := []string{}
	if s != "" {
		words = strings.Split(s, "|")
	}
	return json.Marshal(words)
}
