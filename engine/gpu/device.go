package gpu

import "fmt"

// Device describes one GPU as the occupancy calculator sees it: the limits
// of one streaming multiprocessor (SM) and of one thread block, and the
// allocation rules of its architecture.
//
// The presets fill in every field. A Device built by hand must set every
// numeric field to a positive value (SMs included); SharedMemCapacities,
// BarriersPerSM and PartitionedGlobalCaching may be left at their zero
// values. Copying a Device copies the SharedMemCapacities slice header only;
// use [Device.Clone] before changing that slice.
type Device struct {
	// Name is the product name, such as "A100 SXM4".
	Name string `json:"name"`
	// Architecture is the architecture's marketing name, such as "Ampere".
	Architecture string `json:"architecture"`
	// CC is the compute capability.
	CC CC `json:"cc"`
	// SMs is the number of streaming multiprocessors on the part. Only
	// whole-GPU figures (a suggested grid size, waves) depend on it.
	SMs int `json:"sms"`

	// WarpSize is the number of threads in a warp (32 on every NVIDIA GPU).
	WarpSize int `json:"warp_size"`
	// MaxThreadsPerBlock is the largest block size, in threads.
	MaxThreadsPerBlock int `json:"max_threads_per_block"`
	// MaxThreadsPerSM is the number of threads that can be resident on one
	// SM at once. MaxThreadsPerSM / WarpSize is the SM's warp slots.
	MaxThreadsPerSM int `json:"max_threads_per_sm"`
	// MaxBlocksPerSM is the number of thread blocks that can be resident on
	// one SM at once, however small they are.
	MaxBlocksPerSM int `json:"max_blocks_per_sm"`

	// RegistersPerSM is the size of one SM's register file, in 32-bit
	// registers.
	RegistersPerSM int `json:"registers_per_sm"`
	// RegistersPerBlock is the most registers one block may be allocated.
	RegistersPerBlock int `json:"registers_per_block"`
	// MaxRegistersPerThread is the most registers one thread may use.
	MaxRegistersPerThread int `json:"max_registers_per_thread"`
	// RegisterAllocUnit is the allocation granularity of registers, per
	// warp: a warp's registers (registers per thread × WarpSize) are
	// rounded up to a multiple of it.
	RegisterAllocUnit int `json:"register_alloc_unit"`
	// SubPartitions is the number of warp-scheduler sub-partitions (SM
	// sub-partitions, "SMSPs") per SM. The register file is split evenly
	// between them, and a warp's registers must fit inside one of them.
	SubPartitions int `json:"sub_partitions"`

	// SharedMemPerSM is the largest shared memory one SM can hold, in bytes.
	SharedMemPerSM int `json:"shared_mem_per_sm"`
	// SharedMemPerBlock is the per-block shared-memory limit a kernel gets
	// without opting in, in bytes (48 KiB on every preset).
	SharedMemPerBlock int `json:"shared_mem_per_block"`
	// SharedMemPerBlockOptIn is the per-block limit for a kernel that opts
	// in to more (cudaFuncAttributeMaxDynamicSharedMemorySize), in bytes.
	// Before Volta it equals SharedMemPerBlock.
	SharedMemPerBlockOptIn int `json:"shared_mem_per_block_opt_in"`
	// ReservedSharedMemPerBlock is the shared memory the CUDA driver
	// reserves for its own use in every block, in bytes (1 KiB from Ampere
	// on, 0 before).
	ReservedSharedMemPerBlock int `json:"reserved_shared_mem_per_block"`
	// SharedMemAllocUnit is the allocation granularity of shared memory per
	// block, in bytes.
	SharedMemAllocUnit int `json:"shared_mem_alloc_unit"`
	// SharedMemCapacities lists, in ascending order and in bytes, the
	// shared-memory sizes an SM can be configured with when shared memory
	// and L1 cache share one array (Volta onwards). A carveout preference
	// is rounded up to one of them. Nil means the shared memory is fixed at
	// SharedMemPerSM and carveout and cache preferences are ignored.
	SharedMemCapacities []int `json:"shared_mem_capacities"`
	// BarriersPerSM is the number of named block barriers one SM provides,
	// shared by its resident blocks. Zero means barriers never limit
	// occupancy (true before Hopper, as far as the reference calculator
	// models).
	BarriersPerSM int `json:"barriers_per_sm"`
	// PartitionedGlobalCaching reports whether the SM honours a request for
	// partitioned global caching, which confines a block to half the SM
	// (compute capabilities 5.2, 5.3, 6.1 and 6.2).
	PartitionedGlobalCaching bool `json:"partitioned_global_caching"`
}

