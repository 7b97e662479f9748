package figure

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/goccy/go-yaml"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/sim"
)

// A Control is an input of a figure that a reader may change in the
// browser, where the live book redraws the figure with [DrawWith] in the
// browser kernel: the same drawing code as the build's.
type Control struct {
	// Key is the figure's YAML key the control sets.
	Key string `json:"key"`
	// Label names the control for the reader, in words.
	Label string `json:"label"`
	// Kind is "number", "select" or "text".
	Kind string `json:"kind"`
	// Value is the control's value as the figure's YAML has it.
	Value string `json:"value"`
	// Options are a select's choices, as the YAML takes them; OptionLabels,
	// when set, say each in words.
	Options      []string `json:"options,omitempty"`
	OptionLabels []string `json:"optionLabels,omitempty"`
	// Min, Max and Step bound a number.
	Min, Max, Step int `json:"-"`
	// LimitBy is the key of the select whose choice bounds this number:
	// Limits holds the most it takes for each choice (the warps a
	// machine's scheduler holds, the registers a GPU gives a thread).
	LimitBy string         `json:"limitBy,omitempty"`
	Limits  map[string]int `json:"limits,omitempty"`
	// Template is the YAML the key gets, with $ for the control's value
	// ("[1, $]" for the most warps of a range).
	Template string `json:"template"`
}

// policies are the scheduling policies a control offers, and what each
// is called in words.
var (
	policies      = []string{"lrr", "gto", "oldest", "two_level:2", "two_level:4"}
	policyLabels  = []string{"loose round-robin (lrr)", "greedy then oldest (gto)", "oldest first", "two-level, 2 active warps", "two-level, 4 active warps"}
	machinePolicy = "(the machine's)"
)

// titles say what each kind of figure plots, for a redrawn figure's
// caption.
var titles = map[string]string{
	"occupancy-vs-registers":  "Occupancy as the registers per thread vary",
	"occupancy-vs-smem":       "Occupancy as the shared memory per block varies",
	"occupancy-vs-block-size": "Occupancy as the block size varies",
	"issue-vs-warps":          "Issue slots used as the warps per scheduler grow",
	"warp-timeline":           "Which warp each scheduler issues from, cycle by cycle",
}

// Controls returns the inputs of the figure described by src that a reader
// may change: for the occupancy curves the GPU, the block size, the
// registers and the shared memory (each that is one value, not a list of
// lines), and the registers marked; for the simulator's figures the
// machine, the policy and the warps, the measurement window and the
// values of a vary. A figure that does not parse has none.
//
// Controls offers only what the figure can take: the GPUs and machines
// it draws with (a machine without the unit an instruction of the
// program needs is left out), and each number bounded by the chosen
// GPU's or machine's limit (see [Control.Limits]).
func Controls(src []byte) []Control {
	cs := controls(src)
	for i := range cs {
		c := &cs[i]
		if c.Key != "gpu" && c.Key != "machine" {
			continue
		}
		var opts []string
		for _, o := range c.Options {
			if o == c.Value || takes(src, cs, c.Key, o) {
				opts = append(opts, o)
			}
		}
		c.Options = opts
		for j := range cs {
			limitBy(&cs[j], c, opts)
		}
	}
	return cs
}

// limitBy bounds number control n by the choice of select c, when one
// bounds the other.
func limitBy(n *Control, c *Control, opts []string) {
	var most func(o string) (int, bool)
	switch {
	case c.Key == "machine" && n.Key == "warps":
		most = func(o string) (int, bool) {
			m, err := sim.Preset(o)
			return min(m.MaxWarps/max(m.Schedulers, 1), m.MaxBlocks), err == nil
		}
	case c.Key == "gpu" && (n.Key == "threads" || n.Key == "registers" || n.Key == "smem" || n.Key == "mark"):
		most = func(o string) (int, bool) {
			d, err := gpu.Lookup(o)
			switch n.Key {
			case "threads":
				return d.MaxThreadsPerBlock, err == nil
			case "smem":
				return d.SharedMemPerBlockOptIn, err == nil
			}
			return d.MaxRegistersPerThread, err == nil
		}
	default:
		return
	}
	limits := map[string]int{}
	bounds := false
	for _, o := range opts {
		if v, ok := most(o); ok && v >= n.Min {
			limits[o] = min(v, n.Max)
			bounds = bounds || v < n.Max
		}
	}
	if !bounds {
		return // no choice bounds it below its own most
	}
	n.LimitBy, n.Limits = c.Key, limits
	if v, ok := limits[c.Value]; ok {
		n.Max = v
	}
}

// takes reports whether the figure draws with its control key set to
// value, and its other numbers at their least (a probe of the figure
// with the fewest warps, which costs little to simulate).
func takes(src []byte, cs []Control, key, value string) bool {
	values := map[string]string{key: value}
	for _, c := range cs {
		if c.Key == "warps" {
			values["warps"] = strconv.Itoa(c.Min)
			if c.Template != "$" {
				var from int
				if _, err := fmt.Sscanf(c.Template, "[%d,", &from); err == nil {
					values["warps"] = strconv.Itoa(from)
				}
			}
		}
	}
	_, err := drawWith(src, "probe", values, cs)
	return err == nil
}

