package sim

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"testing"
)

// genProgram makes a random program from r: math and memory instructions
// (widths and strides included), loops, divergent and warp-uniform
// branches, barriers, sleeps, fences, and the asynchronous instructions m
// supports: cp.async groups, bulk copies on mbarriers, warpgroup MMA.
func genProgram(r *rand.Rand, m Machine, depth int, top bool) *Program {
	p := NewProgram()
	n := 1 + r.IntN(5)
	reg := func() string { return fmt.Sprintf("r%d", r.IntN(8)) }
	for i := 0; i < n; i++ {
		if r.IntN(6) == 0 {
			genAsync(r, m, p, reg)
			continue
		}
		switch k := r.IntN(20); {
		case k < 5:
			op := []string{"FFMA", "IADD3", "DFMA", "MUFU", "HMMA", "IMAD", "NOP"}[r.IntN(7)]
			if op == "NOP" {
				p.Add(Inst{Op: op})
				continue
			}
			p.Add(Inst{Op: op, Dst: reg(), Src: []string{reg(), reg()}, ILP: r.IntN(3)})
		case k < 7:
			p.Add(Inst{Op: "LDS", Dst: reg(), Src: []string{reg()}, Width: []int{4, 8, 16}[r.IntN(3)], Stride: []int{0, 1, 2, 32}[r.IntN(4)], Level: sharedLevel(r, m)})
		case k == 7:
			p.Add(Inst{Op: "STS", Src: []string{reg(), reg()}, Width: []int{4, 8, 16}[r.IntN(3)], Level: sharedLevel(r, m)})
		case k < 10:
			p.Add(Inst{Op: "LDG", Dst: reg(), Src: []string{reg()}, Level: []string{"l1", "l2", "l2far", "dram"}[r.IntN(4)],
				Width: []int{4, 8, 16}[r.IntN(3)], Stride: []int{0, 1, 3, 8}[r.IntN(4)]})
		case k == 10:
			p.Add(Inst{Op: "STG", Src: []string{reg(), reg()}})
		case k == 11 && r.IntN(3) == 0:
			p.Add(Inst{Op: "STL", Src: []string{reg(), reg()}})
		case k == 11:
			p.Add(Inst{Op: "LDL", Dst: reg(), Src: []string{reg()}})
		case k == 12:
			// Named barriers that one warp's arrival completes cannot
			// wait forever, whichever path other warps take.
			switch b := 1 + r.IntN(maxNamedBars-1); r.IntN(4) {
			case 0:
				p.Add(Inst{Op: "BAR", Barrier: b, Threads: 32})
			case 1:
				p.Add(Inst{Op: "BAR.ARV", Barrier: b, Threads: 32})
			case 2:
				if m.MaxCluster > 0 {
					p.Add(Inst{Op: "BAR.CLUSTER"})
					break
				}
				fallthrough
			default:
				p.BAR()
			}
		case k == 13:
			p.Add(Inst{Op: "MEMBAR"})
		case k == 14:
			p.NANOSLEEP(r.IntN(40))
		case k < 17 && depth > 0:
			body, trips := genProgram(r, m, depth-1, false), r.IntN(4)
			if !issues(body) {
				trips = 0 // a loop that runs must issue something
			}
			p.Loop(trips, body)
		case k < 19 && depth > 0:
			var then, els *Program
			if r.IntN(4) > 0 {
				then = genProgram(r, m, depth-1, false)
			}
			if r.IntN(3) > 0 {
				els = genProgram(r, m, depth-1, false)
			}
			lo := r.IntN(32)
			hi := lo + r.IntN(32-lo)
			set := fmt.Sprintf("%d-%d", lo, hi)
			if r.IntN(2) == 0 {
				p.Branch(set, then, els)
			} else {
				wlo := r.IntN(8)
				p.BranchWarps(fmt.Sprintf("%d-%d", wlo, wlo+r.IntN(8-wlo)), then, els)
			}
		default:
			p.FFMA(reg(), reg(), reg())
		}
	}
	if top && r.IntN(2) == 0 {
		p.EXIT()
	}
	return p
}

