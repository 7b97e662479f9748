package sim

// The consumer Ampere and Ada presets: the GA102 and AD102 SMs that most
// public SGEMM worklogs are measured on.

// consumerCore sets what the ga102 and ad102 presets share: 48 resident
// warps in four sub-partitions of 32 FP32 lanes (16 of them shared with
// INT32, which the model does not take from FP32), 16 INT32 lanes, a few
// FP64 units for the whole SM, half-rate tensor cores and Huerta et al.'s
// RTX A6000 memory pipeline.
func consumerCore(m *Machine) {
	m.Schedulers, m.MaxWarps, m.MaxThreadsPerBlock = 4, 48, 1024
	m.Policy = "gty"
	m.FMA, m.IMAD, m.ALU = Pipe{4, 1}, Pipe{4, 2}, Pipe{4, 2}
	m.FP64, m.DADDLatency, m.FP64Shared = Pipe{54, 16}, 48, true
	m.XU, m.Tensor, m.Branch = Pipe{18, 8}, Pipe{33, 16}, Pipe{4, 1}
	m.TensorFMA, m.TensorShape = 128, "m16n8k16"
	m.AsyncCopy, m.AsyncCopyExtra = true, 7
	m.SharedLatency, m.L1Latency = 23, 32
	m.MembarLatency, m.BarrierLatency, m.FetchLatency = 20, 1, 4
	m.LoadWriteback, m.SharedWriteback = 64, 128
	withHuertaPipe(m)
}

// consumerSources says where consumerCore's numbers come from.
const consumerSources = "The SM: the CUDA C++ Programming Guide's throughput table gives compute " +
	"capability 8.6 and 8.9 128 FP32, 64 32-bit integer and 2 FP64 results per clock per SM, so FFMA " +
	"every cycle per sub-partition (FMA interval 1), IMAD and the integer ALU every 2, and FP64 one warp " +
	"instruction every 16 cycles on a unit the SM's schedulers share (FP64Shared, as on Turing); 1536 " +
	"threads per SM (engine/gpu). " + huertaMICRO25 + " measured an RTX A6000 (GA102): Table 1, the " +
	"memory pipeline (below); Table 2, loads of 64 and 128 bits per thread 2 and 6 cycles slower than " +
	"32-bit ones (LoadWriteback 64, SharedWriteback 128), an L1-hitting LDG of 32 cycles and an LDGSTS " +
	"of 39 (L1Latency 32, AsyncCopyExtra 7); §5.1.2, greedy then youngest scheduling. " + huertaMemPipe +
	" Tensor: half the A100's rate per sub-partition, TensorFMA 128 (the part's datasheet peak below). " +
	"Estimates, not measurements: the shared-memory latency (23, the A100's), the tensor latency (33: " +
	"the A100's 25 plus the 8 more cycles a half-rate m16n8k16 holds the pipe), MUFU, FP64 (Turing's " +
	"consumer FP64 unit, 54 and 48), branch and fetch latencies; the FP32-or-INT32 second datapath is " +
	"not modelled: an IMAD issues to the FMA pipe and holds it 2 cycles (Machine.IMAD), so an IMAD-heavy " +
	"loop loses FP32 issue that GA10x's second datapath would keep; no block launch cost, loaded DRAM latency or L2 " +
	"bandwidth was measured on these parts, so none is modelled."

// GA102 models an RTX A6000 SM (GA102, compute capability 8.6): the card
// Huerta et al. dissected, 84 SMs at 1.8 GHz with 768 GB/s of GDDR6.
func GA102() Machine {
	m := Machine{Name: "ga102", Part: "RTX A6000", SMs: 84, ClockMHz: 1800, MaxBlocks: 16,
		L2Latency: 200, DRAMLatency: 450, DRAMBytesPerCycle: 768.0 / 84 / 1.8}
	consumerCore(&m)
	m.Sources = "The RTX A6000 (GA102, the part of " + huertaMICRO25 + "). Tensor: its datasheet's 154.8 " +
		"TFLOPS of dense FP16 = 84 × 4 × 128 FMA × 2 × 1.8 GHz. DRAM: the theoretical 768 GB/s / 84 SMs / " +
		"1.8 GHz = 5.08 bytes per cycle; no sustained figure was read, so this is the theoretical one. " +
		"Estimates, not measurements: the L2 (200) and DRAM (450) latencies (no GA102 pointer chase was " +
		"read; the ad102 preset's measured ones are 117 and 252 ns). " + consumerSources
	return m
}

// AD102 models a GeForce RTX 4090 SM (AD102, compute capability 8.9): 128
// SMs at 2.52 GHz with 1008 GB/s of GDDR6X.
func AD102() Machine {
	m := Machine{Name: "ad102", Part: "GeForce RTX 4090", SMs: 128, ClockMHz: 2520, MaxBlocks: 24,
		DRAMBytesPerCycle: 1008.0 / 128 / 2.52}
	consumerCore(&m)
	m.L1Latency, m.L2Latency, m.DRAMLatency = 40, 296, 636
	m.Sources = "The GeForce RTX 4090 (AD102). Latencies: markdewing/AI_kernels, latency/README.md, " +
		"pointer chases on a 4090: L1 40, L2 296, main memory 636 cycles. " + luoHopper + ", Table V: an " +
		"RTX 4090 moves 63.7 bytes per clock per SM from L1 with 32-bit loads (one instruction per 2 " +
		"cycles, MemIssueInterval 2) and 127.9 from shared memory (one per cycle). Tensor: NVIDIA's 330.3 " +
		"TFLOPS of dense FP16 with FP16 accumulation = 128 × 4 × 128 FMA × 2 × 2.52 GHz (GeForce parts " +
		"accumulate in FP32 at half that). DRAM: the theoretical 1008 GB/s / 128 SMs / 2.52 GHz = 3.13 " +
		"bytes per cycle; no sustained figure was read. " + consumerSources
	return m
}
