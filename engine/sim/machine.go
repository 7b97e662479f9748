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
// schedulers, their pipes, the memory latencies and the optional queue
// model. Presets come from [Preset]; a Machine is a plain value that a
// caller may copy and change.
type Machine struct {
	// Name is the preset name ("volta").
	Name string
	// Part is the engine/gpu part used for occupancy ("V100"). When it is
	// "" (toy) or a part engine/gpu has no preset for (gt200's "GTX 280",
	// gf100's "GTX 480"), only MaxWarps and MaxBlocks limit the resident
	// blocks.
	Part string
	// SMs is the number of SMs on the part; the grid's blocks are dealt to
	// them round-robin and the simulator runs the first one.
	SMs int
	// Schedulers is the number of warp schedulers (sub-partitions) per SM.
	Schedulers int
	// MaxWarps is the number of resident warps per SM (warp slots).
	MaxWarps int
	// MaxBlocks is the number of resident blocks per SM.
	MaxBlocks int
	// MaxThreadsPerBlock is the largest block the machine accepts.
	MaxThreadsPerBlock int

	// Per-scheduler pipes.
	FMA    Pipe // FFMA, FADD, FMUL, IMAD
	ALU    Pipe // IADD3, LOP3, ISETP, SHF, MOV, SEL
	FP64   Pipe // DFMA, DADD, DMUL
	XU     Pipe // MUFU (special functions); results through the short scoreboard
	Tensor Pipe // HMMA
	Branch Pipe // BRA, BAR, NANOSLEEP, EXIT; Latency is the branch_resolving time of BRA

	// Memory latencies in cycles, from issue to the result being usable.
	SharedLatency int // LDS
	L1Latency     int // LDG/LDL that hit L1
	L2Latency     int // LDG that hits L2
	DRAMLatency   int // LDG that goes to device memory
	MembarLatency int // minimum time a MEMBAR holds the warp
	// FetchLatency is the number of cycles a newly launched warp spends in
	// no_instruction before its first instruction can issue.
	FetchLatency int

	// QueueModel turns on the bandwidth/queue model. Off, memory
	// operations see their fixed latency and never throttle.
	QueueModel bool
	// LGQueue is the number of local/global requests the SM keeps in
	// flight (issue to data return). A warp whose next instruction needs
	// one more is in lg_throttle.
	LGQueue int
	// MIOQueue is the number of shared-memory instructions that may wait
	// for the MIO pipe. A warp whose LDS/STS finds it full is in
	// mio_throttle.
	MIOQueue int
	// LSUInterval is the cycles the L1TEX unit spends per 128 bytes of a
	// global/local access (shared by all schedulers).
	LSUInterval int
	// MIOInterval is the cycles the shared-memory pipe spends per 128 bytes
	// of an LDS/STS (shared by all schedulers).
	MIOInterval int
	// DRAMBytesPerCycle is this SM's share of device-memory bandwidth, in
	// bytes per SM cycle; 0 means unlimited.
	DRAMBytesPerCycle float64

	// Sources says where the numbers come from and which are approximate.
	Sources string
}

// Preset returns the named machine preset: toy, gt200, gf100, volta,
// turing, ampere or hopper (case-insensitive; "v100", "t4", "a100",
// "h100" are accepted too).
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
	case "h100", "sm_90", "9.0":
		return Hopper(), nil
	case "g80", "gtx280", "sm_13", "1.3":
		return GT200(), nil
	case "gtx480", "sm_20", "2.0", "fermi":
		return GF100(), nil
	}
	names := make([]string, 0, 7)
	for _, m := range Presets() {
		names = append(names, m.Name)
	}
	sort.Strings(names)
	return Machine{}, fmt.Errorf("unknown gpu preset %q (want one of %s)", name, strings.Join(names, ", "))
}

// Presets returns every preset, oldest architecture first, toy first of all.
func Presets() []Machine {
	return []Machine{Toy(), GT200(), GF100(), Volta(), Turing(), Ampere(), Hopper()}
}

// Toy is a teaching machine, not a real GPU: one scheduler, every math pipe
// with latency 4 and initiation interval 1, round memory latencies
// (shared 20, L1 30, L2 200, DRAM 400 cycles).
func Toy() Machine {
	return Machine{
		Name: "toy", SMs: 1, Schedulers: 1, MaxWarps: 64, MaxBlocks: 32, MaxThreadsPerBlock: 1024,
		FMA: Pipe{4, 1}, ALU: Pipe{4, 1}, FP64: Pipe{8, 1}, XU: Pipe{16, 1}, Tensor: Pipe{16, 1}, Branch: Pipe{1, 1},
		SharedLatency: 20, L1Latency: 30, L2Latency: 200, DRAMLatency: 400, MembarLatency: 10,
		LGQueue: 8, MIOQueue: 4, LSUInterval: 1, MIOInterval: 1, DRAMBytesPerCycle: 64,
		Sources: "A teaching machine, not a real GPU. The FFMA latency of 4 cycles is the " +
			"CUDA C++ Best Practices Guide's figure for compute capability 7.x; memory latencies " +
			"are round textbook values; the queue sizes are chosen to make saturation visible.",
	}
}

