package live

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/site/problems"
	"github.com/warpbook/warpbook/snippets"
)

// TestPracticeMessages: the kernel answers the practice page's messages
// with package problems, the same problems and grades as the terminal.
func TestPracticeMessages(t *testing.T) {
	s := NewServer(snippets.Kernel{})
	ask := func(msg string) reply {
		t.Helper()
		var r reply
		if err := json.Unmarshal(s.Handle(context.Background(), []byte(msg)), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := ask(`{"id": 1, "op": "practice", "practice": {"op": "families"}}`)
	if r.ID != 1 || len(r.Practice.Families) != len(problems.Families()) {
		t.Fatalf("families: %+v", r)
	}
	r = ask(`{"id": 2, "op": "practice", "practice": {"op": "generate", "family": "occupancy", "seed": 32570}}`)
	want, _ := problems.Generate("occupancy", 32570)
	a, _ := json.Marshal(r.Practice.Problem)
	b, _ := json.Marshal(want)
	if string(a) != string(b) || r.Practice.Problem.Code != "occ-7f3a" {
		t.Fatalf("generate: %s, want %s", a, b)
	}
	answers := `{"occupancy": "` + want.Parts[0].Accept[0] + `", "limiter": "` + want.Parts[1].Accept[0] + `"}`
	r = ask(`{"id": 3, "op": "practice", "practice": {"op": "grade", "code": "occ-7f3a", "answers": ` + answers + `}}`)
	if g := r.Practice.Grade; g == nil || !g.Right || g.Rating != problems.Good {
		t.Fatalf("grade: %+v", r.Practice)
	}
	r = ask(`{"id": 4, "op": "practice", "practice": {"op": "interview", "seed": 9}}`)
	if in := r.Practice.Interview; in == nil || len(in.Steps) != problems.MaxSteps || in.Code != "int-0009" {
		t.Fatalf("interview: %+v", r.Practice)
	}
	first := r.Practice.Interview.Steps[0].Problem
	right := map[string]string{}
	for _, p := range first.Parts {
		right[p.Name] = p.Accept[0]
	}
	rj, _ := json.Marshal(right)
	r = ask(`{"id": 5, "op": "practice", "practice": {"op": "summary", "code": "int-0009", "steps": [` + string(rj) + `, {}, {}]}}`)
	if sum := r.Practice.Summary; sum == nil || sum.Asked != 3 || sum.Right != 1 || len(sum.Missed) != 2 || len(r.Practice.Grades) != 3 {
		t.Fatalf("summary: %+v", r.Practice)
	}
	for _, bad := range []string{
		`{"id": 6, "op": "practice", "practice": {"op": "generate", "family": "nope"}}`,
		`{"id": 6, "op": "practice", "practice": {"op": "grade", "code": "zz-1"}}`,
		`{"id": 6, "op": "practice", "practice": {"op": "fly"}}`,
		`{"id": 6, "op": "practice", "practice": {"op": "summary", "code": "occ-1"}}`,
	} {
		if r := ask(bad); r.Practice == nil || r.Practice.Error == "" || r.ID != 6 {
			t.Errorf("%s: %+v", bad, r.Practice)
		}
	}
	if r := ask(`{"id": 7, "op": "practice"}`); !strings.HasPrefix(r.Error, "unknown request") {
		t.Errorf("a practice message without its request: %+v", r)
	}
}
