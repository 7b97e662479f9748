package sim

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// DefaultMaxCycles is the cycle limit of a run when [Config].MaxCycles is 0.
const DefaultMaxCycles = 20_000_000

// ErrMaxCycles is wrapped by the error of a run that did not finish within
// its cycle limit ([Config].MaxCycles), so that a caller with its own name
// for that limit (a command-line flag) can say so.
var ErrMaxCycles = errors.New("raise Config.MaxCycles")

// MaxTraceCells bounds a trace: cycles in the window × warp slots.
const MaxTraceCells = 1 << 24

const never = int64(math.MaxInt64 / 4)

// Window is a range of cycles [From, To). As [Config].Trace the zero
// Window records nothing; as [Config].Measure it measures the whole run.
type Window struct {
	From int // first cycle in the window
	To   int // one past the last cycle in the window; 0: none (see above)
}

// Config says how to run a workload. Its zero value runs the workload's
// GPU preset with no trace and measures the whole run.
type Config struct {
	// Machine, when not nil, replaces the workload's GPU preset.
	Machine *Machine
	// Trace records the per-cycle state of every warp slot in the window
	// (see [Trace]).
	Trace Window
	// Measure, when not the zero Window, restricts every count and metric
	// of the Result to the cycles [From, To) of the run, which must lie
	// inside it: 0 ≤ From < To ≤ the cycle the run ends (an error
	// otherwise). The run itself is the same; see "Measurement window" in
	// the package documentation.
	Measure Window
	// Steady measures the steady state: from the cycle the first wave's
	// warps can issue (Machine.FetchLatency) up to and including the cycle
	// in which the first warp issues EXIT once the grid's last block has
	// launched, leaving out the launch and the tail in which the last
	// warps finish without company. Measure must be zero when Steady is
	// set.
	Steady bool
	// MaxCycles stops a run that has not finished after this many cycles
	// (0: DefaultMaxCycles); the run then returns an error.
	MaxCycles int
}

// Run simulates w on its GPU preset, without a trace.
func Run(w Workload) (*Result, error) { return Config{}.Run(w) }

type divEntry struct {
	restore  uint32
	elseMask uint32
	elsePC   int32
	joinPC   int32
}

type warp struct {
	blockUntil int64 // an issued instruction holds the warp until this cycle
	since      int64 // cycle the current state started
	age        int64 // launch order, for gto/oldest
	eligAt     int64 // last cycle the warp was eligible
	opsReady   int64 // cycle the operands of instruction opsPC are ready
	opsPC      int32 // pc opsReady was computed for; -1 after an issue
	opsKind    sbClass
	opsPipe    pipe  // pipe of instruction opsPC
	opsAlt     bool  // instruction opsPC may use Machine.FMA2
	memDone    int64 // all its memory operations complete
	storeDone  int64 // all its stores complete
	state      State
	blockState State
	exited     bool
	started    bool // it has issued an instruction (Machine.WarpStartInterval)
	inActive   bool // two_level: in the active set
	sched      int32
	slot       int32
	local      int32 // index among its scheduler's slots: slot / Schedulers
	pc         int32
	mask       uint32
	regBase    int32
	block      int32 // index into sm.blocks
	widx       int32 // warp index within its block
	span       int32 // index into trace spans, -1 when not traced
	barPC      int32 // pc of the last BAR issued (for deadlock reports)
	loopN      int32 // depth of the loop stack (sm.loops)
	divN       int32 // depth of the reconvergence stack (sm.divs)

	// Per-instruction accounting: the current state's cycles go to the
	// instruction at pc, and a stall's also to the instruction that
	// caused it.
	stateCause int32 // PC of the instruction that caused the current stall, -1 none
	stateSB    int8  // the dependence counter the current stall waits on, -1 none
	causeSB    int8  // the counter of the state eval last returned
	cause      int32 // PC that caused the state eval last returned, -1 none
	blockCause int32 // PC that caused blockState
	opsCause   int32 // PC whose result the operands of opsPC wait for last, -1 none
	opsSB      int8  // the counter opsCause set, -1 none

	// Ready (see ready.go): in its scheduler's ready list since since,
	// wanting resource class rcls, whose free count was rmark then.
	rdy   bool
	rcls  rclass
	rmark int64

	// A SASS kernel's warps.
	rpc   int32 // reconvergence index of the current path, -1: at the exit, -2: none (converged)
	simtN int32 // depth of the reconvergence stack (sm.simt)
	callN int32 // depth of the return stack (sm.calls)
}

type scheduler struct {
	warps []int32 // resident warp slots, ascending
	// due holds its waiting warps by the cycle their state may change
	// (see due.go).
	due         dueWheel
	dueNow      []int32 // scratch: the local indices of the warps due this cycle
	elig        []int32 // scratch: eligible slots this cycle
	activeSet   []int32 // two_level
	pending     []int32 // two_level, FIFO
	pipeFree    [numSchedPipes]int64
	fma2Free    int64 // Machine.FMA2
	schedCounts       // its running counts: what a Result reports
	lastSlot    int32
	lastLocal   int32 // lastSlot's local index, -1 none
	lastAge     int64
	index       int32
	memq        []int64 // queue model: when each memory-queue entry frees
	memqMin     int64
	memqMinAt   int
	auFree      int64 // the address unit takes its next instruction
	// activeSince is the cycle the scheduler last got a resident warp;
	// schedCounts.active counts its active cycles before it.
	activeSince int64
	// Ready warps (see ready.go): the sets of their local indices by the
	// resource class they want, the classes some want
	// (bit c: class c), and the cycles each class was free in a visit
	// while some wanted it.
	ready     [numClasses]wset
	rmask     uint16
	free      [numClasses]int64
	unstarted int32 // resident warps that have not issued yet
	// ordered: the ages of its resident warps rise with their local
	// index, so that the oldest of a set of them is its lowest and the
	// youngest its highest (pick).
	ordered bool
}

// asyncGroups is one warp's groups of one kind of asynchronous operation
// (cp.async or warpgroup MMA): the open group and the committed ones, each
// as the cycle its last operation completes.
type asyncGroups struct {
	open    int64 // completion of the open group; 0 when it is empty
	hasOpen bool
	n       int32
	done    [maxGroups]int64 // committed groups, oldest first
}

// maxGroups is how many committed groups a warp keeps apart; beyond it the
// two oldest merge (a wait then waits for both, never less).
const maxGroups = 8

// mbarRing is how many phases of an mbarrier are remembered; a wait for
// an older phase has long completed.
const mbarRing = 64

// mbarrier is one mbarrier of a block: a phase completes once it has
// had its arrivals (an ARRIVE, or a UTMALDG or UBLKCP whose bytes have landed).
type mbarrier struct {
	issued   int32           // phases whose arrivals are all in
	done     [mbarRing]int64 // per phase (mod mbarRing): when it completes
	waiting  []int32         // slots of warps waiting for a phase not started yet
	expected int32           // arrivals per phase (MBARINIT); 0: 1
	pendN    int32           // arrivals of the phase being collected
	pendDone int64           // when the latest of them lands
}

// namedBar is one named barrier of a block (Inst.Barrier): warps arrive
// (BAR, BAR.ARV), 32 threads each, until Inst.Threads have.
type namedBar struct {
	arrived int32   // threads arrived in the current phase
	all     bool    // the phase waits for every warp that has not exited (Threads 0)
	waiting []int32 // slots of warps waiting at it (BAR)
}

type blockRec struct {
	id       int32 // launch order on this SM
	live     int32 // warps not yet exited
	resident int32 // warps not yet retired
	arrived  int32
	waiting  []int32
	bars     []mbarrier // the program's mbarriers
	named    []namedBar // the block's named barriers, when the program uses them
	cluster  bool       // a warp arrived at the block barrier by BAR.CLUSTER
	launchAt int64      // the next block of the grid starts here at this cycle (never: none due)
}

