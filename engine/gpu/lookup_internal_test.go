package gpu

import (
	"slices"
	"testing"
)

// TestLookupFirstPartWins holds Lookup's index to the scan it replaced:
// every name and alias finds the first part, in the table's order, that
// answers to it.
func TestLookupFirstPartWins(t *testing.T) {
	ps := parts()
	for _, p := range ps {
		for _, name := range append([]string{p.name}, p.aliases...) {
			var want part
			for _, q := range ps {
				if normalize(q.name) == normalize(name) || slices.ContainsFunc(q.aliases, func(a string) bool { return normalize(a) == normalize(name) }) {
					want = q
					break
				}
			}
			got, err := Lookup(name)
			if err != nil || got.Name != want.name {
				t.Errorf("Lookup(%q) = %q, %v; want %q", name, got.Name, err, want.name)
			}
		}
	}
}
