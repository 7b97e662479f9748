package figure

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

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
	// Label names the control for the reader.
	Label string `json:"label"`
	// Kind is "number" or "select".
	Kind string `json:"kind"`
	// Value is the control's value as the figure's YAML has it.
	Value string `json:"value"`
	// Options are a select's choices.
	Options []string `json:"options,omitempty"`
	// Min, Max and Step bound a number.
	Min, Max, Step int `json:"-"`
	// Template is the YAML the key gets, with $ for the control's value
	// ("[1, $]" for the most warps of a range).
	Template string `json:"template"`
}

// policies are the scheduling policies a control offers.
var policies = []string{"lrr", "gto", "oldest", "two_level:2", "two_level:4"}

// Controls returns the inputs of the figure described by src that a reader
// may change: for the occupancy curves the GPU, the block size, the
// registers and the shared memory (each that is one value, not a list of
// lines), and the registers marked; for the simulator's figures the
// machine, the policy and the warps, the measurement window and the
// values of a vary. A figure that does not parse has none.
func Controls(src []byte) []Control {
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
	choice := func(key, label string, v any, def string, options []string) {
		if val, ok := scalar(v); ok {
			if val == "" {
				val = def
			}
			if val != "" && !slices.Contains(options, val) {
				options = append([]string{val}, options...)
			}
			cs = append(cs, Control{Key: key, Label: label, Kind: "select", Value: val, Options: options, Template: "$"})
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
		choice("gpu", "GPU", s.GPU, "", gpus)
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
			number("mark", "Registers to mark", s.Mark, "", 1, 255, 1)
		}
	case "issue-vs-warps", "warp-timeline":
		choice("machine", "Machine", s.Machine, "volta", machines)
		choice("policy", "Policy", policyOf(s.Policy), "", policies)
		switch w := s.Warps.(type) {
		case []any:
			if len(w) == 2 {
				cs = append(cs, Control{Key: "warps", Label: "Most warps per scheduler", Kind: "number", Value: fmt.Sprint(w[1]),
					Min: 1, Max: 64, Step: 1, Template: fmt.Sprintf("[%v, $]", w[0])})
			}
		default:
			number("warps", "Warps per scheduler", s.Warps, "4", 1, 64, 1)
		}
		if s.Kind == "issue-vs-warps" {
			if _, ok := scalar(s.Measure); ok {
				choice("measure", "Measure", s.Measure, "whole", []string{"whole", "steady"})
			}
			if v, ok := s.Vary.(map[string]any); ok && len(v) == 1 {
				for name, vals := range v {
					cs = append(cs, Control{Key: "vary", Label: "Values of $" + name, Kind: "text",
						Value: strings.Join(strs(vals), ", "), Template: "{" + name + ": [$]}"})
				}
			}
		}
	}
	for i := range cs {
		if cs[i].Key == "policy" && cs[i].Value == "" {
			cs[i].Value = "(the machine's)"
			cs[i].Options = append([]string{"(the machine's)"}, cs[i].Options...)
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
// not fit its control, is an error.
func DrawWith(src []byte, id string, values map[string]string) (*Figure, error) {
	var doc yaml.MapSlice
	if err := yaml.UnmarshalWithOptions(src, &doc, yaml.UseOrderedMap()); err != nil {
		return Draw(src, id) // Draw says what is wrong
	}
	cs := Controls(src)
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		i := slices.IndexFunc(cs, func(c Control) bool { return c.Key == k })
		if i < 0 {
			return nil, &Error{Msg: fmt.Sprintf("this figure has no control %q", k)}
		}
		c, v := cs[i], strings.TrimSpace(values[k])
		var val any
		switch {
		case c.Key == "policy" && v == "(the machine's)":
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
	out, err := yaml.Marshal(doc)
	if err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	return Draw(out, id)
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
