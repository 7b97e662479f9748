// Package problems generates GPU-performance interview problems without
// end: each [Family] draws its inputs from a seed and hands them to the
// engine, which computes the answer and explains it. The same family and
// seed give the same problem on every machine, so a problem travels as a
// short code ("occ-7f3a": the family's code and the seed in hex) that a
// reader can share.
//
// The browser kernel (site/live) and the command "warpbook practice" both
// use this package, so the page and the terminal ask the same questions
// and grade them the same way.
//
// # Problems
//
// A [Problem] holds its inputs ([Problem.Params], named as the warpbook
// command's flags name them: gpu, threads, regs, smem, ...), the question,
// the figures of the model it relies on (each a preset's, and said to be
// the model's), the parts to answer, the answer the engine computed, a
// worked solution (the engine's own explanation: occupancy.ExplainSteps
// and the Explain functions of engine/latency, engine/roofline,
// engine/cdna and engine/sim) and the book section that teaches it.
// [Make] builds a problem from inputs; [Generate] draws the inputs from a
// seed first.
//
// # Grading
//
// [Grade] checks an answer part by part: numbers within the part's stated
// tolerance (counts exactly, rounded quotients within a percentage point
// or one percent), choices (a limiter, memory- or compute-bound) exactly.
// The result is an FSRS rating for the family: every part right is Good,
// some right Hard, none Again.
//
// # Mock interviews
//
// [NewInterview] chains a scenario through three to five questions, each
// changing one thing about the last ("now on an A100", "now with ILP 2");
// every step is a problem with a code of its own ("int-7f3a.2"), which
// [Resolve] turns back into the problem.
package problems

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// A Family is one kind of problem.
type Family struct {
	// Name is the family's name ("occupancy"), the key of its schedule.
	Name string `json:"name"`
	// Code is the short prefix of its problems' codes ("occ").
	Code string `json:"code"`
	// Title says what it drills, for a list.
	Title string `json:"title"`
	// Tags are the book's tags for what it drills ("occupancy").
	Tags []string `json:"tags"`
	// Section is the book section that teaches it, as a page's path in
	// the book and a heading's id ("occupancy-calculator.md#putting-it-together").
	Section string `json:"section"`

	draw func(r *rng) Values
	make func(in Values) (*Problem, error)
}

// A Problem is one generated question with its answer.
type Problem struct {
	// Family is the family's name.
	Family string `json:"family"`
	// Code reproduces the problem: "occ-7f3a", or an interview's step,
	// "int-7f3a.2"; "" for a problem made from inputs alone.
	Code string `json:"code,omitempty"`
	// Params are the inputs, named as the warpbook command's flags.
	Params Values `json:"params"`
	// Question is what is asked, in one or two sentences.
	Question string `json:"question"`
	// Data is text the question shows as it is: a ptxas line, a stall
	// breakdown.
	Data string `json:"data,omitempty"`
	// Given lists the model's figures the question relies on.
	Given []string `json:"given,omitempty"`
	// Parts are what to answer.
	Parts []Part `json:"parts"`
	// Answer is what the engine computed, by part name.
	Answer Values `json:"answer"`
	// Solution is the worked answer, one step per line.
	Solution []string `json:"solution"`
	// Section is where the book teaches it (see Family.Section).
	Section string `json:"section"`
	// Simulated reports that the question shows figures from a simulator
	// run (the model's, not a measurement).
	Simulated bool `json:"simulated,omitempty"`
}

// A Part is one thing a problem asks.
type Part struct {
	// Name is the part's key in Answer and in a graded answer.
	Name string `json:"name"`
	// Prompt asks for it, with its unit.
	Prompt string `json:"prompt"`
	// Kind is "number" or "choice".
	Kind string `json:"kind"`
	// Unit is the number's unit ("%", "warps"), "" for a count or a choice.
	Unit string `json:"unit,omitempty"`
	// Tolerance is how far a number may be from the answer and count:
	// absolute, or, when Relative, a fraction of the answer. 0: exactly.
	Tolerance float64 `json:"tolerance"`
	Relative  bool    `json:"relative,omitempty"`
	// Choices are the words a choice is one of.
	Choices []string `json:"choices,omitempty"`
	// Accept lists every answer that counts: the engine's answer, and any
	// that tie with it (block sizes with as many resident threads, every
	// limiter of a tie).
	Accept []string `json:"accept"`
	// Stated says the tolerance in words ("within ±0.5", "exactly").
	Stated string `json:"stated"`
}