// GT200 models a GT200-class SM (GTX 280, compute capability 1.3), the
// machine of Volkov's GTC 2010 talk: one scheduler feeding 8 lanes, so a
// warp instruction occupies the pipe for 4 cycles, and about 24 cycles of
// arithmetic latency. Little's law: 24 × 8 = 192 threads saturate it.
func GT200() Machine {
	return Machine{
		Name: "gt200", Part: "GTX 280", SMs: 30, Schedulers: 1, MaxWarps: 32, MaxBlocks: 8, MaxThreadsPerBlock: 512,
		FMA: Pipe{24, 4}, ALU: Pipe{24, 4}, FP64: Pipe{48, 32}, XU: Pipe{48, 16}, Tensor: Pipe{24, 4}, Branch: Pipe{4, 4},
		SharedLatency: 38, L1Latency: 440, L2Latency: 440, DRAMLatency: 440, MembarLatency: 20, FetchLatency: 0,
		LGQueue: 16, MIOQueue: 4, LSUInterval: 4, MIOInterval: 2, DRAMBytesPerCycle: 4,
		Sources: "Arithmetic: Volkov, \"Better Performance at Lower Occupancy\", GTC 2010: ~24 cycles " +
			"latency, 8 lanes per SM (Little's law: 192 threads). GT200 has no L1 for global loads, so " +
			"L1 and L2 loads take the device-memory latency. Memory latencies (shared 38, global ~440 " +
			"cycles) are from Wong et al., \"Demystifying GPU Microarchitecture through " +
			"Microbenchmarking\" (ISPASS 2010) as recalled, not re-checked here: approximate. " +
			"FP64, MUFU, branch and queue figures are estimates from the unit counts (1 FP64 and 2 SFU " +
			"lanes per SM), not measurements.",
	}
}

// GF100 models a GF100-class SM (GTX 480, compute capability 2.0): two
// schedulers, each feeding 16 lanes (a warp instruction every 2 cycles),
// and about 18 cycles of arithmetic latency. Little's law: 18 × 32 = 576
// threads saturate it.
func GF100() Machine {
	return Machine{
		Name: "gf100", Part: "GTX 480", SMs: 15, Schedulers: 2, MaxWarps: 48, MaxBlocks: 8, MaxThreadsPerBlock: 1024,
		FMA: Pipe{18, 2}, ALU: Pipe{18, 2}, FP64: Pipe{36, 8}, XU: Pipe{36, 8}, Tensor: Pipe{18, 2}, Branch: Pipe{4, 2},
		SharedLatency: 50, L1Latency: 90, L2Latency: 300, DRAMLatency: 600, MembarLatency: 20, FetchLatency: 0,
		LGQueue: 16, MIOQueue: 4, LSUInterval: 1, MIOInterval: 1, DRAMBytesPerCycle: 12,
		Sources: "Arithmetic: Volkov, \"Better Performance at Lower Occupancy\", GTC 2010: ~18 cycles " +
			"latency, 32 lanes per SM in two groups of 16 (Little's law: 576 threads). " +
			"Memory latencies (shared 50, L1 90, L2 300, DRAM 600) are estimates: no measured GF100 " +
			"table was found for this preset. FP64, MUFU and queue figures are estimates from unit counts.",
	}
}

