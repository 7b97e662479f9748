package sim

import (
	"cmp"
	"fmt"
	"strings"
)

// Result is what a run reports, in Nsight Compute's terms. Rates are per
// scheduler (SMSP) per active cycle, summed over the SM's schedulers: a
// scheduler is active in a cycle when it has at least one resident warp.
// Every count and metric covers the measured window (Measured): the whole
// run unless [Config].Measure or [Config].Steady chose a window.
type Result struct {
	Workload string  // Workload.Name
	Machine  Machine // the machine simulated
	Policy   string  // the policy, e.g. "gto" or "two_level:4"
	Launch   Launch  // the launch as given

	BlocksOnSM      int     // blocks of the grid dealt to the simulated SM
	OccupancyBlocks int     // resident blocks per SM that occupancy allows
	ResidentBlocks  int     // resident blocks used (min of the above and Launch.Resident)
	Limiter         string  // what limits OccupancyBlocks, e.g. "registers" or "warps"
	OccupancySource string  // how OccupancyBlocks was found
	Waves           float64 // BlocksOnSM / ResidentBlocks (launch__waves_per_multiprocessor)

	// Measured is the window of cycles the counts and metrics below cover:
	// [0, RunCycles) unless Config.Measure or Config.Steady chose one.
	Measured  Window
	RunCycles int // cycles until the last warp retired, whatever was measured

	Cycles             int // sm__cycles_elapsed.avg: cycles measured (Measured.To - Measured.From)
	ActiveCycles       int // scheduler-cycles with a resident warp, summed over schedulers
	IssueCycles        int // scheduler-cycles in which an instruction issued (Instructions, less dual-issued seconds)
	Instructions       int // smsp__inst_executed.sum: warp instructions issued
	ThreadInstructions int // smsp__thread_inst_executed.sum: thread instructions
	WarpCycles         int // resident warp-cycles, summed over schedulers

	IssueActive          float64 // smsp__issue_active.avg.pct_of_peak_sustained_active, percent
	NoEligible           float64 // smsp__issue_inst0.avg.pct_of_peak_sustained_active, percent
	IssuedPerCycle       float64 // issued warp instructions per scheduler per active cycle (0..1)
	WarpsActive          float64 // smsp__warps_active.avg.per_cycle_active
	WarpsEligible        float64 // smsp__warps_eligible.avg.per_cycle_active
	WarpCyclesPerIssue   float64 // smsp__average_warp_latency_per_inst_issued.ratio
	AchievedOccupancy    float64 // sm__warps_active.avg.pct_of_peak_sustained_active, percent
	TheoreticalOccupancy float64 // sm__maximum_warps_per_active_cycle_pct, percent
	ThreadsPerInst       float64 // smsp__thread_inst_executed_per_inst_executed.ratio

	// Schedulers holds the same counts per scheduler.
	Schedulers []SchedulerStats
	// Trace is the per-cycle record, when Config.Trace asked for one.
	Trace *Trace
	// Lines are the per-instruction results over the measured window, one
	// per instruction in PC order: Nsight Compute's source view.
	Lines []Line

	stateCycles [numStates]int
	steady      bool // Measured was chosen by Config.Steady
}

// SchedulerStats are one scheduler's counts over the measured window, as
// Result's are for the whole SM.
type SchedulerStats struct {
	Scheduler          int // index of the scheduler (sub-partition), 0 first
	ActiveCycles       int // cycles with at least one resident warp
	IssueCycles        int // cycles in which it issued
	Instructions       int // warp instructions issued
	ThreadInstructions int // thread instructions: active lanes summed over issues
	stateCycles        [numStates]int
}

// StateCycles returns the warp-cycles this scheduler's warps spent in st.
func (s SchedulerStats) StateCycles(st State) int {
	if st >= numStates {
		return 0
	}
	return s.stateCycles[st]
}

// StateCycles returns the warp-cycles spent in st, summed over schedulers.
func (r *Result) StateCycles(st State) int {
	if st >= numStates {
		return 0
	}
	return r.stateCycles[st]
}

// Stall returns the warp cycles per issued instruction spent in st: the
// value of st.Metric(). Over all states (selected included) these sum to
// WarpCyclesPerIssue.
func (r *Result) Stall(st State) float64 {
	if r.Instructions == 0 || st >= numStates || st == Empty {
		return 0
	}
	return float64(r.stateCycles[st]) / float64(r.Instructions)
}

