package sim

import (
	"fmt"
	"sort"
	"strings"
)

// Pipe is one execution pipe of a scheduler (sub-partition).
type Pipe struct {
	// Latency is the number of cycles from issue until a dependent
	// instruction may issue.
	Latency int
	// Interval is the initiation interval: cycles between two warp
	// instructions entering the pipe (32 threads / lanes of the pipe).
	Interval int
}

// Machine describes one streaming multiprocessor for the simulator: its
// schedulers, their pipes, the memory latencies and the memory pipeline.
// Presets come from [Preset]; a Machine is a plain value that a caller may
// copy and change. Fields left at zero switch the feature they describe
// off, as each field's comment says.
type Machine struct {
	// Name is the preset name ("volta").
	Name string
	// Part is the engine/gpu part used for occupancy ("Tesla V100 SXM2").
	// When it is "" (toy) or a part engine/gpu has no preset for (gt200's
	// "GTX 280", gf100's "GTX 480", gk110's "GTX 780"), only MaxWarps and
	// MaxBlocks limit the resident blocks.
	Part string
	// SMs is the number of SMs on the part; the grid's blocks are dealt to
	// them round-robin and the simulator runs the first one.
	SMs int
	// ClockMHz is the SM clock the cycle counts are in, used only to turn
	// bytes per cycle into bytes per second (0: unknown). [Machine.AtClock]
	// runs the machine at another clock.
	ClockMHz int
	// TensorClockMHz is the clock at which NVIDIA's tensor peak for the
	// part holds, when it is not ClockMHz (0): the H100 SXM's 989 TFLOPS
	// of dense FP16 hold at 1830 MHz, below its 1980 MHz boost clock.
	TensorClockMHz int
	// Schedulers is the number of warp schedulers (sub-partitions) per SM.
	Schedulers int
	// MaxWarps is the number of resident warps per SM (warp slots).
	MaxWarps int
	// MaxBlocks is the number of resident blocks per SM.
	MaxBlocks int
	// MaxThreadsPerBlock is the largest block the machine accepts.
	MaxThreadsPerBlock int
	// Policy is the warp-scheduling policy a workload gets when it names
	// none ("gto" or "gty"; "" means gto).
	Policy string
	// DualIssue lets a scheduler issue a second instruction of the warp it
	// picked in the same cycle when that instruction is ready and its pipe
	// free (Kepler's two dispatch units per scheduler).
	DualIssue bool
	// WarpStartInterval is the number of cycles between the first issues
	// of two new warps anywhere on the SM: a warp that has not issued yet
	// may issue its first instruction only when the SM has started no
	// other warp in the last WarpStartInterval cycles, the sub-partitions
	// taking the turn in order (the one after the last to start a warp
	// first). 0: no limit.
	WarpStartInterval int

	// Per-scheduler pipes.
	FMA    Pipe // FFMA, FADD, FMUL (and IMAD, see IMAD)
	ALU    Pipe // IADD3, LOP3, ISETP, SHF, MOV, SEL
	FP64   Pipe // DFMA, DADD, DMUL (see FP64Shared, DADDLatency)
	XU     Pipe // MUFU (special functions); results through the short scoreboard
	Tensor Pipe // HMMA of the machine's TensorShape (see TensorFMA)
	Branch Pipe // BRA, BAR, NANOSLEEP, EXIT; Latency is the branch_resolving time of BRA
	// FMA2 is a second FP32 pipe per scheduler that FFMA, FADD and FMUL
	// use when FMA is busy (Kepler's extra 16 lanes per scheduler, reached
	// by dual issue); Interval 0: none.
	FMA2 Pipe
	// IMAD is the integer multiply-add: it issues to the FMA pipe and holds
	// it for IMAD.Interval cycles, its result ready after IMAD.Latency. Zero
	// fields take FMA's.
	IMAD Pipe
	// DADDLatency is the latency of DADD and DMUL when it differs from
	// DFMA's (FP64.Latency); 0: the same.
	DADDLatency int
	// FP64Shared makes the FP64 pipe one unit shared by the SM's
	// schedulers (an SM with a few FP64 units outside the sub-partitions):
	// FP64.Interval counts SM-wide.
	FP64Shared bool
	// TensorFMA is the dense FP16 multiply-adds the tensor cores of one
	// scheduler complete per cycle; an HMMA of shape m×n×k (or HGMMA's
	// per-warp quarter) then holds the tensor pipe m·n·k/TensorFMA cycles.
	// 0: every HMMA takes Tensor as it is.
	TensorFMA int
	// TensorShape is the HMMA shape an instruction without one gets, e.g.
	// "m16n8k16"; its interval is Tensor.Interval.
	TensorShape string
	// AsyncCopy allows LDGSTS (cp.async, compute capability 8.0 on);
	// AsyncCopyExtra is the cycles its data takes beyond an LDG's to land in
	// shared memory.
	AsyncCopy      bool
	AsyncCopyExtra int
	// TMA allows UTMALDG and UBLKCP (TMA copies that complete on an mbarrier),
	// SYNCS, MBARINIT and ARRIVE; AsyncMMA allows HGMMA and
	// WARPGROUP.DEPBAR (compute capability 9.0).
	TMA      bool
	AsyncMMA bool
	// TMALatency is the cycles the tensor memory accelerator adds to a
	// bulk copy beyond a load's latency at the same level, and
	// TMABytesPerCycle the rate at which it streams one copy into shared
	// memory (0: 128 bytes per cycle); copies in flight together overlap,
	// within the L2's and DRAM's bandwidth.
	TMALatency       int
	TMABytesPerCycle float64
	// GMMALatency is the fewest cycles a warpgroup MMA (HGMMA) takes,
	// however small its N; above it an HGMMA takes the longer of its time
	// on the tensor pipe (N/2 cycles on GH100) and the time to read its
	// operands from shared memory (A, 64×16 halves, unless Operands is
	// "rs", and B, N×16 halves, at the banks' 128 bytes per cycle), and
	// holds the warp's tensor pipe that long. 0: the Tensor pipe's
	// latency, no operand time.
	GMMALatency int
	// MaxCluster is the largest thread block cluster the machine launches
	// (0: none; [Launch].Cluster). DSMEMLatency is the latency of an LDS
	// or STS to another block's shared memory in a cluster of 2, and
	// DSMEMWideLatency in a larger cluster; DSMEMBytesPerCycle is the
	// SM-to-SM network's bytes per cycle for this SM (0: unlimited).
	MaxCluster         int
	DSMEMLatency       int
	DSMEMWideLatency   int
	DSMEMBytesPerCycle float64

	// Memory latencies in cycles, from issue to the result being usable,
	// with nothing else in flight.
	SharedLatency int // LDS
	L1Latency     int // LDG/LDL that hit L1
	L2Latency     int // LDG that hits L2 (the partition near the SM)
	// L2FarLatency is the latency of an LDG that hits the far L2
	// partition (level l2far); 0: the same as L2Latency (one partition).
	L2FarLatency  int
	DRAMLatency   int // LDG that goes to device memory
	MembarLatency int // minimum time a MEMBAR holds the warp
	// BarrierLatency is the cycles from the last warp's arrival at a BAR
	// to the waiting warps' next issue (at least 1).
	BarrierLatency int
	// FetchLatency is the number of cycles a newly launched warp spends in
	// no_instruction before its first instruction can issue.
	FetchLatency int
	// LoadWriteback and SharedWriteback are the bytes per cycle a global
	// and a shared-memory load moves into registers: a load of B bytes per
	// warp is ready max(0, ⌈B/bytes⌉−2) cycles later than one of 4 bytes
	// per thread. 0: width adds nothing.
	LoadWriteback   int
	SharedWriteback int

	// QueueModel turns on the memory pipeline and bandwidth model below.
	// Off, memory operations see their fixed latency and never throttle.
	QueueModel bool
	// MemQueue is the memory instructions one sub-partition buffers (its
	// queue plus the latch in front of it). A warp whose next memory
	// instruction finds its sub-partition's queue full is in lg_throttle
	// (global, local) or mio_throttle (shared). 0: no per-sub-partition
	// pipeline; accesses go straight to the data paths below.
	MemQueue int
	// MemPipeDelay is the cycles from issue to a sub-partition's address
	// unit, AddrInterval the cycles that unit spends on each global or
	// local instruction, and MemIssueInterval the cycles between two such
	// instructions the SM's L1TEX stage accepts from all sub-partitions
	// (in arrival order; ties round-robin). A shared-memory instruction
	// skips the address unit and that stage and goes to the banks when
	// they are free, MemPipeDelay+AddrInterval cycles after issue at the
	// earliest. An instruction's queue entry frees the cycle after it
	// leaves for its data path.
	MemPipeDelay     int
	AddrInterval     int
	MemIssueInterval int
	// LGQueue bounds the global/local accesses the SM keeps in flight from
	// the L1TEX stage to data return; a warp whose access needs one more
	// is in lg_throttle. 0: no bound.
	LGQueue int
	// LSUInterval is the cycles the L1TEX data path spends per 128 bytes
	// (four 32-byte sectors) of a global/local access, and MIOInterval the
	// cycles the shared-memory banks spend per wavefront (one pass over the
	// 32 banks; a bank conflict adds wavefronts).
	LSUInterval int
	MIOInterval int
	// ConflictPassLatency is the cycles each pass a bank conflict adds
	// (beyond the wavefronts of a contiguous access of the same width)
	// delays that access. 0: MIOInterval.
	ConflictPassLatency int
	// ReplayInterval is the cycles of the banks' time each such pass
	// takes: a conflicting access is replayed, one pass after the other,
	// and a replay costs the shared-memory pipeline more than a
	// wavefront of a conflict-free access. 0: MIOInterval.
	ReplayInterval float64
	// L2BytesPerCycle and DRAMBytesPerCycle are this SM's share of the L2
	// and device-memory bandwidth, in bytes per SM cycle, served first
	// come first served; 0 means unlimited. DRAMBytesPerCycle is what
	// the channel moves with a deep backlog (see TurnaroundCost).
	L2BytesPerCycle   float64
	DRAMBytesPerCycle float64
	// L2LoadedLatency is the latency of an L2 hit while the SM's share
	// of the L2 is in full use (L2BytesPerCycle), rising from L2Latency
	// (and L2FarLatency by as much) in proportion to the load, as
	// DRAMLoadedLatency does for device memory. 0: L2Latency at any load.
	L2LoadedLatency int
	// DRAMLoadedLatency is the latency of a device-memory access while
	// the SM's share of the channel is in full use (DRAMBytesPerCycle);
	// DRAMLatency is the latency with nothing else in flight. In between
	// the latency rises in proportion to the channel's load: the bytes
	// per cycle the SM asked of it recently (a moving average over eight
	// DRAM latencies of issue times) over what the channel moves. Beyond
	// full use, accesses also queue for the channel. 0: DRAMLatency at
	// any load.
	DRAMLoadedLatency int
	// DRAMServiceCycles adds a queue's wait to that rise: S·u/(1−u) cycles
	// at load u (a single-server queue's mean wait with service time S),
	// which makes the last few percent of the channel's bandwidth cost
	// many more bytes in flight than the first. 0: none.
	DRAMServiceCycles int
	// TurnaroundCost is the channel time a stream that mixes reads and
	// writes loses to turning the bus around, as a fraction of its
	// bytes' time, when the channel has no backlog: a copy (as many
	// bytes written as read) costs 1+TurnaroundCost times its bytes,
	// a stream of reads or of writes alone nothing more, a mix in
	// between in proportion (4·r·w/(r+w)² of the recent bytes read r and
	// written w). The memory controller batches writes, the more the
	// deeper its queue: with B cycles of backlog the cost is
	// TurnaroundCost/(1 + B/TurnaroundBacklog), so a copy nears
	// DRAMBytesPerCycle only as its bytes in flight grow. 0: none.
	TurnaroundCost    float64
	TurnaroundBacklog int
	// StoreRetire is the cycles after which a global store no longer
	// holds its warp (EXIT's drain, MEMBAR, the LGQueue entry): the
	// write-back L2 takes it and the warp does not wait for device
	// memory. A store still waits for the L1TEX stages before the L2, and
	// it retires no sooner than its bytes start on a channel that is
	// backed up (the L2 makes room by writing back). 0: a store retires
	// when its level's latency has passed, as a load's data returns.
	StoreRetire int
	// BlockLaunch is the cycles between the last warp of a block leaving
	// the SM and the next block of the grid taking its place; the first
	// blocks of the grid start at cycle 0. 0: at once.
	BlockLaunch int

	// Sources says where every number comes from and which are estimates.
	Sources string
}

