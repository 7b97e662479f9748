// Package num writes numbers as the book's prose and the engine's
// explanations write them: thousands separated by commas, trailing zeros
// of a fraction dropped ("16,384", "62.5", "1,407.2").
package num

import (
	"strconv"
	"strings"
)

// Int writes n with thousands separators: 16,384; -1,024.
func Int(n int) string {
	return group(strconv.Itoa(n))
}

// Float writes x with at most prec decimals, trailing zeros (and a
// trailing point) dropped, and thousands separators: Float(9.240, 2) is
// "9.24", Float(1536, 2) is "1,536".
func Float(x float64, prec int) string {
	s := strconv.FormatFloat(x, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return group(s)
}

// group puts thousands separators into the whole part of a decimal.
func group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}
