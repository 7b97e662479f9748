// Package gpu holds GPU presets: the per-SM and per-block limits of every
// CUDA compute capability from 5.0 (Maxwell) to 9.0 (Hopper), 10.0 and 12.0
// (Blackwell), and named parts with their SM counts.
//
// A [Device] is a plain value. Get one from a named constructor
//
//	d := gpu.A100()
//
// from a name or a capability a user typed
//
//	d, err := gpu.Lookup("h100 sxm") // or "RTX 4090", "8.9", "sm_89", "sm89"
//
// or from a capability value with [ForCapability]. [Parts] lists every named
// preset and [Capabilities] every capability. Change a field of the returned
// value to model a what-if part; nothing in the package is shared, so the
// change stays local.
//
// # What a Device holds
//
// The fields mirror cudaDeviceProp (RegistersPerSM is regsPerMultiprocessor,
// SharedMemPerBlockOptIn is sharedMemPerBlockOptin, ...) plus the
// architecture rules that NVIDIA's occupancy calculator applies per compute
// capability: the register allocation unit (256 registers per warp), the
// number of warp-scheduler sub-partitions the register file is split
// between (4, or 2 on GP100), the most registers per thread, the most
// resident blocks per SM, the shared-memory allocation unit (256 bytes, 128
// from Ampere on), the shared-memory capacities a carveout can select (from
// Volta on), the block barriers an SM provides (Hopper and later) and
// whether partitioned global caching is honoured (5.2, 5.3, 6.1, 6.2).
//
// All sizes are in bytes, all register counts in 32-bit registers.
//
// # Where the figures come from
//
// Per-capability limits come from the CUDA C++ Programming Guide's
// compute-capability table, exactly as listed in the golden reference
// (engine/occupancy/testdata/README.md); the allocation rules are those of the
// reference calculator, cuda_occupancy.h from CUDA 11.8, and the golden
// CSVs check all of them for 5.0 to 9.0. Blackwell is newer than that
// reference: see the comment at the top of presets.go for what is sourced
// and what is carried over from Hopper.
package gpu