// Preset returns the named machine preset (see [Presets]; case-
// insensitive; part names such as "v100", "t4", "a100", "a6000", "4090",
// "h100", "h800", "gtx780" and "gtx980" are accepted too).
func Preset(name string) (Machine, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for _, m := range Presets() {
		if m.Name == key {
			return m, nil
		}
	}
	switch key {
	case "v100", "sm_70", "7.0":
		return Volta(), nil
	case "t4", "sm_75", "7.5":
		return Turing(), nil
	case "a100", "sm_80", "8.0":
		return Ampere(), nil
	case "h100", "h100 sxm", "sm_90", "9.0":
		return Hopper(), nil
	case "h800 pcie":
		return H800(), nil
	case "rtx a6000", "a6000", "sm_86", "8.6":
		return GA102(), nil
	case "rtx 4090", "4090", "sm_89", "8.9":
		return AD102(), nil
	case "g80", "gtx280", "sm_13", "1.3":
		return GT200(), nil
	case "gtx480", "sm_20", "2.0", "fermi":
		return GF100(), nil
	case "gtx780", "kepler", "sm_35", "3.5":
		return GK110(), nil
	case "gtx980", "maxwell", "sm_52", "5.2":
		return GM204(), nil
	}
	names := make([]string, 0, 10)
	for _, m := range Presets() {
		names = append(names, m.Name)
	}
	sort.Strings(names)
	return Machine{}, fmt.Errorf("unknown gpu preset %q (want one of %s)", name, strings.Join(names, ", "))
}

// Presets returns every preset, oldest architecture first, toy first of all.
func Presets() []Machine {
	return []Machine{Toy(), GT200(), GF100(), GK110(), GM204(), Volta(), Turing(), Ampere(), GA102(), AD102(), Hopper(), H800()}
}

// Toy is a teaching machine, not a real GPU: one scheduler, every math pipe
// with latency 4 and initiation interval 1, round memory latencies
// (shared 20, L1 30, L2 200, DRAM 400 cycles) and, unless a workload asks
// for the queue model, no bandwidth limit at all.
func Toy() Machine {
	return Machine{
		Name: "toy", SMs: 1, Schedulers: 1, MaxWarps: 64, MaxBlocks: 32, MaxThreadsPerBlock: 1024, Policy: "gto",
		FMA: Pipe{4, 1}, ALU: Pipe{4, 1}, FP64: Pipe{8, 1}, XU: Pipe{16, 1}, Tensor: Pipe{16, 1}, Branch: Pipe{1, 1},
		TensorShape:   "m16n8k16",
		SharedLatency: 20, L1Latency: 30, L2Latency: 200, DRAMLatency: 400, MembarLatency: 10, BarrierLatency: 1,
		LGQueue: 8, LSUInterval: 1, MIOInterval: 1, DRAMBytesPerCycle: 64,
		Sources: "A teaching machine, not a real GPU. The FFMA latency of 4 cycles is the " +
			"CUDA C++ Best Practices Guide's figure for compute capability 7.x; memory latencies " +
			"are round textbook values; the queue model is off unless a workload turns it on, and " +
			"its sizes (8 requests in flight, 64 bytes per cycle) are chosen to make saturation visible.",
	}
}

