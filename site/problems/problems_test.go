package problems_test

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/site/problems"
)

// seeds is how many seeds per family the tests draw.
func seeds(t *testing.T) uint32 {
	if testing.Short() {
		return 20
	}
	return 200
}

// TestGenerate: every seed of every family gives a whole problem (inputs,
// question, parts with accepted answers, the engine's answer for each
// part, a worked solution and a book section), the same one twice, and
// different seeds give different problems.
func TestGenerate(t *testing.T) {
	fams := problems.Families()
	if len(fams) < 10 {
		t.Fatalf("%d families, want at least 10", len(fams))
	}
	codes := map[string]bool{}
	for _, f := range fams {
		if codes[f.Code] || f.Name == "" || f.Title == "" || !strings.Contains(f.Section, ".md#") {
			t.Errorf("family %+v: a name, a title, a section and a code of its own", f)
		}
		codes[f.Code] = true
		distinct := map[string]bool{}
		for seed := range seeds(t) {
			p, err := problems.Generate(f.Name, seed)
			if err != nil {
				t.Fatalf("%s seed %d: %v", f.Name, seed, err)
			}
			a, _ := json.Marshal(p)
			q, _ := problems.Generate(f.Name, seed)
			b, _ := json.Marshal(q)
			if string(a) != string(b) {
				t.Fatalf("%s seed %d: two problems\n%s\n%s", f.Name, seed, a, b)
			}
			distinct[string(a)] = true
			if p.Code != problems.CodeOf(f, seed) || p.Family != f.Name || p.Question == "" || len(p.Params) == 0 || len(p.Solution) == 0 || p.Section != f.Section {
				t.Fatalf("%s seed %d: incomplete problem %s", f.Name, seed, a)
			}
			if len(p.Parts) == 0 || len(p.Answer) != len(p.Parts) {
				t.Fatalf("%s seed %d: %d parts, %d answers", f.Name, seed, len(p.Parts), len(p.Answer))
			}
			for i, part := range p.Parts {
				if p.Answer[i].Name != part.Name || len(part.Accept) == 0 || part.Prompt == "" || part.Stated == "" {
					t.Fatalf("%s seed %d: part %+v, answer %v", f.Name, seed, part, p.Answer[i])
				}
			}
			// The inputs make the same problem again.
			m, err := problems.Make(f.Name, p.Params)
			if err != nil {
				t.Fatalf("%s seed %d: Make(%s): %v", f.Name, seed, p.Params, err)
			}
			m.Code = p.Code
			if c, _ := json.Marshal(m); string(c) != string(a) {
				t.Fatalf("%s seed %d: Make of its params differs:\n%s\n%s", f.Name, seed, c, a)
			}
		}
		if len(distinct) < int(seeds(t))/4 {
			t.Errorf("%s: %d distinct problems in %d seeds", f.Name, len(distinct), seeds(t))
		}
	}
}

// rightAnswers returns the engine's answer to every part, as a reader
// would write it.
func rightAnswers(p *problems.Problem) map[string]string {
	out := map[string]string{}
	for _, part := range p.Parts {
		out[part.Name] = part.Accept[0]
		if part.Unit == "%" {
			out[part.Name] += " %"
		}
	}
	return out
}

// wrongAnswer returns an answer to part that is wrong by more than its
// tolerance, or another choice.
func wrongAnswer(part problems.Part) string {
	if part.Kind == "choice" {
		for _, c := range part.Choices {
			if !slices.Contains(part.Accept, c) {
				return c
			}
		}
		return "none of them"
	}
	v, _ := strconv.ParseFloat(part.Accept[0], 64)
	tol := part.Tolerance
	if part.Relative {
		tol *= math.Abs(v)
	}
	for _, a := range part.Accept {
		x, _ := strconv.ParseFloat(a, 64)
		v = math.Max(v, x)
	}
	return strconv.FormatFloat(v+2*tol+1, 'f', -1, 64)
}

