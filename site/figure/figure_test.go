package figure

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
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
	// Every label lies inside the drawing (at about 6.6 units a character).
	vb := regexp.MustCompile(`viewBox="0 0 ([0-9.]+) ([0-9.]+)"`).FindStringSubmatch(f.SVG)
	var width, height float64
	fmtSscan(vb[1], &width)
	fmtSscan(vb[2], &height)
	for _, m := range regexp.MustCompile(`<text x="([0-9.-]+)" y="([0-9.-]+)" text-anchor="(\w+)"([^>]*)>([^<]*)</text>`).FindAllStringSubmatch(f.SVG, -1) {
		var x, y float64
		fmtSscan(m[1], &x)
		fmtSscan(m[2], &y)
		w := 6.6 * float64(len([]rune(m[5])))
		if strings.Contains(m[4], "rotate(-90") { // a vertical axis label, centred on y
			if y-w/2 < 0 || y+w/2 > height {
				t.Errorf("vertical label %q at y %s leaves the %gx%g drawing", m[5], m[2], width, height)
			}
			continue
		}
		m[4] = m[5]
		left := map[string]float64{"start": x, "middle": x - w/2, "end": x - w}[m[3]]
		if left < 0 || left+w > width || y > height || y < 8 {
			t.Errorf("label %q at (%s, %s), %s-anchored, leaves the %gx%g drawing", m[4], m[1], m[2], m[3], width, height)
		}
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
	if !slices.Contains(list, want) {
		t.Errorf("%s lacks %q; has\n%s", what, want, strings.Join(list, "\n"))
	}
}

// The numbers in these tests are NVIDIA's reference calculator's (the
// golden CSVs of engine/occupancy/testdata) and textbook arithmetic, not read
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
	// The last tick label, at the right edge, stays inside the drawing
	// (draw checks every label).
	draw(t, "kind: occupancy-vs-smem\ngpu: [A100, H100]\nthreads: 256\ncaption: c\nalt: a\n")
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

// issueColumn returns the issue slots used, in percent, of each table row
// whose first cell is label, by warps per scheduler.
func issueColumn(t *testing.T, data, label string) map[int]float64 {
	t.Helper()
	out := map[int]float64{}
	for _, r := range rows(data)[1:] {
		f := strings.Split(r, "|")
		if f[0] != label {
			continue
		}
		var warps, pct float64
		if _, err := fmtSscan(f[1], &warps); err != nil {
			t.Fatal(err)
		}
		if _, err := fmtSscan(strings.TrimSuffix(f[2], " %"), &pct); err != nil {
			t.Fatal(err)
		}
		out[int(warps)] = pct
	}
	return out
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if got < want-tol || got > want+tol {
		t.Errorf("%s: %.1f %%, want %.1f ± %.1f %%", what, got, want, tol)
	}
}

func TestIssueVsWarpsSteady(t *testing.T) {
	// The toy machine under greedy-then-oldest with five warps of 64
	// dependent FFMAs (latency 4): the four oldest fill every slot for 256
	// cycles, then the fifth runs alone at one issue in four for 256 more.
	// The whole run uses 320 of 512 slots, 62.5 %; its steady state, which
	// ends when the first warp exits, uses them all.
	src := "kind: issue-vs-warps\nmachine: toy\nwarps: [4, 6]\ncaption: c\nalt: a\n"
	whole := issueColumn(t, draw(t, src).Data, "toy")
	near(t, "whole run, 5 warps", whole[5], 62.5, 1.5)
	f := draw(t, src+"measure: steady\n")
	steady := issueColumn(t, f.Data, "toy")
	for k := 4; k <= 6; k++ {
		near(t, fmt.Sprintf("steady state, %d warps", k), steady[k], 100, 0.5)
	}
	if !strings.Contains(f.Data, "<th>cycles measured</th>") || !strings.Contains(f.SVG, ">issue-slot use, steady state</text>") {
		t.Error("the figure does not say that it measures the steady state")
	}
	// The default measures the whole run: the same as measure: whole.
	if again := draw(t, src+"measure: whole\n"); again.Data != draw(t, src).Data {
		t.Error("measure: whole differs from the default")
	}
	// A window of cycles: one warp issues one FFMA every 4 cycles in any
	// window inside its chain.
	w := issueColumn(t, draw(t, "kind: issue-vs-warps\nmachine: toy\nwarps: [1, 2]\nmeasure: [40, 200]\ncaption: c\nalt: a\n").Data, "toy")
	near(t, "window, 1 warp", w[1], 25, 0.5)
	near(t, "window, 2 warps", w[2], 50, 0.5)
}