// genAsync appends an asynchronous instruction m supports, or an HMMA.
// Every SYNCS waits on an mbarrier phase the same warp starts first, so a
// generated program cannot wait forever.
func genAsync(r *rand.Rand, m Machine, p *Program, reg func() string) {
	var opts []func()
	opts = append(opts, func() {
		p.Add(Inst{Op: "HMMA", Dst: reg(), Src: []string{reg(), reg()}, Shape: []string{"", "m16n8k8", "m16n8k16"}[r.IntN(3)]})
	})
	if m.AsyncCopy {
		opts = append(opts, func() {
			p.Add(Inst{Op: "LDGSTS", Src: []string{reg()}, Width: []int{4, 8, 16}[r.IntN(3)], Level: []string{"l1", "l2", "dram"}[r.IntN(3)]})
			if r.IntN(2) == 0 {
				p.Add(Inst{Op: "LDGDEPBAR"})
			}
			if r.IntN(2) == 0 {
				p.Add(Inst{Op: "DEPBAR", Groups: r.IntN(3)})
			}
		})
	}
	if m.TMA {
		opts = append(opts, func() {
			bar := []string{"b0", "b1"}[r.IntN(2)]
			if r.IntN(3) == 0 {
				p.Add(Inst{Op: "MBARINIT", Bar: bar, Arrivals: 1})
			}
			if r.IntN(2) == 0 {
				p.Add(Inst{Op: "ARRIVE", Bar: bar})
			} else {
				// The tensor-map tile copy or the plain bulk copy.
				op := []string{"UTMALDG", "UBLKCP"}[r.IntN(2)]
				p.Add(Inst{Op: op, Src: []string{reg()}, Bytes: 16 << r.IntN(10), Bar: bar, Level: []string{"l2", "dram"}[r.IntN(2)]})
			}
			p.Add(Inst{Op: "SYNCS", Bar: bar})
		})
	}
	if m.AsyncMMA {
		opts = append(opts, func() {
			acc := reg()
			p.Add(Inst{Op: "HGMMA", Dst: acc, Src: []string{acc, reg()}, Shape: []string{"", "m64n8k16", "m64n64k16", "m64n256k16"}[r.IntN(4)],
				Operands: []string{"", "ss", "rs"}[r.IntN(3)]})
			if r.IntN(2) == 0 {
				p.Add(Inst{Op: "WARPGROUP.DEPBAR", Groups: r.IntN(2)})
			}
		})
	}
	opts[r.IntN(len(opts))]()
}

// sharedLevel is the level of a generated LDS or STS: now and then
// another block's shared memory, on a machine with clusters.
func sharedLevel(r *rand.Rand, m Machine) string {
	if m.MaxCluster > 0 && r.IntN(4) == 0 {
		return "dsmem"
	}
	return ""
}

// clusterLaunch launches a generated program that uses distributed
// shared memory or BAR.CLUSTER in clusters of two blocks.
func clusterLaunch(r *rand.Rand, w *Workload) {
	if prog, err := compile(w.Program, w.Name); err == nil && prog.usesCluster() {
		w.Launch.Cluster = 2
		w.Launch.Blocks = 2 * (1 + r.IntN(2))
	}
}

// countOps adds the opcodes p uses to seen.
func countOps(p *Program, seen map[string]int) {
	if p == nil {
		return
	}
	for _, s := range p.stmts {
		switch s.kind {
		case stmtInst:
			seen[s.inst.Op]++
		case stmtLoop:
			countOps(s.body, seen)
		case stmtBranch:
			seen["BRA"]++
			countOps(s.then, seen)
			countOps(s.els, seen)
		}
	}
}

