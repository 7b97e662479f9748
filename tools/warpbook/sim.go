package main

import (
	"bufio"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/engine/sass"
	"github.com/warpbook/warpbook/engine/sim"
	"github.com/warpbook/warpbook/snippets/page"
)

var simCommand = command{
	summary: "simulate the warp schedulers of one SM running a workload file or a kernel's SASS",
	usage: `usage: warpbook sim [flags] FILE.yaml
       warpbook sim [flags] LISTING KERNEL.yaml

Simulates the warp schedulers of one SM running the workload in FILE.yaml
and reports what Nsight Compute would: issue-slot utilisation, active and
eligible warps per scheduler, warp cycles per issued instruction and its
breakdown by stall reason. --json prints the metrics under their Nsight
Compute names.

With two files it runs a compiled kernel's SASS: LISTING is the output of
cuobjdump -sass -res-usage (or nvdisasm -hex) of a cubin compiled for sm_70
or later, "-" for standard input, and KERNEL.yaml says what the SASS cannot:
the launch, the trip count of every loop and, where the defaults do not
hold, how branches go and where memory accesses hit (see "go doc
./engine/sim ParseKernel" and docs/sass.md). The report then adds each
instruction's executions and warp-state samples, as Nsight Compute's source
view shows them, and the instructions the largest stalls wait for; --json
adds them under "lines" with Nsight Compute's source-counter names.
--lines adds the same per-instruction table for a workload file. --trace writes the state of every warp slot in every cycle
of the trace window as CSV (cycle,slot,scheduler,block,warp,state).
--measure restricts every figure to the cycles FROM ≤ t < TO of the run,
or to its steady state (from the first cycle warps can issue through the
first EXIT after the grid's last block launched); see "go doc
./engine/sim" under "Measurement window". "warpbook gpus" lists the
presets.

policies: lrr, gto, gty, oldest, two_level:N`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		var o simOptions
		fs.StringVar(&o.gpu, "gpu", "", "preset to run on, overriding the file's gpu")
		fs.StringVar(&o.policy, "policy", "", "scheduling policy, overriding the file's policy")
		fs.BoolVar(&o.json, "json", false, "print JSON (metrics keyed by Nsight Compute name) instead of the report")
		fs.StringVar(&o.trace, "trace", "", "write the per-cycle, per-warp-slot states to this CSV file")
		fs.IntVar(&o.traceFrom, "trace-from", 0, "first cycle of the trace window")
		fs.IntVar(&o.traceLen, "trace-cycles", 2000, "cycles in the trace window")
		fs.IntVar(&o.maxCycles, "max-cycles", 0, "stop with an error after this many cycles (0: the default limit)")
		fs.StringVar(&o.measure, "measure", "", "measure only cycles `FROM:TO` of the run, or steady for its steady state (default: the whole run)")
		fs.BoolVar(&o.lines, "lines", false, "add the per-instruction results to a workload file's report (a kernel's always has them)")
		return func(args []string) int {
			switch len(args) {
			case 1:
				return runSim(c, o, args[0], "")
			case 2:
				return runSim(c, o, args[1], args[0])
			}
			return c.usagef("want a workload file, or a SASS listing and a kernel file; not %d arguments", len(args))
		}
	},
}

// simOptions are the flags of warpbook sim.
type simOptions struct {
	gpu, policy, trace, measure    string
	json, lines                    bool
	traceFrom, traceLen, maxCycles int
}