// volkovSlides is where the Volkov figures were read.
const volkovSlides = "V. Volkov, \"Better Performance at Lower Occupancy\", GTC 2010 " +
	"(https://www.nvidia.com/content/gtc-2010/pdfs/2238_gtc2010.pdf), read in a third-party summary of " +
	"its 75 slides stored as docs/mobile-gpu-perf/sources/occupancy-ilp/volkov-gtc2010-better-performance-" +
	"lower-occupancy.md in a public repository, not in the PDF itself"

// huertaMICRO25 is where the Huerta et al. figures were read.
const huertaMICRO25 = "Huerta, Abaie Shoushtary, Cruz, González, \"Dissecting and Modeling the " +
	"Architecture of Modern GPU Cores\", MICRO 2025 (arXiv 2503.20481), read in the Markdown conversion " +
	"github.com/imsight-knowhow/npu-design-tutorial paper-source/modern-gpu-cores/modern-gpu-cores.md " +
	"(commit 9cb093ec)"

// GT200 models a GT200-class SM (GTX 280, compute capability 1.3), the
// machine of Volkov's GTC 2010 talk: one scheduler feeding 8 lanes, so a
// warp instruction occupies the pipe for 4 cycles, and about 24 cycles of
// arithmetic latency. Little's law: 24 × 8 = 192 threads saturate it.
func GT200() Machine {
	return Machine{
		Name: "gt200", Part: "GTX 280", SMs: 30, ClockMHz: 1296, Schedulers: 1, MaxWarps: 32, MaxBlocks: 8, MaxThreadsPerBlock: 512,
		Policy: "gto",
		FMA:    Pipe{24, 4}, ALU: Pipe{24, 4}, FP64: Pipe{48, 32}, XU: Pipe{28, 16}, Tensor: Pipe{24, 4}, Branch: Pipe{4, 4},
		SharedLatency: 38, L1Latency: 440, L2Latency: 440, DRAMLatency: 440, MembarLatency: 20, BarrierLatency: 20, FetchLatency: 0,
		QueueModel: true, LSUInterval: 4, MIOInterval: 4, DRAMBytesPerCycle: 3.64,
		Sources: "Arithmetic: " + volkovSlides + ": ~24 cycles latency, 8 lanes per SM (Little's law: 192 " +
			"threads); NVIDIA, \"Optimizing CUDA – Part II\" webinar (2009): results readable ~24 cycles later, " +
			"at least 192 threads (6 warps) per multiprocessor. Wong et al., \"Demystifying GPU " +
			"Microarchitecture through Microbenchmarking\" (ISPASS 2010), as quoted by warpbook issue 16 and " +
			"the earlier Sources (the paper's tables were not re-read here): shared memory 38, global ~440, " +
			"MUFU 28 cycles, __syncthreads 20 cycles (BarrierLatency). GT200 has no L1 for global loads, so L1 " +
			"and L2 loads take the device-memory latency. Shared memory: the CUDA Programming Guide's 1.x " +
			"model, 16 banks of 32 bits per two cycles, so 128 bytes take 4 cycles (MIOInterval). DRAM: the " +
			"GTX 280's theoretical 141.7 GB/s / 30 SMs / 1.296 GHz = 3.64 bytes per cycle; no sustained " +
			"measurement was read, so this is the theoretical figure. Estimates, not measurements: FP64 " +
			"latency 48 and interval 32 (one FP64 unit per SM), MUFU interval 16 (2 SFUs per SM), branch, " +
			"LSUInterval 4, the scheduling policy (no publication describes GT200's; gto is GPGPU-Sim's " +
			"default) and the absence of an issue-pipeline model (MemQueue 0).",
	}
}

// meiChuShared is Mei and Chu's shared-memory latency measurement.
const meiChuShared = "Mei and Chu, \"Dissecting GPU Memory Hierarchy through Microbenchmarking\" (IEEE " +
	"TPDS 2017, arXiv 1509.02308), §6: a single-thread pointer chase without bank conflicts takes 50 " +
	"(Fermi, a GTX 560 Ti), 47 (Kepler, GTX 780) and 28 (Maxwell, GTX 980) cycles, read in " +
	"github.com/AbsurdMirror/translated-papers papers/0x03-1/document.html (commit 1b0d2ea1)"

// meiChuConflicts is Mei and Chu's bank-conflict measurement, read where
// meiChuShared was.
const meiChuConflicts = "Mei and Chu (IEEE TPDS 2017), §6: the same pointer chase with its threads " +
	"s words apart, a gcd(s, 32)-way bank conflict, "

// GF100 models a GF100-class SM (GTX 480, compute capability 2.0): two
// schedulers, each feeding 16 lanes (a warp instruction every 2 cycles),
// and about 18 cycles of arithmetic latency. Little's law: 18 × 32 = 576
// threads saturate it.
func GF100() Machine {
	return Machine{
		Name: "gf100", Part: "GTX 480", SMs: 15, ClockMHz: 1401, Schedulers: 2, MaxWarps: 48, MaxBlocks: 8, MaxThreadsPerBlock: 1024,
		Policy: "gto",
		FMA:    Pipe{18, 2}, ALU: Pipe{18, 2}, FP64: Pipe{36, 16}, XU: Pipe{36, 16}, Tensor: Pipe{18, 2}, Branch: Pipe{4, 2},
		SharedLatency: 50, L1Latency: 90, L2Latency: 300, DRAMLatency: 800, MembarLatency: 20, BarrierLatency: 1, FetchLatency: 0,
		QueueModel: true, LSUInterval: 2, MIOInterval: 2, ConflictPassLatency: 37, DRAMBytesPerCycle: 7.17,
		Sources: "Arithmetic: " + volkovSlides + ": ~18 cycles latency, 32 lanes per SM in two groups of 16 " +
			"(Little's law: 576 threads). Memory, from the same talk: peak 177.4 GB/s, a copy kernel sustains " +
			"about 85 % of it (84-87 % in its best configurations), so DRAMBytesPerCycle = 0.85 × 177.4 GB/s / " +
			"15 SMs / 1.401 GHz shader clock = 7.17; latency \"< 800 cycles\" with ~100 KB in flight, so " +
			"DRAMLatency 800 (the talk's own Little's-law figure). Shared memory: 32 banks of 32 bits per core " +
			"clock (Fermi whitepaper; the core clock is half the shader clock the cycles count), so a 128-byte " +
			"wavefront takes 2 cycles (MIOInterval), which makes 15 × 64 B × 1.401 GHz = 1.35 TB/s against the " +
			"talk's measured ~1.3 TB/s; the L1 shares those banks (LSUInterval 2). FP64: the CUDA C " +
			"Programming Guide 4.2 table gives 2.0 16 results per clock per SM, 4 on GeForce parts, so a warp " +
			"instruction every 8 cycles per SM (16 per scheduler). Shared-memory latency 50: " + meiChuShared +
			" (the same Fermi shared memory). Bank conflicts: " + meiChuConflicts + "takes 87 cycles 2-way on " +
			"the GTX 560 Ti, 37 more than without, so each pass a conflict adds delays the access 37 cycles " +
			"(ConflictPassLatency, taken from the 2-way figure alone; the 4- to 32-way figures are held out). " +
			"Estimates, not measurements: " +
			"L1 (90) and L2 (300) latencies, FP64 and MUFU latencies, MUFU interval, branch, the policy (gto) " +
			"and the absence of an issue-pipeline model (MemQueue 0).",
	}
}

