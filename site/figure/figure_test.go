package figure

import (
	"regexp"
	"strings"
	"testing"
)

func draw(t *testing.T, src string) *Figure {
	t.Helper()
	f, err := Draw([]byte(src), "f1")
	if err != nil {
		t.Fatalf("Draw:\n%s\n%v", src, err)
	}
	if !strings.HasPrefix(f.SVG, `<svg xmlns="http://www.w3.org/2000/svg"`) || !strings.HasSuffix(f.SVG, "</svg>") {
		t.Errorf("not one svg element: %.80s ... %.20s", f.SVG, f.SVG[max(0, len(f.SVG)-20):])
	}
	if !strings.Contains(f.SVG, `role="img" aria-labelledby="f1-title"`) || !strings.Contains(f.SVG, `<title id="f1-title">`) {
		t.Error("the svg is not labelled by its alt text")
	}
	return f
}

// rows returns the table's rows as cell texts joined by "|".
func rows(table string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<tr>(.*?)</tr>`).FindAllStringSubmatch(table, -1) {
		cells := regexp.MustCompile(`<t[dh]>(.*?)</t[dh]>`).FindAllStringSubmatch(m[1], -1)
		var cs []string
		for _, c := range cells {
			cs = append(cs, c[1])
		}
		out = append(out, strings.Join(cs, "|"))
	}
	return out
}

func has(t *testing.T, what string, list []string, want string) {
	t.Helper()
	for _, l := range list {
		if l == want {
			return
		}
	}
	t.Errorf("%s lacks %q; has\n%s", what, want, strings.Join(list, "\n"))
}

// The numbers in these tests are NVIDIA's reference calculator's (the
// golden CSVs of ../../shared/golden) and textbook arithmetic, not read
// back from the code under test.
func TestOccupancyVsRegisters(t *testing.T) {
	f := draw(t, "kind: occupancy-vs-registers\ngpu: A100\nthreads: 64\nmark: 33\ncaption: c\nalt: a\n")
	r := rows(f.Data)
	// cc 8.0, 64 threads: 32 registers give 100 %, 33 give 24 blocks, 75 %.
	has(t, "table", r, "1 to 32 registers|100 %|32|64|warps|blocks")
	has(t, "table", r, "33 to 40 registers|75 %|24|48|registers")
	if !strings.Contains(f.SVG, `>33 registers: 75 %</text>`) {
		t.Error("the mark at 33 registers is not labelled 75 %")
	}
	if n := strings.Count(f.SVG, `class="fig-dot`); n != len(r)-1 {
		t.Errorf("%d cliff dots for %d table rows", n, len(r)-1)
	}
}

func TestOccupancySeries(t *testing.T) {
	f := draw(t, "kind: occupancy-vs-block-size\ngpu: V100\nregisters: [32, 64]\ncaption: c\nalt: a\n")
	if !strings.Contains(f.SVG, "fig-s1") || !strings.Contains(f.SVG, "fig-s2") || !strings.Contains(f.SVG, ">64 registers</text>") {
		t.Error("two lines with a legend expected")
	}
	// cc 7.0, 64 registers per thread, 256 threads: 4 blocks, 32 of 64 warps.
	has(t, "table", rows(f.Data), "64 registers|256 threads|50 %|4|32|registers")
	f = draw(t, "kind: occupancy-vs-smem\ngpu: A100\nthreads: 256\nrange: [0, 40960]\ncaption: c\nalt: a\n")
	if !strings.Contains(f.SVG, ">40 KB</text>") {
		t.Error("shared-memory axis not labelled in KB")
	}
}

func TestIssueVsWarps(t *testing.T) {
	// The toy machine: one scheduler, FFMA latency 4, one FFMA per cycle.
	// A dependent chain keeps one warp issuing every 4 cycles, so k warps
	// fill k/4 of the issue slots, all of them from 4 warps on. (Round
	// robin: greedy-then-oldest would starve a fifth warp until the four
	// oldest finish, and the tail would lower the average.)
	f := draw(t, "kind: issue-vs-warps\nmachine: toy\npolicy: lrr\nwarps: [1, 6]\ncaption: c\nalt: a\n")
	r := rows(f.Data)
	want := []float64{25, 50, 75, 100, 100, 100}
	for i, w := range want {
		var got float64
		fields := strings.Split(r[i+1], "|")
		if _, err := fmtSscan(strings.TrimSuffix(fields[2], " %"), &got); err != nil {
			t.Fatal(err)
		}
		if got < w-3 || got > w+1 { // the first and last cycles of a run do not issue
			t.Errorf("%d warps: %.1f %% of issue slots, want about %.0f %%", i+1, got, w)
		}
	}
}