type sm struct {
	m        Machine
	code     []inst
	pcs      []int32 // per code index: the PC (trace only)
	nregs    int
	policy   policyKind
	twoN     int
	ws       []warp
	loops    []int32    // per slot, maxNest entries: loop trip counts left
	divs     []divEntry // per slot, maxNest entries: the reconvergence stack
	regReady []int64
	regKind  []sbClass
	scheds   []scheduler
	blocks   []blockRec
	free     []bool // warp slot free

	blockThreads  int
	warpsPerBlock int
	blocksTotal   int
	blocksLaunch  int
	ages          int64
	resident      int // resident warps

	pipes      [numSchedPipes]Pipe
	mioFree    float64        // the shared-memory banks are free of earlier accesses
	dsmemFree  float64        // the SM-to-SM network (Machine.DSMEMBytesPerCycle)
	tmaFree    float64        // the tensor memory accelerator takes the next bulk copy
	l2         dramLoadWindow // the L2's recent load (Machine.L2LoadedLatency)
	cluster    int            // Launch.Cluster
	lsuFree    int64
	stageFree  int64 // the shared memory stage takes its next instruction
	fp64Free   int64 // Machine.FP64Shared
	l2Free     float64
	dramFree   float64
	dram       dramLoadWindow // Machine.DRAMLoadedLatency
	dramCredit float64        // cycles of unused DRAM channel time a burst may draw on
	lg         []int64        // in-flight LG completions (queue model)
	lgMin      int64
	lgMinAt    int
	groups     []asyncGroups // per slot, numGroups kinds
	mbarSeen   []int32       // per slot and mbarrier: the phases the warp waited for
	nbars      int
	rr         int32 // the scheduler that goes first this cycle
	// nexts[i] is the earliest cycle at which one of scheduler i's
	// warps' states can change (the least of their until): the run
	// skips the scheduler before it. (Machine.Schedulers ≤ 8.)
	nexts     [8]int64
	startFree int64 // Machine.WarpStartInterval: the next cycle a new warp may start
	startNext int32 // the sub-partition whose new warp starts first when the gate opens
	memIssuer int32 // the last scheduler that issued a memory instruction this cycle, -1 none

	nextRetire int64
	nextLaunch int64 // the earliest launchAt of a block record (Machine.BlockLaunch)
	wokeAt     int64 // the earliest cycle a warp was woken to in this cycle
	// smActive counts the cycles with a resident warp up to
	// residentSince, the cycle the SM last became busy.
	smActive      int64
	residentSince int64
	threadsTot    int64

	tr       *traceRec
	meas     *measureRec // nil: measure the whole run
	measNext int64       // next cycle to snapshot the counters at (never: none)
	name     string

	pcc  pcCounts  // per-instruction counts of the whole run
	prog *compiled // the program being run (for instruction texts)
	lazy bool      // ready warps are counted per span, not per cycle (ready.go)
	// The run's constants that a visit looks at (cycleReady): the
	// machine has WarpStartInterval's gate, the policy is GTO or GTY.
	gated, greedy bool

	// A SASS kernel's run (ctl): the control information decides
	// dependencies.
	ctl     bool
	listing string
	sbs     []sbState   // per slot: the dependence counters
	ntrips  int         // trip counters per warp
	trips   []int32     // per slot, ntrips entries
	simt    []simtEntry // per slot, maxSIMT entries
	calls   []int32     // per slot, maxCalls entries
	fail    error       // stops the run

	bufs *runBufs // where the run's buffers came from (recycle)
}

// Run simulates w under c.
func (c Config) Run(w Workload) (*Result, error) {
	var m Machine
	if c.Machine != nil {
		m = *c.Machine
	} else {
		if w.GPU == "" {
			return nil, fmt.Errorf("sim: workload %q names no gpu (want one of the presets, e.g. toy or volta)", w.Name)
		}
		p, err := Preset(w.GPU)
		if err != nil {
			return nil, fmt.Errorf("sim: %w", err)
		}
		m = p
	}
	switch w.Memory.Model {
	case "":
	case "latency":
		m.QueueModel = false
	case "queue":
		m.QueueModel = true
	default:
		return nil, fmt.Errorf("sim: memory model %q, want latency or queue", w.Memory.Model)
	}
	if w.Memory.LGQueue > 0 {
		m.LGQueue = w.Memory.LGQueue
	}
	if w.Memory.MemQueue > 0 {
		m.MemQueue = w.Memory.MemQueue
	}
	if w.Memory.DRAMBytesPerCycle > 0 {
		m.DRAMBytesPerCycle = w.Memory.DRAMBytesPerCycle
	}
	if err := m.validate(); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	policy := w.Policy
	if policy == "" {
		policy = m.Policy
	}
	pol, twoN, err := parsePolicy(policy)
	if err != nil {
		return nil, &Error{File: w.Name, Path: "policy", Msg: err.Error()}
	}
	var prog *compiled
	switch {
	case w.Kernel != nil && w.Program != nil:
		return nil, fmt.Errorf("sim: workload %q has both a program and a kernel; want one", w.Name)
	case w.Kernel != nil:
		if prog, err = compileSASS(w.Kernel, w.Name); err != nil {
			return nil, err
		}
		if err := prog.bind(m, w.Kernel.Listing); err != nil {
			return nil, err
		}
		prog.bindSASS(m)
	default:
		if prog, err = compile(w.Program, w.Name); err != nil {
			return nil, err
		}
		if err := prog.bind(m, w.Name); err != nil {
			return nil, err
		}
		if !issues(w.Program) {
			return nil, fmt.Errorf("sim: workload %q has an empty program", w.Name)
		}
	}
	l := w.Launch
	if l.Block < 1 || l.Block > m.MaxThreadsPerBlock {
		return nil, fmt.Errorf("sim: launch block %d threads, want 1..%d on %s", l.Block, m.MaxThreadsPerBlock, m.Name)
	}
	if l.Blocks < 1 {
		return nil, fmt.Errorf("sim: launch blocks %d, want at least 1", l.Blocks)
	}
	if l.Regs < 0 || l.Smem < 0 || l.Resident < 0 || l.Cluster < 0 {
		return nil, fmt.Errorf("sim: launch regs, smem, resident and cluster must not be negative")
	}
	if l.Cluster > 1 {
		switch {
		case m.MaxCluster == 0:
			return nil, fmt.Errorf("sim: launch cluster %d: %s has no thread block clusters (compute capability 9.0)", l.Cluster, m.Name)
		case l.Cluster > m.MaxCluster:
			return nil, fmt.Errorf("sim: launch cluster %d, want at most %d blocks per cluster on %s", l.Cluster, m.MaxCluster, m.Name)
		case l.Blocks%l.Cluster != 0:
			return nil, fmt.Errorf("sim: launch blocks %d is not a multiple of the cluster size %d", l.Blocks, l.Cluster)
		}
	} else if prog.usesCluster() {
		return nil, fmt.Errorf("sim: workload %q uses distributed shared memory or BAR.CLUSTER; launch it with cluster: 2 or more", w.Name)
	}
	occ, err := residency(m, l)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	maxCycles := int64(c.MaxCycles)
	if maxCycles <= 0 {
		maxCycles = DefaultMaxCycles
	}

	s := newSM(m, prog, pol, twoN, l, occ)
	s.name = w.Name
	if w.Kernel != nil {
		s.listing = w.Kernel.Listing
	}
	if c.Trace.To > 0 {
		if c.Trace.From < 0 || c.Trace.To <= c.Trace.From {
			return nil, fmt.Errorf("sim: trace window [%d, %d), want 0 ≤ From < To", c.Trace.From, c.Trace.To)
		}
		if cells := int64(c.Trace.To-c.Trace.From) * int64(m.MaxWarps); cells > MaxTraceCells {
			return nil, fmt.Errorf("sim: trace window of %d cycles × %d warp slots is %d cells, more than %d; narrow the window",
				c.Trace.To-c.Trace.From, m.MaxWarps, cells, MaxTraceCells)
		}
		s.tr = newTraceRec(int64(c.Trace.From), int64(c.Trace.To), m.MaxWarps, m.Schedulers)
	}
	// A trace records every cycle, and the two-level policy's fetch
	// groups change a ready warp's state: both classify cycle by cycle.
	s.lazy = s.tr == nil && pol != polTwoLevel
	switch {
	case c.Steady && c.Measure != (Window{}):
		return nil, fmt.Errorf("sim: Config.Steady and Config.Measure [%d, %d) are both set; want one of them", c.Measure.From, c.Measure.To)
	case c.Steady:
		s.meas = newMeasureRec(int64(m.FetchLatency), -1, true, m.Schedulers, s.pcc.n)
	case c.Measure != (Window{}):
		if c.Measure.From < 0 || c.Measure.To <= c.Measure.From {
			return nil, fmt.Errorf("sim: measure window [%d, %d), want 0 ≤ From < To", c.Measure.From, c.Measure.To)
		}
		s.meas = newMeasureRec(int64(c.Measure.From), int64(c.Measure.To), false, m.Schedulers, s.pcc.n)
	}
	if s.meas != nil {
		if s.meas.from == 0 {
			s.meas.taken = 1 // the counters at cycle 0 are all zero
		}
		s.measNext = s.meas.pending()
	}
	end, err := s.run(maxCycles)
	if err != nil {
		s.recycle()
		return nil, err
	}
	r, err := s.result(w, end, occ)
	s.recycle()
	return r, err
}