// GK110 models a Kepler GK110 SMX (GTX 780, compute capability 3.5): four
// schedulers with two dispatch units each, 192 FP32 lanes (32 per
// scheduler plus 64 that only dual issue reaches), about 11 cycles of
// arithmetic latency.
func GK110() Machine {
	return Machine{
		Name: "gk110", Part: "GTX 780", SMs: 12, ClockMHz: 900, Schedulers: 4, MaxWarps: 64, MaxBlocks: 16, MaxThreadsPerBlock: 1024,
		Policy: "gto", DualIssue: true,
		FMA: Pipe{11, 1}, FMA2: Pipe{11, 2}, ALU: Pipe{11, 1}, FP64: Pipe{22, 16}, XU: Pipe{22, 4}, Tensor: Pipe{11, 1}, Branch: Pipe{4, 1},
		SharedLatency: 47, L1Latency: 60, L2Latency: 220, DRAMLatency: 400, MembarLatency: 20, BarrierLatency: 1, FetchLatency: 4,
		QueueModel: true, LSUInterval: 1, MIOInterval: 1, DRAMBytesPerCycle: 20.0,
		Sources: "Arithmetic: the CUDA C Programming Guide (4.2-era text, read in a translation): register " +
			"dependencies take \"about 11 clock cycles for devices of compute capability 3.x\", and a 3.x " +
			"multiprocessor issues a pair of instructions per warp for four warps per clock (8L instructions " +
			"hide L cycles; 44 warps with enough ILP). Lanes: the guide's throughput table gives 3.5 192 " +
			"FP32 results per clock per SM (NVIDIA developer-forum quote of the table), which this preset " +
			"splits as 32 lanes per scheduler (FMA, interval 1) plus 16 more per scheduler reached only by " +
			"dual issue (FMA2, interval 2): 4 × (32 + 16) = 192. FP64 8 results per clock per SM on GeForce " +
			"parts (the same table's footnote), so 16 cycles per warp per scheduler; SFU 32 per clock per SM, " +
			"so 4. DRAM: Mei and Chu, \"Dissecting GPU Memory Hierarchy through Microbenchmarking\" (IEEE " +
			"TPDS 2017, arXiv 1509.02308), Table 6: GTX 780 maximum throughput 215.92 GB/s of 288.38 " +
			"(74.87 %), read in github.com/AbsurdMirror/translated-papers papers/0x03-1/document.html " +
			"(commit 1b0d2ea1); / 12 SMX / 0.9 GHz boost = 20.0 bytes per cycle. Shared-memory latency 47: " +
			meiChuShared + ". Estimates, not measurements (the paper's other latency figures are charts " +
			"that could not be read in the text extraction): the L1, L2 and DRAM latencies, FP64/MUFU " +
			"latencies, branch, LSU/MIO intervals (128 bytes per cycle; Kepler's 64-bit bank mode is not " +
			"modelled), the policy (gto) and MemQueue 0.",
	}
}

// GM204 models a Maxwell GM204 SM (GTX 980, compute capability 5.2): four
// schedulers of 32 FP32 lanes each (FFMA every cycle), about 6 cycles of
// arithmetic latency.
func GM204() Machine {
	return Machine{
		Name: "gm204", Part: "GeForce GTX 980", SMs: 16, ClockMHz: 1216, Schedulers: 4, MaxWarps: 64, MaxBlocks: 32, MaxThreadsPerBlock: 1024,
		Policy: "gto",
		FMA:    Pipe{6, 1}, ALU: Pipe{6, 1}, FP64: Pipe{48, 32}, XU: Pipe{13, 4}, Tensor: Pipe{6, 1}, Branch: Pipe{4, 1},
		SharedLatency: 28, L1Latency: 82, L2Latency: 210, DRAMLatency: 350, MembarLatency: 20, BarrierLatency: 1, FetchLatency: 4,
		QueueModel: true, LSUInterval: 1, MIOInterval: 1, ConflictPassLatency: 2, DRAMBytesPerCycle: 8.03,
		Sources: "Lanes: the CUDA C++ Programming Guide's throughput table gives 5.x 128 FP32 and 4 FP64 " +
			"results per clock per SM (NVIDIA developer-forum quote of the table): 32 FP32 lanes per " +
			"scheduler (FMA interval 1), a warp FP64 instruction every 8 cycles per SM (32 per scheduler); " +
			"32 banks of 32 bits per clock for shared memory (MIOInterval 1). DRAM: Mei and Chu (IEEE TPDS " +
			"2017, arXiv 1509.02308), Table 6: GTX 980 maximum throughput 156.25 GB/s of 224.38 (69.64 %), " +
			"read in github.com/AbsurdMirror/translated-papers papers/0x03-1/document.html (commit 1b0d2ea1); " +
			"/ 16 SMs / 1.216 GHz boost = 8.03 bytes per cycle. Shared-memory latency 28: " + meiChuShared +
			". Bank conflicts: " + meiChuConflicts + "takes 30 cycles 2-way on the GTX 980, 2 more than " +
			"without, so each pass a conflict adds delays the access 2 cycles (ConflictPassLatency, taken " +
			"from the 2-way figure alone; the 4- to 32-way figures are held out). Estimates, not " +
			"measurements: the FFMA latency of 6 (commonly reported for Maxwell; no table was read for it " +
			"here), the L1, L2 and DRAM latencies, MUFU and FP64 latencies, branch, the policy (gto) and " +
			"MemQueue 0.",
	}
}

// Volta models a V100 SM (compute capability 7.0): four schedulers, each
// with 16 FP32 and 16 INT32 lanes (FFMA and IADD3 each issue every 2
// cycles), latency 4.
func Volta() Machine {
	m := Machine{
		Name: "volta", Part: "V100", SMs: 80, ClockMHz: 1530, Schedulers: 4, MaxWarps: 64, MaxBlocks: 32, MaxThreadsPerBlock: 1024,
		Policy: "gto",
		FMA:    Pipe{4, 2}, IMAD: Pipe{5, 2}, ALU: Pipe{4, 2}, FP64: Pipe{8, 4}, XU: Pipe{14, 8}, Tensor: Pipe{16, 8}, Branch: Pipe{4, 1},
		TensorFMA: 128, TensorShape: "m8n8k4",
		SharedLatency: 19, L1Latency: 28, L2Latency: 193, DRAMLatency: 460, MembarLatency: 20, BarrierLatency: 1, FetchLatency: 4,
		DRAMBytesPerCycle: 6.13,
		Sources: "Jia, Maggioni, Staiger, Scarpazza, \"Dissecting the NVIDIA Volta GPU Architecture via " +
			"Microbenchmarking\" (2018, arXiv 1804.06826), from the paper: Table 3.1 (V100 column): L1 hit 28, " +
			"L2 hit ~193, shared memory without conflicts 19 cycles; Table 4.1: FFMA, FADD, FMUL, IADD3, LOP3 " +
			"and the like 4, IMAD 5 (IMAD), DFMA/DADD/DMUL 8, MUFU ~14 cycles. Read in the text extraction of " +
			"the arXiv PDF in github.com/AbsurdMirror/translated-papers, papers/0x01-2/document.html (source " +
			"side, commit 3818e3bd), not in the PDF itself. The paper gives no DRAM latency figure: DRAM 460 " +
			"cycles is an independent V100 pointer-chase measurement (markdewing/AI_kernels, " +
			"latency/README.md). DRAM bandwidth: the paper's measured 750 GB/s (of 900), as quoted by warpbook " +
			"issue 16 and by third-party models built on the paper, / 80 SMs / 1.53 GHz = 6.13 bytes per cycle. " +
			"Pipe intervals follow the unit counts of the V100 whitepaper (16 FP32, 16 INT32, 8 FP64, 4 SFU " +
			"lanes per sub-partition); shared memory 32 banks of 32 bits per clock (CUDA C++ Programming " +
			"Guide, compute capability 7.x), one wavefront per cycle. Tensor: V100's 125 TFLOPS of FP16 " +
			"(NVIDIA V100 datasheet) = 80 SMs × 4 sub-partitions × 128 FMA × 2 × 1.53 GHz, so TensorFMA 128; " +
			"an mma.m8n8k4 (four 8×8×4 products per warp, 1024 FMA) takes 8 cycles. " + huertaMemPipe +
			" Estimates, not measurements: the tensor latency (16), branch latency (4), FetchLatency, the " +
			"policy (gto: Huerta et al. studied Turing and later) and the L1 data path (128 bytes per cycle). " +
			"DRAM latency, launch and stores: " + ernstBenches + " measured a V100 PCIe (the same 80 SMs and " +
			"HBM2) at 1380 MHz: a pointer chase of 436 cycles (cuda-latency/v100.txt, commit 2f915884, " +
			"428-437 from 8 MB up; markdewing/AI_kernels' 460 above was the earlier figure), and the gpu-stream " +
			"fit gives BlockLaunch 259 and StoreRetire 96 cycles; all three are converted to 1.53 GHz. L2 " +
			"bandwidth: the same source's cuda-cache example on that V100 PCIe, 2482 GB/s from a 1 MB data " +
			"set (README.md), / 80 SMs / 1.53 GHz = 20.3 bytes per cycle. " + loadedSources + " " +
			v100Load.fitted("the V100 PCIe's gpu-stream/v100.txt") + " (the A100's, carried over before, " +
			"left four of the table's six points outside).",
	}
	withHuertaPipe(&m)
	withLoadedMemory(&m, atClock(436, 1380, 1530), atClock(259, 1380, 1530), atClock(96, 1380, 1530), v100Load)
	m.L2BytesPerCycle = 2482.0 / 80 / 1.53
	return m
}

