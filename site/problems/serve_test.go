package problems_test

import (
	"encoding/json"
	"testing"

	"github.com/warpbook/warpbook/site/problems"
)

// TestServe: the practice page's requests, as JSON both ways, give the
// package's own problems, grades and summaries.
func TestServe(t *testing.T) {
	ask := func(msg string) problems.Response {
		t.Helper()
		var req problems.Request
		if err := json.Unmarshal([]byte(msg), &req); err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(problems.Serve(&req))
		if err != nil {
			t.Fatal(err)
		}
		var r problems.Response
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		return r
	}
	if r := ask(`{"op": "families"}`); len(r.Families) != len(problems.Families()) {
		t.Fatalf("families: %+v", r)
	}
	r := ask(`{"op": "generate", "family": "occupancy", "seed": 32570}`)
	want, _ := problems.Generate("occupancy", 32570)
	a, _ := json.Marshal(r.Problem)
	b, _ := json.Marshal(want)
	if string(a) != string(b) || r.Problem.Code != "occ-7f3a" {
		t.Fatalf("generate: %s, want %s", a, b)
	}
	if r := ask(`{"op": "resolve", "code": "occ-7f3a"}`); r.Problem == nil || r.Problem.Code != "occ-7f3a" {
		t.Fatalf("resolve: %+v", r)
	}
	answers := `{"occupancy": "` + want.Parts[0].Accept[0] + `", "limiter": "` + want.Parts[1].Accept[0] + `"}`
	if g := ask(`{"op": "grade", "code": "occ-7f3a", "answers": ` + answers + `}`).Grade; g == nil || !g.Right || g.Rating != problems.Good {
		t.Fatalf("grade: %+v", g)
	}
	r = ask(`{"op": "interview", "seed": 9}`)
	if in := r.Interview; in == nil || len(in.Steps) != problems.MaxSteps || in.Code != "int-0009" {
		t.Fatalf("interview: %+v", r)
	}
	right := map[string]string{}
	for _, p := range r.Interview.Steps[0].Problem.Parts {
		right[p.Name] = p.Accept[0]
	}
	rj, _ := json.Marshal(right)
	r = ask(`{"op": "summary", "code": "int-0009", "steps": [` + string(rj) + `, {}, {}]}`)
	if s := r.Summary; s == nil || s.Asked != 3 || s.Right != 1 || len(s.Missed) != 2 || len(r.Grades) != 3 {
		t.Fatalf("summary: %+v", r)
	}
	for _, bad := range []string{
		`{"op": "generate", "family": "nope"}`,
		`{"op": "grade", "code": "zz-1"}`,
		`{"op": "fly"}`,
		`{"op": "summary", "code": "occ-1"}`,
	} {
		if r := ask(bad); r.Error == "" {
			t.Errorf("%s: %+v", bad, r)
		}
	}
}