// runSim runs one workload file, or, when listing is not "", the kernel
// file name about a function of that SASS listing ("-": standard input).
func runSim(c *cli, o simOptions, name, listing string) int {
	if o.trace != "" && (o.traceFrom < 0 || o.traceLen < 1) {
		return c.usagef("--trace-from must be ≥ 0 and --trace-cycles ≥ 1")
	}
	cfg := sim.Config{MaxCycles: o.maxCycles}
	if o.measure != "" {
		if err := parseMeasure(o.measure, &cfg); err != nil {
			return c.usagef("%v", err)
		}
	}
	if o.trace != "" {
		// Refuse a target that cannot take the trace before running.
		if _, _, err := traceTarget(o.trace); err != nil {
			return c.failf("%v", err)
		}
	}
	what := "a workload file"
	if listing != "" {
		what = "a kernel file"
	}
	data, err := page.ReadFile(nil, name, maxWorkloadBytes, what)
	if err != nil {
		return c.failf("%v", err)
	}
	var w sim.Workload
	if listing == "" {
		w, err = sim.ParseWorkload(name, data)
	} else if l, lerr := readListing(c, listing); lerr != nil {
		err = lerr
	} else {
		w, err = sim.ParseKernel(name, data, l)
	}
	if err != nil {
		fmt.Fprintln(c.stderr, err)
		return 1
	}
	lines := o.lines || w.Kernel != nil
	if o.gpu != "" {
		w.GPU = o.gpu
	}
	if o.policy != "" {
		w.Policy = o.policy
	}
	if o.trace != "" {
		cfg.Trace = sim.Window{From: o.traceFrom, To: o.traceFrom + o.traceLen}
	}
	r, err := cfg.Run(w)
	if errors.Is(err, sim.ErrMaxCycles) {
		return c.failf("%s: the run did not finish within %d cycles (raise --max-cycles)", name, cmp.Or(o.maxCycles, sim.DefaultMaxCycles))
	}
	if err != nil {
		fmt.Fprintln(c.stderr, err)
		return 1
	}
	if o.trace != "" {
		if err := writeTrace(o.trace, r.Trace); err != nil {
			return c.failf("%v", err)
		}
	}
	if o.json {
		j := simJSON(r, cfg)
		if lines {
			j.Lines = linesJSON(r)
		}
		return printJSON(c, j)
	}
	out := r.Report()
	if lines {
		out += sourceReport(r)
	}
	if _, err := io.WriteString(c.stdout, out); err != nil {
		return c.failf("%v", err)
	}
	return 0
}

type simLaunchJSON struct {
	Block           int     `json:"block"`
	Blocks          int     `json:"blocks"`
	Regs            int     `json:"regs"`
	Smem            int     `json:"smem"`
	BlocksOnSM      int     `json:"blocks_on_sm"`
	OccupancyBlocks int     `json:"occupancy_blocks"`
	ResidentBlocks  int     `json:"resident_blocks"`
	Limiter         string  `json:"limiter"`
	OccupancySource string  `json:"occupancy_source"`
	Waves           float64 `json:"waves"`
}

type simSchedulerJSON struct {
	Scheduler    int            `json:"scheduler"`
	ActiveCycles int            `json:"active_cycles"`
	Instructions int            `json:"instructions"`
	WarpCycles   map[string]int `json:"warp_cycles"`
}

// simMeasuredJSON says which cycles the metrics cover, when --measure
// asked for less than the whole run.
type simMeasuredJSON struct {
	From      int    `json:"from"`
	To        int    `json:"to"`
	RunCycles int    `json:"run_cycles"`
	How       string `json:"how"` // "window" or "steady"
}

type simOutJSON struct {
	Workload   string             `json:"workload"`
	GPU        string             `json:"gpu"`
	Policy     string             `json:"policy"`
	Launch     simLaunchJSON      `json:"launch"`
	Measured   *simMeasuredJSON   `json:"measured,omitempty"`
	Metrics    map[string]float64 `json:"metrics"`
	Dominant   string             `json:"dominant_stall"`
	Schedulers []simSchedulerJSON `json:"schedulers"`
	Lines      []simLineJSON      `json:"lines,omitempty"`
}

// simLineJSON is one instruction's results: its metrics under Nsight
// Compute's source-counter names (inst_executed, thread_inst_executed,
// smsp__pcsamp_sample_count, smsp__pcsamp_warps_issue_stalled_<reason>
// for each reason sampled) and the instructions its stalls waited for.
type simLineJSON struct {
	PC      int            `json:"pc"`
	Address string         `json:"address,omitempty"`
	Text    string         `json:"sass"`
	Metrics map[string]int `json:"metrics"`
	Causes  []simCauseJSON `json:"causes,omitempty"`
}

