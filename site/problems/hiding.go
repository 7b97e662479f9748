package problems

import (
	"fmt"
	"strings"

	"github.com/warpbook/warpbook/engine/latency"
	"github.com/warpbook/warpbook/engine/sim"

	"github.com/warpbook/warpbook/internal/num"
)

// latencyGPUs are the parts latency problems are asked on.
var latencyGPUs = []string{"A100 SXM4", "H100 SXM5", "Tesla T4", "Tesla V100 SXM2", "GeForce RTX 4090", "Tesla P100 SXM2", "B200"}

func latencyFamily() Family {
	return Family{
		Name: "latency-warps", Code: "lat", Tags: []string{"latency", "littles-law", "ilp"}, Title: "Warps needed to hide a latency (Little's law, with ILP)",
		Section: "latency-hiding.md#the-4l-rule",
		draw: func(r *rng) Values {
			in := Values{{"gpu", pick(r, latencyGPUs)}}
			if r.chance(1, 2) {
				// Arithmetic: a dependent chain's latency, a few chains.
				in = append(in, Value{"latency", pick(r, []int{4, 5, 6, 8, 11, 12, 18, 22, 24, 30})}, Value{"ilp", r.between(1, 4)})
				if r.chance(1, 3) {
					in = append(in, Value{"interval", 2})
				}
			} else {
				// Memory: hundreds of cycles, more independent loads.
				in = append(in, Value{"latency", 50 * r.between(4, 16)}, Value{"ilp", pick(r, []int{1, 2, 4, 6, 8, 12, 16, 24, 32})})
			}
			return in
		},
		make: makeLatency,
	}
}

func makeLatency(in Values) (*Problem, error) {
	d, err := device(in)
	if err != nil {
		return nil, err
	}
	lat, ilp, interval := in.Int("latency"), in.Int("ilp"), max(1, in.Int("interval"))
	per, err := latency.Warps(lat, ilp, interval)
	if err != nil {
		return nil, err
	}
	warps := per * d.SubPartitions
	fits := "yes"
	if warps > d.MaxWarpsPerSM() {
		fits = "no"
	}
	sol, _ := latency.ExplainWarps(lat, ilp, interval)
	sol = append(sol, fmt.Sprintf("the SM has %d schedulers: %d × %d = %d warps per SM", d.SubPartitions, per, d.SubPartitions, warps))
	if fits == "yes" {
		sol = append(sol, fmt.Sprintf("%d warps fit the SM's %d warp slots", warps, d.MaxWarpsPerSM()))
	} else {
		sol = append(sol, fmt.Sprintf("%d warps are more than the SM's %d warp slots: warps alone cannot hide this latency; more independent work per warp (ILP) must", warps, d.MaxWarpsPerSM()))
	}
	pipe := "every scheduler issuing every cycle"
	pipeFact := ""
	if interval > 1 {
		pipe = "every scheduler's pipe busy"
		pipeFact = fmt.Sprintf(" The pipe these instructions use takes a warp instruction every %d cycles (it has %d lanes).", interval, 32/interval)
	}
	chains := "one chain"
	if ilp > 1 {
		chains = fmt.Sprintf("%d independent chains", ilp)
	}
	return &Problem{
		Params: in,
		Question: fmt.Sprintf("On the %s, each warp runs %s of dependent instructions, and each result is ready %d cycles after its instruction issues.%s How many warps per SM keep %s, and can the SM hold them?",
			d.Name, chains, lat, pipeFact, pipe),
		Given: []string{fmt.Sprintf("The model's %s: %d warp schedulers per SM, each issuing at most one warp instruction per cycle; %d warp slots per SM.", d.Name, d.SubPartitions, d.MaxWarpsPerSM())},
		Parts: []Part{
			numberPart("warps", "Warps per SM", "warps", float64(warps), 0, exactly),
			choicePart("fits", "Does the SM hold that many warps?", []string{"yes", "no"}, fits),
		},
		Answer:   Values{{"warps", warps}, {"fits", fits}},
		Solution: sol,
	}, nil
}