// expected counts the warp instructions and thread instructions one warp
// (index widx, lane mask mask) issues running p: an independent model of the
// program's control flow.
func expected(p *Program, widx int, mask uint32) (inst, threads int) {
	if p == nil {
		return 0, 0
	}
	n := bits.OnesCount32(mask)
	for _, s := range p.stmts {
		switch s.kind {
		case stmtInst:
			k := max(s.inst.ILP, 1)
			inst += k
			threads += k * n
		case stmtLoop:
			i, t := expected(s.body, widx, mask)
			inst += s.count * i
			threads += s.count * t
		case stmtBranch:
			inst++
			threads += n
			var taken uint32
			if s.warps != "" {
				set, _ := parseSet(s.warps, 32)
				if set>>uint(widx)&1 != 0 {
					taken = mask
				}
			} else {
				set, _ := parseSet(s.lanes, 32)
				taken = mask & set
			}
			if taken != 0 {
				i, t := expected(s.then, widx, taken)
				inst += i
				threads += t
			}
			if rest := mask &^ taken; rest != 0 {
				i, t := expected(s.els, widx, rest)
				inst += i
				threads += t
			}
		}
	}
	return inst, threads
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// checkIdentities checks the identities that hold on real hardware (and
// the simulator's own bookkeeping) on one result. A measurement window in
// which nothing issued has no per-instruction figures: they must be 0; its
// active cycles were all without an eligible warp (none at all when the
// window lies where the SM waits for a block to launch).
func checkIdentities(t *testing.T, name string, r *Result) {
	t.Helper()
	if r.Instructions == 0 {
		idle := 100.0
		if r.ActiveCycles == 0 {
			idle = 0
		}
		if r.WarpCyclesPerIssue != 0 || r.IssueActive != 0 || r.NoEligible != idle {
			t.Errorf("%s: nothing issued, yet warp cycles per issue %v, issue active %v%%, no eligible %v%%",
				name, r.WarpCyclesPerIssue, r.IssueActive, r.NoEligible)
		}
		for _, st := range States() {
			if r.Stall(st) != 0 {
				t.Errorf("%s: nothing issued, yet %s = %v", name, st, r.Stall(st))
			}
		}
		return
	}
	sum := 0.0
	for _, st := range States() {
		sum += r.Stall(st)
	}
	if !near(sum, r.WarpCyclesPerIssue) {
		t.Errorf("%s: stall ratios (selected included) sum to %v, warp cycles per issued instruction is %v", name, sum, r.WarpCyclesPerIssue)
	}
	if !near(r.WarpsActive, r.IssuedPerCycle*r.WarpCyclesPerIssue) {
		t.Errorf("%s: active warps per scheduler %v ≠ issued per cycle %v × warp cycles per issue %v", name, r.WarpsActive, r.IssuedPerCycle, r.WarpCyclesPerIssue)
	}
	if !near(r.IssueActive+r.NoEligible, 100) {
		t.Errorf("%s: issue active %v%% + no eligible %v%% ≠ 100%%", name, r.IssueActive, r.NoEligible)
	}
	// One warp is selected in each cycle a scheduler issues; with dual
	// issue that cycle may issue two instructions.
	perIssue := 1
	if r.Machine.DualIssue {
		perIssue = 2
	}
	if !near(r.Stall(Selected), float64(r.IssueCycles)/float64(r.Instructions)) || (!r.Machine.DualIssue && !near(r.Stall(Selected), 1)) {
		t.Errorf("%s: selected per issued instruction = %v, issue cycles %d, instructions %d", name, r.Stall(Selected), r.IssueCycles, r.Instructions)
	}
	if r.WarpsEligible+1e-12 < float64(r.IssueCycles)/float64(r.ActiveCycles) {
		t.Errorf("%s: eligible warps %v below issue cycles per active cycle %v", name, r.WarpsEligible, float64(r.IssueCycles)/float64(r.ActiveCycles))
	}
	for _, sc := range r.Schedulers {
		total := 0
		for _, st := range States() {
			total += sc.StateCycles(st)
		}
		if sc.StateCycles(Selected) != sc.IssueCycles {
			t.Errorf("%s: scheduler %d: %d selected cycles, %d issue cycles", name, sc.Scheduler, sc.StateCycles(Selected), sc.IssueCycles)
		}
		if total > sc.ActiveCycles*r.Machine.MaxWarps {
			t.Errorf("%s: scheduler %d: %d warp-cycles in %d active cycles", name, sc.Scheduler, total, sc.ActiveCycles)
		}
		if sc.IssueCycles > sc.ActiveCycles || sc.Instructions < sc.IssueCycles || sc.Instructions > perIssue*sc.IssueCycles {
			t.Errorf("%s: scheduler %d issued %d instructions in %d issue cycles of %d active cycles", name, sc.Scheduler, sc.Instructions, sc.IssueCycles, sc.ActiveCycles)
		}
	}
	for _, m := range r.Metrics() {
		if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) || m.Value < 0 {
			t.Errorf("%s: metric %s = %v", name, m.Name, m.Value)
		}
	}
	checkLines(t, name, r)
}