func newSM(m Machine, prog *compiled, pol policyKind, twoN int, l Launch, occ occupancyInfo) *sm {
	b, _ := bufPool.Get().(*runBufs)
	if b == nil {
		b = &runBufs{}
	}
	s := &sm{
		m: m, code: prog.code, pcs: prog.pcs, nregs: prog.nregs, policy: pol, twoN: twoN, prog: prog,
		ws:            reuse(b.ws, m.MaxWarps),
		regReady:      reuse(b.regReady, m.MaxWarps*prog.nregs),
		regKind:       reuse(b.regKind, m.MaxWarps*prog.nregs),
		scheds:        reuse(b.scheds, m.Schedulers),
		free:          reuse(b.free, m.MaxWarps),
		blockThreads:  l.Block,
		warpsPerBlock: (l.Block + 31) / 32,
		blocksTotal:   occ.blocksOnSM,
		nextRetire:    never,
		nextLaunch:    never,
		measNext:      never,
		bufs:          b,
	}
	s.gated = m.WarpStartInterval > 0
	s.greedy = pol == polGTO || pol == polGTY
	if prog.sass == nil {
		// A SASS kernel has no loop or reconvergence markers (settle).
		s.loops = reuse(b.loops, m.MaxWarps*maxNest)
		s.divs = reuse(b.divs, m.MaxWarps*maxNest)
	}
	s.pipes = [numSchedPipes]Pipe{pipeFMA: m.FMA, pipeALU: m.ALU, pipeFP64: m.FP64, pipeXU: m.XU, pipeTensor: m.Tensor, pipeBranch: m.Branch}
	for i := range s.free {
		s.free[i] = true
	}
	for i := range s.scheds {
		sc := &s.scheds[i]
		var kept *schedBufs
		if i < len(b.sbufs) {
			kept = &b.sbufs[i]
		} else {
			b.sbufs = append(b.sbufs, schedBufs{})
			kept = &b.sbufs[i]
		}
		sc.index = int32(i)
		sc.warps = reuseEmpty(kept.warps, m.MaxWarps)
		sc.elig = reuseEmpty(kept.elig, m.MaxWarps)
		sc.activeSet = reuseEmpty(kept.activeSet, m.MaxWarps)
		sc.pending = reuseEmpty(kept.pending, m.MaxWarps)
		sc.due = newDueWheel(reuse(kept.until, (m.MaxWarps+m.Schedulers-1)/m.Schedulers))
		sc.dueNow = reuseEmpty(kept.dueNow, len(sc.due.until))
		sc.lastSlot, sc.lastLocal = -1, -1
		sc.lastAge = -1
		sc.ordered = true
		if m.QueueModel && m.MemQueue > 0 {
			sc.memq = make([]int64, m.MemQueue)
		}
	}
	s.nbars = len(prog.bars)
	s.blocks = make([]blockRec, occ.resident)
	for i := range s.blocks {
		s.blocks[i].waiting = make([]int32, 0, s.warpsPerBlock)
		s.blocks[i].id = -1
		s.blocks[i].launchAt = never
		if s.nbars > 0 {
			s.blocks[i].bars = make([]mbarrier, s.nbars)
			for b := range s.blocks[i].bars {
				s.blocks[i].bars[b].waiting = make([]int32, 0, s.warpsPerBlock)
			}
		}
		if prog.named {
			s.blocks[i].named = make([]namedBar, maxNamedBars)
			for b := range s.blocks[i].named {
				s.blocks[i].named[b].waiting = make([]int32, 0, s.warpsPerBlock)
			}
		}
	}
	if prog.async {
		s.groups = reuse(b.groups, m.MaxWarps*int(numGroups))
	}
	if s.nbars > 0 {
		s.mbarSeen = make([]int32, m.MaxWarps*s.nbars)
	}
	if m.QueueModel && m.LGQueue > 0 {
		s.lg = make([]int64, m.LGQueue)
	}
	// The channels start idle, with their full credit.
	s.dramCredit = float64(m.DRAMLatency)
	s.dramFree, s.l2Free = -s.dramCredit, -float64(m.L2Latency)
	if m.QueueModel && (m.DRAMLoadedLatency > m.DRAMLatency || m.DRAMServiceCycles > 0 || m.TurnaroundCost > 0) && m.DRAMBytesPerCycle > 0 {
		s.dram.tc = float64(dramAverage * m.DRAMLatency)
	}
	s.pcc = newPCCounts(len(prog.code))
	if sp := prog.sass; sp != nil {
		s.ctl = true
		s.sbs = reuse(b.sbs, m.MaxWarps)
		s.ntrips = sp.trips
		s.trips = make([]int32, m.MaxWarps*sp.trips)
		if sp.simt {
			s.simt = make([]simtEntry, m.MaxWarps*maxSIMT)
		}
		if sp.calls {
			s.calls = make([]int32, m.MaxWarps*maxCalls)
		}
		if s.groups == nil {
			s.groups = reuse(b.groups, m.MaxWarps*int(numGroups))
		}
	}
	if m.QueueModel && m.L2LoadedLatency > m.L2Latency && m.L2BytesPerCycle > 0 {
		s.l2.tc = float64(dramAverage * m.L2Latency)
	}
	s.cluster = l.Cluster
	return s
}

// bufPool keeps the largest buffers of finished runs (*runBufs) for the
// next run, whose setup clears them instead of allocating them.
var bufPool sync.Pool

// runBufs are a run's per-slot and per-scheduler buffers.
type runBufs struct {
	ws       []warp
	loops    []int32
	divs     []divEntry
	regReady []int64
	regKind  []sbClass
	free     []bool
	sbs      []sbState
	groups   []asyncGroups
	scheds   []scheduler
	sbufs    []schedBufs
}