func bytesInFlightFamily() Family {
	return Family{
		Name: "bytes-in-flight", Code: "bif", Tags: []string{"latency", "littles-law", "memory"}, Title: "Bytes in flight for a bandwidth",
		Section: "latency-hiding.md#bytes-in-flight",
		draw: func(r *rng) Values {
			return Values{{"gpu", pick(r, latencyGPUs)}, {"bandwidth", 100 * r.between(3, 80)}, {"latency", 50 * r.between(8, 20)}, {"width", pick(r, []int{4, 8, 16})}}
		},
		make: makeBytesInFlight,
	}
}

func makeBytesInFlight(in Values) (*Problem, error) {
	d, err := device(in)
	if err != nil {
		return nil, err
	}
	bw, ns, width := in.Float("bandwidth"), in.Float("latency"), in.Int("width")
	if width != 4 && width != 8 && width != 16 {
		return nil, fmt.Errorf("problems: width %d, want 4, 8 or 16 bytes per thread", width)
	}
	total, err := latency.BytesInFlight(bw, ns)
	if err != nil {
		return nil, err
	}
	perSM := total / float64(d.SMs)
	warpLoad := 32 * width
	loads := int((perSM + float64(warpLoad) - 1) / float64(warpLoad))
	sol, _ := latency.ExplainBytesInFlight(bw, ns, d.SMs)
	sol = append(sol, fmt.Sprintf("a warp load of %d bytes per thread moves 32 × %d = %d bytes: ⌈%s ÷ %d⌉ = %d loads in flight per SM",
		width, width, warpLoad, num.Float(perSM, 1), warpLoad, loads))
	return &Problem{
		Params: in,
		Question: fmt.Sprintf("A kernel on the %s must sustain %s GB/s of DRAM traffic, and a load takes %s ns to return. How many bytes must each SM keep in flight, and how many warp-wide loads of %d bytes per thread is that?",
			d.Name, num.Float(bw, 0), num.Float(ns, 0), width),
		Given: []string{fmt.Sprintf("The model's %s has %s SMs, sharing the traffic evenly.", d.Name, num.Int(d.SMs))},
		Parts: []Part{
			numberPart("bytes", "Bytes in flight per SM", "bytes", round(perSM, 0), 0, func() (float64, bool, string) { return withinPercent(1) }),
			numberPart("loads", "Warp loads in flight per SM", "loads", float64(loads), 0, func() (float64, bool, string) { return within(1) }),
		},
		Answer:   Values{{"bytes", round(perSM, 0)}, {"loads", loads}},
		Solution: sol,
	}, nil
}

// issuePresets are the simulator presets issue-slot problems run on: those
// that issue one instruction per scheduler per cycle (no dual issue), so
// that issue-slot use is issued instructions per cycle.
var issuePresets = []string{"volta", "turing", "ampere", "hopper"}

func issueSlotFamily() Family {
	return Family{
		Name: "issue-slot", Code: "iss", Tags: []string{"issue-slot", "stalls", "nsight"}, Title: "Issue-slot utilisation from a stall breakdown",
		Section: "reading-warp-state.md#active-warps-equal-issue-rate-times-cycles-per-instruction",
		draw: func(r *rng) Values {
			var b strings.Builder
			m := pick(r, issuePresets)
			warps := pick(r, []int{2, 3, 4, 6, 8, 12, 16, 24, 32})
			fmt.Fprintf(&b, "gpu: %s\nlaunch:\n  block: %d\n  blocks: 1\n  regs: 32\nprogram:\n  - loop: %d\n    body:\n", m, 32*warps, r.between(12, 30))
			level := pick(r, []string{"l1", "l2", "dram"})
			fmt.Fprintf(&b, "      - {op: LDG, dst: r2, src: [r3], level: %s}\n", level)
			for i := range r.between(1, 3) {
				src := "r2"
				if i > 0 {
					src = "r4"
				}
				fmt.Fprintf(&b, "      - {op: FFMA, dst: r4, src: [%s, r1]}\n", src)
			}
			if n := r.between(0, 8); n > 0 {
				fmt.Fprintf(&b, "      - {op: FFMA, dst: r5, src: [r5, r1], ilp: %d}\n", n)
			}
			if r.chance(1, 3) {
				fmt.Fprintf(&b, "      - {op: IADD3, dst: r6, src: [r6, r7], ilp: %d}\n", r.between(1, 4))
			}
			return Values{{"gpu", m}, {"workload", b.String()}, {"measure", "steady"}}
		},
		make: makeIssueSlot,
	}
}

