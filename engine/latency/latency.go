// Package latency is Little's law for a GPU: how many warps hide a
// latency, how many bytes must be in flight to sustain a bandwidth, and
// the issue rate that active warps and warp cycles per issued instruction
// imply.
//
// Little's law says that, in a steady state, the items inside a system
// equal the rate at which they pass through times the time each spends
// inside (J. D. C. Little, 1961). For a warp scheduler the items are
// instructions in flight; for a memory system, bytes. Each function has
// an Explain counterpart that gives the arithmetic in words.
//
//	w, _ := latency.Warps(400, 4, 1) // 100 warps per scheduler
//
// # The model of Warps
//
// A scheduler issues at most one warp instruction per cycle, and a pipe
// accepts one every interval cycles (1 at full rate; 2 for an FP32 pipe
// of 16 lanes). Each warp has ilp independent instructions ready at a
// time (ilp independent chains), and each instruction's result is needed
// latency cycles after it issues: in every period of latency cycles a
// warp can issue ilp instructions and no more. Keeping the pipe busy
// takes latency ÷ interval instructions per period, so
//
//	warps = ⌈latency ÷ (ilp × interval)⌉
//
// per scheduler: the 4L rule of the CUDA C++ Programming Guide is the
// case ilp = 1, interval = 1 on an SM of four schedulers. The simulator
// (engine/sim) reaches full issue with exactly that many warps on a
// machine with those latencies, and not with one fewer; the package's
// tests hold it to that.
package latency

import (
	"fmt"
	"math"
	"strconv"

	"github.com/warpbook/warpbook/internal/num"
)

// Warps returns the warps one scheduler needs to keep a pipe busy: each
// warp has ilp independent instructions ready at a time, each result is
// needed latency cycles after issue, and the pipe accepts one warp
// instruction every interval cycles (see the package documentation).
// All three must be positive.
func Warps(latency, ilp, interval int) (int, error) {
	if latency < 1 || ilp < 1 || interval < 1 {
		return 0, fmt.Errorf("latency: want a positive latency, ILP and issue interval, got %d, %d and %d", latency, ilp, interval)
	}
	per := ilp * interval
	return (latency + per - 1) / per, nil
}

// ExplainWarps returns Warps' arithmetic in words, one step per line.
func ExplainWarps(latency, ilp, interval int) ([]string, error) {
	w, err := Warps(latency, ilp, interval)
	if err != nil {
		return nil, err
	}
	steps := []string{
		fmt.Sprintf("a warp's next instruction on a chain waits %d cycles for the last one's result, and it has %d independent %s: it issues at most %d %s per %d cycles",
			latency, ilp, plural(ilp, "chain", "chains"), ilp, plural(ilp, "instruction", "instructions"), latency),
	}
	if interval == 1 {
		steps = append(steps, fmt.Sprintf("to issue every cycle the scheduler needs %d instructions per %d cycles (Little's law: in flight = rate × latency = 1 × %d)", latency, latency, latency))
	} else {
		steps = append(steps, fmt.Sprintf("the pipe accepts a warp instruction every %d cycles: keeping it busy takes %d ÷ %d = %s instructions per %d cycles",
			interval, latency, interval, trimmed(float64(latency)/float64(interval)), latency))
	}
	steps = append(steps, fmt.Sprintf("warps = ⌈%d ÷ (%d × %d)⌉ = ⌈%s⌉ = %d per scheduler", latency, ilp, interval, trimmed(float64(latency)/float64(ilp*interval)), w))
	return steps, nil
}

// BytesInFlight returns the bytes that must be in flight to sustain
// bandwidth bytes per second when each access takes latency seconds:
// bandwidth × latency. In GB/s and nanoseconds the product is bytes.
func BytesInFlight(bandwidth, latency float64) (float64, error) {
	if !(bandwidth > 0) || !(latency > 0) || math.IsInf(bandwidth, 0) || math.IsInf(latency, 0) {
		return 0, fmt.Errorf("latency: want a positive, finite bandwidth and latency, got %g and %g", bandwidth, latency)
	}
	return bandwidth * latency, nil
}

// ExplainBytesInFlight returns the arithmetic of bytes in flight for a
// bandwidth in GB/s and a latency in ns, shared by sms SMs (0: not split),
// in words.
func ExplainBytesInFlight(gbPerSecond, ns float64, sms int) ([]string, error) {
	b, err := BytesInFlight(gbPerSecond, ns)
	if err != nil {
		return nil, err
	}
	steps := []string{
		fmt.Sprintf("Little's law: bytes in flight = bandwidth × latency = %s GB/s × %s ns = %s bytes (GB/s × ns is bytes)", num.Float(gbPerSecond, 2), num.Float(ns, 2), num.Float(b, 0)),
	}
	if sms > 0 {
		steps = append(steps, fmt.Sprintf("spread over %d SMs: %s ÷ %d = %s bytes per SM", sms, num.Float(b, 0), sms, num.Float(b/float64(sms), 0)))
	}
	return steps, nil
}

// IssueRate returns the warp instructions a scheduler issues per cycle
// given its active warps (per cycle) and warp cycles per issued
// instruction: Little's law for the issue slot, warps = issue rate ×
// cycles per issue, which Nsight Compute's metrics obey exactly.
func IssueRate(activeWarps, cyclesPerIssue float64) (float64, error) {
	if !(activeWarps >= 0) || !(cyclesPerIssue > 0) || math.IsInf(activeWarps, 0) || math.IsInf(cyclesPerIssue, 0) {
		return 0, fmt.Errorf("latency: want active warps ≥ 0 and cycles per issued instruction > 0, got %g and %g", activeWarps, cyclesPerIssue)
	}
	return activeWarps / cyclesPerIssue, nil
}

// ExplainIssueRate returns IssueRate's arithmetic in words.
func ExplainIssueRate(activeWarps, cyclesPerIssue float64) ([]string, error) {
	r, err := IssueRate(activeWarps, cyclesPerIssue)
	if err != nil {
		return nil, err
	}
	return []string{
		"Little's law for the issue slot: active warps = instructions issued per cycle × warp cycles per issued instruction",
		fmt.Sprintf("issued per cycle = %s ÷ %s = %s: %s %% of the scheduler's issue slots", trimmed(activeWarps), trimmed(cyclesPerIssue), strconv.FormatFloat(r, 'f', 4, 64), strconv.FormatFloat(100*r, 'f', 2, 64)),
	}, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// trimmed writes x with at most two decimals.
func trimmed(x float64) string { return num.Float(x, 2) }
