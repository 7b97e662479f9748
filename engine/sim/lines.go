package sim

import (
	"fmt"
	"sort"
	"strings"
)

// Line is one instruction's share of a run, as Nsight Compute's source view
// shows it per SASS line: how often it was executed and the warp states
// sampled while a warp was about to issue it. The simulator samples every
// warp in every cycle, so a sample is a warp-cycle, and the samples of all
// lines in a state add up to [Result].StateCycles of that state.
type Line struct {
	// PC is the instruction's index: in a SASS kernel the instruction at
	// byte address 16×PC, in a program the index Program.Listing uses.
	PC int
	// Address is the instruction's byte address in a SASS kernel, -1 in a
	// program.
	Address int
	// Text is the instruction as the listing printed it (Program.Listing's
	// line for a program).
	Text string
	// Issued is inst_executed: the warp instructions issued at this line.
	Issued int
	// Threads is thread_inst_executed: the active threads of those issues.
	Threads int
	// Causes are the instructions this line's stalls waited for, most
	// warp-cycles first.
	Causes []Cause

	samples [numStates]int
}

// Samples returns the warp-cycles this line was sampled in state st
// (smsp__pcsamp_warps_issue_stalled_<st> with every cycle sampled;
// selected counts the cycles it issued).
func (l Line) Samples(st State) int {
	if st >= numStates {
		return 0
	}
	return l.samples[st]
}

// Total returns the warp-cycles charged to this line in any state
// (smsp__pcsamp_sample_count).
func (l Line) Total() int {
	t := 0
	for _, v := range l.samples {
		t += v
	}
	return t
}

// Cause is the part of a line's stalls that one other instruction caused:
// a producer whose dependence counter (SB) or stall count the line waited
// for, or the instruction that started a wait (a branch, a barrier).
type Cause struct {
	// PC is the causing instruction's index (see [Line].PC).
	PC int
	// SB is the dependence counter waited on (0 to 5), -1 for none.
	SB int
	// State is the stall reason.
	State State
	// Cycles are the warp-cycles the line stalled in State because of PC.
	Cycles int
}

// PCSampleMetric returns the Nsight Compute source-counter metric that
// samples warps in state st per instruction, e.g.
// "smsp__pcsamp_warps_issue_stalled_long_scoreboard"; "" for Empty.
func PCSampleMetric(st State) string {
	if st == Empty || st >= numStates {
		return ""
	}
	return "smsp__pcsamp_warps_issue_stalled_" + stateNames[st]
}

// lines builds the per-instruction results from the counts.
func (s *sm) lines(c *pcCounts) []Line {
	out := make([]Line, 0, c.n)
	for i := range s.code {
		pc := s.pcs[i]
		if pc < 0 {
			continue
		}
		r := &c.rows[i]
		l := Line{PC: int(pc), Address: -1, Text: s.prog.text(i), Issued: int(r.issued), Threads: int(r.threads)}
		if s.ctl {
			l.Address = 16 * int(pc)
		}
		for st := range numStates {
			l.samples[st] = int(r.states[st])
		}
		for _, cc := range r.causes {
			if cc.n > 0 {
				l.Causes = append(l.Causes, Cause{PC: int(cc.pc()), SB: int(cc.sb()), State: cc.st(), Cycles: int(cc.n)})
			}
		}
		sort.SliceStable(l.Causes, func(a, b int) bool { return l.Causes[a].Cycles > l.Causes[b].Cycles })
		out = append(out, l)
	}
	return out
}

// Blame is one line's stall in one state traced to the instruction that
// caused it, with its share of the kernel's warp-cycles in that state.
type Blame struct {
	Line  Line  // the instruction that stalled
	Cause Cause // what it waited for
	// Share is Cause.Cycles over all the run's warp-cycles in Cause.State
	// ([Result].StateCycles), 0 to 1.
	Share float64
	// By is the causing instruction's line.
	By Line
}

// Blames returns every stall in state st traced to its cause, the largest
// share first: the answer to "which instruction is this kernel's
// long_scoreboard waiting for?".
func (r *Result) Blames(st State) []Blame {
	total := r.StateCycles(st)
	var out []Blame
	for _, l := range r.Lines {
		for _, c := range l.Causes {
			if c.State != st || c.PC < 0 || c.PC >= len(r.Lines) {
				continue
			}
			b := Blame{Line: l, Cause: c, By: r.Lines[c.PC]}
			if total > 0 {
				b.Share = float64(c.Cycles) / float64(total)
			}
			out = append(out, b)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Cause.Cycles > out[j].Cause.Cycles })
	return out
}