// huertaMemPipe says where the sub-partition memory pipeline numbers come
// from; withHuertaPipe sets them.
const huertaMemPipe = "Memory pipeline: " + huertaMICRO25 + ", Table 1 (measured on an RTX A6000, " +
	"Ampere): each sub-partition buffers five memory instructions (MemQueue 5), its address unit takes " +
	"one every 4 cycles (AddrInterval), and the SM's shared memory structures accept one every 2 cycles " +
	"from all sub-partitions (MemIssueInterval, here applied to global and local instructions only: the " +
	"paper says the table's loads hit in the data cache or shared memory without saying which, and the " +
	"measurement below finds the limit on L1 loads alone); a 6-cycle delay from issue to the address unit " +
	"(MemPipeDelay) makes the table's first stalled issue fall in cycle 13. Shared-memory instructions " +
	"skip the address unit and that stage and go to the banks as soon as they are free: Huerta et al. " +
	"(§5.4) find LDS's address computed in the shared structures (its WAR latency, 9 cycles, is the same " +
	"for uniform and regular address registers), and " + luoHopper + ", Table V, measures 32-bit loads " +
	"on an RTX 4090 (Ada, a consumer part like the RTX A6000) at 63.7 bytes per clock per SM from L1, " +
	"the one instruction per 2 cycles of that stage, but at 127.9 from shared memory, one per cycle. " +
	"Those are Ampere and Ada measurements; other presets that use them assume the same pipeline."

func withHuertaPipe(m *Machine) {
	m.QueueModel = true
	m.MemQueue, m.MemPipeDelay, m.AddrInterval, m.MemIssueInterval = 5, 6, 4, 2
	m.LSUInterval, m.MIOInterval = 1, 1
}

// t4Copy is where the T4's sustained bandwidth comes from.
const t4Copy = "the CUDA samples' bandwidthTest (device to device, which counts the bytes read and " +
	"written) measured 239.6 GB/s on a T4, 75 % of its theoretical 320 GB/s, and 739.8 GB/s on a V100 " +
	"SXM2 in the same session (Jia et al.'s copy: 750), read in github.com/router-gao/cuda-demo, " +
	"cuda-samples/02-cuda-bandwidth.md (commit 8e2367b4); the sample itself says it is not meant for " +
	"performance measurements, so this is a single unrepeated figure; / 40 SMs / 1.59 GHz = 3.77 bytes " +
	"per cycle. "

// Turing models a T4 SM (compute capability 7.5): like Volta, with 32
// resident warps per SM, an FP64 unit shared by the whole SM and
// greedy-then-youngest scheduling.
func Turing() Machine {
	m := Machine{
		Name: "turing", Part: "T4", SMs: 40, ClockMHz: 1590, Schedulers: 4, MaxWarps: 32, MaxBlocks: 16, MaxThreadsPerBlock: 1024,
		Policy: "gty", WarpStartInterval: 2,
		FMA: Pipe{4, 2}, IMAD: Pipe{5, 2}, ALU: Pipe{4, 2}, FP64: Pipe{54, 16}, DADDLatency: 48, FP64Shared: true,
		XU: Pipe{15, 8}, Tensor: Pipe{16, 8}, Branch: Pipe{4, 1},
		TensorFMA: 128, TensorShape: "m16n8k8",
		SharedLatency: 19, L1Latency: 32, L2Latency: 188, DRAMLatency: 296, MembarLatency: 20, BarrierLatency: 1, FetchLatency: 4,
		DRAMBytesPerCycle: 239.6 / 40 / 1.59,
		Sources: "Jia, Maggioni, Smith, Scarpazza, \"Dissecting the NVidia Turing T4 GPU via " +
			"Microbenchmarking\" (2019, arXiv 1903.07486), from the paper: Table 3.1 (T4 column): L1 hit 32, " +
			"L2 hit ~188, shared memory without conflicts 19 cycles; Figure 3.5's caption: 296 cycles for a " +
			"load that misses L2 with a TLB hit, used as the DRAM latency; Table 4.1 (Turing rows): FFMA, " +
			"IADD3 and the like 4, IMAD 5, MUFU ~15, DFMA ~54, DADD and DMUL ~48 (DADDLatency). Read in the " +
			"text extraction of the arXiv PDF in github.com/AbsurdMirror/translated-papers, " +
			"papers/0x01-3/document.html (commit 13784602). FP64: the CUDA C++ Programming Guide's table gives " +
			"7.5 2 results per clock per SM, so one warp instruction every 16 cycles on a unit the SM's " +
			"schedulers share (FP64Shared; " + huertaMICRO25 + " model FP64 this way for parts without FP64 " +
			"units in each sub-core): a dependent chain then runs at DFMA's 54-cycle latency. Scheduling: " +
			"Huerta et al. §5.1.2, greedy then youngest (gty) on Turing, Ampere and Blackwell; the 2-cycle " +
			"WarpStartInterval is the T4 issue-order measurement of this book's source notes " +
			"(book/data/measured/t4/issue-order.csv), where the eight warps of one block reach the same " +
			"instruction 2 cycles apart across the whole SM (warps 4-7, then 0-3); that they come in that " +
			"order is the greedy-then-youngest policy's choice among the warps waiting to start. Tensor: the T4's 65 TFLOPS of FP16 (NVIDIA T4 datasheet) = 40 SMs × 4 × " +
			"128 FMA × 2 × 1.59 GHz, so TensorFMA 128; HMMA.1688 takes 8 cycles. DRAM: " + t4Copy + huertaMemPipe +
			" Estimates, not measurements: tensor (16) and branch (4) latencies, FetchLatency, the L1 data path.",
	}
	withHuertaPipe(&m)
	return m
}