// schedBufs are one scheduler's buffers.
type schedBufs struct {
	warps, elig, activeSet, pending, dueNow []int32
	until                                   []int64
}

// reuse returns b cleared at length n when it holds n, a new slice
// otherwise.
func reuse[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// reuseEmpty returns b emptied when it holds n, a new empty slice of
// capacity n otherwise.
func reuseEmpty[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, 0, n)
	}
	return b[:0]
}

// recycle gives the run's buffers to the next run; s is not used after.
func (s *sm) recycle() {
	b := s.bufs
	if b == nil {
		return
	}
	b.ws, b.regReady, b.regKind, b.free, b.scheds = s.ws, s.regReady, s.regKind, s.free, s.scheds
	if s.loops != nil {
		b.loops, b.divs = s.loops, s.divs
	}
	if s.sbs != nil {
		b.sbs = s.sbs
	}
	if s.groups != nil {
		b.groups = s.groups
	}
	for i := range s.scheds {
		sc, k := &s.scheds[i], &b.sbufs[i]
		k.warps, k.elig, k.activeSet, k.pending, k.dueNow, k.until = sc.warps, sc.elig, sc.activeSet, sc.pending, sc.dueNow, sc.due.until
	}
	s.bufs = nil
	bufPool.Put(b)
}

// run simulates until every block has finished and returns the elapsed cycles.
func (s *sm) run(maxCycles int64) (int64, error) {
	for i := range s.blocks {
		if s.blocksLaunch < s.blocksTotal {
			s.launch(int32(i), 0)
		}
	}
	now := int64(0)
	for {
		if now >= s.nextRetire {
			s.retire(now)
		}
		if now >= s.nextLaunch {
			s.launchDue(now)
		}
		if s.resident == 0 && s.nextLaunch >= never {
			break
		}
		if now >= maxCycles {
			return 0, fmt.Errorf("sim: run did not finish within %d cycles (%w)", maxCycles, ErrMaxCycles)
		}
		issued := false
		n := int32(len(s.scheds))
		s.memIssuer = -1
		s.wokeAt = never
		// next becomes the next event: a warp due, a ready warp's
		// resource free, a retirement or a launch; nothing changes
		// before it.
		next := never
		for k := int32(0); k < n; k++ {
			si := s.rr + k
			if si >= n {
				si -= n
			}
			if s.nexts[si] <= now {
				sc := &s.scheds[si]
				var ok bool
				if s.lazy {
					ok = s.cycleReady(sc, now)
				} else {
					ok = s.cycleEach(sc, now)
				}
				issued = issued || ok
			}
			next = min(next, s.nexts[si])
		}
		// Shared memory structures serve the schedulers round robin: the
		// one after the last to issue a memory instruction goes first.
		if s.memIssuer >= 0 {
			s.rr = (s.memIssuer + 1) % n
		}
		if s.fail != nil {
			return 0, s.fail
		}
		next = min(next, s.wokeAt, s.nextRetire, s.nextLaunch)
		switch {
		case next >= never && issued:
			next = now + 1 // a deadlock shows in the next cycle
		case next >= never:
			return 0, s.deadlock(now)
		case next <= now:
			next = now + 1
		}
		if next >= s.measNext {
			s.snapshot(now, next)
		}
		now = next
	}
	if s.tr != nil {
		s.tr.finish(now)
	}
	return now, nil
}

// wake makes a warp's state be looked at again no later than cycle at.
func (s *sm) wake(slot int32, at int64) {
	w := &s.ws[slot]
	sc := &s.scheds[w.sched]
	// A scheduler visited in this cycle looks at the warp in its next.
	at = max(at, sc.due.base+1)
	if sc.due.until[w.local] > at {
		sc.due.set(w.local, at)
	}
	s.nexts[w.sched] = min(s.nexts[w.sched], at)
	s.wokeAt = min(s.wokeAt, at)
}

func (s *sm) deadlock(now int64) error {
	n, nm := 0, 0
	var pos, mpos srcPos
	for i := range s.scheds {
		for _, slot := range s.scheds[i].warps {
			w := &s.ws[slot]
			if w.blockUntil < never {
				continue
			}
			if w.blockState == Barrier {
				n++
				if pos.line == 0 {
					pos = s.code[w.barPC].pos
				}
			} else {
				nm++
				if mpos.line == 0 {
					mpos = s.code[w.barPC].pos
				}
			}
		}
	}
	at := func(what string, p srcPos) string {
		if p.line > 0 && s.name != "" {
			return fmt.Sprintf(" (the %s at %s:%d:%d)", what, s.name, p.line, p.col)
		}
		return ""
	}
	if n == 0 {
		return fmt.Errorf("sim: deadlock at cycle %d: %d warps wait at a SYNCS%s for an mbarrier phase that no copy (UTMALDG, UBLKCP) of their block starts", now, nm, at("SYNCS", mpos))
	}
	return fmt.Errorf("sim: deadlock at cycle %d: %d warps wait at a BAR%s that the rest of their block never reaches", now, n, at("BAR", pos))
}

// setState closes the warp's current state at now and starts st; sc is
// the warp's scheduler.
func (s *sm) setState(sc *scheduler, w *warp, st State, now int64) {
	if st != w.state {
		s.changeState(sc, w, st, now)
	}
}

func (s *sm) changeState(sc *scheduler, w *warp, st State, now int64) {
	d := now - w.since
	sc.cycles[w.state] += d
	if d > 0 && (w.state != Selected || s.tr != nil) {
		s.closeState(w, d, now)
	}
	w.state = st
	w.since = now
	w.stateCause, w.stateSB = -1, -1
	if causeStates>>st&1 != 0 {
		w.stateCause, w.stateSB = w.cause, w.causeSB
	}
}

// closeState charges the d > 0 cycles of the warp's current state, which
// ends at now, to its instruction and its cause (a state other than
// selected), and to the trace.
func (s *sm) closeState(w *warp, d, now int64) {
	// A warp's pc only moves when it issues, so a state other than
	// selected starts and ends at the same instruction.
	if w.state != Selected {
		r := &s.pcc.rows[w.pc]
		r.states[w.state] += d
		if w.stateCause >= 0 {
			r.cause(w.stateCause, w.stateSB, w.state, d)
		}
	}
	if s.tr != nil {
		s.tr.fill(w.slot, w.state, w.since, now)
	}
}

// eval classifies a warp that is not issuing (see the package documentation
// for the priority). It returns NotSelected for an eligible warp, with the
// cycle until which the returned state holds.
func (s *sm) eval(sc *scheduler, w *warp, now int64) (State, int64) {
	if st, until := s.evalWait(sc, w, now); st != NotSelected {
		return st, until
	}
	// Resources.
	switch p := w.opsPipe; {
	case p < numSchedPipes:
		t := sc.pipeFree[p]
		if p == pipeFP64 && s.m.FP64Shared {
			t = s.fp64Free
		}
		if t > now && !(p == pipeFMA && w.opsAlt && sc.fma2Free <= now) {
			if p == pipeFMA && w.opsAlt {
				t = min(t, sc.fma2Free)
			}
			return MathPipeThrottle, t
		}
	case p == pipeLSU:
		if sc.memq != nil && sc.memqMin > now {
			return LGThrottle, sc.memqMin
		}
		if s.lg != nil && s.lgMin > now {
			return LGThrottle, s.lgMin
		}
	case p == pipeMIO:
		if sc.memq != nil && sc.memqMin > now {
			return MIOThrottle, sc.memqMin
		}
	}
	return NotSelected, now + 1
}