// simCauseJSON is a share of a line's stalls traced to the instruction
// that caused them.
type simCauseJSON struct {
	PC      int    `json:"pc"`
	Address string `json:"address,omitempty"`
	Text    string `json:"sass"`
	Reason  string `json:"reason"`
	SB      *int   `json:"sb,omitempty"`
	Samples int    `json:"samples"`
}

// parseMeasure reads the --measure flag into cfg: "steady" or "FROM:TO".
func parseMeasure(v string, cfg *sim.Config) error {
	if v == "steady" {
		cfg.Steady = true
		return nil
	}
	from, to, ok := strings.Cut(v, ":")
	a, err1 := strconv.Atoi(strings.TrimSpace(from))
	b, err2 := strconv.Atoi(strings.TrimSpace(to))
	if !ok || err1 != nil || err2 != nil {
		return fmt.Errorf("--measure %q: want FROM:TO (cycles, e.g. 1000:5000) or steady", v)
	}
	if a < 0 || b <= a {
		return fmt.Errorf("--measure %q: want 0 ≤ FROM < TO", v)
	}
	cfg.Measure = sim.Window{From: a, To: b}
	return nil
}

func simJSON(r *sim.Result, cfg sim.Config) simOutJSON {
	o := simOutJSON{
		Workload: r.Workload, GPU: r.Machine.Name, Policy: r.Policy,
		Launch: simLaunchJSON{Block: r.Launch.Block, Blocks: r.Launch.Blocks, Regs: r.Launch.Regs, Smem: r.Launch.Smem,
			BlocksOnSM: r.BlocksOnSM, OccupancyBlocks: r.OccupancyBlocks, ResidentBlocks: r.ResidentBlocks,
			Limiter: r.Limiter, OccupancySource: r.OccupancySource, Waves: r.Waves},
		Metrics:  map[string]float64{},
		Dominant: r.Dominant().String(),
	}
	if cfg.Steady || cfg.Measure != (sim.Window{}) {
		how := "window"
		if cfg.Steady {
			how = "steady"
		}
		o.Measured = &simMeasuredJSON{From: r.Measured.From, To: r.Measured.To, RunCycles: r.RunCycles, How: how}
	}
	for _, m := range r.Metrics() {
		o.Metrics[m.Name] = m.Value
	}
	for _, sc := range r.Schedulers {
		s := simSchedulerJSON{Scheduler: sc.Scheduler, ActiveCycles: sc.ActiveCycles, Instructions: sc.Instructions, WarpCycles: map[string]int{}}
		for _, st := range sim.States() {
			s.WarpCycles[st.String()] = sc.StateCycles(st)
		}
		o.Schedulers = append(o.Schedulers, s)
	}
	return o
}

func linesJSON(r *sim.Result) []simLineJSON {
	addr := func(a int) string {
		if a < 0 {
			return ""
		}
		return fmt.Sprintf("0x%04x", a)
	}
	out := make([]simLineJSON, 0, len(r.Lines))
	for _, l := range r.Lines {
		j := simLineJSON{PC: l.PC, Address: addr(l.Address), Text: l.Text, Metrics: map[string]int{
			"inst_executed": l.Issued, "thread_inst_executed": l.Threads, "smsp__pcsamp_sample_count": l.Total()}}
		for _, st := range sim.States() {
			if n := l.Samples(st); n > 0 {
				j.Metrics[sim.PCSampleMetric(st)] = n
			}
		}
		for _, c := range l.Causes {
			cj := simCauseJSON{PC: c.PC, Text: r.Lines[c.PC].Text, Address: addr(r.Lines[c.PC].Address), Reason: c.State.String(), Samples: c.Cycles}
			if c.SB >= 0 {
				sb := c.SB
				cj.SB = &sb
			}
			j.Causes = append(j.Causes, cj)
		}
		out = append(out, j)
	}
	return out
}