func TestTimeline(t *testing.T) {
	f := draw(t, "kind: warp-timeline\nmachine: toy\nwarps: 2\ncycles: [10, 30]\ncaption: c\nalt: a\n")
	if n := strings.Count(f.SVG, "st-selected\"><title>"); n == 0 {
		t.Error("no selected cells")
	}
	for _, st := range []string{"selected", "wait"} {
		if !strings.Contains(f.SVG, `class="st st-`+st+`"/>`) {
			t.Errorf("legend lacks %s", st)
		}
	}
	// Two warps on a latency-4 chain: each issues every 4 cycles, so the
	// 2 × 20 warp-cycles are a quarter selected.
	has(t, "table", rows(f.Data), "selected|10|25.0 %")
}

func TestStepperMeasured(t *testing.T) {
	f := draw(t, "kind: occupancy-stepper\nmachine: turing\nthreads: 256\nmeasured: [8, 10, 12, 14, 0, 2, 4, 6]\ncaption: c\nalt: a\n")
	r := rows(f.Data)
	has(t, "table", r, "1|4|4|0|0")
	has(t, "table", r, "5|0|0|0|8")
	if n := strings.Count(f.SVG, `class="fig-slot"`); n != 8 {
		t.Errorf("%d lit slots, want 8", n)
	}
	if n := strings.Count(f.SVG, `class="fig-idle"`); n != 24 {
		t.Errorf("%d empty slots, want 24 of Turing's 32", n)
	}
	if !strings.Contains(f.SVG, `data-stepper="8"`) {
		t.Error("no step control data")
	}
	// Simulated, the order is the scheduler's.
	f = draw(t, "kind: occupancy-stepper\nmachine: volta\nthreads: 128\ncaption: c\nalt: a\n")
	if n := len(rows(f.Data)); n != 5 {
		t.Errorf("%d rows for a 4-warp block", n-1)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"caption: c\nalt: a\n", "figure: kind is missing"},
		{"kind: pie\n", `figure line 1: unknown kind "pie"`},
		{"kind: occupancy-vs-registers\ngpu: A100\ncaption: c\n", "alt is missing"},
		{"kind: occupancy-vs-registers\ngpu: A100\nalt: a\n", "caption is missing"},
		{"kind: occupancy-vs-registers\ngpu: A100\ncaption: c\nalt: a\ncolour: red\n", `figure line 5: unknown field "colour"`},
		{"kind: occupancy-vs-registers\ngpu: A100\nmachine: volta\ncaption: c\nalt: a\n", "figure line 3: occupancy-vs-registers takes no machine"},
		{"kind: occupancy-vs-registers\ngpu: Z1\ncaption: c\nalt: a\n", `figure line 2: gpu: unknown GPU "Z1"`},
		{"kind: occupancy-vs-registers\ngpu: A100\nmark: 300\ncaption: c\nalt: a\n", "figure line 3: mark 300 is outside the range 1 to 256"},
		{"kind: occupancy-vs-registers\ngpu: [A100, V100]\nthreads: [64, 128]\ncaption: c\nalt: a\n", "only one of gpu, threads and registers may be a list"},
		{"kind: issue-vs-warps\nmachine: pentium\ncaption: c\nalt: a\n", "figure line 2: "},
		{"kind: issue-vs-warps\nmachine: volta\nwarps: 99\ncaption: c\nalt: a\n", "figure line 3: volta holds 1 to 16 warps per scheduler"},
		{"kind: warp-timeline\nmachine: toy\nprogram: |\n  - {op: FROB}\ncaption: c\nalt: a\n", "figure line 3: figure:"},
		{"kind: occupancy-stepper\nmachine: turing\nthreads: 64\nmeasured: [1, 2, 3]\ncaption: c\nalt: a\n", "figure line 4: measured lists the cycle of each of the block's 2 warps"},
	}
	for _, tt := range tests {
		_, err := Draw([]byte(tt.src), "f")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Draw(%q) = %v, want an error with %q", tt.src, err, tt.want)
		}
	}
}