// evalWait classifies a warp by what it waits for, resources aside: what
// it issued holds it, or an operand is not ready; NotSelected when neither
// (it is ready: eligible, or throttled by a busy resource). It returns the
// cycle until which the state holds.
func (s *sm) evalWait(sc *scheduler, w *warp, now int64) (State, int64) {
	if now < w.blockUntil {
		w.cause, w.causeSB = w.blockCause, -1
		return w.blockState, w.blockUntil
	}
	if !w.started && s.m.WarpStartInterval > 0 {
		if now < s.startFree {
			return NoInstruction, s.startFree
		}
		// In the cycle the gate opens the sub-partition whose turn it is
		// starts first, if it has a warp waiting to.
		if now == s.startFree && sc.index != s.startNext && s.scheds[s.startNext].unstarted > 0 {
			return NoInstruction, now + 1
		}
	}
	// Operand dependencies. Only the warp's own issues change its
	// registers (a SASS kernel's: its dependence counters), so the answer
	// is kept until it issues again.
	if w.opsPC != w.pc {
		if s.ctl {
			s.sbOperands(w)
		} else {
			s.operands(w)
		}
	}
	if latest := w.opsReady; latest > now {
		w.cause, w.causeSB = w.opsCause, w.opsSB
		switch w.opsKind {
		case sbLong:
			return LongScoreboard, latest
		case sbShort:
			return ShortScoreboard, latest
		case sbGMMA:
			return GMMA, latest
		}
		return Wait, latest
	}
	return NotSelected, now + 1
}

// operands finds when the operands of the warp's next instruction are
// ready: the latest-ready operand decides, and on equal times long beats
// short beats wait.
func (s *sm) operands(w *warp) {
	in := &s.code[w.pc]
	var latest int64
	var kind sbClass
	base := w.regBase
	for i := uint8(0); i < in.nsrc; i++ {
		r := base + int32(in.src[i])
		if t := s.regReady[r]; t > latest || (t == latest && s.regKind[r] > kind) {
			latest, kind = t, s.regKind[r]
		}
	}
	if in.dst >= 0 {
		r := base + int32(in.dst)
		if k := s.regKind[r]; k != sbFixed {
			if t := s.regReady[r]; t > latest || (t == latest && k > kind) {
				latest, kind = t, k
			}
		}
	}
	w.opsPC, w.opsReady, w.opsKind, w.opsPipe, w.opsAlt = w.pc, latest, kind, in.pipe, in.alt && s.m.FMA2.Interval > 0
	w.opsCause, w.opsSB = -1, -1
}

func isLongWait(st State) bool {
	switch st {
	case LongScoreboard, Barrier, Membar, Sleeping, Drain, GMMA:
		return true
	}
	return false
}

// cycleEach runs a scheduler for one cycle classifying every warp whose
// state may have changed, ready warps included (a trace, two_level).
func (s *sm) cycleEach(sc *scheduler, now int64) bool {
	elig := sc.elig[:0]
	ns := int32(len(s.scheds))
	sc.dueNow = sc.due.take(now, sc.dueNow[:0])
	for _, li := range sc.dueNow {
		slot := li*ns + sc.index
		w := &s.ws[slot]
		st, until := s.eval(sc, w, now)
		if st == NotSelected {
			elig = append(elig, slot)
			w.eligAt = now
			sc.due.place(li, now+1)
			continue
		}
		s.setState(sc, w, st, now)
		sc.due.place(li, until)
	}
	s.nexts[sc.index] = sc.due.next(now)
	if s.policy == polTwoLevel {
		elig = s.twoLevel(sc, elig, now)
	}
	sc.elig = elig
	if len(elig) == 0 {
		return false
	}
	var u wset
	for _, slot := range elig {
		u.add(s.ws[slot].local)
	}
	pick := s.pick(sc, &u)
	for _, slot := range elig {
		if slot != pick {
			s.setState(sc, &s.ws[slot], NotSelected, now)
		}
	}
	w := &s.ws[pick]
	s.setState(sc, w, Selected, now)
	s.pcc.selected(w.pc)
	s.issueWarp(sc, w, now)
	return true
}

// cycleReady runs a scheduler for one cycle with its ready warps counted
// per span (see ready.go): only the warps whose wait may have ended are
// looked at, and the one that issues is put into its next state at once.
// A warp that has not started while WarpStartInterval's gate is in force
// is classified in each cycle it is eligible, resources included, as the
// gate can close on it while it is ready; it joins the ready warps once
// it has issued.
func (s *sm) cycleReady(sc *scheduler, now int64) bool {
	ns := int32(len(s.scheds))
	gate := s.gated && sc.unstarted > 0
	var starting wset
	anyStarting := false
	var cont *warp // the warp pick's greedy rule takes, found among the due warps
	due := sc.due.takeSet(now)
	for i := range sc.due.nw {
		x := due[i]
		due[i] = 0
		for ; x != 0; x &= x - 1 {
			li := int32(i<<6 | bits.TrailingZeros64(x))
			sc.due.until[li] = never
			w := &s.ws[li*ns+sc.index]
			if gate && !w.started {
				st, until := s.eval(sc, w, now)
				s.setState(sc, w, st, now)
				if st == NotSelected {
					w.eligAt = now
					starting.add(li)
					anyStarting = true
					until = now + 1
				}
				sc.due.place(li, until)
				continue
			}
			// The common case, written out (wait, evalWait, enterReady):
			// its hold has ended and its operands are ready, so it
			// joins the ready warps. The warp has started or there is
			// no gate, so evalWait's look at the gate has nothing to
			// do.
			if now >= w.blockUntil {
				if w.opsPC != w.pc {
					if s.ctl {
						s.sbOperands(w)
					} else {
						s.operands(w)
					}
				}
				if w.opsReady <= now {
					if w.state != NotSelected {
						// changeState and closeState without a trace
						// (s.lazy).
						d := now - w.since
						sc.cycles[w.state] += d
						if d > 0 && w.state != Selected {
							r := &s.pcc.rows[w.pc]
							r.states[w.state] += d
							if w.stateCause >= 0 {
								r.cause(w.stateCause, w.stateSB, w.state, d)
							}
						}
						w.state, w.since, w.stateCause, w.stateSB = NotSelected, now, -1, -1
						if s.greedy && li == sc.lastLocal && w.age == sc.lastAge && s.freeAt(sc, s.classOf(w)) <= now {
							// The warp that issued last, ready
							// with its resource free: pick's
							// greedy rule takes it in this cycle,
							// so its ready span is empty and it
							// joins no set (leaveReady would
							// charge it nothing but the selected
							// cycle).
							w.state, w.stateCause, w.stateSB = Selected, -1, -1
							cont = w
							continue
						}
					}
					c := s.classOf(w)
					w.rdy, w.rcls, w.rmark = true, c, sc.free[c]
					sc.rmask |= 1 << c
					sc.ready[c].add(li)
					continue
				}
			}
			s.wait(sc, w, now)
		}
	}
	var u wset
	elig := s.readyCycle(sc, now, &u)
	if anyStarting {
		if elig != nil && elig != &u {
			u = *elig
		}
		for i := range sc.due.nw {
			u[i] |= starting[i]
		}
		elig = &u
	}
	ok := elig != nil || cont != nil
	if ok {
		w := cont
		if w != nil {
			s.pcc.selected(w.pc)
		} else if w = &s.ws[s.pick(sc, elig)]; w.rdy {
			s.leaveReady(sc, w, now)
		} else {
			s.setState(sc, w, Selected, now)
			s.pcc.selected(w.pc)
		}
		if s.ctl && !s.m.DualIssue {
			// issueWarp and issue, written out for a SASS kernel
			// without a trace (s.lazy); an arithmetic instruction's
			// action written out too (issueSASS).
			sc.lastSlot, sc.lastLocal, sc.lastAge = w.slot, w.local, w.age
			sc.issued++
			in := &s.code[w.pc]
			n := s.issueCount(sc, w, now)
			if in.act == actMath {
				s.sassTail(w, in, w.pc, now+s.reservePipe(sc, in, now), true, Wait, now)
			} else {
				s.issueSASS(sc, w, in, n, now)
			}
		} else {
			s.issueWarp(sc, w, now)
		}
		// The common case of afterIssue, written out: what it issued
		// holds it (a SASS instruction's stall count, a branch).
		t := now + 1
		if sc.due.until[w.local] < never {
			sc.due.unplace(w.local)
		}
		if st := w.blockState; !w.exited && t < w.blockUntil && st != NotSelected && w.state == Selected {
			w.cause, w.causeSB = w.blockCause, -1
			if st != Selected {
				// A selected warp's cycles go to its scheduler only
				// (closeState).
				sc.cycles[Selected] += t - w.since
				w.state, w.since, w.stateCause, w.stateSB = st, t, -1, -1
				if causeStates>>st&1 != 0 {
					w.stateCause, w.stateSB = w.cause, w.causeSB
				}
			}
			sc.due.place(w.local, w.blockUntil)
		} else if !w.exited && t >= w.blockUntil && w.state == Selected {
			// Nothing holds it: it waits for an operand or is ready
			// (wait, evalWait and enterReady; it has started).
			if w.opsPC != w.pc {
				if s.ctl {
					s.sbOperands(w)
				} else {
					s.operands(w)
				}
			}
			if w.opsReady <= t {
				sc.cycles[Selected] += t - w.since
				w.state, w.since, w.stateCause, w.stateSB = NotSelected, t, -1, -1
				c := s.classOf(w)
				w.rdy, w.rcls, w.rmark = true, c, sc.free[c]
				sc.rmask |= 1 << c
				sc.ready[c].add(w.local)
			} else {
				s.wait(sc, w, t)
			}
		} else {
			s.afterIssue(sc, w, now)
		}
	}
	s.nexts[sc.index] = min(sc.due.next(now), s.readyNext(sc, now))
	return ok
}

