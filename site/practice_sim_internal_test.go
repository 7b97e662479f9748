package site

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/snippets/page"
)

// TestSimUse: which snippets and values use the simulator, through
// package sim, functions declared anywhere on the page and variables set
// from it; a name declared again without it is clean.
func TestSimUse(t *testing.T) {
	src := "# T\n\n" +
		"```go run id=setup\nfunc run(w sim.Workload) *sim.Result { r, _ := sim.Run(w); return r }\nfunc twice(x int) int { return 2 * x }\nfunc steady() float64 { return issue(run(sim.Workload{})) }\na100 := gpu.A100()\n```\n\n" +
		"```go run id=direct\nr := run(sim.Workload{GPU: \"toy\"})\nfmt.Println(r.Cycles)\n```\n\n" +
		"It takes [4](= \"r.Cycles\") cycles and [2](= \"twice(1)\") things.\n\n" +
		"```go run id=through\nfmt.Println(r.IssueActive)\n```\n\n" +
		"```go run id=later\nfmt.Println(steady())\n```\n\n" +
		"```go run id=clean\nfmt.Println(twice(a100.SubPartitions))\n```\n\n" +
		"```go run id=rebound\nr := 3\nfmt.Println(r)\n```\n\n" +
		"Now r is [3](= \"r\").\n\n" +
		"```go run id=set\nvar total float64\nfor i := 0; i < 2; i++ {\n\ttotal += run(sim.Workload{}).IssueActive\n}\n```\n\n" +
		"```go run id=uses-set\nfmt.Println(total / 2)\n```\n\n" +
		"```go run id=issue\nfunc issue(r *sim.Result) float64 { return r.IssueActive }\n```\n"
	p, err := page.Parse("t.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	u := newSimUse(p)
	var got []string
	for _, c := range p.Cells {
		if u.cell(c) {
			got = append(got, c.ID())
		}
	}
	want := []string{"setup", "direct", "through", "later", "set", "uses-set", "issue"}
	if !slices.Equal(got, want) {
		t.Errorf("simulated cells %q, want %q", got, want)
	}
	var vals []bool
	for _, ch := range p.Checks {
		vals = append(vals, u.check(ch))
	}
	if !slices.Equal(vals, []bool{true, false, false}) {
		t.Errorf("simulated values %v, want r.Cycles only", vals)
	}
}

// TestSimUseBook: on the book's pages the analysis marks the snippets
// that run the simulator and leaves those that only compute occupancy.
func TestSimUseBook(t *testing.T) {
	booktest.Require(t)
	for _, c := range []struct {
		file       string
		sim, clean []string
	}{
		{"latency-hiding.md", []string{"little", "little-sweep", "four-l", "warps-needed-sim"}, []string{"warps-needed"}},
		{"warp-scheduler.md", []string{"partial-warp", "issue-limit", "policies"}, []string{"warps-of-a-block", "pools"}},
		{"introduction.md", nil, []string{"taste"}},
	} {
		data, err := os.ReadFile(filepath.Join("..", "book", c.file))
		if err != nil {
			t.Fatal(err)
		}
		p, _ := page.Parse("book/"+c.file, data)
		u := newSimUse(p)
		for _, cell := range p.Cells {
			switch {
			case slices.Contains(c.sim, cell.ID()) && !u.cell(cell):
				t.Errorf("%s: %s runs the simulator, not marked", c.file, cell.ID())
			case slices.Contains(c.clean, cell.ID()) && u.cell(cell):
				t.Errorf("%s: %s does not run the simulator, marked", c.file, cell.ID())
			}
		}
		_ = strings.TrimSpace
	}
}
