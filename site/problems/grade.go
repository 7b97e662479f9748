package problems

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FSRS ratings a graded problem gives its family.
const (
	Again = 1 // no part right
	Hard  = 2 // some parts right
	Good  = 3 // every part right
)

// A Graded answer says, part by part, what was right.
type Graded struct {
	// Code is the graded problem's code.
	Code string `json:"code,omitempty"`
	// Parts are the parts in the problem's order.
	Parts []PartGrade `json:"parts"`
	// Right reports that every part is right.
	Right bool `json:"right"`
	// Rating is the family's FSRS rating: Good, Hard or Again.
	Rating int `json:"rating"`
}

// PartGrade is the grade of one part.
type PartGrade struct {
	Name string `json:"name"`
	// Given is the answer as given, Expected the engine's.
	Given    string `json:"given"`
	Expected string `json:"expected"`
	Right    bool   `json:"right"`
	// Why says what was wrong with the answer, "" when it is right.
	Why string `json:"why,omitempty"`
}

// Grade checks answers, by part name, against the problem's. A part not
// answered is wrong.
func Grade(p *Problem, answers map[string]string) Graded {
	g := Graded{Code: p.Code}
	right := 0
	for _, part := range p.Parts {
		given := strings.TrimSpace(answers[part.Name])
		pg := PartGrade{Name: part.Name, Given: given, Expected: fmt.Sprint(p.Answer.Get(part.Name))}
		switch {
		case given == "":
			pg.Why = "no answer"
		case part.Kind == "choice":
			pg.Right, pg.Why = gradeChoice(part, given)
		default:
			pg.Right, pg.Why = gradeNumber(part, given)
		}
		if pg.Right {
			right++
		}
		g.Parts = append(g.Parts, pg)
	}
	switch {
	case right == len(p.Parts) && right > 0:
		g.Right, g.Rating = true, Good
	case right > 0:
		g.Rating = Hard
	default:
		g.Rating = Again
	}
	return g
}

// gradeChoice matches a choice by its word, an alias or its number in the
// list (1 for the first).
func gradeChoice(part Part, given string) (bool, string) {
	word := choiceOf(part, given)
	if word == "" {
		return false, fmt.Sprintf("%q is none of %s", given, strings.Join(part.Choices, ", "))
	}
	if slices.Contains(part.Accept, word) {
		return true, ""
	}
	return false, word + " is not it"
}

// choiceOf returns the choice given names, "" for none.
func choiceOf(part Part, given string) string {
	key := fold(given)
	if n, err := strconv.Atoi(key); err == nil && n >= 1 && n <= len(part.Choices) {
		return part.Choices[n-1]
	}
	for _, c := range part.Choices {
		if fold(c) == key || slices.Contains(aliases[c], key) {
			return c
		}
	}
	return ""
}

// aliases are other words for the choices, folded.
var aliases = map[string][]string{
	"registers":     {"regs", "register", "registerfile", "blocklimitregisters"},
	"shared memory": {"smem", "shared", "sharedmem", "sharedmemory", "blocklimitsharedmem", "lds"},
	"warps":         {"warp", "warpslots", "threads", "blocklimitwarps"},
	"blocks":        {"block", "blockslots", "blocklimitsm", "sm"},
	"memory":        {"memorybound", "bandwidth", "bandwidthbound", "mem"},
	"compute":       {"computebound", "math", "mathbound"},
	"yes":           {"y", "true"},
	"no":            {"n", "false"},
}

// fold lower-cases s and drops spaces, hyphens and underscores.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case ' ', '-', '_', '\t':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// gradeNumber reads the first number of given and compares it with the
// part's answer within its tolerance.
func gradeNumber(part Part, given string) (bool, string) {
	x, ok := readNumber(given)
	if !ok {
		return false, fmt.Sprintf("%q is not a number", given)
	}
	if part.Unit == "%" && !strings.Contains(given, "%") && x > 0 && x <= 1 {
		// A fraction for a percentage: 0.625 for 62.5 %.
		if v, _ := strconv.ParseFloat(part.Accept[0], 64); v > 1 {
			x *= 100
		}
	}
	for _, a := range part.Accept {
		v, err := strconv.ParseFloat(a, 64)
		if err != nil {
			continue
		}
		tol := part.Tolerance
		if part.Relative {
			tol *= math.Abs(v)
		}
		if math.Abs(x-v) <= tol+1e-9*math.Max(1, math.Abs(v)) {
			return true, ""
		}
	}
	return false, fmt.Sprintf("%s is not %s", strconv.FormatFloat(x, 'f', -1, 64), part.Stated)
}

// readNumber reads the first number of s as prose writes one ("1,536",
// "62.5 %", "−3", "13.3 KB"): thousands separators dropped, a size
// suffix (K, KB, KiB, M, MB, MiB) taken as powers of 1,024.
func readNumber(s string) (float64, bool) {
	s = strings.ReplaceAll(s, "−", "-")
	start := -1
	for i, r := range s {
		if r >= '0' && r <= '9' || r == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			start = i
			if i > 0 && s[i-1] == '-' {
				start = i - 1
			}
			break
		}
	}
	if start < 0 {
		return 0, false
	}
	end := start
	if s[end] == '-' {
		end++
	}
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.' || s[end] == ',' && end+1 < len(s) && s[end+1] >= '0' && s[end+1] <= '9') {
		end++
	}
	x, err := strconv.ParseFloat(strings.ReplaceAll(s[start:end], ",", ""), 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, false
	}
	unit := strings.ToLower(strings.TrimSpace(s[end:]))
	switch {
	case strings.HasPrefix(unit, "kib"), strings.HasPrefix(unit, "kb"), unit == "k":
		x *= 1024
	case strings.HasPrefix(unit, "mib"), strings.HasPrefix(unit, "mb"), unit == "m":
		x *= 1 << 20
	}
	return x, true
}

// Stated tolerances.
func exactly() (float64, bool, string) { return 0, false, "exactly the answer" }

func within(tol float64) (float64, bool, string) {
	return tol, false, "within ±" + strconv.FormatFloat(tol, 'f', -1, 64) + " of the answer"
}

func withinPercent(pct float64) (float64, bool, string) {
	return pct / 100, true, "within ±" + strconv.FormatFloat(pct, 'f', -1, 64) + " % of the answer"
}

// numberPart returns a part asking for a number.
func numberPart(name, prompt, unit string, answer float64, prec int, tol func() (float64, bool, string), also ...float64) Part {
	t, rel, stated := tol()
	p := Part{Name: name, Prompt: prompt, Kind: "number", Unit: unit, Tolerance: t, Relative: rel, Stated: stated}
	p.Accept = append(p.Accept, strconv.FormatFloat(answer, 'f', prec, 64))
	for _, a := range also {
		p.Accept = append(p.Accept, strconv.FormatFloat(a, 'f', prec, 64))
	}
	return p
}

// choicePart returns a part asking for one of choices.
func choicePart(name, prompt string, choices []string, accept ...string) Part {
	return Part{Name: name, Prompt: prompt, Kind: "choice", Choices: choices, Accept: accept, Stated: "exactly"}
}
