package occupancy

import (
	"fmt"
	"math"
	"strconv"
)

// Kernel is one kernel launch as the occupancy calculator sees it: the
// block size it is launched with and the resources the compiled kernel and
// its launch ask for.
//
// The zero value of every field but BlockSize is the common case: no
// shared memory, no preference for the shared-memory carveout, opt-in
// shared-memory limit, no partitioned global caching. So
//
//	occupancy.Kernel{BlockSize: 256, Registers: 32}
//
// is a complete description of a 256-thread kernel using 32 registers per
// thread.
type Kernel struct {
	// BlockSize is the number of threads per block. It must be positive.
	BlockSize int `json:"block_size"`
	// Registers is the number of registers per thread, as reported by
	// ptxas -v or cudaFuncGetAttributes (numRegs). 0 is allowed.
	Registers int `json:"registers"`
	// StaticSharedMem is the statically declared (__shared__) shared
	// memory per block, in bytes.
	StaticSharedMem int `json:"static_shared_mem"`
	// DynamicSharedMem is the dynamic shared memory per block given at
	// launch (the third <<< >>> argument), in bytes.
	DynamicSharedMem int `json:"dynamic_shared_mem"`
	// MaxDynamicSharedMem is the kernel's maximum dynamic shared memory
	// attribute (cudaFuncAttributeMaxDynamicSharedMemorySize), in bytes.
	// Under OptInLimit a launch asking for more dynamic shared memory than
	// this cannot run. Zero means "not set": the attribute is taken to
	// equal DynamicSharedMem, as if the kernel had opted in to exactly what
	// it launches with. NoDynamicSharedMem sets it to zero bytes.
	MaxDynamicSharedMem int `json:"max_dynamic_shared_mem"`
	// SharedMemLimit says which per-block shared-memory limit applies.
	// The zero value, OptInLimit, is what the CUDA runtime uses.
	SharedMemLimit SharedMemLimit `json:"shared_mem_limit"`
	// Carveout is the preferred shared-memory carveout
	// (cudaFuncAttributePreferredSharedMemoryCarveout). The zero value
	// means no preference; see CarveoutPercent.
	Carveout Carveout `json:"carveout"`
	// CachePreference is the legacy L1/shared-memory preference
	// (cudaFuncSetCacheConfig). From Volta on it stands in for a carveout
	// when Carveout is unset; before Volta the presets ignore it.
	CachePreference CachePreference `json:"cache_preference"`
	// Barriers is the number of named block barriers the kernel uses
	// (__syncthreads uses one). Only devices with BarriersPerSM (Hopper
	// and later) are limited by it.
	Barriers int `json:"barriers"`
	// PartitionedGC is the partitioned global caching request. Devices
	// that do not honour it treat it as PartitionedGCOff.
	PartitionedGC PartitionedGC `json:"partitioned_gc"`
	// MaxThreadsPerBlock is the kernel's own block-size limit
	// (__launch_bounds__, cudaFuncAttributes.maxThreadsPerBlock); zero
	// means no limit beyond the device's. Compute does not check
	// BlockSize against it, exactly like the reference calculator;
	// SuggestBlockSize never suggests more.
	MaxThreadsPerBlock int `json:"max_threads_per_block"`
}

// NoDynamicSharedMem, as Kernel.MaxDynamicSharedMem, sets the kernel's
// maximum dynamic shared memory attribute to zero bytes (a zero field
// means "not set").
const NoDynamicSharedMem = -1

// SharedMemLimit selects the per-block shared-memory limit a kernel is
// held to.
type SharedMemLimit int

const (
	// OptInLimit lets a kernel use up to the device's opt-in per-block
	// limit (SharedMemPerBlockOptIn) when it needs more than the default
	// limit. This is what the CUDA runtime's occupancy API does.
	OptInLimit SharedMemLimit = iota
	// DefaultLimit holds a kernel to the device's default per-block limit
	// (SharedMemPerBlock, 48 KiB) and ignores MaxDynamicSharedMem.
	DefaultLimit
)

// String returns "optin" or "default", the words of the golden CSV.
func (m SharedMemLimit) String() string {
	switch m {
	case OptInLimit:
		return "optin"
	case DefaultLimit:
		return "default"
	}
	return "SharedMemLimit(" + strconv.Itoa(int(m)) + ")"
}