// Value is one named input or answer.
type Value struct {
	Name  string
	Value any // int, float64 or string
}

// Values is a list of named values; it marshals as a JSON object in its
// order.
type Values []Value

// MarshalJSON writes v as an object, in order.
func (v Values) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(x.Name)
		if err != nil {
			return nil, err
		}
		val, err := json.Marshal(x.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// UnmarshalJSON reads an object of strings and numbers, in order; a
// whole number becomes an int.
func (v *Values) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("problems: values are an object, not %s", b)
	}
	var out Values
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return err
		}
		var x any
		if err := d.Decode(&x); err != nil {
			return err
		}
		switch n := x.(type) {
		case json.Number:
			if i, err := strconv.Atoi(n.String()); err == nil {
				x = i
			} else if f, err := n.Float64(); err == nil {
				x = f
			}
		case string:
		default:
			return fmt.Errorf("problems: value %v of %v is not a string or a number", x, k)
		}
		out = append(out, Value{k.(string), x})
	}
	*v = out
	return nil
}

// Get returns the value named name, nil if there is none.
func (v Values) Get(name string) any {
	for _, x := range v {
		if x.Name == name {
			return x.Value
		}
	}
	return nil
}

// Int returns the named value as an int (0 if it is none).
func (v Values) Int(name string) int {
	switch x := v.Get(name).(type) {
	case int:
		return x
	case float64:
		return int(x)
	}
	return 0
}