// Volta models a V100 SM (compute capability 7.0): four schedulers, each
// with 16 FP32 and 16 INT32 lanes (FFMA and IADD3 each issue every 2
// cycles), latency 4.
func Volta() Machine {
	return Machine{
		Name: "volta", Part: "V100", SMs: 80, Schedulers: 4, MaxWarps: 64, MaxBlocks: 32, MaxThreadsPerBlock: 1024,
		FMA: Pipe{4, 2}, ALU: Pipe{4, 2}, FP64: Pipe{8, 4}, XU: Pipe{14, 8}, Tensor: Pipe{16, 4}, Branch: Pipe{4, 1},
		SharedLatency: 19, L1Latency: 28, L2Latency: 193, DRAMLatency: 460, MembarLatency: 20, FetchLatency: 4,
		LGQueue: 32, MIOQueue: 8, LSUInterval: 1, MIOInterval: 1, DRAMBytesPerCycle: 7.4,
		Sources: "Jia, Maggioni, Staiger, Scarpazza, \"Dissecting the NVIDIA Volta GPU Architecture via " +
			"Microbenchmarking\" (2018, arXiv 1804.06826), from the paper: Table 3.1 (V100 column): L1 hit 28, " +
			"L2 hit ~193, shared memory without conflicts 19 cycles; Table 4.1: FFMA, FADD, FMUL, IADD3, LOP3 " +
			"and the like 4, IMAD 5 (modelled as 4: IMAD shares the FMA pipe), DFMA/DADD/DMUL 8, MUFU ~14 " +
			"cycles. Read in the text extraction of the arXiv PDF in github.com/AbsurdMirror/translated-papers, " +
			"papers/0x01-2/document.html (source side, commit 3818e3bd), not in the PDF itself. The paper " +
			"gives no DRAM latency figure: DRAM 460 cycles is an independent V100 pointer-chase measurement " +
			"(markdewing/AI_kernels, latency/README.md), not Jia et al. Pipe intervals follow the unit " +
			"counts of the V100 whitepaper (16 FP32, 16 INT32, 8 FP64, 4 SFU lanes per sub-partition). " +
			"Tensor (16) and branch (4) latencies and the queue sizes are estimates. " +
			"DRAM bytes/cycle: 900 GB/s / 80 SMs / 1.53 GHz.",
	}
}

// Turing models a T4 / TU104 SM (compute capability 7.5): like Volta but
// with 32 resident warps per SM and a token FP64 pipe.
func Turing() Machine {
	return Machine{
		Name: "turing", Part: "T4", SMs: 40, Schedulers: 4, MaxWarps: 32, MaxBlocks: 16, MaxThreadsPerBlock: 1024,
		FMA: Pipe{4, 2}, ALU: Pipe{4, 2}, FP64: Pipe{54, 64}, XU: Pipe{15, 8}, Tensor: Pipe{16, 4}, Branch: Pipe{4, 1},
		SharedLatency: 19, L1Latency: 32, L2Latency: 188, DRAMLatency: 296, MembarLatency: 20, FetchLatency: 4,
		LGQueue: 32, MIOQueue: 8, LSUInterval: 1, MIOInterval: 1, DRAMBytesPerCycle: 5.0,
		Sources: "Jia, Maggioni, Smith, Scarpazza, \"Dissecting the NVidia Turing T4 GPU via " +
			"Microbenchmarking\" (2019, arXiv 1903.07486), from the paper: Table 3.1 (T4 column): L1 hit 32, " +
			"L2 hit ~188, shared memory without conflicts 19 cycles; Figure 3.5's caption: 296 cycles for a " +
			"load that misses L2 with a TLB hit (616 with a TLB miss too), used as the DRAM latency; " +
			"Table 4.1 (Turing rows): FFMA, IADD3 and the like 4, IMAD 5 (modelled as 4), MUFU ~15, " +
			"DFMA ~54 (DADD and DMUL ~48; the FP64 pipe has one latency, DFMA's). Read in the text " +
			"extraction of the arXiv PDF in github.com/AbsurdMirror/translated-papers, " +
			"papers/0x01-3/document.html (source side, commit 13784602), not in the PDF itself. Pipe " +
			"intervals from the Turing unit counts (16 FP32, 16 INT32, 4 SFU lanes per sub-partition, " +
			"2 FP64 units per SM). Tensor and branch latencies and the queue sizes are estimates. " +
			"DRAM bytes/cycle: 320 GB/s / 40 SMs / 1.59 GHz.",
	}
}