// controls returns the figure's controls as its YAML gives them, every
// choice offered (see Controls).
func controls(src []byte) []Control {
	var s spec
	if err := yaml.UnmarshalWithOptions(src, &s, yaml.Strict()); err != nil {
		return nil
	}
	var cs []Control
	scalar := func(v any) (string, bool) {
		switch v.(type) {
		case nil:
			return "", true
		case []any, map[string]any:
			return "", false
		}
		return fmt.Sprint(v), true
	}
	number := func(key, label string, v any, def string, lo, hi, step int) {
		if val, ok := scalar(v); ok {
			if val == "" {
				val = def
			}
			cs = append(cs, Control{Key: key, Label: label, Kind: "number", Value: val, Min: lo, Max: hi, Step: step, Template: "$"})
		}
	}
	choice := func(key, label string, v any, def string, options, labels []string) {
		if val, ok := scalar(v); ok {
			if val == "" {
				val = def
			}
			if val != "" && !slices.Contains(options, val) {
				options = append([]string{val}, options...)
				if labels != nil {
					labels = append([]string{val}, labels...)
				}
			}
			cs = append(cs, Control{Key: key, Label: label, Kind: "select", Value: val, Options: options, OptionLabels: labels, Template: "$"})
		}
	}
	var gpus []string
	for _, d := range gpu.Parts() {
		gpus = append(gpus, d.Name)
	}
	var machines []string
	for _, m := range sim.Presets() {
		machines = append(machines, m.Name)
	}
	switch s.Kind {
	case "occupancy-vs-registers", "occupancy-vs-smem", "occupancy-vs-block-size":
		choice("gpu", "GPU", s.GPU, "", gpus, nil)
		if s.Kind != "occupancy-vs-block-size" {
			number("threads", "Threads per block", s.Threads, "256", 1, 1024, 1)
		}
		if s.Kind != "occupancy-vs-registers" {
			number("registers", "Registers per thread", s.Registers, "32", 1, 255, 1)
		}
		if s.Kind != "occupancy-vs-smem" {
			number("smem", "Shared memory per block (bytes)", s.SharedMem, "0", 0, 232448, 1024)
		}
		if s.Kind == "occupancy-vs-registers" {
			lo, hi := 1, 255
			if len(s.Range) == 2 {
				lo, hi = max(lo, s.Range[0]), min(hi, s.Range[1])
			}
			number("mark", "Registers per thread to mark", s.Mark, "", lo, hi, 1)
		}
	case "issue-vs-warps", "warp-timeline":
		choice("machine", "Machine", s.Machine, "volta", machines, nil)
		choice("policy", "Scheduling policy", policyOf(s.Policy), "", policies, policyLabels)
		switch w := s.Warps.(type) {
		case []any:
			if len(w) == 2 {
				from, _ := strconv.Atoi(fmt.Sprint(w[0]))
				cs = append(cs, Control{Key: "warps", Label: "Most warps per scheduler", Kind: "number", Value: fmt.Sprint(w[1]),
					Min: max(from, 1), Max: 64, Step: 1, Template: fmt.Sprintf("[%v, $]", w[0])})
			}
		default:
			number("warps", "Warps per scheduler", s.Warps, "4", 1, 64, 1)
		}
		if s.Kind == "issue-vs-warps" {
			if _, ok := scalar(s.Measure); ok {
				choice("measure", "Cycles measured", s.Measure, "whole", []string{"whole", "steady"}, []string{"the whole run", "the steady state"})
			}
			if v, ok := s.Vary.(map[string]any); ok && len(v) == 1 {
				for name, vals := range v {
					cs = append(cs, Control{Key: "vary", Label: "One line for each " + name + " of", Kind: "text",
						Value: strings.Join(strs(vals), ", "), Template: "{" + name + ": [$]}"})
				}
			}
		}
	}
	// The warps a scheduler holds on the machines the figure names (a
	// control of the machine bounds them by its choice, see Controls).
	machineControl := slices.ContainsFunc(cs, func(c Control) bool { return c.Key == "machine" })
	for i := range cs {
		if cs[i].Key != "warps" || machineControl {
			continue
		}
		names := strs(s.Machine)
		if len(names) == 0 {
			names = []string{"volta"}
		}
		for _, n := range names {
			if m, err := sim.Preset(n); err == nil {
				cs[i].Max = min(cs[i].Max, m.MaxWarps/max(m.Schedulers, 1), m.MaxBlocks)
			}
		}
	}
	for i := range cs {
		if cs[i].Key == "policy" && cs[i].Value == "" {
			cs[i].Value = machinePolicy
			cs[i].Options = append([]string{machinePolicy}, cs[i].Options...)
			cs[i].OptionLabels = append([]string{"the machine's own"}, cs[i].OptionLabels...)
		}
	}
	return cs
}

// policyOf is a policy key's value ("" when the machine's own).
func policyOf(p string) any {
	if p == "" {
		return nil
	}
	return p
}

// DrawWith draws the figure described by src with some of its controls
// set: values holds a value by control key, as the reader typed or chose
// it. A key that is not one of the figure's controls, or a value that does
// not fit its control, is an error. The alt-text check is the build's
// (see [Draw]): a redrawn figure's caption and alt text say what it was
// drawn for, from the reader's inputs, not the book's words.
func DrawWith(src []byte, id string, values map[string]string) (*Figure, error) {
	return drawWith(src, id, values, controls(src))
}

func drawWith(src []byte, id string, values map[string]string, cs []Control) (*Figure, error) {
	var doc yaml.MapSlice
	if err := yaml.UnmarshalWithOptions(src, &doc, yaml.UseOrderedMap()); err != nil {
		return Draw(src, id) // Draw says what is wrong
	}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		i := slices.IndexFunc(cs, func(c Control) bool { return c.Key == k })
		if i < 0 {
			return nil, &Error{Msg: fmt.Sprintf("this figure has no control %q", k)}
		}
		c, v := cs[i], strings.TrimSpace(values[k])
		var val any
		switch {
		case c.Key == "policy" && v == machinePolicy:
			doc = slices.DeleteFunc(doc, func(it yaml.MapItem) bool { return it.Key == "policy" })
			continue
		case c.Kind == "select":
			if !slices.Contains(c.Options, v) {
				return nil, &Error{Msg: fmt.Sprintf("%s: %q is not one of the choices", c.Label, v)}
			}
			val = v
		case c.Kind == "number":
			n, err := strconv.Atoi(v)
			if err != nil || n < c.Min || n > c.Max {
				return nil, &Error{Msg: fmt.Sprintf("%s: want a whole number from %d to %d, not %q", c.Label, c.Min, c.Max, v)}
			}
			val = n
			if c.Template != "$" {
				if val, err = templated(c, strconv.Itoa(n)); err != nil {
					return nil, err
				}
			}
		default:
			if !listOfWords(v) {
				return nil, &Error{Msg: fmt.Sprintf("%s: %q is not a list of values such as 1, 2, 4", c.Label, v)}
			}
			var err error
			if val, err = templated(c, v); err != nil {
				return nil, err
			}
		}
		if j := slices.IndexFunc(doc, func(it yaml.MapItem) bool { return it.Key == k }); j >= 0 {
			doc[j].Value = val
		} else {
			doc = append(doc, yaml.MapItem{Key: k, Value: val})
		}
	}
	if len(values) > 0 {
		// The book's words describe the book's inputs.
		caption := redrawnCaption(src, cs, values)
		for _, kv := range [][2]string{{"caption", caption}, {"alt", caption + " The table of the figure's data gives its numbers."}} {
			if j := slices.IndexFunc(doc, func(it yaml.MapItem) bool { return it.Key == kv[0] }); j >= 0 {
				doc[j].Value = kv[1]
			}
		}
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	return drawFigure(out, id, false)
}

// redrawnCaption says what a figure redrawn for the reader's inputs
// shows: what its kind plots and every input it was drawn with.
func redrawnCaption(src []byte, cs []Control, values map[string]string) string {
	var s struct {
		Kind string `yaml:"kind"`
	}
	_ = yaml.Unmarshal(src, &s)
	var parts []string
	for _, c := range cs {
		v, ok := values[c.Key]
		if !ok {
			v = c.Value
		}
		v = strings.TrimSpace(v)
		if i := slices.Index(c.Options, v); i >= 0 && i < len(c.OptionLabels) {
			v = c.OptionLabels[i]
		}
		label := c.Label
		if len(label) > 1 && !unicode.IsUpper(rune(label[1])) {
			label = strings.ToLower(label[:1]) + label[1:]
		}
		parts = append(parts, label+": "+v)
	}
	title := titles[s.Kind]
	if title == "" {
		title = "The figure"
	}
	return title + ", redrawn for your inputs (" + strings.Join(parts, "; ") + ")."
}

// templated is a control's YAML value for v.
func templated(c Control, v string) (any, error) {
	var x struct {
		V any `yaml:"v"`
	}
	if err := yaml.Unmarshal([]byte("v: "+strings.ReplaceAll(c.Template, "$", v)), &x); err != nil {
		return nil, &Error{Msg: fmt.Sprintf("%s: %v", c.Label, err)}
	}
	return x.V, nil
}

// listOfWords reports whether v is a comma-separated list of plain words.
func listOfWords(v string) bool {
	for _, w := range strings.Split(v, ",") {
		w = strings.TrimSpace(w)
		if w == "" || strings.ContainsAny(w, "{}[]:#&*!|>'\"%@` ") {
			return false
		}
	}
	return true
}
