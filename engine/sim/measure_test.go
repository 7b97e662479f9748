package sim

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestMeasureWindow: on toy, eight warps on a dependent FFMA chain under
// LRR settle into a rotation in which every cycle one warp issues, the
// three that issued in the three cycles before wait on the 4-cycle latency
// and the other four are eligible but not selected. Over any window inside
// that rotation the figures are exact: 100 % issue active, 8 active and 5
// eligible warps per scheduler, 8 warp cycles per issued instruction made
// of 1 selected + 3 wait + 4 not_selected. The whole run is not exact: it
// includes the start and the tail.
func TestMeasureWindow(t *testing.T) {
	w := Workload{Name: "lrr8", GPU: "toy", Policy: "lrr", Launch: Launch{Block: 256, Blocks: 1}, Program: chain("FFMA", 1000)}
	whole, err := Run(w)
	if err != nil {
		t.Fatal(err)
	}
	r := runWith(t, Config{Measure: Window{From: 1000, To: 3000}}, w)
	want := map[string]float64{
		"sm__cycles_elapsed.avg":                                         2000,
		"smsp__inst_executed.sum":                                        2000,
		"smsp__issue_active.avg.pct_of_peak_sustained_active":            100,
		"smsp__issue_inst0.avg.pct_of_peak_sustained_active":             0,
		"smsp__warps_active.avg.per_cycle_active":                        8,
		"smsp__warps_eligible.avg.per_cycle_active":                      5,
		"smsp__average_warp_latency_per_inst_issued.ratio":               8,
		Selected.Metric():                                                1,
		Wait.Metric():                                                    3,
		NotSelected.Metric():                                             4,
		"sm__warps_active.avg.pct_of_peak_sustained_active":              100 * 8.0 / 64,
		"smsp__thread_inst_executed_per_inst_executed.ratio":             32,
		"smsp__average_warps_issue_stalled_drain_per_issue_active.ratio": 0,
	}
	for name, v := range want {
		if got, ok := r.Metric(name); !ok || got != v {
			t.Errorf("%s over [1000, 3000) = %v, want exactly %v", name, got, v)
		}
	}
	if r.Measured != (Window{From: 1000, To: 3000}) || r.RunCycles != whole.Cycles {
		t.Errorf("measured %v of %d cycles, want [1000, 3000) of %d", r.Measured, r.RunCycles, whole.Cycles)
	}
	if whole.Stall(NotSelected) == 4 {
		t.Errorf("the whole run's not_selected is exactly 4; the test cannot tell a window from the whole run")
	}
	if !strings.Contains(r.Report(), fmt.Sprintf("measured: cycles [1000, 3000) of %d (window)", whole.Cycles)) {
		t.Errorf("the report does not say which cycles it covers:\n%s", r.Report())
	}
	if strings.Contains(whole.Report(), "measured:") {
		t.Errorf("a whole-run report names a window:\n%s", whole.Report())
	}
	// Measuring changes nothing in the run.
	traced, err := Config{Trace: Window{From: 0, To: 100}}.Run(w)
	if err != nil {
		t.Fatal(err)
	}
	both, err := Config{Trace: Window{From: 0, To: 100}, Measure: Window{From: 50, To: 60}}.Run(w)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(traced.Trace, both.Trace) {
		t.Errorf("measuring a window changed the trace")
	}
}

