package gpu

// Sources for the figures in this file.
//
// Per-capability limits (threads, blocks, registers and shared memory per SM
// and per block, the opt-in and reserved shared memory) are those of the
// "Technical Specifications per Compute Capability" table of the CUDA C++
// Programming Guide, as listed, part by part, in the table "Device properties
// used" of ../occupancy/testdata/README.md (checked there against deviceQuery
// output from real parts).
//
// Allocation rules (register and shared-memory granularity, registers per
// thread, sub-partitions, blocks per SM, the shared-memory capacities a
// carveout rounds to, the barrier rule and partitioned global caching) are
// those the reference occupancy calculator (cuda_occupancy.h, CUDA 11.8)
// applies per capability; the golden CSVs confirm every one of them for 5.0
// to 9.0.
//
// Blackwell (10.0 and 12.0) is newer than that reference, which rejects it.
// Its per-SM limits are those of the compute-capability table ("Technical
// Specifications per Compute Capability") of the CUDA C++ Programming Guide,
// https://docs.nvidia.com/cuda/cuda-c-programming-guide/#features-and-technical-specifications.
// That table could not be opened here; its rows were checked through two
// NVIDIA sources that quote it:
//   - NVIDIA/cccl, libcudacxx/include/cuda/__device/arch_traits.h (commit
//     004ad1986064aaa82892ed00d0dbda88b90fa6e6), arch_traits<sm_100> and
//     <sm_120>: 10.0 has 2048 threads, 32 blocks and 228 KiB of shared
//     memory per SM; 12.0 has 1536 threads, 24 blocks and 100 KiB per SM;
//     both reserve 1 KiB per block and give a block everything else with
//     opt-in (227 KiB, 99 KiB); 64 K registers per SM and per block, 255 per
//     thread, from the traits common to all architectures;
//   - NVIDIA/cccl pull request #6185 ("Fix blocks per SM in arch traits",
//     merged 2025-10-10), which changed 12.0 (and 11.0) from 32 to 24 blocks
//     per SM "based on the table" of the programming guide linked above.
// The golden README's edge_other_cc property sets (B200, RTX 5090; threads,
// shared memory per SM, opt-in and reserved) agree, and so does an RTX 5090
// runtime query quoted in pytorch/pytorch issue #161376 (1536 threads,
// 102400 and 101376 bytes). Not yet matched against a device: 12.0's 24
// blocks (NVIDIA's Blackwell Tuning Guide, as quoted second-hand in
// NVIDIA/cudnn-frontend pull request #1164, says 32 for 10.0 and 12.0; the
// programming guide is the source this file follows). The allocation rules
// the reference applies per architecture are carried over from the nearest
// architecture it knows: the carveout capacities of Hopper for 10.0 and of
// GA10x/Ada (same 100 KB total) for 12.0; Hopper's granularities, register
// rules and barrier rule for both. That carrying-over is our assumption,
// not a figure from NVIDIA.

const kib = 1024

// Shared-memory capacities selectable by carveout, in bytes.
var (
	voltaCapacities  = []int{0, 8 * kib, 16 * kib, 32 * kib, 64 * kib, 96 * kib}
	turingCapacities = []int{32 * kib, 64 * kib}
	ga100Capacities  = []int{0, 8 * kib, 16 * kib, 32 * kib, 64 * kib, 100 * kib, 132 * kib, 164 * kib}
	ga10xCapacities  = []int{0, 8 * kib, 16 * kib, 32 * kib, 64 * kib, 100 * kib}
	hopperCapacities = []int{0, 8 * kib, 16 * kib, 32 * kib, 64 * kib, 100 * kib, 132 * kib, 164 * kib, 196 * kib, 228 * kib}
)

