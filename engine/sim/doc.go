// Package sim is a cycle-level simulator of the warp schedulers of one GPU
// streaming multiprocessor (SM). It reports what Nsight Compute would report
// for the same kernel: issue-slot utilisation, active and eligible warps per
// scheduler, warp cycles per issued instruction and its breakdown by stall
// reason, under the profiler's own metric names.
//
//	w := sim.Workload{
//		GPU:     "toy",
//		Launch:  sim.Launch{Block: 128, Blocks: 1},
//		Program: sim.NewProgram().Loop(100, sim.NewProgram().FFMA("r0", "r0", "r1")),
//	}
//	r, err := sim.Run(w)
//	// r.IssueActive == 100 (four warps hide the 4-cycle FFMA latency)
//
// A workload can also be read from a file with [ParseWorkload], and a
// program alone (the list that follows program: in such a file) with
// [ParseProgram]; the command "warpbook sim FILE.yaml" runs one. Errors in
// either are [*Error] values positioned as file:line:col, the column in
// bytes. Both read hostile input safely: a source over [MaxSourceBytes],
// lists and mappings nested deeper than [MaxNesting] (checked on the tokens,
// before goccy/go-yaml's parser, whose cost grows with the square of the
// depth) and aliases that would expand past [MaxExpandedNodes] (counted on
// the parsed tree; workload files take no aliases anyway) are errors at the
// place the limit is passed, naming the limit.
//
// # The model
//
// The SM has Schedulers sub-partitions. Each has its own warp scheduler, its
// own pool of resident warps and its own execution pipes: FMA (FFMA, FADD,
// FMUL, IMAD), ALU (IADD3, LOP3, ISETP, SHF, MOV, SEL), FP64 (DFMA, DADD,
// DMUL), XU (MUFU), Tensor (HMMA) and Branch (BRA, BAR, NANOSLEEP, EXIT).
// Each pipe has a latency (cycles until a dependent instruction may issue)
// and an initiation interval (cycles between two warp instructions entering
// it: 32 threads over the pipe's lanes). Shared memory (LDS, STS) and
// global/local memory (LDG, STG, LDL, STL) are SM-wide and have a latency
// per level: shared, L1, L2, DRAM.
//
// Warps are the 32-thread slices of a block. A block's warps take the
// lowest free warp slots; slot s belongs to scheduler s mod Schedulers, for
// the warp's whole life (warps never migrate).
//
// Every cycle, each scheduler classifies each of its resident warps into
// exactly one state, picks one eligible warp by its policy and issues that
// warp's next instruction: at most one instruction per scheduler per cycle,
// in order within a warp, no dual issue. An instruction issued in cycle t
// with latency L lets a dependent instruction issue in cycle t+L, so one
// warp running a chain of FFMAs with latency 4 issues in cycles 0, 4, 8, ...
// and uses 25 % of the issue slots.
//
// # Warp states
//
// States are Nsight Compute's warp states. A warp that issues is selected;
// for any other resident warp the first matching rule, in this order,
// decides its state:
//
//  1. drain: it has executed EXIT and waits for its stores to complete.
//  2. sleeping: it is inside a NANOSLEEP.
//  3. barrier: it waits at BAR for warps of its block that have not arrived
//     (warps that have exited do not count).
//  4. membar: it waits at MEMBAR for its earlier memory operations.
//  5. branch_resolving: it issued a BRA less than the Branch pipe's latency
//     ago.
//  6. no_instruction: it was launched less than FetchLatency cycles ago.
//  7. A source operand (or, for a scoreboarded result, the destination) is
//     not ready. Of the operands the one ready last decides:
//     long_scoreboard when an L1TEX access (LDG, LDL) produces it,
//     short_scoreboard when an MIO operation (LDS, MUFU) does, and wait for
//     a fixed-latency math result. On equal times long beats short beats
//     wait.
//  8. A resource is busy: lg_throttle when the LG queue is full (queue model
//     only), mio_throttle when the MIO queue is full (queue model only),
//     math_pipe_throttle when the instruction's pipe is inside its
//     initiation interval.
//  9. Otherwise the warp is eligible. Under two_level:N an eligible warp
//     outside the active set counts as no_instruction (it is not in the
//     fetch group); every other eligible warp the scheduler did not pick is
//     not_selected.
//
// Nothing models the instruction cache, dispatch stalls, texture or tensor
// memory queues, so dispatch_stall, imc_miss, tex_throttle, misc and the
// like never occur.
//
// # Metrics and identities
//
// A scheduler is active in a cycle when it has at least one resident warp.
// Counters are summed over the SM's schedulers; a per-scheduler average is a
// sum over schedulers divided by the summed active cycles, as Nsight Compute
// divides its .avg counters. So, exactly, on every run and within every
// measurement window in which something issued (the tests check them over
// many generated workloads and windows):
//
//   - the per-state ratios smsp__average_warps_issue_stalled_<state>_per_issue_active.ratio,
//     selected included (always 1), sum to
//     smsp__average_warp_latency_per_inst_issued.ratio, the warp cycles per
//     issued instruction;
//   - smsp__warps_active.avg.per_cycle_active = issued instructions per
//     scheduler per active cycle × warp cycles per issued instruction
//     (Little's law for the issue slot);
//   - smsp__issue_active + smsp__issue_inst0 = 100 % of active cycles.
//
// The simulator counts every cycle; Nsight Compute samples warp states, so
// its stall ratios carry sampling noise that these do not.
//
// # Measurement window
//
// By default every count and metric of a [Result] covers the whole run, from
// the launch (cycle 0) until the last warp retires. That average includes
// the start, when warps are still fetching their first instruction, and the
// tail, when the last warps finish without company and issue slots go
// unused; above saturation both pull issue utilisation down and shift the
// stall breakdown. Two settings of [Config] measure part of the run
// instead; the run itself is the same, cycle for cycle:
//
//   - Measure: Window{From, To} counts only the cycles From ≤ t < To, which
//     must lie inside the run (0 ≤ From < To ≤ [Result].RunCycles; anything
//     else is an error that says so).
//   - Steady: true chooses the window itself: From is Machine.FetchLatency,
//     the first cycle in which the warps of the first wave (the blocks
//     resident at launch) can issue; the window's last cycle is the one in
//     which the first warp issues EXIT once the grid's last block on the SM
//     has launched (To is one past it), after which the resident warps only
//     dwindle. With one wave that is the first EXIT of the run; with
//     several, the wave changes before it are inside the window. Transients
//     that belong to the program, such as every warp waiting on its first
//     load at the same time, are not left out: give an explicit window for
//     those.
//
// Within the window a warp is counted in the state it is in during each
// cycle of the window, an issue in the cycle it issues, a scheduler as
// active in the cycles it holds a warp; so the counts over [0, a) and
// [a, end) add up to the whole run's, and the identities above hold within
// the window. [Result].Measured says which window was measured, Cycles is
// its length and RunCycles the length of the run; Report names the window.
// In a window in which nothing issued, the per-instruction figures (warp
// cycles per issued instruction, the stall ratios) are 0.
//
// # Memory
//
// Off (the default, [Machine].QueueModel false), every memory access takes
// its level's latency, however many are in flight. With the queue model on
// (memory: {model: queue} in a workload file), the SM has
//
//   - an LG queue of LGQueue entries: each global or local access holds one
//     from issue until its data returns; a warp whose next instruction needs
//     one more waits in lg_throttle;
//   - an L1TEX unit that accepts LSUInterval cycles' worth of work per 128
//     bytes, and a shared-memory pipe that takes MIOInterval cycles per 128
//     bytes, with up to MIOQueue instructions waiting for it (mio_throttle
//     beyond that);
//   - a DRAM channel of DRAMBytesPerCycle bytes per cycle, first come first
//     served: a DRAM access starts when the channel is free and its data
//     arrives DRAMLatency cycles later.
//
// So latency grows with load and throughput follows Little's law, in-flight
// requests = throughput × latency, until a queue or the channel saturates.
//
// # Control flow
//
// A loop ([Program.Loop], "loop: N" in a file) repeats its body at no cost,
// as if unrolled; write its counter update and branch as instructions when
// the overhead matters. A divergent branch ([Program.Branch], {op: BRA,
// lanes: "0-15", then: [...], else: [...]}) issues one BRA, then runs the
// then path with the taken lanes and the else path with the others, one
// after the other, and reconverges (a reconvergence stack, nesting allowed).
// A path that no active lane takes is skipped. A warp-uniform branch
// ([Program.BranchWarps], {op: BRA, warps: "0", ...}) sends whole warps of
// the block one way or the other: per-warp extra work, e.g. before a
// barrier. BAR waits until every warp of the block that has not exited has
// arrived; MEMBAR waits for the warp's memory operations; NANOSLEEP sleeps
// the given cycles; EXIT ends the warp, which drains its stores before it
// leaves its slot. EXIT is only allowed at the top level; a program that
// does not end in EXIT gets one.
//
// # Policies
//
//   - lrr, loose round robin: the first eligible warp after the one that
//     issued last, in slot order.
//   - gto, greedy then oldest (the default): the warp that issued last if it
//     is eligible, else the oldest eligible warp (launch order).
//   - oldest: always the oldest eligible warp.
//   - two_level:N: each scheduler keeps an active set of at most N warps and
//     picks round robin among them; a warp that starts a long wait
//     (long_scoreboard, barrier, membar, sleeping, drain) leaves the set for
//     a pending queue, and pending warps that are not in a long wait refill
//     it, first demoted first.
//
// # Occupancy and waves
//
// The grid's blocks are dealt round-robin to the part's SMs; the simulator
// runs the first SM, which gets ceil(Blocks / SMs) of them. How many are
// resident at once comes from engine/occupancy (block size, registers per
// thread, shared memory per block) on the preset's part, capped by
// [Launch].Resident when set. The gt200, gf100 and toy presets have no
// engine/gpu part, so only their warp and block slots limit residency.
// When a block's last warp leaves, the next block of the grid starts in its
// place at once, so a grid larger than the resident limit runs in waves
// ([Result].Waves = blocks on the SM ÷ resident blocks).
//
// # Trace
//
// [Config].Trace asks for a [Trace]: the state of every warp slot in every
// cycle of a window [From, To), the warps that held each slot (spans) and
// every instruction issued. Its size is bounded by the window: at most
// [MaxTraceCells] cells. A timeline figure reads [Trace.At] per slot and
// cycle; an occupancy stepper lights the slots in [Trace.IssueOrder].
// "warpbook sim --trace FILE.csv" writes it as CSV.
//
// Each [Issue] carries the instruction's PC: its index in the program
// flattened by [Program.Listing] (program order, loop bodies once, a
// branch's BRA before its then and else paths, ILP copies one each, the
// added EXIT last), the same for every warp and loop trip. A stalled warp
// waits to issue its next instruction, so the stalled cells of a slot's row
// before an issue belong to that PC: that gives stalls per
// instruction, as Nsight Compute's source view samples them per PC.
//
// # Presets and their sources
//
// Each preset's Sources field says where its numbers come from and which
// are estimates. In short:
//
//   - toy: not a real GPU. One scheduler, every math pipe latency 4 and
//     interval 1 (the CUDA Best Practices Guide's ~4-cycle arithmetic
//     latency for compute capability 7.x), round memory latencies.
//   - gt200 (GTX 280): Volkov, "Better Performance at Lower Occupancy", GTC
//     2010: ~24 cycles of arithmetic latency, 8 lanes per SM, so 192 threads
//     saturate it.
//   - gf100 (GTX 480): the same talk: ~18 cycles, 32 lanes in two groups of
//     16, so 576 threads.
//   - volta (V100): Jia et al., "Dissecting the NVIDIA Volta GPU
//     Architecture via Microbenchmarking" (2018), Tables 3.1 and 4.1:
//     FFMA 4, DFMA 8, MUFU 14; shared 19, L1 28, L2 193. The paper gives
//     no DRAM latency; 460 is an independent V100 measurement.
//   - turing (T4): Jia et al., "Dissecting the NVidia Turing T4 GPU via
//     Microbenchmarking" (2019), Tables 3.1 and 4.1 and Figure 3.5: FFMA 4,
//     DFMA 54, MUFU 15; shared 19, L1 32, L2 188, DRAM 296 (an L2 miss
//     with a TLB hit).
//   - ampere (A100): Abdelkhalik et al., "Demystifying the Nvidia Ampere
//     Architecture through Microbenchmarking and Instruction-level
//     Analysis" (2022), Tables II and IV: FFMA 4, DADD 5 (used for the
//     FP64 pipe); shared 23, L1 33, L2 200, DRAM 290.
//   - hopper (H100): Luo et al., "Benchmarking and Dissecting the Nvidia
//     Hopper GPU Architecture" (2024), Table IV, measured on an H800 PCIe:
//     shared 29, L1 41, L2 263, DRAM 479. FFMA 4 is assumed, not taken
//     from the paper.
//
// The tables were read in a text extraction of each paper's arXiv PDF (the
// Sources field says where), not in the PDFs themselves.
//
// Initiation intervals follow the lanes per sub-partition in NVIDIA's
// architecture whitepapers (Volta, Turing and A100: 16 FP32 lanes, so FFMA
// every 2 cycles; H100: 32, so every cycle). Tensor and branch latencies,
// MUFU on ampere and hopper, FP64 on hopper, FetchLatency, MembarLatency
// and all queue sizes are estimates.
//
// # Determinism and cost
//
// Nothing is random: the same workload and configuration give the same
// result, bit for bit. A run costs time proportional to the resident warps
// times the cycles in which something can change: the simulator skips
// cycles in which no warp can issue, and a warp whose state cannot change
// before a known cycle is not looked at until then.
package sim
