package problems

import (
	"cmp"
	"fmt"

	"github.com/warpbook/warpbook/internal/num"
)

// interviewCode is the code prefix of a mock interview.
const interviewCode = "int"

// MaxSteps is the most questions an interview asks: an opening question
// and five follow-ups.
const MaxSteps = 6

// An Interview is a mock interview: a scenario carried through questions,
// each changing one thing about the one before.
type Interview struct {
	// Code reproduces it: "int-7f3a".
	Code string `json:"code"`
	// Scenario names its thread: "kernel", "latency", "memory" or
	// "roofline".
	Scenario string `json:"scenario"`
	// Steps are its questions, MaxSteps of them; a shorter interview asks
	// the first few.
	Steps []Step `json:"steps"`
}

// A Step is one question of an interview.
type Step struct {
	// Change says what changed since the last question ("" for the
	// first).
	Change string `json:"change,omitempty"`
	// Problem is the question; its Code is the interview's and the
	// step's, "int-7f3a.2".
	Problem *Problem `json:"problem"`
}

// state is where an interview's thread stands: the inputs every question
// draws on.
type state struct {
	family string
	in     Values
}

// A move changes one thing: it returns what it says, the family and the
// inputs of the next question, and the state the thread goes on from.
type move func(r *rng, s state) (change string, next state, keep state)

// A scenario is an interview's thread: how it starts, and the moves that
// change one input (moves) or ask about the same inputs from another side
// (asides, each asked at most once).
type scenario struct {
	name   string
	start  func(r *rng) state
	moves  []move
	asides []move
}

// NewInterview returns the interview of a seed.
func NewInterview(seed uint32) (*Interview, error) {
	r := newRNG(interviewCode, seed)
	sc := pick(r, scenarios())
	in := &Interview{Code: fmt.Sprintf("%s-%04x", interviewCode, seed), Scenario: sc.name}
	var cur state
	for tries := 0; len(in.Steps) == 0; tries++ {
		if tries == 100 {
			return nil, fmt.Errorf("problems: interview %s: no opening question", in.Code)
		}
		cur = sc.start(r)
		if p, err := Make(cur.family, cur.in); err == nil {
			in.add("", p)
		}
	}
	last := -1
	asked := map[int]bool{}
	all := append(append([]move(nil), sc.moves...), sc.asides...)
	for tries := 0; len(in.Steps) < MaxSteps; tries++ {
		if tries == 200 {
			return nil, fmt.Errorf("problems: interview %s: only %d questions", in.Code, len(in.Steps))
		}
		i := r.intn(len(all))
		if i == last || i >= len(sc.moves) && asked[i] {
			continue
		}
		change, next, keep := all[i](r, cur)
		if change == "" {
			continue
		}
		p, err := Make(next.family, next.in)
		if err != nil {
			continue
		}
		in.add(change, p)
		cur, last, asked[i] = keep, i, true
	}
	return in, nil
}

// InterviewOf returns the interview a code ("int-7f3a", or one of its
// steps, "int-7f3a.2") names.
func InterviewOf(code string) (*Interview, error) {
	family, seed, _, err := ParseCode(code)
	if err != nil {
		return nil, err
	}
	if family != interviewCode {
		return nil, fmt.Errorf("problems: %q is a problem's code, not an interview's (int-7f3a)", code)
	}
	return NewInterview(seed)
}

func (in *Interview) add(change string, p *Problem) {
	p.Code = fmt.Sprintf("%s.%d", in.Code, len(in.Steps)+1)
	in.Steps = append(in.Steps, Step{Change: change, Problem: p})
}

// A Summary is how an interview went.
type Summary struct {
	// Right is how many questions were answered right, of Asked.
	Right int `json:"right"`
	Asked int `json:"asked"`
	// Missed lists the questions not answered right, in order.
	Missed []Miss `json:"missed"`
}

// A Miss is one question of an interview not answered right.
type Miss struct {
	Step     int    `json:"step"`
	Code     string `json:"code"`
	Family   string `json:"family"`
	Question string `json:"question"`
	// Wrong names the parts that were wrong, with the engine's answers.
	Wrong []string `json:"wrong"`
	// Section is where the book teaches it.
	Section string `json:"section"`
}