// capability returns the per-SM model of compute capability cc, with Name
// and SMs unset, and false for a capability without a preset.
func capability(cc CC) (Device, bool) {
	d := Device{
		CC:                     cc,
		WarpSize:               32,
		MaxThreadsPerBlock:     1024,
		MaxThreadsPerSM:        2048,
		MaxBlocksPerSM:         32,
		RegistersPerSM:         64 * kib,
		RegistersPerBlock:      64 * kib,
		MaxRegistersPerThread:  255,
		RegisterAllocUnit:      256,
		SubPartitions:          4,
		SharedMemPerBlock:      48 * kib,
		SharedMemPerBlockOptIn: 48 * kib,
		SharedMemAllocUnit:     256,
	}
	// From Volta on the reference accepts 256 registers per thread (nvcc
	// itself never allocates more than 255).
	if cc.Major >= 7 {
		d.MaxRegistersPerThread = 256
	}
	// From Ampere on: 128-byte shared-memory granularity, 1 KB reserved
	// per block by the driver.
	if cc.Major >= 8 {
		d.SharedMemAllocUnit = 128
		d.ReservedSharedMemPerBlock = 1 * kib
	}
	switch cc {
	case CC{5, 0}:
		d.Architecture = "Maxwell"
		d.SharedMemPerSM = 64 * kib
	case CC{5, 2}:
		d.Architecture = "Maxwell"
		d.SharedMemPerSM = 96 * kib
		d.PartitionedGlobalCaching = true
	case CC{5, 3}:
		d.Architecture = "Maxwell"
		d.SharedMemPerSM = 64 * kib
		d.RegistersPerBlock = 32 * kib
		d.PartitionedGlobalCaching = true
	case CC{6, 0}:
		d.Architecture = "Pascal"
		d.SharedMemPerSM = 64 * kib
		d.SubPartitions = 2
	case CC{6, 1}:
		d.Architecture = "Pascal"
		d.SharedMemPerSM = 96 * kib
		d.PartitionedGlobalCaching = true
	case CC{6, 2}:
		d.Architecture = "Pascal"
		d.SharedMemPerSM = 64 * kib
		d.RegistersPerBlock = 32 * kib
		d.PartitionedGlobalCaching = true
	case CC{7, 0}, CC{7, 2}:
		d.Architecture = "Volta"
		d.SharedMemPerSM = 96 * kib
		d.SharedMemPerBlockOptIn = 96 * kib
		d.SharedMemCapacities = voltaCapacities
	case CC{7, 5}:
		d.Architecture = "Turing"
		d.MaxThreadsPerSM = 1024
		d.MaxBlocksPerSM = 16
		d.SharedMemPerSM = 64 * kib
		d.SharedMemPerBlockOptIn = 64 * kib
		d.SharedMemCapacities = turingCapacities
	case CC{8, 0}:
		d.Architecture = "Ampere"
		d.SharedMemPerSM = 164 * kib
		d.SharedMemPerBlockOptIn = 163 * kib
		d.SharedMemCapacities = ga100Capacities
	case CC{8, 6}:
		d.Architecture = "Ampere"
		d.MaxThreadsPerSM = 1536
		d.MaxBlocksPerSM = 16
		d.SharedMemPerSM = 100 * kib
		d.SharedMemPerBlockOptIn = 99 * kib
		d.SharedMemCapacities = ga10xCapacities
	case CC{8, 7}:
		d.Architecture = "Ampere"
		d.MaxThreadsPerSM = 1536
		d.MaxBlocksPerSM = 16
		d.SharedMemPerSM = 164 * kib
		d.SharedMemPerBlockOptIn = 163 * kib
		d.SharedMemCapacities = ga100Capacities
	case CC{8, 9}:
		d.Architecture = "Ada Lovelace"
		d.MaxThreadsPerSM = 1536
		d.MaxBlocksPerSM = 24
		d.SharedMemPerSM = 100 * kib
		d.SharedMemPerBlockOptIn = 99 * kib
		d.SharedMemCapacities = ga10xCapacities
	case CC{9, 0}:
		d.Architecture = "Hopper"
		d.SharedMemPerSM = 228 * kib
		d.SharedMemPerBlockOptIn = 227 * kib
		d.SharedMemCapacities = hopperCapacities
		d.BarriersPerSM = 2 * d.MaxBlocksPerSM
	case CC{10, 0}:
		d.Architecture = "Blackwell"
		d.SharedMemPerSM = 228 * kib
		d.SharedMemPerBlockOptIn = 227 * kib
		d.SharedMemCapacities = hopperCapacities
		d.BarriersPerSM = 2 * d.MaxBlocksPerSM
	case CC{12, 0}:
		d.Architecture = "Blackwell"
		d.MaxThreadsPerSM = 1536
		d.MaxBlocksPerSM = 24
		d.SharedMemPerSM = 100 * kib
		d.SharedMemPerBlockOptIn = 99 * kib
		d.SharedMemCapacities = ga10xCapacities
		d.BarriersPerSM = 2 * d.MaxBlocksPerSM
	default:
		return Device{}, false
	}
	// Each Device gets its own copy, so changing one never changes another.
	d.SharedMemCapacities = append([]int(nil), d.SharedMemCapacities...)
	return d, true
}