// Dominant returns the stall reason with the most warp cycles (selected
// excluded; ties go to the earlier state in [States] order).
func (r *Result) Dominant() State {
	best := NotSelected
	for _, st := range States() {
		if st == Selected {
			continue
		}
		if r.stateCycles[st] > r.stateCycles[best] {
			best = st
		}
	}
	return best
}

// IssueRate returns issued warp instructions per cycle for the whole SM
// (all schedulers together) over the measured cycles.
func (r *Result) IssueRate() float64 {
	if r.Cycles == 0 {
		return 0
	}
	return float64(r.Instructions) / float64(r.Cycles)
}

// Metric is one named value of a result.
type Metric struct {
	Name  string  // Nsight Compute metric name
	Value float64 // in Unit
	Unit  string  // "cycle", "inst", "%", "warp", "thread", ""
}

// Metrics returns the result as Nsight Compute metrics, in a fixed order.
func (r *Result) Metrics() []Metric {
	ms := []Metric{
		{"sm__cycles_elapsed.avg", float64(r.Cycles), "cycle"},
		{"smsp__cycles_active.sum", float64(r.ActiveCycles), "cycle"},
		{"smsp__inst_executed.sum", float64(r.Instructions), "inst"},
		{"smsp__thread_inst_executed.sum", float64(r.ThreadInstructions), "inst"},
		{"smsp__issue_active.avg.pct_of_peak_sustained_active", r.IssueActive, "%"},
		{"smsp__issue_inst0.avg.pct_of_peak_sustained_active", r.NoEligible, "%"},
		{"smsp__warps_active.avg.per_cycle_active", r.WarpsActive, "warp"},
		{"smsp__warps_eligible.avg.per_cycle_active", r.WarpsEligible, "warp"},
		{"smsp__average_warp_latency_per_inst_issued.ratio", r.WarpCyclesPerIssue, "cycle"},
		{"sm__warps_active.avg.pct_of_peak_sustained_active", r.AchievedOccupancy, "%"},
		{"sm__maximum_warps_per_active_cycle_pct", r.TheoreticalOccupancy, "%"},
		{"launch__waves_per_multiprocessor", r.Waves, ""},
		{"smsp__thread_inst_executed_per_inst_executed.ratio", r.ThreadsPerInst, "thread"},
	}
	for _, st := range States() {
		ms = append(ms, Metric{st.Metric(), r.Stall(st), "cycle"})
	}
	return ms
}

