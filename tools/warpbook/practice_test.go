package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/site/problems"
)

// practiceProblem is what "warpbook practice --json" prints, as far as the
// tests read it.
type practiceProblem struct {
	Code     string          `json:"code"`
	Params   map[string]any  `json:"params"`
	Question string          `json:"question"`
	Answer   map[string]any  `json:"answer"`
	Solution []string        `json:"solution"`
	Parts    []problems.Part `json:"parts"`
}

func practiceJSON(t *testing.T, family string, seed uint32) practiceProblem {
	t.Helper()
	code, out, errOut := runCmd(t, "", "practice", "--family", family, "--seed", fmt.Sprint(seed), "--json")
	if code != 0 {
		t.Fatalf("practice --family %s --seed %d: exit %d: %s", family, seed, code, errOut)
	}
	var p practiceProblem
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("practice --json: %v\n%s", err, out)
	}
	return p
}

// occupancyJSON runs "warpbook occupancy ... --json" and returns its output.
func occupancyJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, errOut := runCmd(t, "", append([]string{"occupancy", "--json"}, args...)...)
	if code != 0 && code != 1 {
		t.Fatalf("occupancy %q: exit %d: %s", args, code, errOut)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("occupancy %q: %v\n%s", args, err, out)
	}
	return v
}