// Float returns the named value as a float64.
func (v Values) Float(name string) float64 {
	switch x := v.Get(name).(type) {
	case int:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// Str returns the named value as a string ("" if it is none).
func (v Values) Str(name string) string {
	if s, ok := v.Get(name).(string); ok {
		return s
	}
	return ""
}

// With returns a copy of v with name set to x (added at the end if v has
// no value of that name).
func (v Values) With(name string, x any) Values {
	out := append(Values(nil), v...)
	for i := range out {
		if out[i].Name == name {
			out[i].Value = x
			return out
		}
	}
	return append(out, Value{name, x})
}

// String writes the values as flags, "--gpu A100 --threads 256".
func (v Values) String() string {
	var parts []string
	for _, x := range v {
		s := fmt.Sprint(x.Value)
		if strings.ContainsAny(s, " \n") {
			s = strconv.Quote(s)
		}
		parts = append(parts, "--"+x.Name+" "+s)
	}
	return strings.Join(parts, " ")
}

// Families returns every family, in the order the practice page lists
// them.
func Families() []Family {
	return []Family{
		occupancyFamily(), blockSizeFamily(), wavesFamily(), launchBoundsFamily(), setMaxNRegFamily(),
		latencyFamily(), bytesInFlightFamily(), issueSlotFamily(),
		sectorsFamily(), bankFamily(),
		rooflineFamily(), tileFamily(), cdnaFamily(),
	}
}

// Lookup returns the family named name or with the code name.
func Lookup(name string) (Family, error) {
	var names []string
	for _, f := range Families() {
		if f.Name == name || f.Code == name {
			return f, nil
		}
		names = append(names, f.Name)
	}
	return Family{}, fmt.Errorf("problems: no family %q (want one of %s)", name, strings.Join(names, ", "))
}

// MaxSeed is the largest seed a code may carry.
const MaxSeed = 1<<32 - 1

// Generate draws the inputs of a problem of the named family from seed
// and makes it. A draw the engine refuses (a launch that cannot run) is
// drawn again from the same stream, so every seed gives a problem.
func Generate(family string, seed uint32) (*Problem, error) {
	f, err := Lookup(family)
	if err != nil {
		return nil, err
	}
	r := newRNG(f.Name, seed)
	for range 100 {
		p, err := f.problem(f.draw(r))
		if err == nil {
			p.Code = CodeOf(f, seed)
			return p, nil
		}
	}
	return nil, fmt.Errorf("problems: %s seed %d: no valid problem in 100 draws", f.Name, seed)
}

// Make makes a problem of the named family from its inputs, named as the
// family's params are. Inputs the engine refuses are an error.
func Make(family string, params Values) (*Problem, error) {
	f, err := Lookup(family)
	if err != nil {
		return nil, err
	}
	return f.problem(params)
}

// problem makes the family's problem from its inputs, with the family's
// name and section.
func (f Family) problem(in Values) (*Problem, error) {
	p, err := f.make(in)
	if err != nil {
		return nil, err
	}
	p.Family, p.Section = f.Name, f.Section
	return p, nil
}

// CodeOf returns the code of family f's problem with seed: its code, a
// hyphen, the seed in lower-case hex of at least four digits.
func CodeOf(f Family, seed uint32) string {
	return fmt.Sprintf("%s-%04x", f.Code, seed)
}

// ParseCode splits a problem's code into its family (or "int" for an
// interview), seed and interview step (0 for none).
func ParseCode(code string) (family string, seed uint32, step int, err error) {
	c := strings.ToLower(strings.TrimSpace(code))
	prefix, rest, ok := strings.Cut(c, "-")
	if !ok || prefix == "" || rest == "" {
		return "", 0, 0, fmt.Errorf("problems: %q is not a problem's code (want a family's code and a seed in hex, such as occ-7f3a)", code)
	}
	hex, stepText, hasStep := strings.Cut(rest, ".")
	s, err := strconv.ParseUint(hex, 16, 32)
	if err != nil || len(hex) > 8 {
		return "", 0, 0, fmt.Errorf("problems: %q: the seed %q is not a hexadecimal number of at most 8 digits", code, hex)
	}
	if prefix == interviewCode {
		if !hasStep {
			return interviewCode, uint32(s), 0, nil
		}
		n, err := strconv.Atoi(stepText)
		if err != nil || n < 1 || n > MaxSteps {
			return "", 0, 0, fmt.Errorf("problems: %q: the step %q is not 1 to %d", code, stepText, MaxSteps)
		}
		return interviewCode, uint32(s), n, nil
	}
	if hasStep {
		return "", 0, 0, fmt.Errorf("problems: %q: only an interview's code has a step", code)
	}
	f, err := Lookup(prefix)
	if err != nil {
		return "", 0, 0, fmt.Errorf("problems: %q: %w", code, err)
	}
	return f.Name, uint32(s), 0, nil
}

// Resolve returns the problem a code names: a family's problem, or a step
// of an interview.
func Resolve(code string) (*Problem, error) {
	family, seed, step, err := ParseCode(code)
	if err != nil {
		return nil, err
	}
	if family != interviewCode {
		return Generate(family, seed)
	}
	if step == 0 {
		return nil, fmt.Errorf("problems: %q is an interview; name one of its steps, %s.1", code, strings.ToLower(strings.TrimSpace(code)))
	}
	in, err := NewInterview(seed)
	if err != nil {
		return nil, err
	}
	if step > len(in.Steps) {
		return nil, fmt.Errorf("problems: interview %s has %d steps, not %d", in.Code, len(in.Steps), step)
	}
	return in.Steps[step-1].Problem, nil
}

// rng is SplitMix64: small, fast and the same on every platform and Go
// version, which math/rand does not promise.
type rng struct{ s uint64 }

func newRNG(name string, seed uint32) *rng {
	h := fnv.New64a()
	h.Write([]byte(name))
	return &rng{s: h.Sum64() ^ uint64(seed)*0x9e3779b97f4a7c15}
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a number from 0 to n-1.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// between returns a number from lo to hi, both included.
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// chance returns true with probability num/den.
func (r *rng) chance(num, den int) bool { return r.intn(den) < num }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }
