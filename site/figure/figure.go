// Package figure draws the book's figures from the engine at build time,
// as inline SVG: no charting library and no script in the page. Colours
// come from CSS classes (fig-*), so figures follow the light and dark
// themes.
//
// # Syntax
//
// A figure is a fenced block with the info string "figure" holding YAML:
//
//	```figure
//	kind: occupancy-vs-registers
//	gpu: A100
//	threads: 256
//	mark: 33
//	caption: Occupancy of a 256-thread block on an A100 as registers grow.
//	alt: A falling staircase from 100 % at 32 registers to 12.5 % at 255.
//	```
//
// Every figure needs kind, caption (shown under it) and alt (read by
// screen readers in place of the drawing). The other keys depend on the
// kind; unknown keys are errors. See [Kinds] for the list and
// docs/writing.md ("Figures") for every parameter.
package figure

import (
	"errors"
	"fmt"
	"html"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
)

// A Figure is a drawn figure.
type Figure struct {
	SVG     string // the <svg> element
	Caption string // shown under the figure
	Alt     string // read by screen readers in place of the drawing
	// Data is an HTML table of the numbers behind the drawing, for readers
	// who want them and for screen readers; "" if the kind has none.
	Data string
}

// An Error is a problem in a figure's YAML. Line counts from 1 at the
// first line of the block's body; 0 means the whole block.
type Error struct {
	Line int    // line in the block's body, 0 for the whole block
	Col  int    // byte column in that line, 1-based; 0 if unknown
	Msg  string // what is wrong
}

// Error formats e as "figure line N: message".
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("figure line %d: %s", e.Line, e.Msg)
	}
	return "figure: " + e.Msg
}

// spec is the YAML of a figure block. Fields typed any accept one value
// or a list.
type spec struct {
	Kind    string `yaml:"kind"`
	Caption string `yaml:"caption"`
	Alt     string `yaml:"alt"`

	// Occupancy figures.
	GPU       any   `yaml:"gpu"`
	Threads   any   `yaml:"threads"`
	Registers any   `yaml:"registers"`
	SharedMem any   `yaml:"smem"`
	Range     []int `yaml:"range"`
	Step      int   `yaml:"step"`
	Mark      any   `yaml:"mark"`

	// Simulator figures.
	Machine   any    `yaml:"machine"`   // sim preset: toy, gt200, gf100, volta, turing, ampere, hopper
	Program   any    `yaml:"program"`   // the program, as in a workload file's program:, or a list of {label, program}
	Vary      any    `yaml:"vary"`      // {name: [values]}: one line per value of $name in the program
	Measure   any    `yaml:"measure"`   // whole, steady or [from, to]: the cycles issue-vs-warps measures
	Policy    string `yaml:"policy"`    // lrr, gto, oldest, two_level:N
	Warps     any    `yaml:"warps"`     // warps per scheduler, or [from, to]
	Cycles    any    `yaml:"cycles"`    // [from, to] cycle window
	Scheduler *int   `yaml:"scheduler"` // which scheduler's warps a timeline shows
	Measured  []int  `yaml:"measured"`  // measured first-issue cycle of each warp, in warp order

	src  []byte
	keys map[string]page.Pos // where each top-level key is, in src
	// cycles is what is left of the figure's budget of simulated cycles
	// (maxFigureCycles).
	cycles int64
}

// kind is one kind of figure.
type kind struct {
	keys []string // keys beyond kind, caption and alt
	draw func(s *spec, id string) (*Figure, error)
}

func kinds() map[string]kind {
	return map[string]kind{
		"occupancy-vs-registers":  {[]string{"gpu", "threads", "smem", "range", "step", "mark"}, drawOccupancy},
		"occupancy-vs-smem":       {[]string{"gpu", "threads", "registers", "range", "step", "mark"}, drawOccupancy},
		"occupancy-vs-block-size": {[]string{"gpu", "registers", "smem", "range", "step", "mark"}, drawOccupancy},
		"issue-vs-warps":          {[]string{"machine", "program", "vary", "policy", "warps", "measure"}, drawIssueVsWarps},
		"warp-timeline":           {[]string{"machine", "program", "policy", "warps", "cycles", "scheduler"}, drawTimeline},
		"occupancy-stepper":       {[]string{"machine", "program", "policy", "threads", "measured"}, drawStepper},
	}
}

// Kinds lists the figure kinds, sorted.
func Kinds() []string {
	return slices.Sorted(maps.Keys(kinds()))
}

// Draw draws the figure described by src, the YAML body of a figure block.
// id prefixes the ids inside the SVG; it must be unique on the page.
func Draw(src []byte, id string) (*Figure, error) {
	return drawFigure(src, id, true)
}

