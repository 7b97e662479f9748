package gpu

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agnivade/levenshtein"
)

// Parts returns every named preset, ordered by compute capability and then
// by name.
func Parts() []Device {
	ps := parts()
	out := make([]Device, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.device())
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].CC != out[j].CC {
			return out[i].CC.Less(out[j].CC)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Capabilities returns the compute capabilities that have presets, oldest
// first: 5.0 to 9.0, 10.0 and 12.0.
func Capabilities() []CC {
	var ccs []CC
	for _, p := range parts() {
		if p.representative {
			ccs = append(ccs, p.cc)
		}
	}
	sort.Slice(ccs, func(i, j int) bool { return ccs[i].Less(ccs[j]) })
	return ccs
}

// ForCapability returns the preset that stands for compute capability cc:
// the part listed for it in the golden reference (A100 SXM4 for 8.0, H100
// SXM5 for 9.0, ...). Parts of one capability share every per-SM figure
// except, rarely, registers per block; only the SM count differs otherwise.
func ForCapability(cc CC) (Device, error) {
	for _, p := range parts() {
		if p.representative && p.cc == cc {
			return p.device(), nil
		}
	}
	known := Capabilities()
	names := make([]string, len(known))
	for i, k := range known {
		names[i] = k.String()
	}
	return Device{}, fmt.Errorf("gpu: no preset for compute capability %s (known: %s)", cc, strings.Join(names, ", "))
}

// Lookup finds a preset by product name or by compute capability.
//
// Names are matched ignoring case, spaces, hyphens and underscores, and
// common short forms are accepted: "A100", "a100", "H100 SXM", "rtx4090",
// "GeForce RTX 4090" and "4090" all work. A capability is written "8.0",
// "sm_80", "sm80" or "compute_80" and yields [ForCapability]. An unknown
// name is an error that lists the closest known names.
func Lookup(name string) (Device, error) {
	key := normalize(name)
	if key == "" {
		return Device{}, fmt.Errorf("gpu: empty GPU name")
	}
	if p, ok := partIndex()[key]; ok {
		return p.device(), nil
	}
	if looksLikeCC(name) {
		cc, err := ParseCC(name)
		if err != nil {
			return Device{}, err
		}
		return ForCapability(cc)
	}
	if close := closeMatches(key, parts()); len(close) > 0 {
		return Device{}, fmt.Errorf("gpu: unknown GPU %q; did you mean %s?", name, strings.Join(close, ", "))
	}
	return Device{}, fmt.Errorf("gpu: unknown GPU %q (see gpu.Parts for the list)", name)
}

// partIndex finds a part by its name or an alias, normalized. It is
// built once: the table never changes, and the simulator looks its
// preset's part up on every run.
var partIndex = sync.OnceValue(func() map[string]part {
	index := map[string]part{}
	ps := parts()
	// Later entries do not replace earlier ones: the first part that
	// answers to a name wins, as a scan in order would find it.
	for _, p := range slices.Backward(ps) {
		index[normalize(p.name)] = p
		for _, a := range p.aliases {
			index[normalize(a)] = p
		}
	}
	return index
})

// looksLikeCC reports whether s is written like a compute capability rather
// than a product name.
func looksLikeCC(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	if strings.HasPrefix(t, "sm") || strings.HasPrefix(t, "compute_") {
		return true
	}
	return strings.Contains(t, ".") && allDigits(strings.ReplaceAll(t, ".", ""))
}

// normalize folds case and drops spaces, hyphens and underscores.
func normalize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case ' ', '\t', '-', '_':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// closeMatches returns up to five product names near key: names that
// contain key or that key contains, then names within a small edit
// distance, closest first.
func closeMatches(key string, ps []part) []string {
	type cand struct {
		name string
		dist int
	}
	var cands []cand
	seen := map[string]bool{}
	for _, p := range ps {
		best := -1
		for _, k := range append([]string{p.name}, p.aliases...) {
			nk := normalize(k)
			d := levenshtein.ComputeDistance(key, nk)
			if strings.Contains(nk, key) || strings.Contains(key, nk) {
				d = 0
			}
			if best < 0 || d < best {
				best = d
			}
		}
		limit := 2
		switch {
		case len(key) <= 4:
			limit = 1
		case len(key) > 6:
			limit = 3
		}
		if best <= limit && !seen[p.name] {
			seen[p.name] = true
			cands = append(cands, cand{p.name, best})
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].dist < cands[j].dist })
	var out []string
	for i := 0; i < len(cands) && i < 5; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// Aliases returns the other names [Lookup] takes for the part named name
// (a Device's Name), nil for a name it does not know.
func Aliases(name string) []string {
	for _, p := range parts() {
		if p.name == name {
			return append([]string(nil), p.aliases...)
		}
	}
	return nil
}