// Metric returns the value of the named Nsight Compute metric.
func (r *Result) Metric(name string) (float64, bool) {
	for _, m := range r.Metrics() {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

func (s *sm) result(w Workload, end int64, occ occupancyInfo) (*Result, error) {
	c, win, err := s.measured(end)
	if err != nil {
		return nil, err
	}
	r := &Result{
		Workload: w.Name, Machine: s.m, Policy: policyName(s.policy, s.twoN), Launch: w.Launch,
		BlocksOnSM: occ.blocksOnSM, OccupancyBlocks: occ.limit, ResidentBlocks: occ.resident,
		Limiter: occ.limiter, OccupancySource: occ.source,
		Measured: win, RunCycles: int(end), Cycles: win.To - win.From,
		steady: s.meas != nil && s.meas.steady,
	}
	if occ.resident > 0 {
		r.Waves = float64(occ.blocksOnSM) / float64(occ.resident)
	}
	for i := range c.scheds {
		sc := &c.scheds[i]
		ss := SchedulerStats{Scheduler: i, ActiveCycles: int(sc.active), IssueCycles: int(sc.issued), Instructions: int(sc.inst), ThreadInstructions: int(sc.threads)}
		for st := Selected; st < numStates; st++ {
			ss.stateCycles[st] = int(sc.cycles[st])
			r.stateCycles[st] += int(sc.cycles[st])
			r.WarpCycles += int(sc.cycles[st])
		}
		r.ActiveCycles += ss.ActiveCycles
		r.IssueCycles += ss.IssueCycles
		r.Instructions += ss.Instructions
		r.ThreadInstructions += ss.ThreadInstructions
		r.Schedulers = append(r.Schedulers, ss)
	}
	if r.ActiveCycles > 0 {
		a := float64(r.ActiveCycles)
		r.IssueActive = 100 * float64(r.IssueCycles) / a
		r.NoEligible = 100 * float64(r.ActiveCycles-r.IssueCycles) / a
		r.IssuedPerCycle = float64(r.Instructions) / a
		r.WarpsActive = float64(r.WarpCycles) / a
		r.WarpsEligible = float64(r.stateCycles[Selected]+r.stateCycles[NotSelected]) / a
	}
	if r.Instructions > 0 {
		r.WarpCyclesPerIssue = float64(r.WarpCycles) / float64(r.Instructions)
		r.ThreadsPerInst = float64(r.ThreadInstructions) / float64(r.Instructions)
	}
	if c.smActive > 0 {
		r.AchievedOccupancy = 100 * float64(r.WarpCycles) / (float64(c.smActive) * float64(s.m.MaxWarps))
	}
	r.TheoreticalOccupancy = 100 * float64(occ.limit*s.warpsPerBlock) / float64(s.m.MaxWarps)
	if s.tr != nil {
		t := s.tr.t
		r.Trace = &t
	}
	r.Lines = s.lines(&c.pc)
	return r, nil
}

// Report returns a human report laid out like Nsight Compute's Scheduler
// Statistics and Warp State Statistics sections.
func (r *Result) Report() string {
	var b strings.Builder
	name := cmp.Or(r.Workload, "workload")
	fmt.Fprintf(&b, "%s on %s (policy %s)\n", name, r.Machine.Name, r.Policy)
	fmt.Fprintf(&b, "  launch: grid %d × block %d threads; this SM runs %d, %d at a time (occupancy allows %d, limited by %s), %.2f waves\n",
		r.Launch.Blocks, r.Launch.Block, r.BlocksOnSM, r.ResidentBlocks, r.OccupancyBlocks, r.Limiter, r.Waves)
	if r.steady || r.Measured != (Window{From: 0, To: r.RunCycles}) {
		how := "window"
		if r.steady {
			how = "steady state"
		}
		fmt.Fprintf(&b, "  measured: cycles [%d, %d) of %d (%s); every figure below covers only these cycles\n",
			r.Measured.From, r.Measured.To, r.RunCycles, how)
	}
	b.WriteString("\n")

	row := func(name, unit, val string) {
		fmt.Fprintf(&b, "    %-40s %-8s %14s\n", name, unit, val)
	}
	rule := "    " + strings.Repeat("-", 40) + " " + strings.Repeat("-", 8) + " " + strings.Repeat("-", 14) + "\n"
	f2 := func(v float64) string { return fmt.Sprintf("%.2f", v) }

	b.WriteString("  Section: GPU Speed Of Light\n" + rule)
	row("Elapsed Cycles", "cycle", fmt.Sprint(r.Cycles))
	row("Executed Instructions", "inst", fmt.Sprint(r.Instructions))
	b.WriteString(rule + "\n")

	b.WriteString("  Section: Scheduler Statistics\n" + rule)
	row("One or More Eligible", "%", f2(r.IssueActive))
	row("Issued Warp Per Scheduler", "", f2(r.IssuedPerCycle))
	row("No Eligible", "%", f2(r.NoEligible))
	row("Active Warps Per Scheduler", "warp", f2(r.WarpsActive))
	row("Eligible Warps Per Scheduler", "warp", f2(r.WarpsEligible))
	b.WriteString(rule + "\n")

	b.WriteString("  Section: Warp State Statistics\n" + rule)
	row("Warp Cycles Per Issued Instruction", "cycle", f2(r.WarpCyclesPerIssue))
	row("Avg. Active Threads Per Warp", "", f2(r.ThreadsPerInst))
	b.WriteString(rule)
	fmt.Fprintf(&b, "    %-40s %-8s %14s\n", "Warp State (cycles per issued inst.)", "", "")
	maxv := 0.0
	for _, st := range States() {
		if v := r.Stall(st); v > maxv {
			maxv = v
		}
	}
	for _, st := range States() {
		v := r.Stall(st)
		if r.stateCycles[st] == 0 {
			continue
		}
		bar := ""
		if maxv > 0 {
			bar = strings.Repeat("█", int(20*v/maxv+0.5))
		}
		fmt.Fprintf(&b, "      %-38s %-8s %14s  %s\n", st.String(), "cycle", f2(v), bar)
	}
	b.WriteString(rule + "\n")

	b.WriteString("  Section: Occupancy\n" + rule)
	row("Theoretical Occupancy", "%", f2(r.TheoreticalOccupancy))
	row("Achieved Occupancy", "%", f2(r.AchievedOccupancy))
	row("Waves Per SM", "", f2(r.Waves))
	b.WriteString(rule)
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