// Summarize says how the interview went, given the grades of its first
// len(grades) steps.
func (in *Interview) Summarize(grades []Graded) Summary {
	s := Summary{Asked: min(len(grades), len(in.Steps))}
	for i := range s.Asked {
		g, p := grades[i], in.Steps[i].Problem
		if g.Right {
			s.Right++
			continue
		}
		m := Miss{Step: i + 1, Code: p.Code, Family: p.Family, Question: p.Question, Section: p.Section}
		for j, pg := range g.Parts {
			if !pg.Right && j < len(p.Parts) {
				m.Wrong = append(m.Wrong, fmt.Sprintf("%s: %s", p.Parts[j].Prompt, pg.Expected))
			}
		}
		s.Missed = append(s.Missed, m)
	}
	return s
}

func scenarios() []scenario {
	return []scenario{kernelScenario(), latencyScenario(), memoryScenario(), rooflineScenario()}
}

// kernel: one kernel's launch, asked about from every side.
func kernelScenario() scenario {
	start := func(r *rng) state {
		f := occupancyFamily()
		in := f.draw(r)
		in = in.With("dyn-smem", 0)
		return state{"occupancy", Values{{"gpu", in.Str("gpu")}, {"threads", in.Int("threads")}, {"regs", in.Int("regs")}, {"smem", in.Int("smem")}}}
	}
	return scenario{name: "kernel", start: start, moves: []move{
		setTo("occupancy", "smem", Values.Int, from(staticSmem), func(v int) string {
			return fmt.Sprintf("Now the block uses %s of static shared memory.", kbOrBytes(v))
		}),
		setTo("occupancy", "gpu", Values.Str, from(occupancyGPUs), func(g string) string { return "Now on the " + g + "." }),
		setTo("occupancy", "regs", Values.Int, drawRegs, func(v int) string { return fmt.Sprintf("Now ptxas reports %d registers.", v) }),
		setTo("occupancy", "threads", Values.Int, from(blockSizes), func(v int) string { return fmt.Sprintf("Now the block has %d threads.", v) }),
	}, asides: []move{
		func(r *rng, s state) (string, state, state) {
			n := state{"block-size", Values{{"gpu", s.in.Str("gpu")}, {"regs", s.in.Int("regs")}, {"smem", s.in.Int("smem")}}}
			return "Keep the kernel, but let the block size change: which one maximises occupancy?", n, s
		},
		func(r *rng, s state) (string, state, state) {
			d, _, res, err := launch(s.in)
			if err != nil || res.ActiveBlocks == 0 {
				return "", s, s
			}
			per := res.ActiveBlocks * d.SMs
			blocks := per*r.between(1, 4) + r.between(1, per-1)
			n := state{"waves", s.in.With("blocks", blocks)}
			return fmt.Sprintf("The grid has %s blocks: how many waves?", num.Int(blocks)), n, s
		},
		func(r *rng, s state) (string, state, state) {
			_, _, res, err := launch(s.in)
			if err != nil || res.ActiveBlocks == 0 {
				return "", s, s
			}
			want := res.ActiveBlocks + 1
			n := state{"launch-bounds", Values{{"gpu", s.in.Str("gpu")}, {"threads", s.in.Int("threads")}, {"min-blocks", want}}}
			return fmt.Sprintf("To fit %d blocks per SM you add __launch_bounds__(%d, %d): what register cap does that set?", want, s.in.Int("threads"), want), n, s
		},
	}}
}

// setTo is a move that sets the input name to what draw gives and asks
// the next question in family ("": the thread's own); it is no move when
// the input, as get reads it, has that value already.
func setTo[T comparable](family, name string, get func(Values, string) T, draw func(*rng) T, say func(T) string) move {
	return func(r *rng, s state) (string, state, state) {
		v := draw(r)
		if v == get(s.in, name) {
			return "", s, s
		}
		n := state{cmp.Or(family, s.family), s.in.With(name, v)}
		return say(v), n, n
	}
}

// from draws one of xs.
func from[T any](xs []T) func(*rng) T { return func(r *rng) T { return pick(r, xs) } }

// kbOrBytes writes a shared-memory size as a reader would say it.
func kbOrBytes(n int) string {
	switch {
	case n == 0:
		return "no"
	case n%1024 == 0:
		return num.Int(n/1024) + " KB"
	}
	return num.Int(n) + " bytes"
}

