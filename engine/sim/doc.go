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
// DMUL), XU (MUFU), Tensor (HMMA, HGMMA) and Branch (BRA, BAR, NANOSLEEP,
// EXIT). Each pipe has a latency (cycles until a dependent instruction may
// issue) and an initiation interval (cycles between two warp instructions
// entering it: 32 threads over the pipe's lanes). A machine may refine
// them: IMAD with its own latency and interval on the FMA pipe, DADD and
// DMUL with their own latency, an FP64 unit the whole SM shares (Turing),
// a second FP32 pipe that dual issue reaches (Kepler), and an HMMA interval
// from its shape (m·n·k multiply-adds over the tensor cores' rate). Shared
// memory (LDS, STS) and global/local memory (LDG, STG, LDL, STL, and the
// asynchronous LDGSTS, UTMALDG and UBLKCP) are SM-wide and have a latency per level:
// shared, L1, L2, DRAM; a wider load takes longer to reach the registers
// (Machine.LoadWriteback).
//
// Warps are the 32-thread slices of a block. A block's warps take the
// lowest free warp slots; slot s belongs to scheduler s mod Schedulers, for
// the warp's whole life (warps never migrate).
//
// Every cycle, each scheduler classifies each of its resident warps into
// exactly one state, picks one eligible warp by its policy and issues that
// warp's next instruction: at most one instruction per scheduler per cycle,
// in order within a warp (a DualIssue machine may issue a second, ready
// instruction of the same warp in the same cycle). A new block's warps
// first issue FetchLatency cycles after launch; on a machine with
// WarpStartInterval (Turing: 2) the SM starts one new warp at a time, that
// many cycles apart, the sub-partitions taking turns and each choosing by
// its policy which of its waiting warps starts (so a T4 block's eight
// warps start 4, 5, 6, 7, 0, 1, 2, 3 under greedy then youngest, as
// measured). An instruction issued in cycle t
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
//  1. drain: it has executed EXIT and waits for its stores to retire
//     (Machine.StoreRetire).
//  2. sleeping: it is inside a NANOSLEEP.
//  3. barrier: it waits at BAR for warps of its block that have not arrived
//     (warps that have exited do not count), at a named barrier for its
//     thread count, or at BAR.CLUSTER.
//  4. membar: it waits at MEMBAR for its earlier memory operations.
//  5. branch_resolving: it issued a BRA less than the Branch pipe's latency
//     ago.
//  6. no_instruction: it was launched less than FetchLatency cycles ago.
//  7. A source operand (or, for a scoreboarded result, the destination) is
//     not ready. Of the operands the one ready last decides:
//     long_scoreboard when an L1TEX access (LDG, LDL) produces it,
//     short_scoreboard when an MIO operation (LDS, MUFU) does, gmma when
//     an HGMMA's accumulator does, and wait for a fixed-latency math
//     result. On equal times gmma beats long beats short beats wait. A warp
//     that issued a wait for asynchronous work is in the state of that
//     work until it completes: long_scoreboard after DEPBAR (cp.async
//     groups, L1TEX operations), short_scoreboard after SYNCS (an mbarrier
//     wait, an MIO operation), gmma after WARPGROUP.DEPBAR (Nsight
//     Compute's Hopper-only stall for warpgroup MMA).
//  8. A resource is busy: lg_throttle when the sub-partition's memory queue
//     is full for a global or local access, or the SM's in-flight bound
//     (LGQueue) is reached; mio_throttle when the memory queue is full for
//     a shared-memory access (queue model only); math_pipe_throttle when
//     the instruction's pipe is inside its initiation interval.
//  9. Otherwise the warp is eligible. Under two_level:N an eligible warp
//     outside the active set counts as no_instruction (it is not in the
//     fetch group); every other eligible warp the scheduler did not pick is
//     not_selected.
//
// Nothing models the instruction cache, dispatch stalls, texture queues or
// register-file bank conflicts, so dispatch_stall, imc_miss, tex_throttle,
// misc and the like never occur.
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
// Without the queue model (memory: {model: latency} in a workload file,
// [Machine].QueueModel false, and the toy preset's default) every memory
// access takes its level's latency however many are in flight: a teaching
// model with no bandwidth limit at all. Every real preset has the queue
// model on, and an access goes through these stages, each first come
// first served, the schedulers taking turns (round robin) where they share
// one:
//
//  1. Its sub-partition's memory queue of MemQueue instructions (a warp
//     whose memory instruction finds it full is in lg_throttle or
//     mio_throttle). A global or local instruction then reaches, after
//     MemPipeDelay cycles, its sub-partition's address unit (AddrInterval
//     cycles per instruction) and the SM's L1TEX stage (one instruction
//     every MemIssueInterval cycles from all sub-partitions), which hands
//     instructions to the L1TEX data path in order; Huerta et al. measured
//     5, 4 and 2 on Ampere (MICRO 2025). A shared-memory instruction
//     computes its addresses in the SM's shared structures (Huerta et al.)
//     and goes to the banks as soon as they are free of the previous one,
//     so a bank conflict backs up into the queue; it does not wait for the
//     L1TEX stage (Luo et al. measured 32-bit shared loads at one per
//     cycle where 32-bit L1 loads ran at one per 2). The queue entry frees
//     the cycle after the instruction leaves for the data path. MemQueue 0
//     leaves this stage out (the pre-Volta presets: nothing is published
//     about it).
//  2. Its level's data path. A shared-memory access takes MIOInterval
//     cycles per wavefront: one pass over the 32 four-byte banks per 128
//     bytes, one more per bank conflict (Inst.Stride; a broadcast takes
//     one). A global access moves the 32-byte sectors its threads touch
//     (Inst.Stride and Width: a stride of 2 moves twice the bytes it uses)
//     through the L1TEX data path (LSUInterval per four sectors), the L2
//     (L2BytesPerCycle) and DRAM (DRAMBytesPerCycle: the SM's share of the
//     part's measured sustained bandwidth, on every preset but gt200,
//     ga102 and ad102, whose is the theoretical one). LGQueue, when set,
//     bounds the global accesses in flight. The L2 and DRAM channels serve
//     the SM first come first served at its share, but keep one latency's
//     worth of unused time as credit (a token bucket), so a burst after a
//     quiet spell does not queue behind itself: the part's other channels
//     take it while the other SMs are not using them.
//
// An access is ready its level's latency after issue, plus whatever it
// waited in the stages: the latency is what it takes with nothing else in
// flight. A shared-memory access with bank conflicts also waits for its own
// extra passes beyond the wavefronts a contiguous access of its width takes,
// ConflictPassLatency each (Mei and Chu's measured cost per pass on gf100
// and gm204; MIOInterval on the other presets). Those passes are replays:
// the banks serve them one after the other, ReplayInterval cycles each
// (1.65 on GH100, fitted to an H100 transpose; MIOInterval elsewhere). So
// latency grows with load and throughput follows Little's law, bytes in
// flight = bandwidth × latency, until a stage saturates.
//
// The L2 has two partitions on the A100 and GH100 presets: a hit in the
// partition near the SM takes L2Latency, one in the far partition (level
// l2far) L2FarLatency, the crossing measured by Ernst's pointer chases.
// L2LoadedLatency, when set, makes an L2 hit's latency rise with the L2's
// load as the DRAM's does (no preset sets it: no loaded L2 latency was
// found published).
//
// The DRAM latency itself also grows with the channel's load, as a real
// memory system's does well before its peak: with u the bytes per cycle
// the SM asked of the channel recently (a moving average over eight DRAM
// latencies) against what the channel moves, an access takes DRAMLatency +
// (DRAMLoadedLatency − DRAMLatency)·u + DRAMServiceCycles·u/(1−u) cycles
// (u at most 31/32). DRAMLatency is the unloaded latency of a random
// pointer chase. The volta, ampere and h800 presets take a loaded latency
// and a queue's service time (2.25, 2 and 2.05 times it; 2, 3 and 0.5 % of
// it), fitted with the turnaround below to the copy bandwidth against
// occupancy of a V100, an A100 and an H100 PCIe, each part to its own
// (docs/fidelity.md); hopper carries the A100's.
//
// The channel's time per byte is DRAMBytesPerCycle's with a deep
// backlog. A stream that mixes reads and writes loses time to turning the
// bus around: TurnaroundCost more per byte for an even mix with no
// backlog, amortised as the backlog grows (TurnaroundBacklog cycles of it
// halve the cost), as a memory controller batches more writes per turn.
// Reads or writes alone reach the channel's rate; a copy approaches it
// only as its bytes in flight grow, which is what shapes the last tenth
// of its bandwidth against occupancy.
//
// A store does not hold its warp until it reaches DRAM: with StoreRetire
// set the write-back L2 takes it, and it retires StoreRetire cycles after
// it leaves the L1TEX stages, or once a backed-up channel starts on its
// bytes. A retiring block's place is taken BlockLaunch cycles later. Both
// were fitted per part to Ernst's one-warp blocks.
//
// # Asynchronous copies and warpgroup MMA
//
// LDGSTS (cp.async, Machine.AsyncCopy) is a global load whose data goes to
// shared memory instead of a register: it joins the warp's open cp.async
// group, LDGDEPBAR commits the group, and DEPBAR with groups: N makes the
// warp wait (long_scoreboard) until at most N committed groups are still in
// flight, oldest first. UTMALDG and UBLKCP (Machine.TMA) are the two TMA
// copies from global to shared memory: UTMALDG the tile copy through a
// tensor map (PTX cp.async.bulk.tensor), UBLKCP the plain bulk copy of
// contiguous bytes (cp.async.bulk). The model runs them alike (what a
// tensor map adds, the box's addressing, swizzling and bounds, is not
// modelled): a copy moves bytes from global to shared memory through the SM's tensor memory
// accelerator, which adds TMALatency to its level's latency and streams
// each copy at TMABytesPerCycle (copies in flight together overlap, within
// the L2's and DRAM's bandwidth); when its bytes
// have landed the copy is one arrival on a block's mbarrier (bar). ARRIVE
// is one arrival by a warp, and MBARINIT sets how many arrivals complete
// a phase (1 if it never runs), so the consumers of a producer/consumer
// pipeline can tell the producer that a buffer is free: the producer
// waits with SYNCS on an "empty" mbarrier its consumers ARRIVE on. SYNCS
// waits for the next phase of an mbarrier this warp has not waited for
// yet (short_scoreboard), also when other warps complete it later; a
// SYNCS for a phase whose arrivals never come is a deadlock. HGMMA
// (Machine.AsyncMMA, warpgroup MMA) holds the warp's tensor pipe for its
// quarter of an m64nNk16 tile and runs on without waiting; its
// accumulator is ready when the pipe is done with the tile. On a machine
// with GMMALatency (GH100: 13) an HGMMA takes the longest of that time
// (N/2 cycles), GMMALatency and the time to read its operands from shared
// memory at 128 bytes a cycle (A, 2 KB, unless Inst.Operands is "rs"; B,
// 32·N bytes), and holds the pipe as long, so a small N runs
// latency-bound as Luo et al. measured; without it, no sooner than the
// tensor latency after issue. (An HMMA's latency is the pipe's, plus the
// cycles a shape longer than the machine's TensorShape holds it.)
// WARPGROUP.DEPBAR with groups: N commits
// the open HGMMA group and waits (gmma) until at most N are in flight. Each
// of a warpgroup's four warps issues its own HGMMA for its 16 rows of the
// tile (the PTX ISA's accumulator layout) on its own sub-partition's tensor
// pipe: that the hardware splits the work this way is the model's
// inference from the layout and from consecutive warps landing on
// different sub-partitions, not something NVIDIA documents. Running any of these on a
// machine without the feature is an error at the instruction.
//
// # Barriers and clusters
//
// Named barriers: BAR with Inst.Barrier (0 to 15) and Inst.Threads waits
// until that many threads of the block (32 per warp) have arrived at that
// barrier; BAR.ARV arrives without waiting (PTX bar.sync and bar.arrive),
// so producer warps BAR.ARV and consumer warps BAR on the same barrier.
//
// Clusters ([Launch].Cluster up to Machine.MaxCluster): the simulated SM
// holds one block of each cluster, its peers run the same program on
// other SMs. An LDS or STS at level dsmem reads or writes a peer's shared
// memory over the SM-to-SM network: DSMEMLatency in clusters of 2,
// DSMEMWideLatency in larger ones, its bytes on the network at
// DSMEMBytesPerCycle. BAR.CLUSTER waits for the block's warps and one
// network latency, the peers taken to arrive together.
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
// A workload that names no policy gets its machine's (Machine.Policy): gty
// on turing, ampere, hopper and h800, whose scheduler Huerta et al. found to
// be greedy then youngest, and gto on the others.
//
//   - lrr, loose round robin: the first eligible warp after the one that
//     issued last, in slot order.
//   - gto, greedy then oldest: the warp that issued last if it is
//     eligible, else the oldest eligible warp (launch order).
//   - gty, greedy then youngest: the warp that issued last if it is
//     eligible, else the youngest eligible warp.
//   - oldest: always the oldest eligible warp.
//   - two_level:N: each scheduler keeps an active set of at most N warps and
//     picks round robin among them; a warp that starts a long wait
//     (long_scoreboard, barrier, membar, sleeping, drain, gmma) leaves the set for
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
// place Machine.BlockLaunch cycles later (at once on presets without a
// measured launch cost), so a grid larger than the resident limit runs in
// waves ([Result].Waves = blocks on the SM ÷ resident blocks). While no
// warp is resident the SM is not active: achieved occupancy and the
// schedulers' active cycles leave those cycles out.
//
// # Clocks
//
// A machine's cycles are SM cycles at ClockMHz. [Machine.AtClock] runs it
// at another clock: the SM's own figures stay in cycles, the L2's and
// DRAM's latencies and bandwidths, StoreRetire and BlockLaunch keep their
// nanoseconds. TensorClockMHz is where NVIDIA's tensor peak holds when it
// is not the boost clock: the H100 SXM's 989 TFLOPS of dense FP16 hold at
// 1.83 GHz, so its ridge point against the 3.35 TB/s datasheet bandwidth
// is 989 ÷ 3.35 ≈ 295 FLOP per byte, not the 320 the 1.98 GHz boost clock
// would give.
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
// # Per-instruction results
//
// [Result].Lines holds, for every instruction, what Nsight Compute's source
// view shows beside each SASS line: its executions (inst_executed,
// thread_inst_executed) and the warp states sampled while a warp was about
// to issue it (smsp__pcsamp_warps_issue_stalled_<reason>; [PCSampleMetric]
// names them). Every warp is sampled in every cycle of the measured window,
// so a line's samples are warp-cycles and the lines' samples of a state add
// up to [Result].StateCycles of that state; the tests check it on every
// run. A stall is charged to the instruction the warp waits to issue, and
// also to the instruction that caused it ([Line].Causes): the producer
// whose dependence counter (SASS) it waits on, the instruction whose stall
// count it waits out, the BAR it waits at, the EXIT whose stores drain.
// [Result].Blames ranks them and [Blame] says each in a sentence, e.g.
//
//	FFMA R7, R2, c[0x0][0x160], R7 waits on SB2 set by LDG.E R7, [R4.64] on the line above: 100.0 % of this kernel's long_scoreboard
//
// Programs built in Go or read from YAML have lines too (Program.Listing's
// PCs); only a SASS kernel's stalls are traced to counters.
//
// # SASS kernels
//
// [Workload].Kernel runs a function of a SASS listing ([sass.Parse]): the
// instructions nvcc emitted, with the scheduling the compiler encoded in
// each. [ParseKernel] reads the short YAML that says what SASS cannot (the
// launch, loop trip counts, how conditional branches go, where memory
// accesses hit); "warpbook sim LISTING KERNEL.yaml" runs one.
//
// The hardware does not track register dependencies; the compiler's
// control information does (Huerta et al., MICRO 2025, §4, measured on
// Turing, Ampere and Blackwell), and so does the simulator for a kernel:
//
//   - After issuing an instruction a warp waits its stall count (at least
//     one cycle) before it may issue again: the wait state (Nsight's
//     "fixed-latency dependency"), branch_resolving after a branch. A
//     cleared yield bit keeps the warp from issuing in the next cycle.
//   - A variable-latency instruction increments its write dependence
//     counter (SB0 to SB5) at issue, and the counter is released when its
//     result is ready; one that must keep its sources (a store, a load's
//     address) increments its read counter, released when it has read
//     them. An instruction waits until every counter of its wait mask is
//     zero (DEPBAR.LE SBn, k: until counter n is at most k): in
//     long_scoreboard when the operation it waits for goes through L1TEX
//     (global and local memory), short_scoreboard otherwise (shared memory,
//     MUFU, conversions, S2R, LDC, shuffles), as Nsight Compute classifies
//     them. A counter keeps up to eight operations apart, oldest merged.
//   - Each opcode runs on a pipe of the machine: FFMA, FADD, FMUL, IMAD and
//     the FP16 arithmetic on FMA; integer, logic, compare, select and move
//     on ALU; DFMA, DADD, DMUL on FP64; MUFU, conversions and bit counts
//     on XU; HMMA and HGMMA on Tensor; branches, barriers and
//     convergence instructions on Branch; the uniform datapath and
//     NOP-like instructions on none (SASSOpcodes lists them). Memory
//     instructions go through the memory model above with the width of
//     their modifiers (.64, .128, .U8, ...).
//   - The latency of a variable-latency result is its pipe's (XU for MUFU,
//     FP64 on a part whose FP64 is shared), its memory level's, LDC's
//     29 cycles (26 with an immediate address; Huerta et al. Table 2), or,
//     for S2R, S2UR and shuffles, which have no published figure, the
//     shared-memory latency: an estimate. A read counter is released 11
//     cycles after a global load, 9 after a shared one, 14, 16 or 20 after
//     a 32-, 64- or 128-bit global store, 12, 14 or 18 after a shared
//     store, 13 after LDGSTS (Huerta et al. Table 2, RTX A6000), and 9 after
//     anything else (an estimate).
//
// Control flow follows the kernel file. A backward branch closes a loop;
// every loop a warp can reach needs a trip count, named by the loop's head
// (the branch target): the body runs that many times per warp (a loop
// closed by an unconditional branch ends at the conditional branch inside
// it that jumps past it). A conditional forward branch, a predicated EXIT,
// CALL or RET and a BRA.DIV are not taken unless the kernel file says
// otherwise: taken by every thread, by some lanes (the warp then runs the
// taken lanes, then the others, and reconverges at the branch's immediate
// post-dominator, where both paths meet) or by some warps of the block. An
// EXIT taken by some lanes ends those lanes only. CALL and RET keep a
// return stack. A predicated instruction that is not a branch issues for
// every active lane (thread_inst_executed counts predicated-off threads,
// as smsp__thread_inst_executed does). A reachable loop without a trip
// count, a loop no branch leaves, a branch past the function, an opcode
// the simulator does not know and one it does not run (TMA, mbarrier
// waits, indirect branches, textures) are errors at the listing's line.
//
// # Presets and their sources
//
// Each preset's Sources field says where every number comes from, which
// figures were read in which copy of a paper, and which are estimates. In
// short:
//
//   - toy: not a real GPU. One scheduler, every math pipe latency 4 and
//     interval 1, round memory latencies, no bandwidth limit unless asked.
//   - gt200 (GTX 280) and gf100 (GTX 480): Volkov, "Better Performance at
//     Lower Occupancy" (GTC 2010): ~24 cycles and 8 lanes, ~18 cycles and
//     32 lanes; GF100's sustained copy bandwidth (85 % of 177.4 GB/s),
//     memory latency and shared-memory banks from the same talk and
//     NVIDIA's documents, shared-memory latency and the cost of a
//     bank-conflict pass from Mei and Chu (2017).
//   - gk110 (GTX 780) and gm204 (GTX 980): lanes from the CUDA Programming
//     Guide's throughput table (Kepler's 192 reached by dual issue), DRAM
//     from Mei and Chu's measured maximum throughput, shared-memory
//     latency (and gm204's cost per bank-conflict pass) from the same
//     paper; their other memory latencies are estimates.
//   - volta (V100), turing (T4), ampere (A100): Jia et al. (2018, 2019) and
//     Abdelkhalik et al. (2022) latency tables, Huerta et al. (MICRO 2025)
//     memory pipeline, load widths and scheduling policy, tensor rates from
//     NVIDIA's datasheets, the A100's tensor latency and sustained
//     bandwidth from Luo et al. (2024), the T4's from the CUDA samples'
//     bandwidthTest; the V100's and A100's DRAM latency, block launch,
//     store retirement and L2 bandwidth from Ernst's gpu-benches.
//   - ga102 (RTX A6000) and ad102 (RTX 4090): the consumer Ampere and Ada
//     SMs, with Huerta et al.'s memory pipeline (measured on the RTX
//     A6000: one L1 load every 2 cycles), the 4090's latencies from a
//     pointer chase and its L1 and shared rates from Luo et al.
//   - hopper (H100 SXM5) and h800 (H800 PCIe): the GH100 SM's latencies,
//     tensor and warpgroup-MMA latencies included, from Luo et al.'s H800
//     PCIe measurements (and the H800's cut-down FP64 rate and sustained
//     bandwidth); the h800's DRAM latency, launch and L2 bandwidth from
//     Ernst's H100 PCIe; the H100 SXM5's L2 and DRAM latencies from a GH200
//     measurement, its sustained bandwidth from a STREAM copy on Azure's
//     ND H100 v5.
//
// [Presets] lists them; docs/fidelity.md holds them to published
// measurements, the figures each preset was fitted to apart from those it
// was not, and says where they disagree.
//
// # Determinism and cost
//
// Nothing is random: the same workload and configuration give the same
// result, bit for bit. A run costs time proportional to the warps' state
// changes and the cycles in which something can change: the simulator
// skips cycles in which no warp can issue and a scheduler none of whose
// warps can change state, and each scheduler keeps its waiting warps in a
// timing wheel by the cycle their state may change, so that a cycle looks
// only at the warps due in it, not at every resident warp.
// A warp that is ready to issue but for a busy pipe or a full queue waits
// in its scheduler's list for that resource; its not_selected and throttle
// cycles are counted from the resource's busy cycles when it issues, not
// cycle by cycle (except under two_level:N and while tracing, which
// classify every cycle; a test holds the two to the same results).
package sim