// checkLines holds the per-instruction results to the run's: the lines'
// issues, threads and samples in each state add up to the run's counts in
// the same window, and a line's causes never exceed its samples.
func checkLines(t *testing.T, name string, r *Result) {
	t.Helper()
	var issued, threads int
	var states [numStates]int
	for _, l := range r.Lines {
		issued += l.Issued
		threads += l.Threads
		caused := map[State]int{}
		for _, st := range States() {
			states[st] += l.Samples(st)
		}
		for _, c := range l.Causes {
			caused[c.State] += c.Cycles
			if c.Cycles <= 0 || c.PC < 0 || c.PC >= len(r.Lines) {
				t.Errorf("%s: line %d: cause %+v", name, l.PC, c)
			}
		}
		for st, n := range caused {
			if n > l.Samples(st) {
				t.Errorf("%s: line %d: causes of %s add up to %d of its %d samples", name, l.PC, st, n, l.Samples(st))
			}
		}
	}
	if issued != r.Instructions || threads != r.ThreadInstructions {
		t.Errorf("%s: lines issued %d (threads %d), the run %d (%d)", name, issued, threads, r.Instructions, r.ThreadInstructions)
	}
	for _, st := range States() {
		if states[st] != r.StateCycles(st) {
			t.Errorf("%s: lines sampled %d warp-cycles in %s, the run counts %d", name, states[st], st, r.StateCycles(st))
		}
	}
}

// genMachine picks a preset for a generated workload, one SM, with the
// queue model on or off and sometimes a bound on the LG requests in flight.
func genMachine(r *rand.Rand, presets []Machine) Machine {
	m := presets[r.IntN(len(presets))]
	m.SMs = 1
	m.QueueModel = r.IntN(3) > 0
	if m.QueueModel && r.IntN(3) == 0 {
		m.LGQueue = 1 + r.IntN(16)
	}
	return m
}

