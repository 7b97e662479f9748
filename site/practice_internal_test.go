package site

import "testing"

// TestOneNumber: a value is compared as a number only when its text holds
// exactly one, standing alone.
func TestOneNumber(t *testing.T) {
	for _, tc := range []struct {
		text, num, unit string
		ok              bool
	}{
		{"75 %", "75", "# %", true},
		{"1,536", "1536", "#", true},
		{"62.5 %", "62.5", "# %", true},
		{"−3 cycles", "-3", "# cycles", true},
		{"sm_80", "", "", false},
		{"48K", "", "", false},
		{"24 blocks, 48 warps", "", "", false},
		{"registers", "", "", false},
	} {
		num, unit, ok := oneNumber(tc.text)
		if num != tc.num || unit != tc.unit || ok != tc.ok {
			t.Errorf("oneNumber(%q) = %q, %q, %v; want %q, %q, %v", tc.text, num, unit, ok, tc.num, tc.unit, tc.ok)
		}
	}
}

// TestTolerance: half a unit of the last digit written.
func TestTolerance(t *testing.T) {
	for num, want := range map[string]string{"75": "0.5", "62.5": "0.05", "3.272": "0.0005", "1536": "0.5"} {
		if got := tolerance(num); got != want {
			t.Errorf("tolerance(%s) = %s, want %s", num, got, want)
		}
	}
}

func TestWithSeparators(t *testing.T) {
	for n, want := range map[string]string{"1536": "1,536", "768": "768", "-1234567.5": "-1,234,567.5"} {
		if got := withSeparators(n, true); got != want {
			t.Errorf("withSeparators(%s) = %s, want %s", n, got, want)
		}
	}
}

// TestSentenceAround: the sentence that holds the value, the one before
// when it is short, cut around the value when long.
func TestSentenceAround(t *testing.T) {
	long := "Word " + repeat("filler ", 60) + "x" + valueMark + "y " + repeat("tail ", 60) + "end."
	for _, tc := range []struct{ text, want string }{
		{"First one is long enough to stand on its own as a sentence. Then " + valueMark + " warps. Next.", "First one is long enough to stand on its own as a sentence. Then ___ warps."},
		{"A sentence that is long enough to stand on its own, surely, with the value " + valueMark + " in it. Next one.", "A sentence that is long enough to stand on its own, surely, with the value ___ in it."},
		{"e.g. 3.5 and " + valueMark + ": the end", "e.g. 3.5 and ___: the end"},
	} {
		if got := sentenceAround(tc.text, "___", true); got != tc.want {
			t.Errorf("sentenceAround(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	got := sentenceAround(long, "___", true)
	if len(got) > 340 || got[:len("… ")] != "… " || got[len(got)-len(" …"):] != " …" {
		t.Errorf("a long paragraph gives %d bytes: %q", len(got), got)
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}