// TestGrade: the engine's answers are Good, every part wrong is Again,
// one part wrong of two is Hard; choices by word, alias or number.
func TestGrade(t *testing.T) {
	for _, f := range problems.Families() {
		for seed := range seeds(t) / 4 {
			p, _ := problems.Generate(f.Name, seed)
			right := rightAnswers(p)
			if g := problems.Grade(p, right); !g.Right || g.Rating != problems.Good {
				t.Fatalf("%s: the engine's own answers %v grade %+v", p.Code, right, g)
			}
			wrong := map[string]string{}
			for _, part := range p.Parts {
				wrong[part.Name] = wrongAnswer(part)
			}
			if g := problems.Grade(p, wrong); g.Right || g.Rating != problems.Again {
				t.Fatalf("%s: wrong answers %v grade %+v", p.Code, wrong, g)
			}
			if len(p.Parts) > 1 {
				half := map[string]string{p.Parts[0].Name: right[p.Parts[0].Name], p.Parts[1].Name: wrong[p.Parts[1].Name]}
				if g := problems.Grade(p, half); g.Right || g.Rating != problems.Hard || !g.Parts[0].Right || g.Parts[1].Right || g.Parts[1].Why == "" {
					t.Fatalf("%s: half right %v grade %+v", p.Code, half, g)
				}
			}
			if g := problems.Grade(p, nil); g.Rating != problems.Again || g.Parts[0].Why != "no answer" {
				t.Fatalf("%s: no answer grades %+v", p.Code, g)
			}
		}
	}
	p, _ := problems.Generate("occupancy", 1)
	occ := p.Parts[0].Accept[0]
	v, _ := strconv.ParseFloat(occ, 64)
	for _, a := range []string{occ, occ + "%", fmt.Sprint(v / 100), fmt.Sprint(v + 0.4), "about " + occ + " percent"} {
		if g := problems.Grade(p, map[string]string{"occupancy": a, "limiter": p.Parts[1].Accept[0]}); !g.Right {
			t.Errorf("%s: occupancy %q limiter %q: %+v", p.Code, a, p.Parts[1].Accept[0], g)
		}
	}
	if g := problems.Grade(p, map[string]string{"occupancy": fmt.Sprint(v + 0.6)}); g.Parts[0].Right {
		t.Errorf("%s: %v is within ±0.5 of %s", p.Code, v+0.6, occ)
	}
	lim := p.Parts[1]
	idx := 0
	for i, c := range lim.Choices {
		if c == lim.Accept[0] {
			idx = i + 1
		}
	}
	alias := map[string]string{"registers": "regs", "shared memory": "SMEM", "warps": "warp slots", "blocks": "block slots"}[lim.Accept[0]]
	for _, a := range []string{lim.Accept[0], strings.ToUpper(lim.Accept[0]), strconv.Itoa(idx), alias} {
		if g := problems.Grade(p, map[string]string{"limiter": a}); !g.Parts[1].Right {
			t.Errorf("%s: limiter %q not taken for %q", p.Code, a, lim.Accept[0])
		}
	}
}

// TestReadNumbers: numbers as a reader writes them.
func TestReadNumbers(t *testing.T) {
	p, _ := problems.Make("bytes-in-flight", problems.Values{{Name: "gpu", Value: "A100 SXM4"}, {Name: "bandwidth", Value: 1555}, {Name: "latency", Value: 600}, {Name: "width", Value: 16}})
	want := 1555.0 * 600 / 108
	for _, a := range []string{"8639", "8,639 bytes", "8.44 KB", "8.4375KiB"} {
		if g := problems.Grade(p, map[string]string{"bytes": a}); !g.Parts[0].Right {
			t.Errorf("%q for %.1f bytes: %+v", a, want, g.Parts[0])
		}
	}
	for _, a := range []string{"9000", "eight thousand", "-8639", "8.44 MB"} {
		if g := problems.Grade(p, map[string]string{"bytes": a}); g.Parts[0].Right {
			t.Errorf("%q taken for %.1f bytes", a, want)
		}
	}
}