// drawFigure draws a figure; lint holds its alt text to its data (checkAlt),
// as the build does, and a reader's redraw does not.
func drawFigure(src []byte, id string, lint bool) (*Figure, error) {
	var s spec
	keys, err := page.DecodeYAML("", 1, src, &s)
	if err != nil {
		e := &Error{Msg: err.Error()}
		var d *page.Diagnostic
		if errors.As(err, &d) {
			e.Line, e.Col, e.Msg = d.Pos.Line, d.Pos.Col, d.Msg
		}
		return nil, e
	}
	s.src, s.keys = src, keys
	s.cycles = maxFigureCycles
	if s.Kind == "" {
		return nil, &Error{Msg: "kind is missing; kinds: " + strings.Join(Kinds(), ", ")}
	}
	k, ok := kinds()[s.Kind]
	if !ok {
		return nil, s.errorf("kind", "unknown kind %q; kinds: %s", s.Kind, strings.Join(Kinds(), ", "))
	}
	for _, key := range s.setKeys() {
		if !slices.Contains(k.keys, key) {
			return nil, s.errorf(key, "%s takes no %s (it takes %s)", s.Kind, key, strings.Join(k.keys, ", "))
		}
	}
	if strings.TrimSpace(s.Alt) == "" {
		return nil, &Error{Msg: "alt is missing: say in words what the figure shows, for readers who cannot see it"}
	}
	if strings.TrimSpace(s.Caption) == "" {
		return nil, &Error{Msg: "caption is missing"}
	}
	f, err := k.draw(&s, id)
	if err != nil {
		var fe *Error
		if errors.As(err, &fe) {
			return nil, fe
		}
		return nil, &Error{Msg: err.Error()}
	}
	f.Caption, f.Alt = strings.TrimSpace(s.Caption), strings.TrimSpace(s.Alt)
	if lint {
		if err := s.checkAlt(f); err != nil {
			return nil, err
		}
	}
	return f, nil
}

var (
	numberRE  = regexp.MustCompile(`\d+(?:,\d{3})*(?:\.\d+)?`)
	percentRE = regexp.MustCompile(`(?:^|[^\w.,])(\d+(?:\.\d+)?) ?(?:%|percent\b)`)
	tagRE     = regexp.MustCompile(`<[^>]*>`)
)

// checkAlt holds the alt text to the figure: every percentage it states
// (what the figures plot: occupancy, issue-slot use) must be one of the
// figure's data (what its table shows) or of its YAML, at the precision of
// the less precise of the two ("about 15.5 %" matches 15.52, "6.25 %"
// matches a table's 6.2), so that an alt text cannot go stale when the
// engine changes what the figure draws. Other numbers (counts, cycles,
// ratios) are the author's.
func (s *spec) checkAlt(f *Figure) error {
	type num struct {
		v     float64
		scale float64 // 10^decimals written
	}
	parse := func(n string) (num, bool) {
		v, err := strconv.ParseFloat(strings.ReplaceAll(n, ",", ""), 64)
		scale := 1.0
		if i := strings.IndexByte(n, '.'); i >= 0 {
			scale = math.Pow(10, float64(len(n)-i-1))
		}
		return num{v, scale}, err == nil
	}
	var have []num
	// The parameters are the YAML's numbers, its alt and caption aside.
	params := strings.NewReplacer(s.Alt, "", s.Caption, "").Replace(string(s.src))
	for _, n := range append(numberRE.FindAllString(html.UnescapeString(tagRE.ReplaceAllString(f.Data, " ")), -1), numberRE.FindAllString(params, -1)...) {
		if h, ok := parse(n); ok {
			have = append(have, h)
		}
	}
	for _, m := range percentRE.FindAllStringSubmatch(f.Alt, -1) {
		a, ok := parse(m[1])
		if !ok {
			continue
		}
		found, closest := false, math.Inf(1)
		for _, h := range have {
			scale := min(a.scale, h.scale)
			if math.Abs(h.v-a.v) <= 0.5/scale+1e-9 {
				found = true
				break
			}
			if math.Abs(h.v-a.v) < math.Abs(closest-a.v) {
				closest = h.v
			}
		}
		if !found {
			near := ""
			if !math.IsInf(closest, 0) {
				near = fmt.Sprintf("; the nearest is %s", strconv.FormatFloat(closest, 'f', -1, 64))
			}
			return s.errorf("alt", "alt says %s %%, which is not a number of the figure's data or parameters%s: say what the figure shows", m[1], near)
		}
	}
	return nil
}

// setKeys lists the optional keys the spec sets.
func (s *spec) setKeys() []string {
	var keys []string
	add := func(key string, set bool) {
		if set {
			keys = append(keys, key)
		}
	}
	add("gpu", s.GPU != nil)
	add("threads", s.Threads != nil)
	add("registers", s.Registers != nil)
	add("smem", s.SharedMem != nil)
	add("range", s.Range != nil)
	add("step", s.Step != 0)
	add("mark", s.Mark != nil)
	add("machine", s.Machine != nil)
	add("program", s.Program != nil && s.Program != "")
	add("vary", s.Vary != nil)
	add("measure", s.Measure != nil)
	add("policy", s.Policy != "")
	add("warps", s.Warps != nil)
	add("cycles", s.Cycles != nil)
	add("scheduler", s.Scheduler != nil)
	add("measured", s.Measured != nil)
	return keys
}

// errorf is an error about a top-level key, at the key.
func (s *spec) errorf(key, format string, args ...any) *Error {
	p := s.keys[key]
	return &Error{Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, args...)}
}

// strs returns a key's value, one value or a list, as a list of strings.
func strs(v any) []string {
	switch v := v.(type) {
	case nil:
		return nil
	case []any:
		var out []string
		for _, x := range v {
			out = append(out, fmt.Sprint(x))
		}
		return out
	default:
		return []string{fmt.Sprint(v)}
	}
}

// ints returns a key's value as a list of integers.
func (s *spec) ints(key string, v any) ([]int, error) {
	conv := func(x any) (int, error) {
		switch x := x.(type) {
		case int:
			return x, nil
		case int64:
			return int(x), nil
		case uint64:
			return int(x), nil
		case float64:
			if x == float64(int(x)) {
				return int(x), nil
			}
		}
		return 0, s.errorf(key, "%s: want a whole number, not %v", key, x)
	}
	list, ok := v.([]any)
	switch {
	case v == nil:
		return nil, nil
	case !ok:
		list = []any{v}
	}
	var out []int
	for _, x := range list {
		n, err := conv(x)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}
