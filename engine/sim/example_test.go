package sim_test

import (
	"fmt"

	"github.com/warpbook/warpbook/engine/sim"
)

// One warp per scheduler on a dependent FFMA chain issues on a quarter of
// the cycles; four warps fill every slot.
func ExampleRun() {
	for _, warps := range []int{1, 4} {
		w := sim.Workload{
			GPU:     "toy",
			Launch:  sim.Launch{Block: 32 * warps, Blocks: 1},
			Program: sim.NewProgram().Loop(1000, sim.NewProgram().FFMA("r0", "r0", "r1")),
		}
		r, err := sim.Run(w)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%d warps: issue active %.0f%%, warp cycles per issued instruction %.2f, %s %.2f\n",
			warps, r.IssueActive, r.WarpCyclesPerIssue, r.Dominant(), r.Stall(r.Dominant()))
	}
	// Output:
	// 1 warps: issue active 25%, warp cycles per issued instruction 3.99, wait 2.99
	// 4 warps: issue active 100%, warp cycles per issued instruction 4.00, wait 2.99
}

// ParseWorkload reads the workload file format; errors carry file:line:col.
func ExampleParseWorkload() {
	_, err := sim.ParseWorkload("kernel.yaml", []byte(`gpu: toy
launch: {block: 64}
program:
  - {op: FFMA, dst: r0, src: [r0, r1]}
  - {op: LDG, dst: r2, src: [r3], level: l3}
`))
	fmt.Println(err)
	// Output:
	// kernel.yaml:5:6: level "l3", want l1, l2, l2far or dram
}

// A trace records each warp slot's state per cycle inside a window; its
// IssueOrder is the order in which an occupancy stepper lights the slots.
func ExampleConfig_Run() {
	w := sim.Workload{
		GPU:     "volta",
		Launch:  sim.Launch{Block: 256, Blocks: 1},
		Program: sim.NewProgram().Loop(10, sim.NewProgram().FFMA("r0", "r0", "r1")),
	}
	r, err := sim.Config{Trace: sim.Window{From: 0, To: 16}}.Run(w)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, is := range r.Trace.IssueOrder() {
		fmt.Printf("cycle %d: warp %d (slot %d, scheduler %d) issues %s\n", is.Cycle, is.Warp, is.Slot, is.Scheduler, is.Op)
	}
	fmt.Println("slot 0, cycles 0-15:")
	for c := 0; c < 16; c++ {
		fmt.Printf(" %s", r.Trace.At(0, c))
	}
	fmt.Println()
	// Output:
	// cycle 4: warp 0 (slot 0, scheduler 0) issues FFMA
	// cycle 4: warp 1 (slot 1, scheduler 1) issues FFMA
	// cycle 4: warp 2 (slot 2, scheduler 2) issues FFMA
	// cycle 4: warp 3 (slot 3, scheduler 3) issues FFMA
	// cycle 6: warp 4 (slot 4, scheduler 0) issues FFMA
	// cycle 6: warp 5 (slot 5, scheduler 1) issues FFMA
	// cycle 6: warp 6 (slot 6, scheduler 2) issues FFMA
	// cycle 6: warp 7 (slot 7, scheduler 3) issues FFMA
	// slot 0, cycles 0-15:
	//  no_instruction no_instruction no_instruction no_instruction selected wait wait wait selected wait wait wait selected wait wait wait
}

// Five warps on a dependent FFMA chain keep toy's issue slot busy, one
// warp to spare; but greedy-then-oldest starves the youngest warp, which
// then finishes alone on a quarter of the slots. The whole-run average
// includes that tail; the steady state leaves it out, and a window can be
// given explicitly too.
func ExampleConfig_steady() {
	w := sim.Workload{
		GPU:     "toy",
		Policy:  "gto",
		Launch:  sim.Launch{Block: 5 * 32, Blocks: 1},
		Program: sim.NewProgram().Loop(1000, sim.NewProgram().FFMA("r0", "r0", "r1")),
	}
	for _, c := range []sim.Config{{}, {Steady: true}, {Measure: sim.Window{From: 1000, To: 2000}}} {
		r, err := c.Run(w)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("cycles [%d, %d) of %d: issue active %.1f%%, not_selected %.2f per issued instruction\n",
			r.Measured.From, r.Measured.To, r.RunCycles, r.IssueActive, r.Stall(sim.NotSelected))
	}
	// Output:
	// cycles [0, 8002) of 8002: issue active 62.5%, not_selected 0.80 per issued instruction
	// cycles [0, 3998) of 8002: issue active 100.0%, not_selected 1.00 per issued instruction
	// cycles [1000, 2000) of 8002: issue active 100.0%, not_selected 1.00 per issued instruction
}

// ParseProgram reads a program on its own, as a figure or a tool that
// builds the rest of the workload in Go does; errors are positioned in the
// program's own source.
func ExampleParseProgram() {
	p, err := sim.ParseProgram("chain.yaml", []byte(`- loop: 1000
  body:
    - {op: FFMA, dst: r0, src: [r0, r1]}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := sim.Run(sim.Workload{GPU: "toy", Launch: sim.Launch{Block: 64, Blocks: 1}, Program: p})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("issue active %.0f%%\n", r.IssueActive)
	_, err = sim.ParseProgram("chain.yaml", []byte("- {op: FFMA, dst: r0, src: [r0, r1], lat: 4}\n"))
	fmt.Println(err)
	// Output:
	// issue active 50%
	// chain.yaml:1:38: unknown key "lat" in a program item (want op, dst, src, level, width, stride, broadcast, ilp, cycles, shape, groups, bytes, bar, arrivals, barrier, threads, operands, lanes, warps, then, else, loop, body)
}