// TestCodes: codes name their problem, and bad codes say what is wrong.
func TestCodes(t *testing.T) {
	for _, f := range problems.Families() {
		for _, seed := range []uint32{0, 0x7f3a, 0xffff, 0x12345, problems.MaxSeed} {
			code := problems.CodeOf(f, seed)
			fam, s, step, err := problems.ParseCode(code)
			if err != nil || fam != f.Name || s != seed || step != 0 {
				t.Errorf("ParseCode(%q) = %q, %x, %d, %v", code, fam, s, step, err)
			}
			p, err := problems.Resolve(strings.ToUpper(code))
			if err != nil || p.Code != code {
				t.Errorf("Resolve(%q): %v", code, err)
			}
		}
	}
	for _, bad := range []string{"", "occ", "occ-", "occ-xyz", "zzz-7f3a", "occ-123456789", "occ-7f3a.2", "int-7f3a.0", "int-7f3a.9", "int-7f3a.x", "-7f3a"} {
		if _, _, _, err := problems.ParseCode(bad); err == nil {
			t.Errorf("ParseCode(%q) is no error", bad)
		}
	}
	if _, err := problems.Resolve("int-7f3a"); err == nil || !strings.Contains(err.Error(), "int-7f3a.1") {
		t.Errorf("Resolve of a whole interview: %v", err)
	}
	if _, err := problems.Generate("nonsense", 1); err == nil {
		t.Error("Generate of an unknown family is no error")
	}
	if _, err := problems.Make("occupancy", problems.Values{{Name: "gpu", Value: "A100"}, {Name: "threads", Value: 2048}, {Name: "regs", Value: 32}}); err == nil {
		t.Error("Make of a launch that cannot run is no error")
	}
}

// TestInterview: every interview asks MaxSteps questions, each after the
// first changing something, each step reachable by its code; its summary
// counts what was missed and says where to read.
func TestInterview(t *testing.T) {
	scen := map[string]int{}
	for seed := range seeds(t) {
		in, err := problems.NewInterview(seed)
		if err != nil {
			t.Fatal(err)
		}
		scen[in.Scenario]++
		if len(in.Steps) != problems.MaxSteps {
			t.Fatalf("%s: %d steps", in.Code, len(in.Steps))
		}
		for i, s := range in.Steps {
			if (i == 0) != (s.Change == "") {
				t.Fatalf("%s step %d: change %q", in.Code, i+1, s.Change)
			}
			code := fmt.Sprintf("%s.%d", in.Code, i+1)
			if s.Problem.Code != code {
				t.Fatalf("%s step %d has code %s", in.Code, i+1, s.Problem.Code)
			}
			p, err := problems.Resolve(code)
			a, _ := json.Marshal(p)
			b, _ := json.Marshal(s.Problem)
			if err != nil || string(a) != string(b) {
				t.Fatalf("Resolve(%s): %v\n%s\n%s", code, err, a, b)
			}
			if i > 0 {
				prev, _ := json.Marshal(in.Steps[i-1].Problem.Params)
				cur, _ := json.Marshal(s.Problem.Params)
				if string(prev) == string(cur) && in.Steps[i-1].Problem.Family == s.Problem.Family {
					t.Fatalf("%s step %d (%q) asks the same question again", in.Code, i+1, s.Change)
				}
			}
		}
		var grades []problems.Graded
		for i, s := range in.Steps {
			ans := rightAnswers(s.Problem)
			if i%2 == 1 {
				ans = nil
			}
			grades = append(grades, problems.Grade(s.Problem, ans))
		}
		sum := in.Summarize(grades)
		if sum.Asked != problems.MaxSteps || sum.Right != problems.MaxSteps/2 || len(sum.Missed) != problems.MaxSteps/2 {
			t.Fatalf("%s: summary %+v", in.Code, sum)
		}
		for _, m := range sum.Missed {
			if m.Step%2 != 0 || len(m.Wrong) == 0 || m.Section == "" || m.Question == "" {
				t.Fatalf("%s: miss %+v", in.Code, m)
			}
		}
		if short := in.Summarize(grades[:3]); short.Asked != 3 {
			t.Fatalf("%s: a three-question interview's summary %+v", in.Code, short)
		}
	}
	if len(scen) != 4 {
		t.Errorf("scenarios drawn: %v, want all four", scen)
	}
}

// TestValuesJSON: values read back in order, whole numbers as ints.
func TestValuesJSON(t *testing.T) {
	p, _ := problems.Generate("bytes-in-flight", 3)
	b, _ := json.Marshal(p.Params)
	var v problems.Values
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if c, _ := json.Marshal(v); string(c) != string(b) || v.Int("bandwidth") != p.Params.Int("bandwidth") {
		t.Errorf("%s read back as %s", b, c)
	}
	for _, bad := range []string{`[]`, `{"a": [1]}`, `{"a": null}`, `{"a": 1`} {
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("%s read as values", bad)
		}
	}
	if _, err := problems.InterviewOf("occ-1"); err == nil {
		t.Error("InterviewOf a problem's code is no error")
	}
}