// Ampere models an A100 SM (compute capability 8.0): four schedulers, 16
// FP32 lanes each (FFMA every 2 cycles), latency 4, asynchronous copies.
func Ampere() Machine {
	m := Machine{
		Name: "ampere", Part: "A100", SMs: 108, ClockMHz: 1410, Schedulers: 4, MaxWarps: 64, MaxBlocks: 32, MaxThreadsPerBlock: 1024,
		Policy: "gty",
		FMA:    Pipe{4, 2}, ALU: Pipe{4, 2}, FP64: Pipe{5, 4}, XU: Pipe{18, 8}, Tensor: Pipe{25, 8}, Branch: Pipe{4, 1},
		TensorFMA: 256, TensorShape: "m16n8k16", AsyncCopy: true, AsyncCopyExtra: 7,
		SharedLatency: 23, L1Latency: 33, L2Latency: 200, DRAMLatency: 290, MembarLatency: 20, BarrierLatency: 1, FetchLatency: 4,
		LoadWriteback: 64, SharedWriteback: 128, DRAMBytesPerCycle: 1407.2 / 108 / 1.41,
		Sources: "Abdelkhalik, Arafa, Santhi, Badawy, \"Demystifying the Nvidia Ampere Architecture " +
			"through Microbenchmarking and Instruction-level Analysis\" (2022, arXiv 2208.11174), from the " +
			"paper: Table IV: global memory 290, L2 200, L1 33, shared memory 23 cycles; Table II (dependent " +
			"sequences): mad.rn.f32 (FFMA) 4, add.u32 4, add.f64 (DADD) 5, used for the FP64 pipe. Read in the " +
			"text extraction of the arXiv PDF in github.com/AbsurdMirror/translated-papers, " +
			"papers/0x01-4/document.html (commit dafee4c6). " + huertaMICRO25 + ", Table 2 (RTX A6000): loads " +
			"of 64 and 128 bits per thread take 2 and 6 more cycles than 32-bit ones (512 bits per cycle into " +
			"the registers: LoadWriteback 64) and shared loads 0 and 2 more (SharedWriteback 128); LDGSTS " +
			"completes in 39 cycles against an LDG's 32, so AsyncCopyExtra 7; scheduling greedy then youngest " +
			"(§5.1.2). " + huertaMemPipe + " Tensor: the A100's 312 TFLOPS of dense FP16 (NVIDIA A100 " +
			"datasheet) = 108 × 4 × 256 FMA × 2 × 1.41 GHz, so TensorFMA 256 and HMMA.16816 takes 8 cycles; " +
			"its latency, 25, is " + luoHopper + ", Table VII, A100 column: mma m16n8k16 with FP16 " +
			"accumulators 24.6 cycles (24.5 sparse, 26.0 with FP32 accumulators). " +
			"Pipe intervals from the A100 unit counts (16 FP32, 16 INT32, 8 FP64, 4 SFU lanes per " +
			"sub-partition). DRAM: " + luoHopper + ", Table V and §IV-B: the A100's global memory sustains " +
			"1407.2 GB/s, 90 % of its theoretical 1555 GB/s; / 108 / 1.41 GHz = 9.24 bytes per cycle. " +
			"Estimates, not measurements: MUFU (18) and branch latencies, FetchLatency, the L1 data path. " +
			"DRAM latency: " + ernstBenches + ", cuda-latency/a100_40.txt (commit 2f915884): a pointer chase " +
			"on an A100 40GB at 1410 MHz takes 572-575 cycles from 60 MB up, so 574 (Abdelkhalik et al.'s " +
			"290 above is held out: twice as quick, a chase that stays close to its start); the gpu-stream " +
			"fit gives BlockLaunch 286 and StoreRetire 83 cycles. L2 bandwidth: the same source's " +
			"gpu-l2-cache/a100_80.txt (commit 3088b333): 5.3-5.5 TB/s from 2 to 25 MB on an A100 80GB (the " +
			"same 40 MB L2), so 5.4 TB/s / 108 / 1.41 GHz = 35.5 bytes per cycle per SM (Luo et al.'s Table V " +
			"figure, half of it, is held out). L1TEX: one global load instruction per cycle per SM " +
			"(MemIssueInterval 1), not the RTX A6000's one per 2 cycles: GA100 and GH100 are data-centre " +
			"parts with twice the L1 path of GA102 (Luo et al., Table V: the H800 moves 125.8 bytes per clock " +
			"per SM with 32-bit loads, one 128-byte instruction a cycle; the A100 99.5). " + loadedSources + " " +
			a100Load.fitted("the A100 40GB's gpu-stream/a100_40.txt") + "; the same source's A100 80GB " +
			"curve (gpu-stream/a100_80.txt) is held out.",
	}
	withHuertaPipe(&m)
	m.MemIssueInterval = 1
	withLoadedMemory(&m, 574, 286, 83, a100Load)
	m.L2BytesPerCycle = 5400.0 / 108 / 1.41
	m.L2FarLatency = m.L2Latency + 426 - 213
	m.Sources += " L2 partitions: " + ernstBenches + ", gpu-latency/a100_40.txt (commit a7dc559c): a " +
		"pointer chase hits the near partition in 213 cycles up to 16 MB and the far one in 410-426 cycles " +
		"from 29 to 39 MB; a far hit crosses between the partitions, so L2FarLatency is the preset's " +
		"L2Latency (Abdelkhalik et al.'s 200) plus the 213 cycles the crossing adds."
	return m
}

// hopperCore sets what the hopper and h800 presets share: the GH100 SM.
func hopperCore(m *Machine) {
	m.Schedulers, m.MaxWarps, m.MaxBlocks, m.MaxThreadsPerBlock = 4, 64, 32, 1024
	m.Policy = "gty"
	m.FMA, m.IMAD, m.ALU, m.FP64 = Pipe{4, 1}, Pipe{4, 2}, Pipe{4, 2}, Pipe{8, 2}
	m.XU, m.Tensor, m.Branch = Pipe{18, 8}, Pipe{24, 4}, Pipe{4, 1}
	m.TensorFMA, m.TensorShape = 512, "m16n8k16"
	m.AsyncCopy, m.TMA, m.AsyncMMA = true, true, true
	m.SharedLatency, m.L1Latency = 29, 41
	m.MembarLatency, m.BarrierLatency, m.FetchLatency = 20, 1, 4
	withHuertaPipe(m)
	m.MemIssueInterval = 1 // one load per cycle, as the ampere preset says
	// The Hopper features measured on the H800 PCIe (hopperFeatures
	// says where each number comes from).
	m.TMALatency, m.TMABytesPerCycle = 105, 20.7
	m.GMMALatency = 13
	m.MaxCluster, m.DSMEMLatency, m.DSMEMWideLatency = 16, 181, 204
	m.ReplayInterval = 1.65
}

// hopperFeatures says where the GH100 presets' TMA, warpgroup-MMA and
// cluster figures come from.
const hopperFeatures = "TMA, warpgroup MMA and clusters, all measured on an H800 PCIe at 1755 MHz: " +
	"TMALatency 105 cycles is what a bulk copy (cp.async.bulk, TMA) adds to a load's latency at the same " +
	"level in Luo et al.'s own pointer chases (github.com/HPMLL/NVIDIA-Hopper-Benchmark, commit ded6f57, " +
	"NewFeatures/TMA/Latency/tma_lat_random h800_tma.txt against h800_pcie.txt: 369.1 against 264.5 " +
	"cycles from L2, 760.9 against 656.3 from DRAM); TMABytesPerCycle 20.7 is the slope of the same " +
	"repository's NewFeatures/TMA/Throughput/tma_bw log with one copy in flight per SM (round trips of " +
	"857, 904 and 1005 cycles for 1, 2 and 4 KB, its GiB/s converted: 49.5 cycles per KB; with two or four copies in flight per SM the round trips grow by less than serial copies would, so the model overlaps them). GMMALatency " +
	"13 is the latency of the smallest wgmma with A in registers, Luo et al. Table X (m64n8k16 and " +
	"m64n16k16, RS: 13.0 cycles); the rest of Table X (the SS rows, N = 32, the throughputs) is held " +
	"out. MaxCluster 16 and the distributed-shared-memory latencies are the repository's " +
	"NewFeatures/DSM/Latency/OneToAll log: clusters of 2 to 16, 181 cycles between the two SMs of a " +
	"cluster of 2 (DSMEMLatency), 201 to 207 in clusters of 4 (their mean, 204, is DSMEMWideLatency; " +
	"the other sizes are held out). DSMEMBytesPerCycle: the 3.27 TB/s a ring copy between the blocks " +
	"of clusters of 2 reached on the whole H800 (Luo et al. 2024, §IV, read second-hand in notes that " +
	"quote it, not in the paper's figure), / 114 SMs. Bank conflicts: ReplayInterval 1.65 cycles of the banks' time " +
	"per replayed pass was fitted to one measurement, a 32×32 float transpose on an H100 SXM5 that runs at " +
	"1224 GB/s with its 32-way conflicting column reads and at 1904 GB/s padded (github.com/ahmadsharif1/" +
	"cuda_study, README.md at commit 0dc3e53e, §4), 1.56× (the model without it: 1.04×, the banks' one pass " +
	"a cycle hiding behind DRAM); no mechanism for the fraction of a cycle more than a wavefront that a " +
	"replay costs is modelled."

