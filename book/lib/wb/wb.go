// Package wb holds the helpers that the book's snippets share: the pages
// import it (book.yaml lists it under packages:) instead of pasting the
// same few lines into each page. Each helper is what a page would write
// for inputs it knows to be valid, so it panics on an error rather than
// returning it.
//
// The kernel reads this package from source and checks it as it checks a
// cell: it may import only what snippets may (the engine and the reviewed
// part of the standard library). Change a helper and every page that calls
// it runs again.
package wb

import (
	"fmt"
	"strings"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
	"github.com/warpbook/warpbook/engine/sim"
)

// Run is sim.Run for a workload the page knows to be valid: it panics
// with sim.Run's error.
func Run(w sim.Workload) *sim.Result {
	r, err := sim.Run(w)
	if err != nil {
		panic(err)
	}
	return r
}

// Compute is occupancy.Compute for a launch the page knows to be valid:
// it panics with occupancy.Compute's error.
func Compute(d gpu.Device, k occupancy.Kernel) occupancy.Result {
	r, err := occupancy.Compute(d, k)
	if err != nil {
		panic(err)
	}
	return r
}

// Stalls lists the warp states that take at least 5 % of the warp cycles
// per issued instruction, with their cycles, each as " state cycles" with
// one decimal, in the order of sim.States.
func Stalls(r *sim.Result) string {
	var b strings.Builder
	for _, st := range sim.States() {
		if c := r.Stall(st); c >= 0.05*r.WarpCyclesPerIssue {
			fmt.Fprintf(&b, " %s %.1f", st, c)
		}
	}
	return b.String()
}

// Commas writes a count below a million as the prose does: 1,280.
func Commas(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d,%03d", n/1000, n%1000)
}
