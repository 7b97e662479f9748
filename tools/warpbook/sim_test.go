package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// simExample is the workload file of issue 5, exactly as written there.
const simExample = "../../engine/sim/testdata/example.yaml"

func runSimCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(append([]string{"sim"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestSimExampleJSON is the issue's acceptance check: "warpbook sim
// example.yaml --json" runs the example and prints every metric the issue
// names under its Nsight Compute name.
func TestSimExampleJSON(t *testing.T) {
	code, out, errs := runSimCLI(t, simExample, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		GPU     string             `json:"gpu"`
		Policy  string             `json:"policy"`
		Metrics map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if got.GPU != "toy" || got.Policy != "gto" {
		t.Errorf("gpu %q policy %q, want toy and gto", got.GPU, got.Policy)
	}
	want := []string{
		"sm__cycles_elapsed.avg", "smsp__inst_executed.sum",
		"smsp__issue_active.avg.pct_of_peak_sustained_active", "smsp__issue_inst0.avg.pct_of_peak_sustained_active",
		"smsp__warps_active.avg.per_cycle_active", "smsp__warps_eligible.avg.per_cycle_active",
		"smsp__average_warp_latency_per_inst_issued.ratio", "sm__warps_active.avg.pct_of_peak_sustained_active",
		"smsp__thread_inst_executed_per_inst_executed.ratio",
	}
	for _, r := range []string{"selected", "not_selected", "wait", "short_scoreboard", "long_scoreboard", "barrier",
		"membar", "math_pipe_throttle", "mio_throttle", "lg_throttle", "no_instruction", "branch_resolving", "drain", "sleeping"} {
		want = append(want, "smsp__average_warps_issue_stalled_"+r+"_per_issue_active.ratio")
	}
	for _, m := range want {
		if _, ok := got.Metrics[m]; !ok {
			t.Errorf("metric %s missing from --json output", m)
		}
	}
	if got.Metrics["smsp__inst_executed.sum"] != 1604 {
		t.Errorf("smsp__inst_executed.sum = %v, want 1604 (4 warps × 401)", got.Metrics["smsp__inst_executed.sum"])
	}
	// Same input, same bytes out.
	_, again, _ := runSimCLI(t, "--json", simExample)
	if again != out {
		t.Errorf("a second run (flags before the file) printed different bytes")
	}
}

// TestSimReport: the text report has Nsight Compute's sections; --gpu and
// --policy override the file.
func TestSimReport(t *testing.T) {
	code, out, errs := runSimCLI(t, simExample, "--gpu", "volta", "--policy", "two_level:2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, s := range []string{"on volta (policy two_level:2)", "Section: Scheduler Statistics", "One or More Eligible",
		"Section: Warp State Statistics", "Warp Cycles Per Issued Instruction", "long_scoreboard", "Achieved Occupancy"} {
		if !strings.Contains(out, s) {
			t.Errorf("report lacks %q:\n%s", s, out)
		}
	}
}

// TestSimTraceCSV: --trace writes one row per occupied warp slot per cycle
// of the window.
func TestSimTraceCSV(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.csv")
	code, _, errs := runSimCLI(t, simExample, "--trace", path, "--trace-from", "0", "--trace-cycles", "100")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != "cycle,slot,scheduler,block,warp,state" {
		t.Errorf("header %v", rows[0])
	}
	if len(rows) != 1+100*4 {
		t.Errorf("%d rows, want a header and 100 cycles × 4 warps", len(rows))
	}
	if strings.Join(rows[1], ",") != "0,0,0,0,0,selected" {
		t.Errorf("first row %v, want warp 0 selected in cycle 0", rows[1])
	}
}

// TestSimErrors: bad input gives a file:line message and exit 1; bad usage
// exit 2; no output is written.
func TestSimErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("gpu: toy\nlaunch: {block: 32}\nprogram:\n  - {op: FFMX, dst: r0}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runSimCLI(t, bad, "--json")
	if code != 1 || out != "" || !strings.Contains(errs, bad+":4:10: unknown op \"FFMX\"") {
		t.Errorf("bad workload: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	trace := filepath.Join(dir, "t.csv")
	code, _, errs = runSimCLI(t, bad, "--trace", trace)
	if _, err := os.Stat(trace); code != 1 || err == nil {
		t.Errorf("bad workload with --trace: exit %d, trace file exists: %v (%s)", code, err == nil, errs)
	}
	if code, _, _ := runSimCLI(t); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
	if code, _, _ := runSimCLI(t, "a.yaml", "b.yaml"); code != 2 {
		t.Errorf("two files: exit %d, want 2", code)
	}
	if code, _, errs := runSimCLI(t, filepath.Join(dir, "missing.yaml")); code != 1 || !strings.Contains(errs, "missing.yaml") {
		t.Errorf("missing file: exit %d, %s", code, errs)
	}
	if code, _, errs := runSimCLI(t, simExample, "--gpu", "pascal"); code != 1 || !strings.Contains(errs, `unknown gpu preset "pascal"`) {
		t.Errorf("unknown --gpu: exit %d, %s", code, errs)
	}
	if code, _, _ := runSimCLI(t, "-h"); code != 0 {
		t.Errorf("-h: exit %d, want 0", code)
	}
}

// TestSimMeasure: --measure FROM:TO and --measure steady restrict every
// figure to a window of the run and say so, in the report and in --json;
// without --measure the JSON has no "measured" entry; a malformed window
// is a usage error (exit 2), one outside the run a run error (exit 1) with
// nothing on stdout.
func TestSimMeasure(t *testing.T) {
	type out struct {
		Measured *struct {
			From      int    `json:"from"`
			To        int    `json:"to"`
			RunCycles int    `json:"run_cycles"`
			How       string `json:"how"`
		} `json:"measured"`
		Metrics map[string]float64 `json:"metrics"`
	}
	parse := func(args ...string) out {
		t.Helper()
		code, stdout, errs := runSimCLI(t, append([]string{simExample, "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var o out
		if err := json.Unmarshal([]byte(stdout), &o); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return o
	}
	whole := parse()
	if whole.Measured != nil {
		t.Errorf("without --measure the JSON names a window: %+v", *whole.Measured)
	}
	run := int(whole.Metrics["sm__cycles_elapsed.avg"])
	win := parse("--measure", "1000:2000")
	if m := win.Measured; m == nil || m.From != 1000 || m.To != 2000 || m.RunCycles != run || m.How != "window" {
		t.Errorf("--measure 1000:2000: measured %+v, want [1000, 2000) of %d", m, run)
	}
	if c := win.Metrics["sm__cycles_elapsed.avg"]; c != 1000 {
		t.Errorf("--measure 1000:2000: %v cycles elapsed, want 1000", c)
	}
	steady := parse("--measure", "steady")
	if m := steady.Measured; m == nil || m.How != "steady" || m.From != 0 || m.To <= 0 || m.To >= run {
		t.Errorf("--measure steady: measured %+v in a run of %d cycles", m, run)
	}
	code, report, _ := runSimCLI(t, simExample, "--measure", "1000:2000")
	if code != 0 || !strings.Contains(report, "measured: cycles [1000, 2000) of") {
		t.Errorf("the report does not name the window:\n%s", report)
	}
	for _, bad := range []string{"1x", "5:5", "9:3", "-1:4", "steady:1", ":"} {
		if code, stdout, errs := runSimCLI(t, simExample, "--measure", bad); code != 2 || stdout != "" || !strings.Contains(errs, "--measure") {
			t.Errorf("--measure %q: exit %d, stdout %q, stderr %q; want a usage error", bad, code, stdout, errs)
		}
	}
	code, stdout, errs := runSimCLI(t, simExample, "--measure", "0:99999999")
	if code != 1 || stdout != "" || !strings.Contains(errs, "reaches past the end of the run at cycle") {
		t.Errorf("window past the end: exit %d, stdout %q, stderr %q", code, stdout, errs)
	}
}