// luoHopper is where the Luo et al. figures were read.
const luoHopper = "Luo et al., \"Benchmarking and Dissecting the Nvidia Hopper GPU Architecture\" " +
	"(2024, arXiv 2402.13499v1), read in the text extraction of the arXiv PDF in " +
	"github.com/AbsurdMirror/translated-papers, papers/0x01-6/document.html (commit 288c2d89)"

const hopperSources = luoHopper + ": Table IV, H800 PCIe column: L1 40.7, shared memory 29.0, L2 263.0, " +
	"global memory 478.8 cycles (the DRAM latency is not theirs: see below); Table VII, H800 column: mma m16n8k16 with FP16 accumulators 24.1 cycles " +
	"(24.0 sparse), the tensor latency 24; Table VIII: wgmma m64n256k16 128.0 cycles, its tile's time " +
	"on the tensor pipe at the peak rate, so an HGMMA is ready when the pipe is done with it (at least " +
	"the tensor latency after issue). Pipe " +
	"intervals from the H100 unit counts (32 FP32, 16 INT32, 16 FP64, 4 SFU lanes per sub-partition); " +
	"IMAD at half the FP32 rate (the CUDA C++ Programming Guide's throughput table gives 9.0 128 FP32 " +
	"and 64 32-bit integer multiply-add results per clock per SM). Tensor: fourth-generation tensor cores " +
	"with 512 FP16 multiply-adds per cycle per sub-partition (twice Ampere's 256), so HMMA.16816 takes 4 " +
	"cycles and an HGMMA m64nNk16 holds each warp's tensor pipe N/2 cycles. Scheduling greedy then " +
	"youngest, as " + huertaMICRO25 + " found on Turing, Ampere and Blackwell (Hopper lies between them; " +
	"not measured). " + huertaMemPipe + " Estimates, not measurements: FFMA latency 4 (assumed unchanged " +
	"from Ampere), FP64, MUFU and branch latencies, FetchLatency, the L1 data path."

// Hopper models an H100 SXM5 SM (compute capability 9.0): four schedulers,
// 32 FP32 lanes each (FFMA every cycle), 16 INT32 lanes, warpgroup MMA,
// TMA and asynchronous copies.
func Hopper() Machine {
	m := Machine{Name: "hopper", Part: "H100 SXM5", SMs: 132, ClockMHz: 1980,
		L2Latency: 281, DRAMBytesPerCycle: 2900.0 / 132 / 1.98}
	hopperCore(&m)
	m.Sources = "The H100 SXM5 part: L1 and shared-memory latencies are the SM's own and come from " +
		"the H800 PCIe measurement below (the same GH100 SM); L2 281 and DRAM 690 cycles are a GH200 " +
		"pointer-chase measurement (markdewing/AI_kernels, latency/README.md: the same 132-SM GH100 with " +
		"HBM3), not an H100 SXM5 one. DRAM bandwidth: Microsoft Azure's AI benchmarking guide, ND H100 v5 " +
		"results (an H100 80GB HBM3, the SXM5 part): a STREAM copy sustains 2.90 TB/s of the theoretical " +
		"3.35 (87 %), read in the copy github.com/samuel-bohman/AI-benchmarking-guide, " +
		"Azure_Results/ND_H100_v5_results.md (commit 26d18e94); / 132 SMs / 1.98 GHz = 11.1 bytes per " +
		"cycle. Tensor peak: NVIDIA's 989.4 TFLOPS of dense FP16 = 132 SMs × 4 × 512 FMA × 2 × 1.83 GHz, " +
		"so the tensor cores reach it at 1.83 GHz (TensorClockMHz), not at the 1.98 GHz boost clock. " +
		"DRAM latency: the GH200 chase above (690). BlockLaunch and StoreRetire: the h800 preset's fit " +
		"(the same GH100 SM) converted to 1.98 GHz; L2 bandwidth: the h800 preset's per SM in GB/s " +
		"(6.9 TB/s / 114 SMs) over 1.98 GHz, an assumption (no H100 SXM5 L2 figure was read). " +
		hopperSources + " " + loadedSources + " This preset carries the ampere preset's loadCurve, the " +
		"A100 40GB's: no H100 SXM5 copy curve was read, and the H100 PCIe's own fit (the h800 preset's) " +
		"differs from the A100's in ways nothing in the model derives from the part, so taking it would " +
		"be a guess as well."
	withLoadedMemory(&m, 690, atClock(385, 1755, 1980), atClock(50, 1755, 1980), a100Load)
	m.L2BytesPerCycle = 6900.0 / 114 / 1.98
	m.TensorClockMHz = 1830
	// The far L2 partition: the h800's extra nanoseconds over its near
	// hits, added to this part's near latency (no far-partition chase
	// on an SXM part was read).
	m.L2FarLatency = m.L2Latency + atClock(484-265, 1755, 1980)
	m.DSMEMBytesPerCycle = 3270.0 / 114 / 1.98
	m.Sources += " " + hopperFeatures + " The H100 SXM5 keeps the h800's cycle counts for all of them but " +
		"the SM-to-SM bandwidth, carried in GB/s per SM; L2FarLatency is the GH200's near L2 latency plus " +
		"the H100 PCIe's far-partition penalty in nanoseconds (see the h800 preset)."
	return m
}

// H800 models an H800 PCIe SM: the same GH100 SM as Hopper on a part with
// 114 SMs and HBM2e, the card Luo et al. measured.
func H800() Machine {
	m := Machine{Name: "h800", Part: "H100 PCIe", SMs: 114, ClockMHz: 1755,
		L2Latency: 263, DRAMBytesPerCycle: 1861.5 / 114 / 1.755}
	hopperCore(&m)
	m.FP64, m.FP64Shared = Pipe{8, 16}, true
	m.Sources = "The H800 PCIe part (occupancy from engine/gpu's H100 PCIe: the same compute " +
		"capability 9.0 limits and 114 SMs). Every latency is Luo et al.'s H800 PCIe measurement below. " +
		"FP64: the H800's is cut down; Luo et al. (§IV-B) measured its FP64 add throughput at 16 bytes per " +
		"clock per SM, 2 results, so one warp instruction every 16 cycles on a unit the SM's schedulers " +
		"share (FP64Shared, as on Turing); its latency (8) is the estimate the hopper preset uses. " +
		"DRAM bandwidth: Luo et al. (Table V, §IV-B) measured 1861.5 GB/s of global-memory throughput, " +
		"91 % of the theoretical bandwidth as the paper states it; / 114 SMs / 1.755 GHz (the H100 PCIe's boost clock) = 9.30 bytes " +
		"per cycle. Tensor peak: the 756.5 TFLOPS of dense FP16 Luo et al. hold the H800 to = 114 × 4 × " +
		"512 FMA × 2 × 1.62 GHz (TensorClockMHz 1620). DRAM latency: " + ernstBenches + ", " +
		"gpu-latency/h100_pcie.txt (commit a7dc559c): a pointer chase on an H100 PCIe (the same 114 SMs, " +
		"HBM2e and 1755 MHz) takes 650-658 cycles from 60 MB up, so 655 (Luo et al.'s H800 figure, 478.8, " +
		"is held out); the gpu-stream fit on that card gives BlockLaunch 385 and StoreRetire 50 cycles. " +
		"L2 bandwidth: gpu-l2-cache/h100_pcie.txt: 6.8-7.1 TB/s from 6 to 33 MB, so 6.9 TB/s / 114 / " +
		"1.755 GHz = 34.5 bytes per cycle per SM. " + hopperSources + " " + loadedSources + " " +
		h100PCIeLoad.fitted("the H100 PCIe's cuda-stream/h100_pcie.txt") + " (the A100's, carried over " +
		"before, left two of the table's six points outside; this one puts all six in band)."
	withLoadedMemory(&m, 655, 385, 50, h100PCIeLoad)
	m.L2BytesPerCycle = 6900.0 / 114 / 1.755
	m.TensorClockMHz = 1620
	m.L2FarLatency = m.L2Latency + 484 - 265
	m.DSMEMBytesPerCycle = 3270.0 / 114 / 1.755
	m.Sources += " " + hopperFeatures + " L2 partitions: " + ernstBenches + ", gpu-latency/h100_pcie.txt " +
		"(commit a7dc559c): a pointer chase hits the near partition in 265 cycles up to 20 MB and the far " +
		"one in 478-484 cycles from 39 to 52 MB; L2FarLatency is the preset's L2Latency (Luo et al.'s 263) " +
		"plus the 219 cycles the crossing adds (Luo et al.'s own chase, RegularUnits/random_latency/" +
		"h800_pcie.txt, reads 264.5 and 475-499: held out)."
	return m
}