// MarshalText writes the word String returns.
func (m SharedMemLimit) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a word String returns, "optin" or "default". Any
// other word is an error that names it and the accepted ones; the caller
// says which setting it was.
func (m *SharedMemLimit) UnmarshalText(b []byte) error {
	for _, v := range []SharedMemLimit{OptInLimit, DefaultLimit} {
		if string(b) == v.String() {
			*m = v
			return nil
		}
	}
	return fmt.Errorf("%q is not optin or default", b)
}

// CachePreference is the legacy L1 cache / shared memory preference.
type CachePreference int

const (
	// PreferNone expresses no preference.
	PreferNone CachePreference = iota
	// PreferShared asks for the most shared memory (carveout 100 %).
	PreferShared
	// PreferL1 asks for the most L1 cache (carveout 0 %).
	PreferL1
	// PreferEqual asks for an even split (carveout 50 %).
	PreferEqual
)

// String returns "none", "prefer_shared", "prefer_l1" or "prefer_equal".
func (c CachePreference) String() string {
	switch c {
	case PreferNone:
		return "none"
	case PreferShared:
		return "prefer_shared"
	case PreferL1:
		return "prefer_l1"
	case PreferEqual:
		return "prefer_equal"
	}
	return "CachePreference(" + strconv.Itoa(int(c)) + ")"
}

// MarshalText writes the word String returns.
func (c CachePreference) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a word String returns: "none", "prefer_shared",
// "prefer_l1" or "prefer_equal". Any other word is an error that names it
// and the accepted ones; the caller says which setting it was.
func (c *CachePreference) UnmarshalText(b []byte) error {
	for _, v := range []CachePreference{PreferNone, PreferShared, PreferL1, PreferEqual} {
		if string(b) == v.String() {
			*c = v
			return nil
		}
	}
	return fmt.Errorf("%q is not none, prefer_shared, prefer_l1 or prefer_equal", b)
}

// PartitionedGC is a request for partitioned global caching, which lets
// Maxwell and Pascal parts cache global loads in L1 at the price of
// confining each block to half the SM.
type PartitionedGC int

const (
	// PartitionedGCOff does not ask for partitioned global caching.
	PartitionedGCOff PartitionedGC = iota
	// PartitionedGCOn asks for it, but falls back to off when a block
	// does not fit in half an SM.
	PartitionedGCOn
	// PartitionedGCOnStrict insists on it, even if no block then fits.
	PartitionedGCOnStrict
)

// String returns "off", "on" or "on_strict".
func (g PartitionedGC) String() string {
	switch g {
	case PartitionedGCOff:
		return "off"
	case PartitionedGCOn:
		return "on"
	case PartitionedGCOnStrict:
		return "on_strict"
	}
	return "PartitionedGC(" + strconv.Itoa(int(g)) + ")"
}

// MarshalText writes the word String returns.
func (g PartitionedGC) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads a word String returns, "off", "on" or "on_strict".
// Any other word is an error that names it and the accepted ones; the
// caller says which setting it was.
func (g *PartitionedGC) UnmarshalText(b []byte) error {
	for _, v := range []PartitionedGC{PartitionedGCOff, PartitionedGCOn, PartitionedGCOnStrict} {
		if string(b) == v.String() {
			*g = v
			return nil
		}
	}
	return fmt.Errorf("%q is not off, on or on_strict", b)
}

// Carveout is a preferred shared-memory carveout: the share of the SM's
// largest shared-memory capacity the kernel would like configured, in
// percent. The zero value means no preference. Make one with
// CarveoutPercent.
type Carveout struct {
	percent int
	set     bool
}

// CarveoutPercent returns a carveout preference of p percent. Compute
// rejects p outside 0 to 100 on devices that have a carveout.
func CarveoutPercent(p int) Carveout { return Carveout{percent: p, set: true} }

// Percent returns the preference in percent, and false when there is none.
func (c Carveout) Percent() (int, bool) { return c.percent, c.set }

// String returns "50%" or "none".
func (c Carveout) String() string {
	if !c.set {
		return "none"
	}
	return strconv.Itoa(c.percent) + "%"
}