// TestIdentities runs many generated workloads (random programs, presets,
// policies, launches and memory models) and checks on every run: the
// per-reason stall ratios, selected included, sum to warp cycles per issued
// instruction; active warps per scheduler = issued per scheduler per cycle ×
// warp cycles per issued instruction; issue active + no eligible = 100 %;
// the instruction counts match an independent walk of the program; a
// complete trace agrees with the counters; a second run is identical.
// Each workload is also measured over a random window, over the two parts
// of the run either side of the window's start and over its steady state:
// the identities hold within each window, a trace of the window agrees
// with its counts, and the two parts add up to the whole run (see
// checkWindows).
func TestIdentities(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 2026))
	presets := Presets()
	ran := map[string]int{}
	defer func() {
		// The generated workloads cover every instruction: the full
		// run's 300 do; -short's 96 need not (the rarest, UBLKCP and
		// UTMALDG, come from few of the generator's choices).
		if testing.Short() {
			return
		}
		for _, op := range Ops() {
			if op != "NANOSLEEP" && ran[op] == 0 && (op == "BRA" || ops[op].act != actMath || op == "HMMA" || op == "FFMA") {
				t.Errorf("no generated workload ran %s", op)
			}
		}
	}()
	runs := 300
	if testing.Short() {
		runs = 96
	}
	for i := 0; i < runs; i++ {
		m := genMachine(r, presets[i%len(presets):][:1]) // every preset in turn
		pol := []string{"", "gto", "gty", "lrr", "oldest", "two_level:2", "two_level:5"}[r.IntN(7)]
		block := 1 + r.IntN(min(m.MaxThreadsPerBlock, 320))
		w := Workload{
			Name:    fmt.Sprintf("gen%d", i),
			Policy:  pol,
			Launch:  Launch{Block: block, Blocks: 1 + r.IntN(4), Regs: 16 * r.IntN(4), Resident: r.IntN(3)},
			Program: genProgram(r, m, 2, true),
		}
		if !issues(w.Program) {
			continue
		}
		clusterLaunch(r, &w)
		countOps(w.Program, ran)
		cfg := Config{Machine: &m, Trace: Window{From: 0, To: 20000}}
		if m.MaxWarps*20000 > MaxTraceCells {
			cfg.Trace = Window{}
		}
		res, err := cfg.Run(w)
		if err != nil {
			t.Fatalf("%s on %s: %v\n%s", w.Name, m.Name, err, w.Program)
		}
		name := fmt.Sprintf("%s (%s, %s, block %d, queue %v)", w.Name, m.Name, pol, block, m.QueueModel)
		checkIdentities(t, name, res)

		// Instruction counts from an independent walk of the program.
		wantInst, wantThreads := 0, 0
		for b := 0; b < res.BlocksOnSM; b++ {
			for k := 0; k*32 < block; k++ {
				n := min(32, block-32*k)
				mask := uint32(1<<uint(n) - 1)
				if n == 32 {
					mask = ^uint32(0)
				}
				i, th := expected(w.Program, k, mask)
				if last := w.Program.stmts[len(w.Program.stmts)-1]; last.kind != stmtInst || last.inst.Op != "EXIT" {
					i++ // the EXIT the compiler adds
					th += n
				}
				wantInst += i
				wantThreads += th
			}
		}
		if res.Instructions != wantInst || res.ThreadInstructions != wantThreads {
			t.Errorf("%s: issued %d instructions (%d thread instructions), the program walk says %d (%d)\n%s",
				name, res.Instructions, res.ThreadInstructions, wantInst, wantThreads, w.Program)
		}

		// A trace of the whole run agrees with the counters.
		if tr := res.Trace; tr != nil && res.Cycles <= tr.To {
			for _, st := range States() {
				if got := tr.Count(st); got != res.StateCycles(st) {
					t.Errorf("%s: trace has %d cells in %s, counters %d", name, got, st, res.StateCycles(st))
				}
			}
			if len(tr.Issues) != res.Instructions {
				t.Errorf("%s: trace has %d issues, counters %d", name, len(tr.Issues), res.Instructions)
			}
			checkResidency(t, name, res)
			for _, is := range tr.Issues {
				if st := tr.At(is.Slot, is.Cycle); st != Selected {
					t.Errorf("%s: issue at cycle %d slot %d but the trace says %s", name, is.Cycle, is.Slot, st)
					break
				}
			}
		}

		checkWindows(t, name, r, m, w, res)

		// Same input, same output.
		again, err := cfg.Run(w)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, again) {
			t.Errorf("%s: a second run differs", name)
		}
	}
}