// validate reports the first field of m that cannot be simulated.
func (m Machine) validate() error {
	if m.Schedulers < 1 || m.Schedulers > 8 {
		return fmt.Errorf("machine %q: Schedulers = %d, want 1..8", m.Name, m.Schedulers)
	}
	if m.MaxWarps < 1 || m.MaxWarps > 256 {
		return fmt.Errorf("machine %q: MaxWarps = %d, want 1..256", m.Name, m.MaxWarps)
	}
	if m.MaxBlocks < 1 {
		return fmt.Errorf("machine %q: MaxBlocks = %d, want at least 1", m.Name, m.MaxBlocks)
	}
	if m.SMs < 1 {
		return fmt.Errorf("machine %q: SMs = %d, want at least 1", m.Name, m.SMs)
	}
	if _, _, err := parsePolicy(m.Policy); err != nil {
		return fmt.Errorf("machine %q: %w", m.Name, err)
	}
	pipes := []struct {
		name string
		p    Pipe
	}{{"FMA", m.FMA}, {"ALU", m.ALU}, {"FP64", m.FP64}, {"XU", m.XU}, {"Tensor", m.Tensor}, {"Branch", m.Branch}}
	for _, p := range pipes {
		if p.p.Latency < 1 || p.p.Interval < 1 {
			return fmt.Errorf("machine %q: %s pipe {Latency: %d, Interval: %d}, want both at least 1",
				m.Name, p.name, p.p.Latency, p.p.Interval)
		}
	}
	if m.FMA2.Interval < 0 || m.FMA2.Latency < 0 || m.IMAD.Latency < 0 || m.IMAD.Interval < 0 ||
		(m.FMA2.Interval > 0 && m.FMA2.Latency < 1) {
		return fmt.Errorf("machine %q: FMA2 and IMAD pipes must not be negative, and FMA2 with an interval needs a latency", m.Name)
	}
	if m.DADDLatency < 0 || m.TensorFMA < 0 || m.AsyncCopyExtra < 0 || m.WarpStartInterval < 0 || m.ClockMHz < 0 || m.TensorClockMHz < 0 || m.BlockLaunch < 0 {
		return fmt.Errorf("machine %q: DADDLatency, TensorFMA, AsyncCopyExtra, WarpStartInterval, ClockMHz, TensorClockMHz and BlockLaunch must not be negative", m.Name)
	}
	if m.TensorShape != "" {
		if _, err := parseShape(m.TensorShape); err != nil {
			return fmt.Errorf("machine %q: TensorShape: %w", m.Name, err)
		}
	}
	lat := []struct {
		name string
		v    int
	}{{"SharedLatency", m.SharedLatency}, {"L1Latency", m.L1Latency}, {"L2Latency", m.L2Latency}, {"DRAMLatency", m.DRAMLatency}}
	for _, l := range lat {
		if l.v < 1 {
			return fmt.Errorf("machine %q: %s = %d, want at least 1", m.Name, l.name, l.v)
		}
	}
	if m.L2FarLatency < 0 || m.TMALatency < 0 || m.GMMALatency < 0 || m.MaxCluster < 0 || m.MaxCluster > 16 || m.DSMEMLatency < 0 || m.DSMEMWideLatency < 0 {
		return fmt.Errorf("machine %q: L2FarLatency, TMALatency, GMMALatency, MaxCluster (at most 16), DSMEMLatency and DSMEMWideLatency must not be negative", m.Name)
	}
	if m.MaxCluster > 0 && m.DSMEMLatency < 1 {
		return fmt.Errorf("machine %q: MaxCluster %d needs a DSMEMLatency of at least 1", m.Name, m.MaxCluster)
	}
	if m.MembarLatency < 0 || m.FetchLatency < 0 || m.BarrierLatency < 0 || m.LoadWriteback < 0 || m.SharedWriteback < 0 {
		return fmt.Errorf("machine %q: MembarLatency, BarrierLatency, FetchLatency and the writeback rates must not be negative", m.Name)
	}
	if m.QueueModel {
		if m.ConflictPassLatency < 0 {
			return fmt.Errorf("machine %q: ConflictPassLatency = %d, want 0 (MIOInterval) or more", m.Name, m.ConflictPassLatency)
		}
		if m.LSUInterval < 1 || m.MIOInterval < 1 {
			return fmt.Errorf("machine %q: the queue model needs LSUInterval and MIOInterval of at least 1", m.Name)
		}
		if m.MemQueue < 0 || m.MemQueue > 64 || m.LGQueue < 0 || m.LGQueue > 4096 {
			return fmt.Errorf("machine %q: MemQueue = %d (want 0..64), LGQueue = %d (want 0..4096)", m.Name, m.MemQueue, m.LGQueue)
		}
		if m.MemQueue > 0 && (m.AddrInterval < 1 || m.MemIssueInterval < 1 || m.MemPipeDelay < 0) {
			return fmt.Errorf("machine %q: a MemQueue needs AddrInterval and MemIssueInterval of at least 1 and MemPipeDelay of at least 0", m.Name)
		}
		if m.L2LoadedLatency != 0 && m.L2LoadedLatency < m.L2Latency {
			return fmt.Errorf("machine %q: L2LoadedLatency = %d, want 0 or at least L2Latency (%d)", m.Name, m.L2LoadedLatency, m.L2Latency)
		}
		if m.ReplayInterval < 0 || m.TMABytesPerCycle < 0 || m.DSMEMBytesPerCycle < 0 {
			return fmt.Errorf("machine %q: ReplayInterval, TMABytesPerCycle and DSMEMBytesPerCycle must not be negative", m.Name)
		}
		if m.DRAMLoadedLatency != 0 && m.DRAMLoadedLatency < m.DRAMLatency {
			return fmt.Errorf("machine %q: DRAMLoadedLatency = %d, want 0 or at least DRAMLatency (%d)", m.Name, m.DRAMLoadedLatency, m.DRAMLatency)
		}
		if m.StoreRetire < 0 || m.DRAMServiceCycles < 0 {
			return fmt.Errorf("machine %q: StoreRetire = %d, DRAMServiceCycles = %d, want 0 or more", m.Name, m.StoreRetire, m.DRAMServiceCycles)
		}
		if m.TurnaroundCost < 0 || m.TurnaroundBacklog < 0 || (m.TurnaroundCost > 0 && m.TurnaroundBacklog < 1) {
			return fmt.Errorf("machine %q: TurnaroundCost = %g, TurnaroundBacklog = %d, want 0 or more, and a backlog of at least 1 cycle with a cost", m.Name, m.TurnaroundCost, m.TurnaroundBacklog)
		}
		if m.DRAMBytesPerCycle < 0 || m.L2BytesPerCycle < 0 {
			return fmt.Errorf("machine %q: DRAMBytesPerCycle = %g, L2BytesPerCycle = %g, want 0 (unlimited) or more", m.Name, m.DRAMBytesPerCycle, m.L2BytesPerCycle)
		}
	}
	return nil
}
