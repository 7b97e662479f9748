package page

import (
	"slices"

	"github.com/agnivade/levenshtein"
)

// Nearest returns the candidate closest to want by edit distance, for a
// "did you mean" in a message: one at most half of want's length of edits
// away, the first in sorted order on a tie; "" when none is that close, or
// want is itself a candidate.
func Nearest(want string, candidates []string) string {
	sorted := slices.Clone(candidates)
	slices.Sort(sorted)
	best, bestD := "", len(want)/2+1
	for _, c := range sorted {
		if c == want {
			return ""
		}
		if d := levenshtein.ComputeDistance(want, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