// checkWindows measures w (whose whole run gave whole) over a random window
// [a, b) of the run, over [0, a) and [a, end), and over its steady state,
// and checks: the identities within each window; Cycles, Measured and
// RunCycles; that a trace of the same window agrees with the window's
// counts (states, issues, thread instructions, active cycles per
// scheduler); that [0, a) and [a, end) add up to the whole run, scheduler
// by scheduler; and that the steady window measured as an explicit window
// gives the same metrics.
func checkWindows(t *testing.T, name string, r *rand.Rand, m Machine, w Workload, whole *Result) {
	t.Helper()
	end := whole.Cycles
	a := r.IntN(end)
	b := a + 1 + r.IntN(end-a)
	measure := func(win Window, trace bool) *Result {
		t.Helper()
		cfg := Config{Machine: &m, Measure: win}
		if trace && (win.To-win.From)*m.MaxWarps <= MaxTraceCells {
			cfg.Trace = win
		}
		res, err := cfg.Run(w)
		if err != nil {
			t.Fatalf("%s measured over [%d, %d) of %d: %v", name, win.From, win.To, end, err)
		}
		wname := fmt.Sprintf("%s over [%d, %d)", name, win.From, win.To)
		checkIdentities(t, wname, res)
		if res.Measured != win || res.Cycles != win.To-win.From || res.RunCycles != end {
			t.Errorf("%s: measured %v, %d cycles of %d; want %v, %d of %d", wname, res.Measured, res.Cycles, res.RunCycles, win, win.To-win.From, end)
		}
		if res.Trace != nil {
			checkTraceWindow(t, wname, res)
		}
		return res
	}
	measure(Window{From: a, To: b}, true)

	// Two parts either side of a add up to the whole run.
	tail := measure(Window{From: a, To: end}, false)
	var head *Result
	if a > 0 {
		head = measure(Window{From: 0, To: a}, false)
	} else {
		head = &Result{Schedulers: make([]SchedulerStats, len(whole.Schedulers))}
	}
	if head.Instructions+tail.Instructions != whole.Instructions ||
		head.ThreadInstructions+tail.ThreadInstructions != whole.ThreadInstructions ||
		head.ActiveCycles+tail.ActiveCycles != whole.ActiveCycles ||
		head.WarpCycles+tail.WarpCycles != whole.WarpCycles {
		t.Errorf("%s: [0, %d) and [%d, %d) do not add up to the whole run", name, a, a, end)
	}
	for i, sc := range whole.Schedulers {
		h, tl := head.Schedulers[i], tail.Schedulers[i]
		if h.ActiveCycles+tl.ActiveCycles != sc.ActiveCycles || h.Instructions+tl.Instructions != sc.Instructions {
			t.Errorf("%s: scheduler %d: parts either side of cycle %d do not add up", name, i, a)
		}
		for _, st := range States() {
			if h.StateCycles(st)+tl.StateCycles(st) != sc.StateCycles(st) {
				t.Errorf("%s: scheduler %d: %s cycles before and after cycle %d do not add up: %d + %d ≠ %d",
					name, i, st, a, h.StateCycles(st), tl.StateCycles(st), sc.StateCycles(st))
			}
		}
	}

	// The steady state: a window inside the run, the same as measuring it
	// explicitly.
	steady, err := Config{Machine: &m, Steady: true}.Run(w)
	if err != nil {
		t.Fatalf("%s steady state: %v", name, err)
	}
	checkIdentities(t, name+" (steady)", steady)
	if s := steady.Measured; s.From != m.FetchLatency || s.To <= s.From || s.To > end {
		t.Errorf("%s: steady window %v in a run of %d cycles, want [%d, To ≤ %d)", name, s, end, m.FetchLatency, end)
	}
	explicit, err := Config{Machine: &m, Measure: steady.Measured}.Run(w)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(steady.Metrics(), explicit.Metrics()) {
		t.Errorf("%s: steady state %v and the same window measured explicitly differ", name, steady.Measured)
	}
}

// checkResidency checks, on a result measured over the window its trace
// covers, that every resident warp was in exactly one state in every
// cycle: the warp-cycles of all states add up to the time warps were
// resident in the window, which the trace's spans record apart from the
// state bookkeeping. Without it the stall ratios would sum to warp cycles
// per issued instruction however states were counted, since the latter is
// defined as their sum.
func checkResidency(t *testing.T, name string, res *Result) {
	t.Helper()
	tr := res.Trace
	resident := 0
	for _, s := range tr.Spans {
		resident += max(0, min(s.End, tr.To)-max(s.Start, tr.From))
	}
	if resident != res.WarpCycles {
		t.Errorf("%s: warps were resident for %d warp-cycles, the states count %d", name, resident, res.WarpCycles)
	}
}

// checkTraceWindow checks a result measured over the window its trace
// covers: the trace's cells and issues, counted independently, give the
// result's counts.
func checkTraceWindow(t *testing.T, name string, res *Result) {
	t.Helper()
	checkResidency(t, name, res)
	tr := res.Trace
	for _, st := range States() {
		if got := tr.Count(st); got != res.StateCycles(st) {
			t.Errorf("%s: the trace has %d cells in %s, the window's counters %d", name, got, st, res.StateCycles(st))
		}
	}
	threads := 0
	perSched := make([]int, tr.Schedulers)
	for _, is := range tr.Issues {
		threads += is.Threads
		perSched[is.Scheduler]++
	}
	if len(tr.Issues) != res.Instructions || threads != res.ThreadInstructions {
		t.Errorf("%s: the trace has %d issues (%d threads), the window's counters %d (%d)",
			name, len(tr.Issues), threads, res.Instructions, res.ThreadInstructions)
	}
	// A scheduler is active in a cycle when one of its slots holds a warp.
	active := make([]int, tr.Schedulers)
	for c := tr.From; c < tr.To; c++ {
		for si := 0; si < tr.Schedulers; si++ {
			for slot := si; slot < tr.Slots; slot += tr.Schedulers {
				if tr.At(slot, c) != Empty {
					active[si]++
					break
				}
			}
		}
	}
	for si, sc := range res.Schedulers {
		if active[si] != sc.ActiveCycles || perSched[si] != sc.Instructions {
			t.Errorf("%s: scheduler %d: the trace shows %d active cycles and %d issues, the counters %d and %d",
				name, si, active[si], perSched[si], sc.ActiveCycles, sc.Instructions)
		}
	}
}

