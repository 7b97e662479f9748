package latency_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/latency"
	"github.com/warpbook/warpbook/engine/sim"
)

// TestWarpsAgainstTheSimulator holds Warps to the simulator, which knows
// nothing of the formula: on a one-scheduler machine whose FFMA has the
// given latency and initiation interval, warps running ilp independent
// FFMA chains keep the pipe busy with Warps(latency, ilp, interval) warps
// and not with one fewer.
func TestWarpsAgainstTheSimulator(t *testing.T) {
	cases := []struct{ latency, ilp, interval int }{
		{4, 1, 1}, {4, 2, 1}, {4, 1, 2}, {6, 1, 1}, {11, 3, 1}, {18, 2, 2},
		{24, 4, 1}, {24, 1, 4}, {25, 8, 1}, {30, 4, 2}, {7, 8, 1}, {40, 6, 1},
	}
	if testing.Short() {
		cases = cases[:4]
	}
	// pipeBusy is the share of cycles in which the FFMA pipe takes a new
	// instruction, in the steady state.
	pipeBusy := func(c struct{ latency, ilp, interval int }, warps int) float64 {
		m := sim.Toy()
		m.FMA = sim.Pipe{Latency: c.latency, Interval: c.interval}
		body := sim.NewProgram().ILP(c.ilp, "FFMA", "r0", "r0", "r1")
		r, err := sim.Config{Machine: &m, Steady: true}.Run(sim.Workload{
			Launch:  sim.Launch{Block: 32 * warps, Blocks: 1},
			Program: sim.NewProgram().Loop(40*c.latency/c.ilp+40, body),
		})
		if err != nil {
			t.Fatal(err)
		}
		return r.IssueActive / 100 * float64(c.interval)
	}
	for _, c := range cases {
		w, err := latency.Warps(c.latency, c.ilp, c.interval)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("latency %d ilp %d interval %d", c.latency, c.ilp, c.interval)
		if got := pipeBusy(c, w); got < 0.99 {
			t.Errorf("%s: %d warps keep the pipe %.1f %% busy, want 100 %%", name, w, 100*got)
		}
		if w > 1 {
			if got := pipeBusy(c, w-1); got > 0.985 {
				t.Errorf("%s: %d warps (one fewer than Warps) keep the pipe %.1f %% busy already", name, w-1, 100*got)
			}
		}
	}
}

// TestWarpsRule: the 4L rule of the CUDA C++ Programming Guide (4 × L
// instructions in flight per SM of four schedulers, one each per cycle) is
// the case ilp 1, interval 1.
func TestWarpsRule(t *testing.T) {
	for _, l := range []int{4, 6, 11, 24} {
		w, _ := latency.Warps(l, 1, 1)
		if 4*w != 4*l {
			t.Errorf("latency %d: %d warps per scheduler, the guide's 4L gives %d per SM", l, w, 4*l)
		}
	}
	for _, bad := range [][3]int{{0, 1, 1}, {4, 0, 1}, {4, 1, 0}, {-4, 1, 1}} {
		if _, err := latency.Warps(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("Warps%v is no error", bad)
		}
		if _, err := latency.ExplainWarps(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("ExplainWarps%v is no error", bad)
		}
	}
	steps, err := latency.ExplainWarps(400, 4, 1)
	if err != nil || !strings.HasSuffix(steps[len(steps)-1], "= 100 per scheduler") {
		t.Errorf("ExplainWarps(400, 4, 1) = %q, %v", steps, err)
	}
}

// TestBytesInFlight: the A100's sustained 1,407 GB/s (Luo et al., the
// ampere preset's source) at a 600 ns latency needs 844 KB in flight;
// units of GB/s and ns give bytes.
func TestBytesInFlight(t *testing.T) {
	b, err := latency.BytesInFlight(1407, 600)
	if err != nil || math.Abs(b-844200) > 1e-6 {
		t.Errorf("BytesInFlight(1407, 600) = %v, %v", b, err)
	}
	steps, err := latency.ExplainBytesInFlight(1407, 600, 108)
	if err != nil || !strings.Contains(steps[1], "7,817 bytes per SM") {
		t.Errorf("ExplainBytesInFlight = %q, %v", steps, err)
	}
	for _, bad := range [][2]float64{{0, 1}, {1, 0}, {math.NaN(), 1}, {math.Inf(1), 1}, {-1, 5}} {
		if _, err := latency.BytesInFlight(bad[0], bad[1]); err == nil {
			t.Errorf("BytesInFlight%v is no error", bad)
		}
	}
}

// TestIssueRateIdentity: the simulator's own metrics obey IssueRate's
// identity (issue-slot use = active warps ÷ warp cycles per issue) on a
// run with memory stalls, the figures a Nsight Compute report gives.
func TestIssueRateIdentity(t *testing.T) {
	body := sim.NewProgram().LDG("r2", "r3", "dram").FFMA("r4", "r2", "r1").ILP(3, "FFMA", "r5", "r5", "r1")
	r, err := sim.Config{Steady: true}.Run(sim.Workload{GPU: "ampere", Launch: sim.Launch{Block: 256, Blocks: 1}, Program: sim.NewProgram().Loop(30, body)})
	if err != nil {
		t.Fatal(err)
	}
	rate, err := latency.IssueRate(r.WarpsActive, r.WarpCyclesPerIssue)
	if err != nil || math.Abs(100*rate-r.IssueActive) > 1e-9 {
		t.Errorf("IssueRate(%v, %v) = %v (%v), the simulator's issue active is %v %%", r.WarpsActive, r.WarpCyclesPerIssue, rate, err, r.IssueActive)
	}
	if _, err := latency.IssueRate(1, 0); err == nil {
		t.Error("IssueRate with 0 cycles per issue is no error")
	}
}