// flags turns a problem's params into the occupancy command's flags.
func flags(p practiceProblem, names ...string) []string {
	var out []string
	for _, n := range names {
		if v, ok := p.Params[n]; ok {
			out = append(out, "--"+n, fmt.Sprint(v))
		}
	}
	return out
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

// TestPracticeAgreesWithTheCommands is the check that each answer
// equals what the warpbook command prints for the same parameters: 50
// problems of each family that "warpbook occupancy" or "warpbook sim" can
// answer, asked through "warpbook practice --json", and the same inputs
// given, as flags or a workload file, to those commands.
func TestPracticeAgreesWithTheCommands(t *testing.T) {
	n := uint32(50)
	if testing.Short() {
		n = 5
	}
	for seed := range n {
		// Occupancy and its limiters.
		p := practiceJSON(t, "occupancy", seed)
		r := occupancyJSON(t, flags(p, "gpu", "threads", "regs", "smem", "dyn-smem")...)["result"].(map[string]any)
		if got, want := num(p.Answer["occupancy"]), math.Round(10000*num(r["occupancy"]))/100; got != want {
			t.Errorf("%s: occupancy %v, the command %v", p.Code, got, want)
		}
		var lims []string
		for _, l := range r["limiters"].([]any) {
			lims = append(lims, strings.ReplaceAll(l.(string), "_", " "))
		}
		if got := p.Answer["limiter"]; got != strings.Join(lims, ", ") {
			t.Errorf("%s: limiter %q, the command %q", p.Code, got, lims)
		}

		// The suggested block size.
		p = practiceJSON(t, "block-size", seed)
		s := occupancyJSON(t, append(flags(p, "gpu", "regs", "smem", "dyn-smem-per-thread"), "--suggest")...)["suggestion"].(map[string]any)
		if num(p.Answer["threads"]) != num(s["block_size"]) || num(p.Answer["occupancy"]) != math.Round(10000*num(s["result"].(map[string]any)["occupancy"]))/100 {
			t.Errorf("%s: %v, the command suggests %v", p.Code, p.Answer, s)
		}

		// Waves: blocks per SM from the command, SMs from its GPU.
		p = practiceJSON(t, "waves", seed)
		o := occupancyJSON(t, flags(p, "gpu", "threads", "regs", "smem")...)
		per := int(num(o["result"].(map[string]any)["active_blocks"]) * num(o["gpu"].(map[string]any)["sms"]))
		blocks := int(num(p.Params["blocks"]))
		if waves := (blocks + per - 1) / per; int(num(p.Answer["waves"])) != waves || int(num(p.Answer["last"])) != blocks-(waves-1)*per {
			t.Errorf("%s: %v, the command's %d blocks per wave give %d waves", p.Code, p.Answer, per, waves)
		}

		// The register cap of __launch_bounds__: the command fits the
		// blocks at the cap and fewer one register above it.
		p = practiceJSON(t, "launch-bounds", seed)
		regs, minBlocks := int(num(p.Answer["regs"])), num(p.Params["min-blocks"])
		at := occupancyJSON(t, append(flags(p, "gpu", "threads"), "--regs", strconv.Itoa(regs))...)["result"].(map[string]any)
		if num(at["active_blocks"]) < minBlocks {
			t.Errorf("%s: at the cap %d the command fits %v blocks, want %v", p.Code, regs, at["active_blocks"], minBlocks)
		}
		if regs < 255 {
			above := occupancyJSON(t, append(flags(p, "gpu", "threads"), "--regs", strconv.Itoa(regs+1))...)["result"].(map[string]any)
			if num(above["active_blocks"]) >= minBlocks {
				t.Errorf("%s: one register above the cap the command still fits %v blocks", p.Code, above["active_blocks"])
			}
		}

		// setmaxnreg: the block's registers at launch, from the command.
		p = practiceJSON(t, "setmaxnreg", seed)
		rb := num(occupancyJSON(t, flags(p, "gpu", "threads", "regs")...)["result"].(map[string]any)["registers_per_block"])
		consumers := num(p.Params["threads"])/128 - 1
		left := rb - 128*num(p.Params["producer-regs"])
		want := math.Min(256, math.Floor(left/(128*consumers)/8)*8)
		if num(p.Answer["regs"]) != want {
			t.Errorf("%s: %v registers per consumer; the command's %v per block leave %v", p.Code, p.Answer["regs"], rb, want)
		}

		// Issue-slot use: the workload through "warpbook sim".
		p = practiceJSON(t, "issue-slot", seed)
		file := filepath.Join(t.TempDir(), "w.yaml")
		writeFileT(t, file, p.Params["workload"].(string))
		code, out, errOut := runCmd(t, "", "sim", "--json", "--measure", fmt.Sprint(p.Params["measure"]), "--gpu", fmt.Sprint(p.Params["gpu"]), file)
		if code != 0 {
			t.Fatalf("sim: %s", errOut)
		}
		var sr struct{ Metrics map[string]float64 }
		noErr(t, json.Unmarshal([]byte(out), &sr))
		if got, want := num(p.Answer["issue"]), math.Round(100*sr.Metrics["smsp__issue_active.avg.pct_of_peak_sustained_active"])/100; got != want {
			t.Errorf("%s: issue %v, warpbook sim %v", p.Code, got, want)
		}
	}
}

// TestPracticeGrades: --answer grades without asking: right answers exit
// 0 with Good, wrong ones exit 1 with Again and the engine's solution;
// the JSON carries the grade.
func TestPracticeGrades(t *testing.T) {
	p, _ := problems.Generate("occupancy", 0x7f3a)
	occ, lim := p.Parts[0].Accept[0], p.Parts[1].Accept[0]
	code, out, errOut := runCmd(t, "", "practice", "occ-7f3a", "--answer", occ+" %", "--answer", lim)
	if code != 0 || !strings.Contains(out, "Good: 2 of 2 parts right.") || !strings.Contains(out, "Read: book/occupancy-calculator.md#putting-it-together") {
		t.Errorf("right answers: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCmd(t, "", "practice", "--family", "occ", "--seed", "0x7f3a", "--answer", "limiter=warps", "--answer", "occupancy=1")
	if code != 1 || !strings.Contains(out, "Again: 0 of 2 parts right.") || !strings.Contains(out, p.Solution[len(p.Solution)-1]) {
		t.Errorf("wrong answers: exit %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, "", "practice", "occ-7f3a", "--answer", occ, "--answer", "warps", "--json")
	var v struct {
		Problem practiceProblem
		Grade   problems.Graded
	}
	if err := json.Unmarshal([]byte(out), &v); code != 1 || err != nil || v.Grade.Rating != problems.Hard || v.Problem.Code != "occ-7f3a" {
		t.Errorf("half right, JSON: exit %d, %v\n%s", code, err, out)
	}
	for _, bad := range [][]string{
		{"practice", "--family", "nope"},
		{"practice", "--seed", "12"},
		{"practice", "--seed", "x", "--family", "occ"},
		{"practice", "occ-zz"},
		{"practice", "occ-1", "--family", "occ"},
		{"practice", "--answer", "1"},
		{"practice", "occ-1", "--answer", "1", "--answer", "2", "--answer", "3"},
		{"practice", "--interview", "--questions", "9"},
		{"practice", "--interview", "--json"},
		{"practice", "a", "b"},
	} {
		if code, _, errOut := runCmd(t, "", bad...); code != 2 || !strings.Contains(errOut, "warpbook practice:") {
			t.Errorf("%q: exit %d, %q; want a usage error", bad, code, errOut)
		}
	}
	if code, out, _ := runCmd(t, "", "practice", "--list"); code != 0 || strings.Count(out, "\n") != len(problems.Families()) {
		t.Errorf("--list: exit %d\n%s", code, out)
	}
}

// TestPracticeAsks: on standard input the command asks part by part,
// grades, and stops at the end of input; a mock interview asks its
// questions and ends with what was missed and where to read.
func TestPracticeAsks(t *testing.T) {
	p, _ := problems.Generate("sectors", 5)
	code, out, _ := runCmd(t, p.Parts[0].Accept[0]+"\n7\n", "practice", p.Code)
	if code != 0 || !strings.Contains(out, "1. Sectors per request? ") || !strings.Contains(out, "Hard: 1 of 2 parts right.") {
		t.Errorf("one problem: exit %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, "4\n", "practice", "--family", "bank-conflicts")
	if code != 0 || !strings.Contains(out, "bank-") || !strings.Contains(out, "0 of 0 right.") && !strings.Contains(out, "of 1 right.") {
		t.Errorf("a loop that input ends: exit %d\n%s", code, out)
	}
	iv, _ := problems.NewInterview(7)
	var in strings.Builder
	for i, s := range iv.Steps[:5] {
		for _, part := range s.Problem.Parts {
			if i%2 == 0 {
				in.WriteString(part.Accept[0] + "\n")
			} else {
				in.WriteString("nothing\n")
			}
		}
	}
	code, out, _ = runCmd(t, in.String(), "practice", "--interview", "--seed", "7")
	if code != 0 || strings.Count(out, "Follow-up: ") != 4 || !strings.Contains(out, "Summary of int-0007: 3 of 5 right.") || strings.Count(out, "    read book/") != 2 {
		t.Errorf("interview: exit %d\n%s", code, out)
	}
}