func TestIssueVsWarpsVary(t *testing.T) {
	// ILP independent chains per warp on the toy machine (FFMA latency 4,
	// one issue per cycle): one warp fills min(1, ILP/4) of the slots.
	f := draw(t, `kind: issue-vs-warps
machine: toy
policy: lrr
warps: [1, 2]
measure: steady
program: |
  - loop: 64
    body:
      - {op: FFMA, dst: r0, src: [r0, r1], ilp: $ilp}
vary: {ilp: [1, 2, 4]}
caption: c
alt: a
`)
	for i, want := range map[string][2]float64{"ilp = 1": {25, 50}, "ilp = 2": {50, 100}, "ilp = 4": {100, 100}} {
		got := issueColumn(t, f.Data, i)
		near(t, i+", 1 warp", got[1], want[0], 1)
		near(t, i+", 2 warps", got[2], want[1], 1)
	}
	for i, label := range []string{"ilp = 1", "ilp = 2", "ilp = 4"} {
		if !strings.Contains(f.SVG, ">"+label+"</text>") {
			t.Errorf("legend lacks %q", label)
		}
		if !strings.Contains(f.SVG, fmt.Sprintf(`class="fig-line fig-s%d"`, i+1)) {
			t.Errorf("no line %d", i+1)
		}
	}
	if !strings.HasPrefix(rows(f.Data)[0], "ilp|warps per scheduler|") {
		t.Errorf("table header %q", rows(f.Data)[0])
	}
}

func TestIssueVsWarpsPrograms(t *testing.T) {
	f := draw(t, `kind: issue-vs-warps
machine: toy
warps: [1, 2]
program:
  - label: dependent chain
    program: |
      - loop: 32
        body:
          - {op: FFMA, dst: r0, src: [r0, r1]}
  - label: two chains
    program: |
      - loop: 32
        body:
          - {op: FFMA, dst: r0, src: [r0, r1]}
          - {op: FFMA, dst: r2, src: [r2, r1]}
caption: c
alt: a
`)
	one, two := issueColumn(t, f.Data, "dependent chain"), issueColumn(t, f.Data, "two chains")
	near(t, "one chain, 1 warp", one[1], 25, 3)
	near(t, "two chains, 1 warp", two[1], 50, 3)
	near(t, "two chains, 2 warps", two[2], 100, 3)
	if !strings.Contains(f.SVG, ">dependent chain</text>") || !strings.Contains(f.SVG, ">two chains</text>") {
		t.Error("legend lacks the programs' labels")
	}
	if !strings.HasPrefix(rows(f.Data)[0], "program|") {
		t.Errorf("table header %q", rows(f.Data)[0])
	}
}

// A legend too wide for one row above the plot goes below it, and the
// drawing grows to hold it.
func TestLegendRows(t *testing.T) {
	f := draw(t, `kind: issue-vs-warps
machine: toy
warps: [1, 2]
program:
  - {label: "a dependent chain of FFMAs, the default", program: "- {op: FFMA, dst: r0, src: [r0, r1]}"}
  - {label: "two independent chains of FFMAs per warp", program: "- {op: FFMA, dst: r0, src: [r0, r1], ilp: 2}"}
  - {label: "four independent chains", program: "- {op: FFMA, dst: r0, src: [r0, r1], ilp: 4}"}
caption: c
alt: a
`)
	m := regexp.MustCompile(`viewBox="0 0 640 ([0-9.]+)"`).FindStringSubmatch(f.SVG)
	if m == nil || m[1] == "330" {
		t.Errorf("viewBox %v: the legend did not make room below the plot", m)
	}
	for _, y := range regexp.MustCompile(`<text x="[0-9.]+" y="([0-9.]+)" text-anchor="start" class="fig-text">(a dependent|two indep|four)`).FindAllStringSubmatch(f.SVG, -1) {
		var v float64
		fmtSscan(y[1], &v)
		if v < 330 {
			t.Errorf("legend label %q at y %s, inside the plot", y[2], y[1])
		}
	}
	// A short legend stays in one row above the plot.
	f = draw(t, "kind: issue-vs-warps\nmachine: [toy, volta]\nwarps: [1, 2]\ncaption: c\nalt: a\n")
	if !strings.Contains(f.SVG, `viewBox="0 0 640 330"`) || !strings.Contains(f.SVG, `y="18" text-anchor="start" class="fig-text">volta</text>`) {
		t.Error("a two-machine legend is not one row above the plot")
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
		{"kind: warp-timeline\nmachine: toy\nprogram: |\n  - {op: FROB}\ncaption: c\nalt: a\n", "figure line 4: unknown op \"FROB\""},
		{"kind: warp-timeline\nmachine: toy\npolicy: fifo\ncaption: c\nalt: a\n", `figure line 3: unknown policy "fifo"`},
		{"kind: occupancy-vs-registers\ngpu: A100\nthreads: 256\ncaption: c\nalt: Occupancy falls to 13.7 % at 255 registers.\n", "figure line 5: alt says 13.7 %, which is not a number of the figure's data or parameters; the nearest is 12.5"},
		{"kind: warp-timeline\nmachine: toy\nprogram:\n  - {label: x, program: \"- {op: EXIT}\"}\ncaption: c\nalt: a\n", "figure line 3: warp-timeline runs one program"},
		{"kind: issue-vs-warps\nmachine: toy\nvary: {ilp: [1, 2]}\ncaption: c\nalt: a\n", "figure line 3: vary: the program never uses $ilp"},
		{"kind: issue-vs-warps\nmachine: toy\nprogram: \"- {op: FFMA, dst: r0, src: [r0, r1], ilp: $ilp}\"\nvary: {ilp: 2}\ncaption: c\nalt: a\n", "figure line 4: vary: ilp needs a list of values"},
		{"kind: issue-vs-warps\nmachine: toy\nprogram: \"- {op: FFMA, dst: r0, src: [r0, r1], ilp: $ilp}\"\nvary: {ilp: [1], level: [l1]}\ncaption: c\nalt: a\n", "figure line 4: vary is one name with a list of values"},
		{"kind: issue-vs-warps\nmachine: toy\nprogram: \"- {op: FFMA, dst: r0, src: [r0, r1], ilp: $ilp}\"\nvary: {ilp: [1, 2, 3, 4, 5]}\ncaption: c\nalt: a\n", "figure line 4: at most 4 lines per figure, not 5"},
		{"kind: issue-vs-warps\nmachine: [toy, volta]\nprogram: \"- {op: FFMA, dst: r0, src: [r0, r1], ilp: $ilp}\"\nvary: {ilp: [1, 2]}\ncaption: c\nalt: a\n", "only one of machine, program and vary may give the figure's lines"},
		{"kind: issue-vs-warps\nmachine: toy\nprogram:\n  - {label: a, program: \"- {op: EXIT}\"}\n  - {program: \"- {op: EXIT}\"}\ncaption: c\nalt: a\n", "program 2: label is missing"},
		{"kind: issue-vs-warps\nmachine: toy\nprogram:\n  - {label: a, program: \"- {op: EXIT}\"}\n  - label: b\n    program: \"- {op: FROB}\"\ncaption: c\nalt: a\n", "figure line 6: unknown op \"FROB\""},
		{"kind: issue-vs-warps\nmachine: toy\nprogram:\n  - {label: a, program: \"- {op: EXIT}\", ilp: 2}\ncaption: c\nalt: a\n", `figure line 4: program 1: unknown key "ilp"`},
		{"kind: issue-vs-warps\nmachine: toy\nmeasure: tail\ncaption: c\nalt: a\n", "figure line 3: measure is whole (the default), steady"},
		{"kind: issue-vs-warps\nmachine: toy\nwarps: 2\nmeasure: [100, 100000]\ncaption: c\nalt: a\n", "figure line 4: toy with 1 warp per scheduler: "},
		{"kind: warp-timeline\nmachine: toy\nmeasure: steady\ncaption: c\nalt: a\n", "figure line 3: warp-timeline takes no measure"},
		{"kind: occupancy-stepper\nmachine: turing\nthreads: 64\nmeasured: [1, 2, 3]\ncaption: c\nalt: a\n", "figure line 4: measured lists the cycle of each of the block's 2 warps"},
	}
	for _, tt := range tests {
		_, err := Draw([]byte(tt.src), "f")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Draw(%q) = %v, want an error with %q", tt.src, err, tt.want)
		}
	}
}