func makeIssueSlot(in Values) (*Problem, error) {
	w, err := sim.ParseWorkload("workload.yaml", []byte(in.Str("workload")))
	if err != nil {
		return nil, err
	}
	if g := in.Str("gpu"); g != "" {
		w.GPU = g
	}
	m, err := sim.Preset(w.GPU)
	if err != nil {
		return nil, err
	}
	if m.DualIssue {
		return nil, fmt.Errorf("problems: %s issues two instructions per cycle; issue-slot use is not issued instructions per cycle there", m.Name)
	}
	cfg := sim.Config{Steady: in.Str("measure") == "steady", MaxCycles: 2_000_000}
	r, err := cfg.Run(w)
	if err != nil {
		return nil, err
	}
	if r.Instructions == 0 || r.WarpCyclesPerIssue < 1 {
		return nil, fmt.Errorf("problems: the run issued nothing to measure")
	}
	var data strings.Builder
	fmt.Fprintf(&data, "Simulated on the model's %s preset (%s), in the steady state:\n", m.Name, m.Part)
	fmt.Fprintf(&data, "  active warps per scheduler           %6.2f\n", r.WarpsActive)
	fmt.Fprintf(&data, "  warp cycles per issued instruction   %6.2f\n", r.WarpCyclesPerIssue)
	for _, st := range sim.States() {
		if v := r.Stall(st); v >= 0.005 {
			fmt.Fprintf(&data, "    %-33s%6.2f\n", st.String(), v)
		}
	}
	issue := round(r.IssueActive, 2)
	sol, err := latency.ExplainIssueRate(round(r.WarpsActive, 2), round(r.WarpCyclesPerIssue, 2))
	if err != nil {
		return nil, err
	}
	sol = append(sol,
		fmt.Sprintf("the simulator counts %s %% (smsp__issue_active.avg.pct_of_peak_sustained_active); the figures above are rounded to two decimals, hence the tolerance", num.Float(issue, 2)),
		fmt.Sprintf("the largest stall is %s: %s", r.Dominant(), stallAdvice(r.Dominant())))
	return &Problem{
		Params:    in,
		Question:  "Nsight Compute's warp-state figures for a kernel are below (the per-reason figures add up to the warp cycles per issued instruction). What share of its issue slots does each scheduler use?",
		Data:      strings.TrimSuffix(data.String(), "\n"),
		Given:     []string{fmt.Sprintf("The model's %s preset issues at most one warp instruction per scheduler per cycle.", m.Name)},
		Parts:     []Part{numberPart("issue", "Issue-slot utilisation (%)", "%", issue, 2, func() (float64, bool, string) { return within(1) })},
		Answer:    Values{{"issue", issue}},
		Solution:  sol,
		Simulated: true,
	}, nil
}

// stallAdvice says what a dominant stall points to.
func stallAdvice(st sim.State) string {
	switch st {
	case sim.LongScoreboard:
		return "warps wait on global or local memory; more warps or more independent loads per warp hide it"
	case sim.Wait:
		return "fixed-latency dependencies; independent instructions (ILP) fill them"
	case sim.NotSelected:
		return "eligible warps were not picked: latency is already hidden"
	case sim.MathPipeThrottle:
		return "a math pipe is full: the kernel is at that pipe's throughput"
	case sim.LGThrottle:
		return "the memory queue is full: fewer, wider loads help"
	case sim.Selected:
		return "warps issue whenever they can"
	}
	return "see the chapter on stall reasons"
}