// issueWarp issues the picked warp's next instruction (and, on a
// DualIssue machine, a second one when it is ready). A warp is selected
// for one cycle per issue cycle: its callers charge the cycle to the
// instruction it issues, not as a span (back to back issues are one span
// of the state).
func (s *sm) issueWarp(sc *scheduler, w *warp, now int64) {
	sc.lastSlot, sc.lastLocal, sc.lastAge = w.slot, w.local, w.age
	sc.issued++
	s.issue(sc, w, now)
	// Dual issue: a second instruction of the same warp in the same cycle
	// when it is ready and its pipe free (it cannot depend on the first,
	// whose result is not ready yet).
	if s.m.DualIssue && !w.exited && w.blockUntil <= now {
		if st, _ := s.eval(sc, w, now); st == NotSelected {
			s.issue(sc, w, now)
		}
	}
}

// afterIssue puts a warp that issued in cycle now into the state it is in
// from the next cycle on, as eval would find it then: held by what it
// issued, waiting for an operand, or ready. Only its own issues change
// these, so the answer holds; a barrier's release or an mbarrier's phase
// wakes it as any waiting warp.
func (s *sm) afterIssue(sc *scheduler, w *warp, now int64) {
	t := now + 1
	// What it issued may have woken it (a barrier it released).
	sc.due.unplace(w.local)
	if w.exited {
		if t < w.blockUntil {
			w.cause, w.causeSB = w.blockCause, -1
			s.setState(sc, w, w.blockState, t)
		}
		return // retire takes it
	}
	s.wait(sc, w, t)
}

// wait puts a warp that is not issuing and is in no set of the wheel into
// its state at cycle now, as evalWait finds it: on the wheel until that
// state ends, or among the ready warps.
func (s *sm) wait(sc *scheduler, w *warp, now int64) {
	st, until := s.evalWait(sc, w, now)
	if st == NotSelected {
		s.enterReady(sc, w, now)
		return
	}
	s.setState(sc, w, st, now)
	sc.due.place(w.local, until)
}

// pick returns the slot whose warp the scheduler's policy issues, among
// the eligible warps u (bit i: local index i), not empty.
func (s *sm) pick(sc *scheduler, u *wset) int32 {
	ns := int32(len(s.scheds))
	nw := sc.due.nw
	switch s.policy {
	case polLRR, polTwoLevel:
		// The first eligible slot after the last to issue, wrapping
		// around.
		from := sc.lastLocal + 1
		for i := int(from >> 6); i < nw; i++ {
			x := u[i]
			if i == int(from>>6) {
				x &^= 1<<uint(from&63) - 1
			}
			if x != 0 {
				return int32(i<<6|bits.TrailingZeros64(x))*ns + sc.index
			}
		}
		for i := range nw {
			if u[i] != 0 {
				return int32(i<<6|bits.TrailingZeros64(u[i]))*ns + sc.index
			}
		}
	case polGTO, polGTY:
		if l := sc.lastLocal; l >= 0 && u.has(l) && s.ws[sc.lastSlot].age == sc.lastAge {
			return sc.lastSlot
		}
	}
	young := s.policy == polGTY
	if sc.ordered {
		if young {
			for i := nw - 1; i >= 0; i-- {
				if u[i] != 0 {
					return int32(i<<6|63-bits.LeadingZeros64(u[i]))*ns + sc.index
				}
			}
		}
		for i := range nw {
			if u[i] != 0 {
				return int32(i<<6|bits.TrailingZeros64(u[i]))*ns + sc.index
			}
		}
	}
	best, bestAge := int32(-1), int64(0)
	for i := range nw {
		for x := u[i]; x != 0; x &= x - 1 {
			slot := int32(i<<6|bits.TrailingZeros64(x))*ns + sc.index
			if a := s.ws[slot].age; best < 0 || young && a > bestAge || !young && a < bestAge {
				best, bestAge = slot, a
			}
		}
	}
	return best
}

// twoLevel maintains the active set of a two-level scheduler and returns the
// eligible warps inside it. Eligible warps outside it are no_instruction.
func (s *sm) twoLevel(sc *scheduler, elig []int32, now int64) []int32 {
	// Demote active warps that wait on something long.
	keep := sc.activeSet[:0]
	for _, slot := range sc.activeSet {
		w := &s.ws[slot]
		if w.eligAt != now && isLongWait(w.state) {
			w.inActive = false
			sc.pending = append(sc.pending, slot)
			continue
		}
		keep = append(keep, slot)
	}
	sc.activeSet = keep
	// Promote pending warps that are not waiting on something long, oldest
	// demotion first.
	if len(sc.activeSet) < s.twoN {
		rest := sc.pending[:0]
		for _, slot := range sc.pending {
			w := &s.ws[slot]
			if len(sc.activeSet) < s.twoN && (w.eligAt == now || !isLongWait(w.state)) {
				w.inActive = true
				sc.activeSet = append(sc.activeSet, slot)
				continue
			}
			rest = append(rest, slot)
		}
		sc.pending = rest
	}
	out := elig[:0]
	for _, slot := range elig {
		w := &s.ws[slot]
		if w.inActive {
			out = append(out, slot)
			continue
		}
		s.setState(sc, w, NoInstruction, now)
	}
	return out
}

