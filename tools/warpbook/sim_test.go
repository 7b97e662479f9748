package main

import (
	"encoding/json"
	"testing"
)

// simExample is the workload file of issue 5, exactly as written there.
const simExample = "../../engine/sim/testdata/example.yaml"

// TestSimExampleJSON is the issue's acceptance check: "warpbook sim
// example.yaml --json" runs the example and prints every metric the issue
// names under its Nsight Compute name.
func TestSimExampleJSON(t *testing.T) {
	code, out, errs := runCmd(t, "", "sim", simExample, "--json")
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
	_, again, _ := runCmd(t, "", "sim", "--json", simExample)
	if again != out {
		t.Errorf("a second run (flags before the file) printed different bytes")
	}
}
