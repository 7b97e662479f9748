package main

import (
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/sim"
)

var gpusCommand = command{
	summary: "list the GPUs the calculator and the simulator know",
	usage: `usage: warpbook gpus

Lists the GPU parts "warpbook occupancy --gpu" takes (name, the other names
it accepts, compute capability, SMs), the capabilities "--cc" takes, and the
simulator's presets ("warpbook sim", a workload's gpu:).`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		return func(args []string) int {
			if len(args) > 0 {
				return c.usagef("takes no arguments")
			}
			tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "GPU\tCC\tSMS\tALSO")
			for _, d := range gpu.Parts() {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", d.Name, d.CC, d.SMs, strings.Join(gpu.Aliases(d.Name), ", "))
			}
			tw.Flush()
			var ccs []string
			for _, cc := range gpu.Capabilities() {
				ccs = append(ccs, cc.String())
			}
			fmt.Fprintf(c.stdout, "\ncapabilities (--cc): %s\n", strings.Join(ccs, ", "))
			var presets []string
			for _, m := range sim.Presets() {
				presets = append(presets, m.Name)
			}
			fmt.Fprintf(c.stdout, "simulator presets (sim, gpu:): %s\n", strings.Join(presets, ", "))
			return 0
		}
	},
}