// issue performs the warp's next instruction at cycle now.
func (s *sm) issue(sc *scheduler, w *warp, now int64) {
	in := &s.code[w.pc]
	n := s.issueCount(sc, w, now)
	if s.tr != nil {
		s.tr.issue(now, w, s.blocks[w.block].id, in.op, s.pcs[w.pc], int(n))
	}
	if s.ctl {
		s.issueSASS(sc, w, in, n, now)
		return
	}
	lat := s.reservePipe(sc, in, now)
	switch in.act {
	case actMath:
		if in.dst >= 0 {
			r := w.regBase + int32(in.dst)
			s.regReady[r] = now + lat
			s.regKind[r] = in.sb
		}
	case actGMMA:
		// Asynchronous: the warp goes on; the accumulator is ready, and
		// the open group complete, once the tensor pipe is done.
		done := now + lat
		if in.dst >= 0 {
			r := w.regBase + int32(in.dst)
			s.regReady[r] = done
			s.regKind[r] = sbGMMA
		}
		s.groupAdd(w, groupMMA, done)
	case actShared, actGlobal:
		s.memResult(w, in, s.access(sc, in, n, now))
	case actAsyncCopy:
		done := s.access(sc, in, n, now)
		s.groupAdd(w, groupCopy, done)
		if done > w.memDone {
			w.memDone = done
		}
	case actBulkCopy:
		done := s.access(sc, in, n, now)
		if done > w.memDone {
			w.memDone = done
		}
		s.mbarArrive(w, in.bar, done, now)
	case actArrive:
		s.mbarArrive(w, in.bar, now+1, now)
	case actMbarInit:
		s.blocks[w.block].bars[in.bar].expected = in.arg
	case actBarArrive:
		s.namedArrive(w, in, false, now)
	case actCommit:
		s.groupCommit(w, in.group)
	case actWaitGroup:
		g := in.group
		if g == groupMMA {
			s.groupCommit(w, g) // WARPGROUP.DEPBAR closes the open group
		}
		t := s.groupWait(w, g, int(in.arg))
		w.blockUntil, w.blockState = max(now+1, t), LongScoreboard
		if g == groupMMA {
			w.blockState = GMMA
		}
	case actMbarWait:
		w.barPC = w.pc
		s.mbarWait(w, in.bar, now)
	case actBranch:
		s.branch(w, in, now)
		return
	case actBar:
		if b := &s.blocks[w.block]; b.named != nil && in.need != needCluster && (in.bar != 0 || in.arg != 0) {
			w.barPC = w.pc
			s.namedArrive(w, in, true, now)
			w.pc++
		} else {
			if in.need == needCluster {
				b.cluster = true
			}
			s.arrive(w, now)
		}
		s.settle(w)
		return
	case actMembar:
		w.blockUntil = max(now+int64(s.m.MembarLatency), w.memDone)
		w.blockState = Membar
	case actSleep:
		w.blockUntil = now + 1 + int64(in.arg)
		w.blockState = Sleeping
	case actExit:
		s.exitWarp(w, now)
		return
	}
	w.pc++
	s.settle(w)
}

// issueCount counts the issue of the warp's next instruction at cycle
// now, the first step of every issue, and returns the warp's active
// threads.
func (s *sm) issueCount(sc *scheduler, w *warp, now int64) int64 {
	w.opsPC = -1
	if !w.started {
		s.start(sc, w, now)
	}
	sc.inst++
	n := int64(bits.OnesCount32(w.mask))
	sc.threads += n
	s.pcc.issue(w.pc, n)
	return n
}

// start marks the warp's first issue, at cycle now.
func (s *sm) start(sc *scheduler, w *warp, now int64) {
	w.started = true
	sc.unstarted--
	if s.m.WarpStartInterval > 0 {
		s.startFree = now + int64(s.m.WarpStartInterval)
		s.startNext = (sc.index + 1) % int32(len(s.scheds))
	}
}

// reservePipe takes the instruction's pipe for its initiation interval
// and returns its result latency (0 for an instruction without a pipe; an
// instruction's own latency, lat, overrides the pipe's).
func (s *sm) reservePipe(sc *scheduler, in *inst, now int64) int64 {
	if in.pipe >= numSchedPipes {
		return int64(in.lat)
	}
	p := s.pipes[in.pipe]
	ivl, l := int64(p.Interval), int64(p.Latency)
	if in.ivl > 0 {
		ivl = int64(in.ivl)
	}
	if in.lat > 0 {
		l = int64(in.lat)
	}
	switch {
	case in.pipe == pipeFMA && in.alt && s.m.FMA2.Interval > 0 && sc.pipeFree[pipeFMA] > now:
		sc.fma2Free = now + int64(s.m.FMA2.Interval)
		l = int64(s.m.FMA2.Latency)
	case in.pipe == pipeFP64 && s.m.FP64Shared:
		s.fp64Free = now + ivl
	default:
		sc.pipeFree[in.pipe] = now + ivl
	}
	return l
}

func (s *sm) memResult(w *warp, in *inst, ready int64) {
	if in.dst >= 0 {
		r := w.regBase + int32(in.dst)
		s.regReady[r] = ready
		s.regKind[r] = in.sb
	}
	if ready > w.memDone {
		w.memDone = ready
	}
	if in.store && ready > w.storeDone {
		w.storeDone = ready
	}
}

// namedArrive brings the warp's 32 threads to the named barrier in.bar,
// waiting there (BAR) or not (BAR.ARV), and releases the barrier's
// waiting warps once in.arg threads (every warp that has not exited, for
// a BAR without a count) have arrived.
func (s *sm) namedArrive(w *warp, in *inst, wait bool, now int64) {
	b := &s.blocks[w.block]
	nb := &b.named[in.bar]
	nb.arrived += 32
	nb.all = in.arg == 0
	if wait {
		nb.waiting = append(nb.waiting, w.slot)
		w.blockUntil, w.blockState, w.blockCause = never, Barrier, s.pcs[w.pc]
	}
	if (nb.all && nb.arrived >= 32*b.live) || (!nb.all && nb.arrived >= in.arg) {
		s.releaseNamed(nb, now)
	}
}

// releaseNamed lets the warps waiting at a named barrier go and starts
// its next phase.
func (s *sm) releaseNamed(nb *namedBar, now int64) {
	nb.waiting = s.wakeAt(nb.waiting, now+int64(max(1, s.m.BarrierLatency)))
	nb.arrived = 0
}

// wakeAt lets the barrier's waiting warps go at cycle at and returns the
// list emptied for the next phase.
func (s *sm) wakeAt(waiting []int32, at int64) []int32 {
	for _, slot := range waiting {
		s.ws[slot].blockUntil = at
		s.wake(slot, at)
	}
	return waiting[:0]
}

func (s *sm) release(b *blockRec, now int64) {
	at := now + int64(max(1, s.m.BarrierLatency))
	if b.cluster {
		// BAR.CLUSTER: the cluster's other blocks, on other SMs, are
		// taken to arrive when this one does; their arrivals and the
		// release cross the SM-to-SM network.
		lat := s.m.DSMEMLatency
		if s.cluster > 2 && s.m.DSMEMWideLatency > 0 {
			lat = s.m.DSMEMWideLatency
		}
		at = now + int64(max(1, s.m.BarrierLatency, lat))
		b.cluster = false
	}
	b.waiting = s.wakeAt(b.waiting, at)
	b.arrived = 0
}

func (s *sm) branch(w *warp, in *inst, now int64) {
	if w.divN >= maxNest {
		// compile() bounds nesting, so this cannot happen.
		panic("sim: divergence stack overflow")
	}
	active := w.mask
	var taken uint32
	if in.byWarp {
		if in.warps>>uint(w.widx)&1 != 0 {
			taken = active
		}
	} else {
		taken = active & in.lanes
	}
	divs := s.divs[int(w.slot)*maxNest : int(w.slot+1)*maxNest]
	d := &divs[w.divN]
	w.divN++
	d.restore = active
	d.joinPC = in.joinPC
	d.elsePC = in.elsePC
	if taken != 0 {
		w.mask = taken
		d.elseMask = active &^ taken
		w.pc++
	} else {
		w.mask = active
		d.elseMask = 0
		w.pc = in.elsePC
	}
	s.settle(w)
	w.blockUntil = now + int64(s.m.Branch.Latency)
	w.blockState = BranchResolving
}