// sourceReport is the report's per-instruction part: the source view and
// what the largest stalls wait for.
func sourceReport(r *sim.Result) string {
	var b strings.Builder
	b.WriteString("\n  Section: Source Counters (warp-cycles sampled per instruction)\n")
	for _, l := range strings.Split(strings.TrimRight(r.SourceView(), "\n"), "\n") {
		b.WriteString("    " + strings.TrimRight(l, " ") + "\n")
	}
	var blames []sim.Blame
	for _, st := range sim.States() {
		if st != sim.Selected && st != sim.NotSelected {
			blames = append(blames, r.Blames(st)...)
		}
	}
	sort.SliceStable(blames, func(i, j int) bool { return blames[i].Cause.Cycles > blames[j].Cause.Cycles })
	if len(blames) > 0 {
		b.WriteString("\n  Largest stalls, by the instruction they wait for\n")
		for _, bl := range blames[:min(len(blames), 8)] {
			b.WriteString("    " + bl.String() + "\n")
		}
	}
	return b.String()
}

// readListing reads and parses a SASS listing from a file or, for "-",
// from standard input.
func readListing(c *cli, name string) (*sass.Listing, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(io.LimitReader(c.stdin, sass.MaxListingBytes+1))
		name = "<stdin>"
	} else {
		data, err = page.ReadFile(nil, name, sass.MaxListingBytes, "a SASS listing")
	}
	if err != nil {
		return nil, fmt.Errorf("warpbook sim: %w", err)
	}
	return sass.Parse(name, data)
}

// maxWorkloadBytes bounds the workload file sim reads: 1 MiB.
const maxWorkloadBytes = 1 << 20

// traceTarget returns the file --trace PATH writes and the mode to give
// it: PATH itself, or the file a symbolic link at PATH leads to (the link
// stays). It refuses a PATH that exists and is not a regular file, such
// as a named pipe or a device, which a rename would replace.
func traceTarget(path string) (string, fs.FileMode, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil {
			return "", 0, fmt.Errorf("--trace %s is a symbolic link to a missing file", path)
		}
		return path, 0o644, nil
	}
	if err != nil {
		return "", 0, fmt.Errorf("--trace: %w", err)
	}
	if m := fi.Mode(); !m.IsRegular() {
		what := "an irregular file"
		switch {
		case m.IsDir():
			what = "a directory"
		case m&fs.ModeNamedPipe != 0:
			what = "a named pipe"
		case m&fs.ModeDevice != 0:
			what = "a device"
		case m&fs.ModeSocket != 0:
			what = "a socket"
		}
		return "", 0, fmt.Errorf("--trace %s is %s, not a regular file: give the path of a regular file or a new one", path, what)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", 0, fmt.Errorf("--trace: %w", err)
	}
	return real, fi.Mode().Perm(), nil
}

// writeTrace writes the trace as CSV, one row per occupied warp slot per
// cycle of the window, through a temporary file renamed over the target
// (see [traceTarget]), so that a failure leaves no half-written file
// behind.
func writeTrace(path string, t *sim.Trace) error {
	if t == nil {
		return fmt.Errorf("no trace recorded")
	}
	path, mode, err := traceTarget(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".trace-*.csv")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriter(tmp)
	fmt.Fprintln(bw, "cycle,slot,scheduler,block,warp,state")
	// The span holding each slot, advanced as the cycles go by.
	bySlot := make([][]sim.Span, t.Slots)
	for _, s := range t.Spans {
		bySlot[s.Slot] = append(bySlot[s.Slot], s)
	}
	next := make([]int, t.Slots)
	end := min(t.To, t.End)
	for c := t.From; c < end; c++ {
		for slot := 0; slot < t.Slots; slot++ {
			spans := bySlot[slot]
			for next[slot] < len(spans) && spans[next[slot]].End <= c {
				next[slot]++
			}
			if next[slot] == len(spans) || spans[next[slot]].Start > c {
				continue
			}
			s := spans[next[slot]]
			fmt.Fprintf(bw, "%d,%d,%d,%d,%d,%s\n", c, slot, s.Scheduler, s.Block, s.Warp, t.At(slot, c))
		}
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