// MaxWarpsPerSM returns the SM's warp slots, MaxThreadsPerSM / WarpSize.
func (d Device) MaxWarpsPerSM() int {
	if d.WarpSize <= 0 {
		return 0
	}
	return d.MaxThreadsPerSM / d.WarpSize
}

// Clone returns a copy of d that shares no memory with it.
func (d Device) Clone() Device {
	if d.SharedMemCapacities != nil {
		d.SharedMemCapacities = append([]int(nil), d.SharedMemCapacities...)
	}
	return d
}

// String returns the name and capability, "A100 SXM4 (sm_80, 108 SMs)".
func (d Device) String() string {
	return fmt.Sprintf("%s (%s, %d SMs)", d.Name, d.CC.SM(), d.SMs)
}

// positiveFields names the fields Validate holds to be positive, in its
// order.
var positiveFields = [...]string{"SMs", "WarpSize", "MaxThreadsPerBlock", "MaxThreadsPerSM", "MaxBlocksPerSM",
	"RegistersPerSM", "RegistersPerBlock", "MaxRegistersPerThread", "RegisterAllocUnit", "SubPartitions",
	"SharedMemPerSM", "SharedMemPerBlock", "SharedMemPerBlockOptIn", "SharedMemAllocUnit"}

// Validate reports the first field that makes d unusable for the occupancy
// calculator, or nil.
func (d *Device) Validate() error {
	// Validate runs on every occupancy.Compute, so the common case is one
	// test of every rule in an 8-byte frame; invalid, whose array of
	// values and error messages need 472 bytes of frame, runs only to find
	// and name the broken field. Split so, Compute is faster
	// (BenchmarkComputeRatio in engine/occupancy measures it).
	if d.SMs > 0 && d.WarpSize > 0 && d.MaxThreadsPerBlock > 0 && d.MaxThreadsPerSM > 0 && d.MaxBlocksPerSM > 0 &&
		d.RegistersPerSM > 0 && d.RegistersPerBlock > 0 && d.MaxRegistersPerThread > 0 && d.RegisterAllocUnit > 0 && d.SubPartitions > 0 &&
		d.SharedMemPerSM > 0 && d.SharedMemPerBlock > 0 && d.SharedMemPerBlockOptIn > 0 && d.SharedMemAllocUnit > 0 &&
		d.MaxThreadsPerSM >= d.WarpSize && d.ReservedSharedMemPerBlock >= 0 && d.BarriersPerSM >= 0 &&
		ascending(d.SharedMemCapacities) {
		return nil
	}
	return d.invalid()
}

// ascending reports whether sizes ascend strictly from a first size that
// is not negative.
func ascending(sizes []int) bool {
	prev := -1
	for _, c := range sizes {
		if c <= prev {
			return false
		}
		prev = c
	}
	return true
}

// invalid is Validate's error for a device that breaks one of its rules:
// the first broken one, or nil if there is none.
func (d *Device) invalid() error {
	values := [...]int{d.SMs, d.WarpSize, d.MaxThreadsPerBlock, d.MaxThreadsPerSM, d.MaxBlocksPerSM,
		d.RegistersPerSM, d.RegistersPerBlock, d.MaxRegistersPerThread, d.RegisterAllocUnit, d.SubPartitions,
		d.SharedMemPerSM, d.SharedMemPerBlock, d.SharedMemPerBlockOptIn, d.SharedMemAllocUnit}
	for i, v := range values {
		if v <= 0 {
			return fmt.Errorf("gpu: device %q: %s must be positive, got %d", d.Name, positiveFields[i], v)
		}
	}
	if d.MaxThreadsPerSM < d.WarpSize {
		return fmt.Errorf("gpu: device %q: MaxThreadsPerSM (%d) is less than one warp (%d)", d.Name, d.MaxThreadsPerSM, d.WarpSize)
	}
	if d.ReservedSharedMemPerBlock < 0 {
		return fmt.Errorf("gpu: device %q: ReservedSharedMemPerBlock must not be negative, got %d", d.Name, d.ReservedSharedMemPerBlock)
	}
	if d.BarriersPerSM < 0 {
		return fmt.Errorf("gpu: device %q: BarriersPerSM must not be negative, got %d", d.Name, d.BarriersPerSM)
	}
	if !ascending(d.SharedMemCapacities) {
		return fmt.Errorf("gpu: device %q: SharedMemCapacities must be ascending and not negative, got %v", d.Name, d.SharedMemCapacities)
	}
	return nil
}