// latency: hiding one latency, on changing parts and with changing ILP.
func latencyScenario() scenario {
	start := func(r *rng) state {
		in := latencyFamily().draw(r)
		return state{"latency-warps", in}
	}
	lat := func(in Values) state { return state{"latency-warps", in} }
	return scenario{name: "latency", start: start, moves: []move{
		setTo("latency-warps", "ilp", Values.Int, from([]int{1, 2, 3, 4, 6, 8, 16}), func(v int) string {
			return fmt.Sprintf("Now with ILP %d: %d independent chains per warp.", v, v)
		}),
		setTo("latency-warps", "gpu", Values.Str, from(latencyGPUs), func(g string) string { return "Now on the " + g + "." }),
		func(r *rng, s state) (string, state, state) {
			l := s.in.Int("latency")
			v := l * pick(r, []int{2, 3})
			if r.chance(1, 2) && l >= 8 {
				v = l / 2
			}
			n := lat(s.in.With("latency", v))
			return fmt.Sprintf("Now the latency is %d cycles.", v), n, n
		},
		func(r *rng, s state) (string, state, state) {
			if s.in.Int("interval") > 1 || s.in.Int("latency") > 100 {
				return "", s, s
			}
			n := lat(s.in.With("interval", 2))
			return "Now the instructions go to a pipe of 16 lanes, which takes a warp instruction every 2 cycles.", n, n
		},
	}, asides: []move{
		func(r *rng, s state) (string, state, state) {
			in := bytesInFlightFamily().draw(r).With("gpu", s.in.Str("gpu"))
			n := state{"bytes-in-flight", in}
			return fmt.Sprintf("The warps stream from DRAM at %s GB/s with %d ns loads: how much must be in flight?", num.Int(in.Int("bandwidth")), in.Int("latency")), n, s
		},
	}}
}

// memory: one access pattern, in global memory and in shared memory.
func memoryScenario() scenario {
	start := func(r *rng) state { return state{"sectors", sectorsFamily().draw(r)} }
	return scenario{name: "memory", start: start, moves: []move{
		setTo("", "width", Values.Int, from([]int{1, 2, 4, 8, 16}), func(v int) string {
			return fmt.Sprintf("Now each element is %d bytes (%s).", v, elementOf(v))
		}),
		setTo("", "stride", Values.Int, from([]int{1, 2, 3, 4, 8, 16, 32, 33}), func(v int) string {
			return fmt.Sprintf("Now thread t reads element %s.", indexOf(v))
		}),
		func(r *rng, s state) (string, state, state) {
			w := max(s.in.Int("width"), 4)
			fam := "bank-conflicts"
			text := "The same pattern from a __shared__ array: how many passes over the banks?"
			if s.family == "bank-conflicts" {
				fam, text = "sectors", "The same pattern from global memory: how many sectors?"
			}
			n := state{fam, Values{{"width", w}, {"stride", s.in.Int("stride")}}}
			return text, n, n
		},
		func(r *rng, s state) (string, state, state) {
			st := s.in.Int("stride")
			if s.family != "bank-conflicts" || st%2 != 0 {
				return "", s, s
			}
			n := state{s.family, s.in.With("stride", st+1)}
			return fmt.Sprintf("Now pad each row by one element, so the stride is %d.", st+1), n, n
		},
	}}
}

// roofline: one kernel against changing roofs.
func rooflineScenario() scenario {
	start := func(r *rng) state { return state{"roofline", rooflineFamily().draw(r)} }
	return scenario{name: "roofline", start: start, moves: []move{
		setTo("", "gpu", Values.Str, from(roofPresets), func(g string) string { return "Now on the " + g + " preset." }),
		func(r *rng, s state) (string, state, state) {
			if s.family != "roofline" {
				return "", s, s
			}
			u, words := "tensor", "FP16 tensor cores"
			if s.in.Str("unit") == "tensor" {
				u, words = "fp32", "FP32 CUDA cores"
			}
			n := state{s.family, s.in.With("unit", u)}
			return "Now the same FLOPs run on the " + words + ".", n, n
		},
		func(r *rng, s state) (string, state, state) {
			if s.family != "roofline" {
				return "", s, s
			}
			x := round(s.in.Float("intensity")*pick(r, []float64{0.25, 0.5, 2, 4, 8}), 1)
			n := state{s.family, s.in.With("intensity", x)}
			return fmt.Sprintf("Now the kernel does %s FLOPs per byte.", num.Float(x, 1)), n, n
		},
		func(r *rng, s state) (string, state, state) {
			sizes := []int{32, 64, 128, 256}
			bm, bn := pick(r, sizes), pick(r, sizes)
			if s.family == "tile-intensity" && bm == s.in.Int("bm") && bn == s.in.Int("bn") {
				return "", s, s
			}
			n := state{"tile-intensity", Values{{"gpu", s.in.Str("gpu")}, {"bm", bm}, {"bn", bn}}}
			return fmt.Sprintf("A GEMM block computes a %d × %d tile with FP16 tensor cores: what is its intensity?", bm, bn), n, n
		},
	}}
}