// MarshalJSON writes the percentage, or null when there is no preference.
func (c Carveout) MarshalJSON() ([]byte, error) {
	if !c.set {
		return []byte("null"), nil
	}
	return []byte(strconv.Itoa(c.percent)), nil
}

// maxInput bounds every size and count a Kernel may hold. The reference
// calculator works in 32-bit ints; so do its inputs.
const maxInput = math.MaxInt32

// kernelFields names the fields invalid bounds, in its order.
var kernelFields = [...]string{"block size", "registers per thread", "static shared memory", "dynamic shared memory", "barriers", "kernel max threads per block"}

// invalid reports the first unusable field of k, or nil when there is
// none (when valid holds).
func (k *Kernel) invalid() error {
	if k.BlockSize <= 0 {
		return fmt.Errorf("occupancy: block size must be positive, got %d", k.BlockSize)
	}
	values := [...]int{k.BlockSize, k.Registers, k.StaticSharedMem, k.DynamicSharedMem, k.Barriers, k.MaxThreadsPerBlock}
	for i, v := range values {
		if v < 0 {
			return fmt.Errorf("occupancy: %s must not be negative, got %d", kernelFields[i], v)
		}
		if v > maxInput {
			return fmt.Errorf("occupancy: %s %d is too large (at most %d)", kernelFields[i], v, maxInput)
		}
	}
	if k.MaxDynamicSharedMem < NoDynamicSharedMem {
		return fmt.Errorf("occupancy: max dynamic shared memory must be positive, 0 (not set) or NoDynamicSharedMem, got %d", k.MaxDynamicSharedMem)
	}
	if k.MaxDynamicSharedMem > maxInput {
		return fmt.Errorf("occupancy: max dynamic shared memory %d is too large (at most %d)", k.MaxDynamicSharedMem, maxInput)
	}
	if k.SharedMemLimit != OptInLimit && k.SharedMemLimit != DefaultLimit {
		return fmt.Errorf("occupancy: unknown shared-memory limit mode %d", int(k.SharedMemLimit))
	}
	if k.CachePreference < PreferNone || k.CachePreference > PreferEqual {
		return fmt.Errorf("occupancy: unknown cache preference %d", int(k.CachePreference))
	}
	if k.PartitionedGC < PartitionedGCOff || k.PartitionedGC > PartitionedGCOnStrict {
		return fmt.Errorf("occupancy: unknown partitioned global caching mode %d", int(k.PartitionedGC))
	}
	return nil
}

// valid reports whether k is usable, that is whether invalid finds
// nothing, in a few instructions: it runs on every Compute, inlined there.
// A value from 0 to maxInput has no bit set above bit 30, so one
// comparison of the fields OR-ed together bounds them all (a negative one
// sets the sign bit); and as unsigned numbers a value below a range's
// start wraps past its end.
func (k *Kernel) valid() bool {
	return k.BlockSize > 0 &&
		uint(k.BlockSize|k.Registers|k.StaticSharedMem|k.DynamicSharedMem|k.Barriers|k.MaxThreadsPerBlock) <= maxInput &&
		uint(k.MaxDynamicSharedMem-NoDynamicSharedMem) <= maxInput-NoDynamicSharedMem &&
		uint(k.SharedMemLimit) <= uint(DefaultLimit) &&
		uint(k.CachePreference) <= uint(PreferEqual) &&
		uint(k.PartitionedGC) <= uint(PartitionedGCOnStrict)
}

// carveout returns the carveout k asks for, in percent: its Carveout, or
// else the one its legacy cache preference stands for (PreferL1 0,
// PreferEqual 50, PreferShared 100); false when it asks for neither.
func (k *Kernel) carveout() (int, bool) {
	if p, ok := k.Carveout.Percent(); ok {
		return p, true
	}
	switch k.CachePreference {
	case PreferL1:
		return 0, true
	case PreferEqual:
		return 50, true
	case PreferShared:
		return 100, true
	}
	return 0, false
}

// maxDynamic returns the maximum dynamic shared memory attribute in bytes.
func (k *Kernel) maxDynamic() int {
	switch {
	case k.MaxDynamicSharedMem == NoDynamicSharedMem:
		return 0
	case k.MaxDynamicSharedMem == 0:
		return k.DynamicSharedMem
	}
	return k.MaxDynamicSharedMem
}