// TestHostile: a figure cannot make the build simulate without end, or
// grow its program past the limit on YAML through vary, and hostile YAML
// is an error at its line and column.
func TestHostile(t *testing.T) {
	long := "- loop: 100000000\n    body:\n      - {op: FFMA, dst: r0, src: [r0, r1]}"
	tests := []struct{ src, want string }{
		{"kind: issue-vs-warps\nmachine: toy\nwarps: [1, 4]\nprogram: |\n  " + long + "\ncaption: c\nalt: a\n",
			"figure: the figure's simulations run past 16000000 cycles in all, the limit on a figure"},
		{"kind: warp-timeline\nmachine: toy\nprogram: |\n  " + long + "\ncaption: c\nalt: a\n",
			"figure: the figure's simulations run past 16000000 cycles in all, the limit on a figure"},
		{"kind: issue-vs-warps\nmachine: toy\nprogram: \"" + strings.Repeat("$x ", 8000) + "\"\nvary: {x: [" + strings.Repeat("y", 20000) + "]}\ncaption: c\nalt: a\n",
			"figure line 4: vary: the program with $x = \"yyyyyyyyyyyyyyyyyyyy\" is 160008000 bytes, more than 64 KiB, the limit"},
		{"kind: occupancy-vs-registers\ncaption: c\nalt: a\ngpu: [&a [A100, A100, A100, A100], [*a, *a, *a, *a], " + strings.Repeat("[*a, *a, *a, *a], ", 20000) + "]\n",
			"figure line 1: YAML is larger than 64 KiB"},
		{"kind: occupancy-vs-registers\ncaption: c\nalt: a\ngpu: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n",
			"figure line 4: YAML nested deeper than 32 levels, the limit"},
	}
	for _, tt := range tests {
		_, err := Draw([]byte(tt.src), "f")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Draw(%.80q) = %v, want an error with %q", tt.src, err, tt.want)
		}
	}
	var fe *Error
	_, err := Draw([]byte("kind: occupancy-vs-registers\ncaption: c\nalt: a\ngpu: "+strings.Repeat("[", 40)+"\n"), "f")
	if !errors.As(err, &fe) || fe.Line != 4 || fe.Col != 37 {
		t.Errorf("nesting error %#v, want line 4, column 37", err)
	}
}