// TestMeasureSteady reproduces the distortion the steady state removes.
// Under GTO, W > 4 warps on a dependent FFMA chain on toy keep every issue
// slot busy (four warps suffice) while the surplus warps wait as
// not_selected, W-4 per issued instruction; but greedy scheduling starves
// the youngest warps, which then finish alone at W'/4 of the slots, so the
// whole-run average falls below 100 % and understates not_selected. The
// steady state leaves that tail out.
func TestMeasureSteady(t *testing.T) {
	for W := 5; W <= 8; W++ {
		w := Workload{Name: fmt.Sprintf("gto/W=%d", W), GPU: "toy", Policy: "gto",
			Launch: Launch{Block: 32 * W, Blocks: 1}, Program: chain("FFMA", 1000)}
		whole, err := Run(w)
		if err != nil {
			t.Fatal(err)
		}
		r := runWith(t, Config{Steady: true}, w)
		if W < 8 && whole.IssueActive > 99 {
			t.Errorf("W=%d: the whole run issues on %.2f%% of cycles; want the tail to show", W, whole.IssueActive)
		}
		if r.IssueActive != 100 {
			t.Errorf("W=%d: steady state issue active %.3f%%, want exactly 100%%", W, r.IssueActive)
		}
		if !within(r.Stall(NotSelected), float64(W-4), 0.01) || !within(r.Stall(Wait), 3, 0.01) {
			t.Errorf("W=%d: steady not_selected %.4f and wait %.4f, want %d and 3", W, r.Stall(NotSelected), r.Stall(Wait), W-4)
		}
		if r.Measured.From != 0 || r.Measured.To >= r.RunCycles {
			t.Errorf("W=%d: steady window %v of %d cycles", W, r.Measured, r.RunCycles)
		}
		if !strings.Contains(r.Report(), "(steady state)") {
			t.Errorf("W=%d: the report does not name the steady state", W)
		}
	}
	// On a preset with a fetch latency the window starts when the first
	// warps can issue, and in a grid of several waves it ends at the first
	// EXIT after the last block launched, not at the first EXIT.
	w := Workload{Name: "waves", GPU: "volta", Launch: Launch{Block: 1024, Blocks: 80 * 3, Resident: 1}, Program: chain("FFMA", 200)}
	r, err := Config{Steady: true, Trace: Window{From: 0, To: 20000}}.Run(w)
	if err != nil {
		t.Fatal(err)
	}
	firstExit, lastLaunch := -1, 0
	for _, s := range r.Trace.Spans {
		lastLaunch = max(lastLaunch, s.Start)
	}
	for _, is := range r.Trace.Issues {
		if is.Op == "EXIT" && is.Cycle >= lastLaunch {
			firstExit = is.Cycle
			break
		}
	}
	if want := (Window{From: Volta().FetchLatency, To: firstExit + 1}); r.Measured != want || lastLaunch == 0 {
		t.Errorf("steady window %v, want %v (last block launched at cycle %d)", r.Measured, want, lastLaunch)
	}
}

// TestMeasureErrors: a window outside the run or a malformed one is an
// error that says what is wrong and what is wanted.
func TestMeasureErrors(t *testing.T) {
	w := Workload{Name: "w", GPU: "toy", Launch: Launch{Block: 32, Blocks: 1}, Program: chain("FFMA", 10)}
	whole, err := Run(w)
	if err != nil {
		t.Fatal(err)
	}
	end := whole.Cycles
	for _, c := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"negative", Config{Measure: Window{From: -1, To: 10}}, "sim: measure window [-1, 10), want 0 ≤ From < To"},
		{"empty", Config{Measure: Window{From: 5, To: 5}}, "sim: measure window [5, 5), want 0 ≤ From < To"},
		{"reversed", Config{Measure: Window{From: 9, To: 3}}, "sim: measure window [9, 3), want 0 ≤ From < To"},
		{"from only", Config{Measure: Window{From: 5}}, "sim: measure window [5, 0), want 0 ≤ From < To"},
		{"past the end", Config{Measure: Window{From: 0, To: end + 1}},
			fmt.Sprintf("sim: measure window [0, %d) reaches past the end of the run at cycle %d; want 0 ≤ From < To ≤ %d", end+1, end, end)},
		{"after the run", Config{Measure: Window{From: end + 5, To: end + 10}},
			fmt.Sprintf("sim: measure window [%d, %d) reaches past the end of the run at cycle %d", end+5, end+10, end)},
		{"both", Config{Steady: true, Measure: Window{From: 0, To: 10}},
			"sim: Config.Steady and Config.Measure [0, 10) are both set; want one of them"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := c.cfg.Run(w)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || r != nil {
				t.Errorf("got %v, %v; want the error %q", r, err, c.want)
			}
		})
	}
	// The last cycle of the run is inside it.
	if _, err := (Config{Measure: Window{From: end - 1, To: end}}).Run(w); err != nil {
		t.Errorf("[end-1, end): %v", err)
	}
}