// String says what the line waited for, where, and how much of the run's
// stalls of that kind it is, e.g. "FFMA R7, R2, c[0x0][0x160], R7 waits on
// SB2 set by LDG.E R2, [R2.64] 2 lines above: 82.4 % of this kernel's
// long_scoreboard".
func (b Blame) String() string {
	var what string
	switch b.Cause.State {
	case Wait:
		what = "waits out the stall count of"
	case BranchResolving:
		what = "waits for the branch target of"
	case Barrier:
		what = "waits at the barrier of"
	case Membar:
		what = "waits for the memory barrier of"
	case Sleeping:
		what = "sleeps in"
	case Drain:
		return fmt.Sprintf("%s drains the warp's stores: %.1f %% of this kernel's drain", b.Line.Text, 100*b.Share)
	case GMMA:
		what = "waits for the warpgroup MMA of"
	default:
		what = "waits on the result of"
		if b.Cause.SB >= 0 {
			what = fmt.Sprintf("waits on SB%d set by", b.Cause.SB)
		}
	}
	return fmt.Sprintf("%s %s %s %s: %.1f %% of this kernel's %s",
		b.Line.Text, what, b.By.Text, distance(b.Cause.PC, b.Line.PC), 100*b.Share, b.Cause.State)
}

// distance says where line from lies relative to line to.
func distance(from, to int) string {
	d := to - from
	switch {
	case d == 0:
		return "(itself, on an earlier trip)"
	case d == 1:
		return "on the line above"
	case d == -1:
		return "on the line below"
	case d > 0:
		return fmt.Sprintf("%d lines above", d)
	}
	return fmt.Sprintf("%d lines below", -d)
}

// SourceView returns the per-line results as a table: each line's issues,
// samples and its largest stall reasons, as Nsight Compute's source view
// lays out SASS beside its counters. Lines that were never reached are
// left out.
func (r *Result) SourceView() string {
	return r.SourceViewTop(len(r.Lines))
}

// SourceViewTop is SourceView cut to the n lines with the most samples
// (the earlier line first among equals), kept in address order, and a
// last line that says how many reached lines it leaves out and their
// share of the samples.
func (r *Result) SourceViewTop(n int) string {
	var reached []int
	total := 0
	for i, l := range r.Lines {
		if l.Issued > 0 || l.Total() > 0 {
			reached = append(reached, i)
			total += l.Total()
		}
	}
	top := append([]int(nil), reached...)
	sort.SliceStable(top, func(i, j int) bool { return r.Lines[top[i]].Total() > r.Lines[top[j]].Total() })
	keep := map[int]bool{}
	for _, i := range top[:min(max(n, 0), len(top))] {
		keep[i] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-6s %-52s %10s %10s  %s\n", "addr", "instruction", "executed", "samples", "stall reasons (samples)")
	left, leftSamples := 0, 0
	for _, i := range reached {
		l := r.Lines[i]
		if !keep[i] {
			left++
			leftSamples += l.Total()
			continue
		}
		addr := fmt.Sprintf("%d", l.PC)
		if l.Address >= 0 {
			addr = fmt.Sprintf("%04x", l.Address)
		}
		text := l.Text
		if len(text) > 52 {
			text = text[:49] + "..."
		}
		type kv struct {
			st State
			n  int
		}
		var top []kv
		for _, st := range States() {
			if st != Selected && l.samples[st] > 0 {
				top = append(top, kv{st, l.samples[st]})
			}
		}
		sort.SliceStable(top, func(i, j int) bool { return top[i].n > top[j].n })
		var parts []string
		for i, t := range top {
			if i == 3 {
				break
			}
			parts = append(parts, fmt.Sprintf("%s %d", t.st, t.n))
		}
		fmt.Fprintf(&b, "%-6s %-52s %10d %10d  %s\n", addr, text, l.Issued, l.Total(), strings.Join(parts, ", "))
	}
	if left > 0 {
		share := 0.0
		if total > 0 {
			share = 100 * float64(leftSamples) / float64(total)
		}
		fmt.Fprintf(&b, "(%d more lines: %.1f %% of the samples)\n", left, share)
	}
	return b.String()
}