// part is one named product: its capability, its SM count, any per-part
// override of the capability's figures, and the names users type for it.
type part struct {
	name    string
	cc      CC
	sms     int
	aliases []string
	// representative marks the part whose figures stand for its
	// capability (the golden reference's device for that capability).
	representative bool
}

// parts lists every named preset. SM counts are NVIDIA's product
// specifications.
func parts() []part {
	return []part{
		{name: "GeForce GTX 750 Ti", cc: CC{5, 0}, sms: 5, aliases: []string{"GTX 750 Ti", "750 Ti"}, representative: true},
		{name: "GeForce GTX 980", cc: CC{5, 2}, sms: 16, aliases: []string{"GTX 980"}, representative: true},
		{name: "GeForce GTX TITAN X", cc: CC{5, 2}, sms: 24, aliases: []string{"GTX Titan X", "Titan X Maxwell"}},
		{name: "Jetson TX1", cc: CC{5, 3}, sms: 2, aliases: []string{"TX1"}, representative: true},
		{name: "Tesla P100 SXM2", cc: CC{6, 0}, sms: 56, aliases: []string{"P100", "P100 SXM2", "Tesla P100", "P100 SXM"}, representative: true},
		{name: "Tesla P100 PCIe", cc: CC{6, 0}, sms: 56, aliases: []string{"P100 PCIe"}},
		{name: "GeForce GTX 1080", cc: CC{6, 1}, sms: 20, aliases: []string{"GTX 1080", "1080"}, representative: true},
		{name: "GeForce GTX 1080 Ti", cc: CC{6, 1}, sms: 28, aliases: []string{"GTX 1080 Ti", "1080 Ti"}},
		{name: "Tesla P4", cc: CC{6, 1}, sms: 20, aliases: []string{"P4"}},
		{name: "Tesla P40", cc: CC{6, 1}, sms: 30, aliases: []string{"P40"}},
		{name: "Jetson TX2", cc: CC{6, 2}, sms: 2, aliases: []string{"TX2"}, representative: true},
		{name: "Tesla V100 SXM2", cc: CC{7, 0}, sms: 80, aliases: []string{"V100", "V100 SXM2", "V100 SXM", "Tesla V100"}, representative: true},
		{name: "Tesla V100 PCIe", cc: CC{7, 0}, sms: 80, aliases: []string{"V100 PCIe"}},
		{name: "TITAN V", cc: CC{7, 0}, sms: 80, aliases: []string{"Titan V"}},
		{name: "Jetson AGX Xavier", cc: CC{7, 2}, sms: 8, aliases: []string{"AGX Xavier", "Xavier"}, representative: true},
		{name: "Tesla T4", cc: CC{7, 5}, sms: 40, aliases: []string{"T4"}, representative: true},
		{name: "GeForce RTX 2080 Ti", cc: CC{7, 5}, sms: 68, aliases: []string{"RTX 2080 Ti", "2080 Ti"}},
		{name: "GeForce RTX 2080", cc: CC{7, 5}, sms: 46, aliases: []string{"RTX 2080", "2080"}},
		{name: "A100 SXM4", cc: CC{8, 0}, sms: 108, aliases: []string{"A100", "A100 SXM", "A100 80GB", "A100 40GB", "Tesla A100"}, representative: true},
		{name: "A100 PCIe", cc: CC{8, 0}, sms: 108, aliases: []string{"A100 PCIe 80GB", "A100 PCIe 40GB"}},
		{name: "A30", cc: CC{8, 0}, sms: 56},
		{name: "GeForce RTX 3090", cc: CC{8, 6}, sms: 82, aliases: []string{"RTX 3090", "3090"}, representative: true},
		{name: "GeForce RTX 3090 Ti", cc: CC{8, 6}, sms: 84, aliases: []string{"RTX 3090 Ti", "3090 Ti"}},
		{name: "GeForce RTX 3080", cc: CC{8, 6}, sms: 68, aliases: []string{"RTX 3080", "3080"}},
		{name: "A10", cc: CC{8, 6}, sms: 72, aliases: []string{"NVIDIA A10"}},
		{name: "A40", cc: CC{8, 6}, sms: 84},
		{name: "RTX A6000", cc: CC{8, 6}, sms: 84, aliases: []string{"A6000"}},
		{name: "Jetson AGX Orin 64GB", cc: CC{8, 7}, sms: 16, aliases: []string{"Jetson Orin", "AGX Orin", "Orin", "Jetson AGX Orin"}, representative: true},
		{name: "GeForce RTX 4090", cc: CC{8, 9}, sms: 128, aliases: []string{"RTX 4090", "4090"}, representative: true},
		{name: "GeForce RTX 4080", cc: CC{8, 9}, sms: 76, aliases: []string{"RTX 4080", "4080"}},
		{name: "L4", cc: CC{8, 9}, sms: 58, aliases: []string{"NVIDIA L4"}},
		{name: "L40", cc: CC{8, 9}, sms: 142},
		{name: "L40S", cc: CC{8, 9}, sms: 142},
		{name: "RTX 6000 Ada", cc: CC{8, 9}, sms: 142, aliases: []string{"RTX 6000 Ada Generation"}},
		{name: "H100 SXM5", cc: CC{9, 0}, sms: 132, aliases: []string{"H100", "H100 SXM", "H100 80GB"}, representative: true},
		{name: "H100 PCIe", cc: CC{9, 0}, sms: 114},
		{name: "H200", cc: CC{9, 0}, sms: 132, aliases: []string{"H200 SXM", "H200 141GB"}},
		{name: "GH200", cc: CC{9, 0}, sms: 132, aliases: []string{"Grace Hopper", "GH200 Grace Hopper"}},
		{name: "B200", cc: CC{10, 0}, sms: 148, aliases: []string{"B200 SXM", "HGX B200"}, representative: true},
		{name: "GeForce RTX 5090", cc: CC{12, 0}, sms: 170, aliases: []string{"RTX 5090", "5090"}, representative: true},
		{name: "GeForce RTX 5080", cc: CC{12, 0}, sms: 84, aliases: []string{"RTX 5080", "5080"}},
		{name: "RTX PRO 6000 Blackwell", cc: CC{12, 0}, sms: 188, aliases: []string{"RTX Pro 6000"}},
	}
}