// TestReadyMatchesCycleByCycle runs generated workloads and SASS kernels
// twice: counting their ready warps per span (ready.go) and classifying
// every warp in every cycle (what a trace asks for), and requires the same
// result, metric for metric and line for line, over the whole run and over
// a window.
func TestReadyMatchesCycleByCycle(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 2026))
	presets := Presets()
	runs := 200
	if testing.Short() {
		runs = 40
	}
	var ws []struct {
		w Workload
		m Machine
	}
	for i := 0; i < runs; i++ {
		m := genMachine(r, presets)
		pol := []string{"", "gto", "gty", "lrr", "oldest"}[r.IntN(5)]
		w := Workload{Name: fmt.Sprintf("gen%d", i), Policy: pol,
			Launch:  Launch{Block: 1 + r.IntN(min(m.MaxThreadsPerBlock, 320)), Blocks: 1 + r.IntN(4), Regs: 16 * r.IntN(4)},
			Program: genProgram(r, m, 2, true)}
		clusterLaunch(r, &w)
		if issues(w.Program) {
			ws = append(ws, struct {
				w Workload
				m Machine
			}{w, m})
		}
	}
	kernels := listing(t, "kernels_sm_80.sass")
	for _, f := range kernels.Functions {
		m := Ampere()
		m.SMs = 1
		w := kernelOf(t, kernels, f.Name, 128, 3, 2, 3)
		w.Policy = []string{"gty", "lrr"}[len(ws)%2]
		ws = append(ws, struct {
			w Workload
			m Machine
		}{w, m})
	}
	for _, x := range ws {
		m := x.m
		lazy, err := Config{Machine: &m}.Run(x.w)
		if err != nil {
			t.Fatalf("%s: %v", x.w.Name, err)
		}
		if int64(lazy.RunCycles)*int64(m.MaxWarps) > MaxTraceCells {
			continue
		}
		each, err := Config{Machine: &m, Trace: Window{To: lazy.RunCycles}}.Run(x.w)
		if err != nil {
			t.Fatal(err)
		}
		sameResult(t, x.w.Name+" on "+m.Name, "per span", "per cycle", lazy, each)
		win := Window{From: lazy.RunCycles / 3, To: 2*lazy.RunCycles/3 + 1}
		a, err := Config{Machine: &m, Measure: win}.Run(x.w)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Config{Machine: &m, Measure: win, Trace: Window{To: lazy.RunCycles}}.Run(x.w)
		if err != nil {
			t.Fatal(err)
		}
		sameResult(t, x.w.Name+" on "+m.Name+" in a window", "per span", "per cycle", a, b)
	}
}

// sameResult requires two results, named how each was made, to agree on
// every metric, every scheduler's state cycles and every line's samples.
func sameResult(t *testing.T, name, how, how2 string, a, b *Result) {
	t.Helper()
	ma, mb := a.Metrics(), b.Metrics()
	for i := range ma {
		if ma[i] != mb[i] {
			t.Errorf("%s: %s = %v %s, %v %s", name, ma[i].Name, ma[i].Value, how, mb[i].Value, how2)
		}
	}
	for i := range a.Schedulers {
		for _, st := range States() {
			if x, y := a.Schedulers[i].StateCycles(st), b.Schedulers[i].StateCycles(st); x != y {
				t.Errorf("%s: scheduler %d %s: %d %s, %d %s", name, i, st, x, how, y, how2)
			}
		}
	}
	for i := range a.Lines {
		for _, st := range States() {
			if x, y := a.Lines[i].Samples(st), b.Lines[i].Samples(st); x != y {
				t.Errorf("%s: line %d %s: %d %s, %d %s", name, i, st, x, how, y, how2)
			}
		}
	}
}
