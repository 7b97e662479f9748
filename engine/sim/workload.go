package sim

import (
	"fmt"
	"strconv"
	"strings"
)

// Launch is the kernel launch: block and grid size and the per-thread and
// per-block resources that decide how many blocks are resident.
type Launch struct {
	Block  int // threads per block
	Blocks int // blocks in the grid (dealt round-robin to the SMs)
	Regs   int // registers per thread (for occupancy)
	Smem   int // shared memory per block, bytes (for occupancy)
	// Resident, when above 0, caps the resident blocks per SM below what
	// occupancy allows.
	Resident int
	// Cluster is the thread block cluster size (blocks per cluster, 2 or
	// more; 0 or 1: no clusters), on a machine with Machine.MaxCluster.
	// The grid's blocks must be a multiple of it. The SM the simulator
	// runs holds one block of each cluster; its peers run the same
	// program on other SMs of the GPC, so an LDS or STS at level dsmem
	// crosses the SM-to-SM network and BAR.CLUSTER waits for the block's
	// own warps and one network round trip.
	Cluster int
}

// Memory overrides the machine's memory model for one workload. Zero
// fields keep the machine's values.
type Memory struct {
	// Model is "latency" (fixed latencies, no throttles), "queue" (the
	// bandwidth/queue model) or "" (the machine's setting).
	Model             string
	LGQueue           int     // in-flight global/local requests per SM
	MemQueue          int     // memory instructions each sub-partition buffers
	DRAMBytesPerCycle float64 // device-memory bytes per SM cycle
}

// Workload is what the simulator runs: a program, the launch and the
// machine and policy to run it on. [ParseWorkload] reads one from a
// workload file; snippets usually build one in Go.
type Workload struct {
	// Name labels reports, e.g. the workload file name.
	Name string
	// GPU is the preset name (see [Preset]).
	GPU string
	// Policy is the warp-scheduling policy: "lrr" (loose round robin),
	// "gto" (greedy then oldest), "gty" (greedy then youngest), "oldest",
	// or "two_level:N" (N active warps per scheduler); "" is the machine's
	// (Machine.Policy: gty on Turing and later presets, gto before).
	Policy string
	// Launch is the block and grid size and the resources per block.
	Launch Launch
	// Memory overrides the preset's memory model; its zero value keeps it.
	Memory Memory
	// Program is what every warp runs; or Kernel, a compiled kernel's
	// SASS (one of the two).
	Program *Program
	Kernel  *Kernel
}

type policyKind uint8

const (
	polGTO policyKind = iota
	polLRR
	polOldest
	polTwoLevel
	polGTY
)

func parsePolicy(s string) (policyKind, int, error) {
	p := strings.ToLower(strings.TrimSpace(s))
	switch p {
	case "", "gto":
		return polGTO, 0, nil
	case "lrr":
		return polLRR, 0, nil
	case "gty":
		return polGTY, 0, nil
	case "oldest":
		return polOldest, 0, nil
	}
	if rest, ok := strings.CutPrefix(p, "two_level"); ok {
		n := 4
		if rest != "" {
			num, ok := strings.CutPrefix(rest, ":")
			v, err := strconv.Atoi(num)
			if !ok || err != nil || v < 1 {
				return 0, 0, fmt.Errorf("policy %q: want two_level:N with N ≥ 1 active warps per scheduler", s)
			}
			n = v
		}
		return polTwoLevel, n, nil
	}
	return 0, 0, fmt.Errorf("unknown policy %q (want lrr, gto, gty, oldest or two_level:N)", s)
}

func policyName(k policyKind, n int) string {
	switch k {
	case polLRR:
		return "lrr"
	case polOldest:
		return "oldest"
	case polGTY:
		return "gty"
	case polTwoLevel:
		return "two_level:" + strconv.Itoa(n)
	}
	return "gto"
}