func (p part) device() Device {
	d, ok := capability(p.cc)
	if !ok {
		// parts() only names capabilities capability() knows; the tests
		// check that, so this is unreachable.
		return Device{Name: p.name, CC: p.cc}
	}
	d.Name = p.name
	d.SMs = p.sms
	return d
}

// mustPart returns the named part's device. It is used by the named
// constructors below, whose names the tests check.
func mustPart(name string) Device {
	for _, p := range parts() {
		if p.name == name {
			return p.device()
		}
	}
	return Device{Name: name}
}

// P100 returns the Tesla P100 SXM2 (Pascal GP100, compute capability 6.0).
func P100() Device { return mustPart("Tesla P100 SXM2") }

// GTX1080 returns the GeForce GTX 1080 (Pascal GP104, 6.1).
func GTX1080() Device { return mustPart("GeForce GTX 1080") }

// V100 returns the Tesla V100 SXM2 (Volta, 7.0).
func V100() Device { return mustPart("Tesla V100 SXM2") }

// T4 returns the Tesla T4 (Turing, 7.5).
func T4() Device { return mustPart("Tesla T4") }

// A100 returns the A100 SXM4 (Ampere GA100, 8.0).
func A100() Device { return mustPart("A100 SXM4") }

// A10 returns the A10 (Ampere GA102, 8.6).
func A10() Device { return mustPart("A10") }

// RTX3090 returns the GeForce RTX 3090 (Ampere GA102, 8.6).
func RTX3090() Device { return mustPart("GeForce RTX 3090") }

// RTX4090 returns the GeForce RTX 4090 (Ada Lovelace, 8.9).
func RTX4090() Device { return mustPart("GeForce RTX 4090") }

// L4 returns the L4 (Ada Lovelace, 8.9).
func L4() Device { return mustPart("L4") }

// H100 returns the H100 SXM5 (Hopper, 9.0).
func H100() Device { return mustPart("H100 SXM5") }

// H200 returns the H200 (Hopper, 9.0).
func H200() Device { return mustPart("H200") }

// B200 returns the B200 (Blackwell, 10.0).
func B200() Device { return mustPart("B200") }

// RTX5090 returns the GeForce RTX 5090 (Blackwell, 12.0).
func RTX5090() Device { return mustPart("GeForce RTX 5090") }

// JetsonOrin returns the Jetson AGX Orin 64GB module (Ampere, 8.7).
func JetsonOrin() Device { return mustPart("Jetson AGX Orin 64GB") }