// Ampere models an A100 SM (compute capability 8.0): four schedulers, 16
// FP32 lanes each (FFMA every 2 cycles), latency 4.
func Ampere() Machine {
	return Machine{
		Name: "ampere", Part: "A100", SMs: 108, Schedulers: 4, MaxWarps: 64, MaxBlocks: 32, MaxThreadsPerBlock: 1024,
		FMA: Pipe{4, 2}, ALU: Pipe{4, 2}, FP64: Pipe{5, 4}, XU: Pipe{18, 8}, Tensor: Pipe{16, 2}, Branch: Pipe{4, 1},
		SharedLatency: 23, L1Latency: 33, L2Latency: 200, DRAMLatency: 290, MembarLatency: 20, FetchLatency: 4,
		LGQueue: 32, MIOQueue: 8, LSUInterval: 1, MIOInterval: 1, DRAMBytesPerCycle: 10.2,
		Sources: "Abdelkhalik, Arafa, Santhi, Badawy, \"Demystifying the Nvidia Ampere Architecture " +
			"through Microbenchmarking and Instruction-level Analysis\" (2022, arXiv 2208.11174), from the " +
			"paper: Table IV: global memory 290, L2 200, L1 33, shared memory 23 (load; 19 store) cycles; " +
			"Table II (CPI of a dependent sequence): mad.rn.f32 (FFMA) 4, add.u32 4, add.f64 (DADD) 5, used " +
			"for the FP64 pipe (no dependent DFMA figure is given). Read in the text extraction of the arXiv " +
			"PDF in github.com/AbsurdMirror/translated-papers, papers/0x01-4/document.html (source side, " +
			"commit dafee4c6), not in the PDF itself; the memory figures are also quoted in " +
			"YKTian-x2b/AmpereArchViaMicroBenchMark. The paper's Table V counts independent instructions, " +
			"so it gives no dependent MUFU latency. Pipe intervals from the A100 unit counts (16 FP32, " +
			"16 INT32, 8 FP64, 4 SFU lanes per sub-partition). MUFU, tensor, branch latencies and the " +
			"queue sizes are estimates. DRAM bytes/cycle: 1555 GB/s / 108 SMs / 1.41 GHz.",
	}
}

// Hopper models an H100 SM (compute capability 9.0): four schedulers, 32
// FP32 lanes each (FFMA every cycle), 16 INT32 lanes.
func Hopper() Machine {
	return Machine{
		Name: "hopper", Part: "H100", SMs: 132, Schedulers: 4, MaxWarps: 64, MaxBlocks: 32, MaxThreadsPerBlock: 1024,
		FMA: Pipe{4, 1}, ALU: Pipe{4, 2}, FP64: Pipe{8, 2}, XU: Pipe{18, 8}, Tensor: Pipe{16, 1}, Branch: Pipe{4, 1},
		SharedLatency: 29, L1Latency: 41, L2Latency: 263, DRAMLatency: 479, MembarLatency: 20, FetchLatency: 4,
		LGQueue: 32, MIOQueue: 8, LSUInterval: 1, MIOInterval: 1, DRAMBytesPerCycle: 12.8,
		Sources: "Luo et al., \"Benchmarking and Dissecting the Nvidia Hopper GPU " +
			"Architecture\" (2024, arXiv 2402.13499v1), from the paper: Table IV, H800 PCIe column (a " +
			"Hopper GH100 part, compute capability 9.0, measured with the H100's SM): L1 40.7, shared " +
			"memory 29.0, L2 263.0, global memory 478.8 cycles, rounded to 41, 29, 263, 479. Read in the " +
			"text extraction of the arXiv PDF in github.com/AbsurdMirror/translated-papers, " +
			"papers/0x01-6/document.html (source side, commit 288c2d89), not in the PDF itself. Only the " +
			"paper's setup and memory sections were read; FFMA latency 4 is assumed unchanged from Ampere, " +
			"not taken from it. " +
			"Pipe intervals from the H100 unit counts (32 FP32, 16 INT32, 16 FP64, 4 SFU lanes per " +
			"sub-partition). FP64, MUFU, tensor, branch latencies and the queue sizes are estimates. " +
			"DRAM bytes/cycle: 3.35 TB/s / 132 SMs / 1.98 GHz.",
	}
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
	lat := []struct {
		name string
		v    int
	}{{"SharedLatency", m.SharedLatency}, {"L1Latency", m.L1Latency}, {"L2Latency", m.L2Latency}, {"DRAMLatency", m.DRAMLatency}}
	for _, l := range lat {
		if l.v < 1 {
			return fmt.Errorf("machine %q: %s = %d, want at least 1", m.Name, l.name, l.v)
		}
	}
	if m.MembarLatency < 0 || m.FetchLatency < 0 {
		return fmt.Errorf("machine %q: MembarLatency and FetchLatency must not be negative", m.Name)
	}
	if m.QueueModel {
		if m.LGQueue < 1 || m.MIOQueue < 1 || m.LSUInterval < 1 || m.MIOInterval < 1 {
			return fmt.Errorf("machine %q: the queue model needs LGQueue, MIOQueue, LSUInterval and MIOInterval of at least 1", m.Name)
		}
		if m.LGQueue > 4096 {
			return fmt.Errorf("machine %q: LGQueue = %d, want at most 4096", m.Name, m.LGQueue)
		}
		if m.DRAMBytesPerCycle < 0 {
			return fmt.Errorf("machine %q: DRAMBytesPerCycle = %g, want 0 (unlimited) or more", m.Name, m.DRAMBytesPerCycle)
		}
	}
	return nil
}