// settle moves the warp's pc past loop and branch markers to its next
// instruction; markers cost nothing.
func (s *sm) settle(w *warp) {
	loops := s.loops[int(w.slot)*maxNest : int(w.slot+1)*maxNest]
	divs := s.divs[int(w.slot)*maxNest : int(w.slot+1)*maxNest]
	for {
		in := &s.code[w.pc]
		switch in.act {
		case actLoopStart:
			if in.arg == 0 {
				w.pc = in.target + 1
				continue
			}
			loops[w.loopN] = in.arg
			w.loopN++
			w.pc++
		case actLoopEnd:
			top := &loops[w.loopN-1]
			*top--
			if *top > 0 {
				w.pc = in.target + 1
			} else {
				w.loopN--
				w.pc++
			}
		case actEndThen:
			d := &divs[w.divN-1]
			if d.elseMask != 0 {
				w.mask = d.elseMask
				d.elseMask = 0
				w.pc = d.elsePC
			} else {
				w.pc = d.joinPC
			}
		case actEndIf:
			w.divN--
			w.mask = divs[w.divN].restore
			w.pc++
		default:
			return
		}
	}
}

// retire removes warps whose EXIT has drained and launches new blocks into
// the freed places.
func (s *sm) retire(now int64) {
	s.nextRetire = never
	for i := range s.scheds {
		sc := &s.scheds[i]
		keep := sc.warps[:0]
		for _, slot := range sc.warps {
			w := &s.ws[slot]
			if !w.exited {
				keep = append(keep, slot)
				continue
			}
			if w.blockUntil > now {
				if w.blockUntil < s.nextRetire {
					s.nextRetire = w.blockUntil
				}
				keep = append(keep, slot)
				continue
			}
			s.setState(sc, w, Empty, now)
			if s.tr != nil {
				s.tr.retire(w, now)
			}
			sc.due.unplace(w.local)
			s.free[slot] = true
			s.resident--
			if s.policy == polTwoLevel {
				sc.activeSet = remove(sc.activeSet, slot)
				sc.pending = remove(sc.pending, slot)
			}
			b := &s.blocks[w.block]
			b.resident--
			if s.resident == 0 {
				s.smActive += now - s.residentSince
			}
		}
		if len(keep) == 0 && len(sc.warps) > 0 {
			sc.active += now - sc.activeSince
		}
		sc.warps = keep
		if !sc.ordered {
			s.order(sc)
		}
	}
	pending := 0 // launches already due later
	for i := range s.blocks {
		if s.blocks[i].launchAt < never {
			pending++
		}
	}
	for i := range s.blocks {
		b := &s.blocks[i]
		if b.id >= 0 && b.resident == 0 {
			b.id = -1
			if s.blocksLaunch+pending >= s.blocksTotal {
				continue
			}
			if s.m.BlockLaunch <= 0 {
				s.launch(int32(i), now)
				continue
			}
			// The block's place is taken BlockLaunch cycles later.
			pending++
			b.launchAt = now + int64(s.m.BlockLaunch)
			s.nextLaunch = min(s.nextLaunch, b.launchAt)
		}
	}
}

// launchDue launches the blocks whose launchAt has come, in the order of
// their records, and finds the next launchAt.
func (s *sm) launchDue(now int64) {
	s.nextLaunch = never
	for i := range s.blocks {
		b := &s.blocks[i]
		if b.launchAt <= now {
			b.launchAt = never
			s.launch(int32(i), now)
		}
		s.nextLaunch = min(s.nextLaunch, b.launchAt)
	}
}

// order finds whether the ages of the scheduler's resident warps rise
// with their local index (scheduler.ordered).
func (s *sm) order(sc *scheduler) {
	sc.ordered = true
	for i := 1; i < len(sc.warps); i++ {
		if s.ws[sc.warps[i]].age < s.ws[sc.warps[i-1]].age {
			sc.ordered = false
			return
		}
	}
}

func remove(list []int32, v int32) []int32 {
	for i, x := range list {
		if x == v {
			return append(list[:i], list[i+1:]...)
		}
	}
	return list
}

// launch starts the next block of the grid in block record bi at cycle now.
func (s *sm) launch(bi int32, now int64) {
	b := &s.blocks[bi]
	b.id = int32(s.blocksLaunch)
	s.blocksLaunch++
	b.live = int32(s.warpsPerBlock)
	b.resident = int32(s.warpsPerBlock)
	b.arrived = 0
	b.waiting = b.waiting[:0]
	b.cluster = false
	for i := range b.bars {
		mb := &b.bars[i]
		mb.issued, mb.expected, mb.pendN, mb.pendDone = 0, 0, 0, 0
		mb.waiting = mb.waiting[:0]
	}
	for i := range b.named {
		b.named[i].arrived, b.named[i].all = 0, false
		b.named[i].waiting = b.named[i].waiting[:0]
	}
	slot := int32(0)
	for k := 0; k < s.warpsPerBlock; k++ {
		for !s.free[slot] {
			slot++
		}
		s.free[slot] = false
		threads := s.blockThreads - 32*k
		if threads > 32 {
			threads = 32
		}
		w := &s.ws[slot]
		sched := slot % int32(len(s.scheds))
		*w = warp{
			slot: slot, sched: sched, local: slot / int32(len(s.scheds)), block: bi, widx: int32(k),
			regBase: slot * int32(s.nregs), age: s.ages, since: now, opsPC: -1,
			mask:       uint32(1<<uint(threads) - 1),
			blockUntil: now + int64(s.m.FetchLatency), blockState: NoInstruction, span: -1,
		}
		if s.groups != nil {
			g := s.groups[int(slot)*int(numGroups) : int(slot+1)*int(numGroups)]
			for i := range g {
				g[i] = asyncGroups{}
			}
		}
		if s.mbarSeen != nil {
			seen := s.mbarSeen[int(slot)*s.nbars : int(slot+1)*s.nbars]
			for i := range seen {
				seen[i] = 0
			}
		}
		if threads == 32 {
			w.mask = ^uint32(0)
		}
		s.ages++
		for r := w.regBase; r < w.regBase+int32(s.nregs); r++ {
			s.regReady[r] = 0
			s.regKind[r] = sbFixed
		}
		w.rpc, w.stateCause, w.stateSB, w.opsCause = -2, -1, -1, -1
		if s.ctl {
			s.sbs[slot] = sbState{}
			clear(s.trips[int(slot)*s.ntrips : int(slot+1)*s.ntrips])
		} else {
			s.settle(w)
		}
		sc := &s.scheds[w.sched]
		s.wake(slot, now)
		sc.unstarted++
		if len(sc.warps) == 0 {
			sc.activeSince = now
		}
		if s.resident == 0 {
			s.residentSince = now
		}
		i, _ := slices.BinarySearch(sc.warps, slot)
		// A new warp is younger than every resident one.
		sc.ordered = sc.ordered && i == len(sc.warps)
		sc.warps = slices.Insert(sc.warps, i, slot)
		if s.policy == polTwoLevel {
			sc.pending = append(sc.pending, slot)
		}
		s.resident++
		if s.tr != nil {
			s.tr.launch(w, b.id, now)
		}
	}
}

func ceilDiv(a, b int) int {
	if a <= 0 {
		return 1
	}
	return (a + b - 1) / b
}
