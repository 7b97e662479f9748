package sim

import (
	"fmt"
	"strings"
)

// State is what one resident warp is doing in one cycle, named as Nsight
// Compute names its warp states. Every resident warp is in exactly one
// state per cycle; the classification priority is in the package
// documentation.
type State uint8

// The warp states. Empty is not a warp state: it marks a warp slot with no
// warp in it (trace only).
const (
	Empty            State = iota // no warp in this slot (trace only)
	Selected                      // issued an instruction this cycle
	NotSelected                   // eligible, but the scheduler picked another warp
	Wait                          // fixed-latency dependency (math pipe result not yet written)
	ShortScoreboard               // waiting on an MIO result: shared memory (LDS) or MUFU
	LongScoreboard                // waiting on an L1TEX result: global or local memory (LDG, LDL)
	Barrier                       // waiting at BAR for the rest of its block
	Membar                        // waiting at MEMBAR for its memory operations to complete
	MathPipeThrottle              // next instruction ready, its execution pipe busy
	MIOThrottle                   // next instruction ready, the MIO (shared memory) queue full
	LGThrottle                    // next instruction ready, the LG (local/global) queue full
	NoInstruction                 // no decoded instruction: just launched, or outside the two-level active set
	BranchResolving               // waiting for a branch target to resolve
	Drain                         // exited, waiting for its stores to drain
	Sleeping                      // in NANOSLEEP
	GMMA                          // waiting for an asynchronous warpgroup MMA (HGMMA) to complete (Hopper)
	numStates
)

var stateNames = [numStates]string{
	Empty:            "empty",
	Selected:         "selected",
	NotSelected:      "not_selected",
	Wait:             "wait",
	ShortScoreboard:  "short_scoreboard",
	LongScoreboard:   "long_scoreboard",
	Barrier:          "barrier",
	Membar:           "membar",
	MathPipeThrottle: "math_pipe_throttle",
	MIOThrottle:      "mio_throttle",
	LGThrottle:       "lg_throttle",
	NoInstruction:    "no_instruction",
	BranchResolving:  "branch_resolving",
	Drain:            "drain",
	Sleeping:         "sleeping",
	GMMA:             "gmma",
}

// String returns the Nsight Compute name of the state, e.g. "long_scoreboard".
func (s State) String() string {
	if s < numStates {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Metric returns the Nsight Compute metric that reports this state as
// warp cycles per issued instruction, e.g.
// "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio".
// It returns "" for Empty.
func (s State) Metric() string {
	if s == Empty || s >= numStates {
		return ""
	}
	return "smsp__average_warps_issue_stalled_" + stateNames[s] + "_per_issue_active.ratio"
}

// States returns the warp states in report order: selected first, then the
// stall reasons. Empty is not included.
func States() []State {
	out := make([]State, 0, numStates-1)
	for s := Selected; s < numStates; s++ {
		out = append(out, s)
	}
	return out
}

// ParseState returns the state with the given Nsight Compute name.
func ParseState(name string) (State, error) {
	for s := Selected; s < numStates; s++ {
		if stateNames[s] == name {
			return s, nil
		}
	}
	names := make([]string, 0, numStates-1)
	for s := Selected; s < numStates; s++ {
		names = append(names, stateNames[s])
	}
	return Empty, fmt.Errorf("unknown warp state %q (want one of %s)", name, strings.Join(names, ", "))
}
