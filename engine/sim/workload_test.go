package sim

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestExampleWorkload: the workload file of issue 5, exactly as written,
// parses, runs, and reports every metric the issue names.
func TestExampleWorkload(t *testing.T) {
	data, err := os.ReadFile("testdata/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w, err := ParseWorkload("testdata/example.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if w.GPU != "toy" || w.Policy != "gto" || w.Launch != (Launch{Block: 128, Blocks: 1, Regs: 32}) {
		t.Errorf("parsed gpu %q policy %q launch %+v", w.GPU, w.Policy, w.Launch)
	}
	r := run(t, w)
	want := []string{
		"sm__cycles_elapsed.avg",
		"smsp__inst_executed.sum",
		"smsp__issue_active.avg.pct_of_peak_sustained_active",
		"smsp__issue_inst0.avg.pct_of_peak_sustained_active",
		"smsp__warps_active.avg.per_cycle_active",
		"smsp__warps_eligible.avg.per_cycle_active",
		"smsp__average_warp_latency_per_inst_issued.ratio",
		"sm__warps_active.avg.pct_of_peak_sustained_active",
		"smsp__thread_inst_executed_per_inst_executed.ratio",
	}
	for _, reason := range []string{"selected", "not_selected", "wait", "short_scoreboard", "long_scoreboard",
		"barrier", "membar", "math_pipe_throttle", "mio_throttle", "lg_throttle", "no_instruction",
		"branch_resolving", "drain", "sleeping"} {
		want = append(want, "smsp__average_warps_issue_stalled_"+reason+"_per_issue_active.ratio")
	}
	for _, name := range want {
		if _, ok := r.Metric(name); !ok {
			t.Errorf("metric %s missing", name)
		}
	}
	// 4 warps × (100 × 4 + EXIT) instructions.
	if r.Instructions != 4*401 {
		t.Errorf("%d instructions, want %d", r.Instructions, 4*401)
	}
	if r.Dominant() != LongScoreboard {
		t.Errorf("dominant stall %s, want long_scoreboard (each iteration waits on a DRAM load)", r.Dominant())
	}
}

// TestParseWorkloadErrors: every mistake in a workload file is reported
// with file:line:col and what is expected, never a panic.
func TestParseWorkloadErrors(t *testing.T) {
	const head = "gpu: toy\nlaunch: {block: 32}\nprogram:\n"
	cases := []struct {
		name, src, want string
	}{
		{"empty", "", "w.yaml: empty workload; want a mapping"},
		{"syntax", "gpu: [\n", "w.yaml:1:6: YAML syntax"},
		{"not a mapping", "- 1\n", "w.yaml:1:1: the workload: want a mapping with keys"},
		{"unknown top key", "gpu: toy\nlaunchh: {block: 32}\n", `w.yaml:2:1: unknown key "launchh" in the workload (want name, gpu, policy, launch, memory, program)`},
		{"duplicate key", "gpu: toy\ngpu: volta\n", `w.yaml:2:1: YAML syntax: mapping key "gpu" already defined`},
		{"unknown gpu", "gpu: toyy\n", `w.yaml:1:6: unknown gpu preset "toyy" (want one of`},
		{"bad policy", "gpu: toy\npolicy: fifo\n", `w.yaml:2:9: unknown policy "fifo" (want lrr, gto, gty, oldest or two_level:N)`},
		{"bad two_level", "gpu: toy\npolicy: two_level:x\n", `w.yaml:2:9: policy "two_level:x": want two_level:N`},
		{"block not int", "gpu: toy\nlaunch:\n  block: many\n", `w.yaml:3:10: launch.block (threads per block): want an integer, got the string "many"`},
		{"block zero", "gpu: toy\nlaunch:\n  block: 0\n", `w.yaml:3:10: launch.block (threads per block): 0, want at least 1`},
		{"launch key", "gpu: toy\nlaunch: {block: 32, threads: 4}\n", `w.yaml:2:21: unknown key "threads" in launch`},
		{"no program", "gpu: toy\nlaunch: {block: 32}\n", "w.yaml:1:1: missing program"},
		{"no block", "gpu: toy\nprogram:\n  - {op: EXIT}\n", "w.yaml:1:1: missing launch.block"},
		{"program not list", head[:len(head)-1] + " {op: FFMA}\n", "w.yaml:3:11: program: want a list"},
		{"unknown op", head + "  - {op: FFMX, dst: r0}\n", `w.yaml:4:10: unknown op "FFMX" (want one of`},
		{"item key", head + "  - {op: FFMA, dst: r0, src: [r1], lat: 4}\n", `w.yaml:4:36: unknown key "lat" in a program item`},
		{"key for another kind", head + "  - {op: FFMA, dst: r0, lanes: \"0-3\"}\n", `w.yaml:4:25: key "lanes" does not belong in an instruction`},
		{"missing dst", head + "  - {op: FFMA, src: [r0]}\n", "w.yaml:4:6: FFMA needs a destination register (dst)"},
		{"dst on BAR", head + "  - {op: BAR, dst: r0}\n", `w.yaml:4:6: BAR has no destination register, got dst "r0"`},
		{"bad register", head + "  - {op: FFMA, dst: 0r, src: [r0]}\n", `w.yaml:4:6: dst: bad register name "0r"`},
		{"bad level", head + "  - {op: LDG, dst: r0, src: [r1], level: l3}\n", `w.yaml:4:6: level "l3", want l1, l2, l2far or dram`},
		{"level on math", head + "  - {op: FFMA, dst: r0, src: [r1], level: l1}\n", "w.yaml:4:6: level is only for LDG, STG, LDL, STL, LDGSTS, UTMALDG, UBLKCP, and dsmem on LDS and STS"},
		{"bad width", head + "  - {op: LDG, dst: r0, src: [r1], width: 3}\n", "w.yaml:4:6: width 3, want 1, 2, 4, 8 or 16"},
		{"loop count", head + "  - loop: -1\n    body: [{op: NOP}]\n", "w.yaml:4:11: loop (the trip count): -1, want at least 0"},
		{"loop no body", head + "  - loop: 3\n", "w.yaml:4:5: loop needs a body"},
		{"loop empty body", head + "  - loop: 3\n    body: []\n", "w.yaml:5:5: loop body issues no instruction"},
		{"empty program", "gpu: toy\nlaunch: {block: 32}\nprogram: []\n", "w.yaml:3:1: program issues no instruction"},
		{"program of empty loops", head + "  - loop: 0\n    body: [{op: NOP}]\n", "w.yaml:3:1: program issues no instruction"},
		{"loop with op", head + "  - loop: 3\n    op: FFMA\n    body: [{op: NOP}]\n", `w.yaml:5:5: key "op" does not belong in a loop`},
		{"body without loop", head + "  - body: [{op: NOP}]\n", "w.yaml:4:5: body belongs to a loop"},
		{"no op", head + "  - {dst: r0}\n", "w.yaml:4:6: program item has no op or loop"},
		{"item is a string", head + "  - FFMA r0, r1\n", `w.yaml:4:5: program item the string "FFMA r0, r1": want a mapping`},
		{"branch no lanes", head + "  - {op: BRA, then: [{op: NOP}]}\n", "w.yaml:4:6: BRA needs lanes"},
		{"branch bad lanes", head + "  - {op: BRA, lanes: \"0-40\", then: [{op: NOP}]}\n", `w.yaml:4:22: lanes "0-40": "0-40" out of range; want values 0..31`},
		{"branch no paths", head + "  - {op: BRA, lanes: \"0-15\"}\n", "w.yaml:4:6: BRA needs then: and/or else:"},
		{"branch both", head + "  - {op: BRA, lanes: \"0\", warps: \"0\", then: [{op: NOP}]}\n", "BRA takes lanes or warps, not both"},
		{"exit in loop", head + "  - loop: 2\n    body: [{op: EXIT}]\n", "w.yaml:5:13: EXIT is only allowed at the top level"},
		{"memory model", "gpu: toy\nmemory: {model: fast}\n", `w.yaml:2:17: memory.model "fast", want latency or queue`},
		{"alias", "gpu: toy\nlaunch: &l {block: 32}\nprogram: *l\n", "w.yaml:3:10: aliases are not supported"},
		{"two docs", "gpu: toy\n---\ngpu: volta\n", "w.yaml:3:1: more than one YAML document"},
		{"sleep negative", head + "  - {op: NANOSLEEP, cycles: -5}\n", "w.yaml:4:29: cycles (NANOSLEEP duration): -5, want at least 0"},
		{"too many sources", head + "  - {op: FFMA, dst: r0, src: [r1, r2, r3, r4, r5]}\n", "w.yaml:4:6: FFMA has 5 source registers, want at most 4"},
		{"dsmem on a global load", head + "  - {op: LDG, dst: r0, src: [r1], level: dsmem}\n", `w.yaml:4:6: level "dsmem", want l1, l2, l2far or dram`},
		{"l2 on a shared load", head + "  - {op: LDS, dst: r0, src: [r1], level: l2}\n", `w.yaml:4:6: level "l2" on LDS, want dsmem`},
		{"arrivals on FFMA", head + "  - {op: FFMA, dst: r0, src: [r1], arrivals: 2}\n", "w.yaml:4:6: arrivals is only for MBARINIT, not FFMA"},
		{"init without arrivals", head + "  - {op: MBARINIT, bar: e0}\n", "w.yaml:4:6: MBARINIT arrivals 0, want 1 to"},
		{"named barrier out of range", head + "  - {op: BAR, barrier: 16}\n", "w.yaml:4:6: barrier 16, want a named barrier from 0 to 15"},
		{"threads not in warps", head + "  - {op: BAR, barrier: 1, threads: 40}\n", "w.yaml:4:6: threads 40, want a multiple of 32"},
		{"arrive needs threads", head + "  - {op: BAR.ARV, barrier: 1}\n", "w.yaml:4:6: BAR.ARV needs threads"},
		{"barrier on FFMA", head + "  - {op: FFMA, dst: r0, src: [r1], barrier: 1}\n", "w.yaml:4:6: barrier and threads are only for BAR and BAR.ARV, not FFMA"},
		{"bad operands", head + "  - {op: HGMMA, dst: a, src: [a], operands: sr}\n", `w.yaml:4:6: operands "sr", want ss`},
		{"operands on HMMA", head + "  - {op: HMMA, dst: a, src: [a], operands: rs}\n", "w.yaml:4:6: operands is only for HGMMA, not HMMA"},
		{"negative cluster", "gpu: toy\nlaunch: {block: 32, cluster: -2}\nprogram: [{op: NOP}]\n", "w.yaml:2:30: launch.cluster (blocks per thread block cluster): -2, want at least 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseWorkload("w.yaml", []byte(c.src))
			if err == nil {
				t.Fatalf("no error; want %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error\n  %v\nwant it to contain\n  %s", err, c.want)
			}
		})
	}
}

// TestParseWorkloadForms: the shorthand forms a workload file may use.
func TestParseWorkloadForms(t *testing.T) {
	src := `gpu: volta
policy: two_level:4
launch:
  block: 64
  blocks: 80
  resident: 1
memory:
  model: queue
  lg_queue: 4
  mem_queue: 2
  dram_bytes_per_cycle: 2.5
program:
  - {op: ffma, dst: r0, src: r1, ilp: 3}
  - op: BRA
    lanes: 0-15
    then:
      - {op: LDS, dst: r2, src: [r0], width: 16}
    else:
      - {op: MUFU, dst: r2, src: [r0]}
  - {op: BRA, warps: 1, then: [{op: NANOSLEEP, cycles: 20}]}
  - {op: MEMBAR}
  - {op: STG, src: [r2, r3], level: l2}
`
	w, err := ParseWorkload("forms.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if w.Memory != (Memory{Model: "queue", LGQueue: 4, MemQueue: 2, DRAMBytesPerCycle: 2.5}) {
		t.Errorf("memory %+v", w.Memory)
	}
	r := run(t, w)
	// Per warp: 3 FFMA, BRA, LDS + MUFU (both paths), BRA, (NANOSLEEP on
	// warp 1), MEMBAR, STG, EXIT.
	if r.Instructions != 2*10+1 {
		t.Errorf("%d instructions, want 21", r.Instructions)
	}
	if r.StateCycles(Sleeping) == 0 || r.StateCycles(Membar) == 0 || r.StateCycles(Drain) == 0 {
		t.Errorf("want sleeping, membar and drain cycles; got %d, %d, %d",
			r.StateCycles(Sleeping), r.StateCycles(Membar), r.StateCycles(Drain))
	}
	// The program prints back as a workload program.
	w2, err := ParseWorkload("again.yaml", []byte("gpu: volta\nlaunch: {block: 64}\nprogram:\n"+indent(w.Program.String())))
	if err != nil {
		t.Fatalf("re-parsing the printed program: %v\n%s", err, w.Program)
	}
	if w2.Program.String() != w.Program.String() {
		t.Errorf("printed program does not round-trip:\n%s\n---\n%s", w.Program, w2.Program)
	}
}

func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "")
}

// TestProgramErrors: a program built in Go reports its mistakes by
// position in the program.
func TestProgramErrors(t *testing.T) {
	cases := []struct {
		p    *Program
		want string
	}{
		{NewProgram().Op("FMA", "r0", "r1"), `sim: program[0]: unknown op "FMA"`},
		{NewProgram().FFMA("r0").Loop(2, NewProgram().Op("EXIT", "")), "sim: program[1].body[0]: EXIT is only allowed at the top level"},
		{NewProgram().Branch("0-99", NewProgram().FFMA("r0"), nil), `sim: program[0]: lanes "0-99"`},
		{NewProgram().Loop(3, NewProgram()), "sim: program[0]: loop body issues no instruction"},
		{NewProgram().Op("BRA", ""), "sim: program[0]: BRA needs then/else paths"},
		{NewProgram(), "sim: workload \"\" has an empty program"},
	}
	for _, c := range cases {
		_, err := Run(Workload{GPU: "toy", Launch: Launch{Block: 32, Blocks: 1}, Program: c.p})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	bad := []struct {
		w    Workload
		want string
	}{
		{Workload{Launch: Launch{Block: 32, Blocks: 1}, Program: chain("FFMA", 1)}, "names no gpu"},
		{Workload{GPU: "toy", Launch: Launch{Block: 2048, Blocks: 1}, Program: chain("FFMA", 1)}, "launch block 2048 threads, want 1..1024"},
		{Workload{GPU: "toy", Launch: Launch{Block: 32}, Program: chain("FFMA", 1)}, "launch blocks 0, want at least 1"},
		{Workload{GPU: "toy", Policy: "random", Launch: Launch{Block: 32, Blocks: 1}, Program: chain("FFMA", 1)}, `unknown policy "random"`},
		{Workload{GPU: "volta", Launch: Launch{Block: 1024, Blocks: 1, Regs: 255}, Program: chain("FFMA", 1)}, "no block of this launch fits"},
		{Workload{GPU: "toy", Memory: Memory{Model: "fast"}, Launch: Launch{Block: 32, Blocks: 1}, Program: chain("FFMA", 1)}, `memory model "fast"`},
	}
	for _, c := range bad {
		if _, err := Run(c.w); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	if _, err := (Config{MaxCycles: 100}).Run(Workload{GPU: "toy", Launch: Launch{Block: 32, Blocks: 1}, Program: chain("FFMA", 1000)}); err == nil ||
		!strings.Contains(err.Error(), "did not finish within 100 cycles") {
		t.Errorf("MaxCycles: got %v", err)
	}
	if _, err := (Config{Trace: Window{From: 0, To: 1 << 30}}).Run(Workload{GPU: "toy", Launch: Launch{Block: 32, Blocks: 1}, Program: chain("FFMA", 1)}); err == nil ||
		!strings.Contains(err.Error(), "narrow the window") {
		t.Errorf("huge trace: got %v", err)
	}
}

// TestPresets: every preset is valid, names its sources and is found by
// name.
func TestPresets(t *testing.T) {
	names := map[string]bool{}
	for _, m := range Presets() {
		if err := m.validate(); err != nil {
			t.Error(err)
		}
		if len(m.Sources) < 40 {
			t.Errorf("%s: sources %q, want where the numbers come from", m.Name, m.Sources)
		}
		got, err := Preset(strings.ToUpper(m.Name))
		if err != nil || got.Name != m.Name {
			t.Errorf("Preset(%q) = %q, %v", strings.ToUpper(m.Name), got.Name, err)
		}
		names[m.Name] = true
	}
	for _, n := range []string{"toy", "gt200", "gf100", "volta", "turing", "ampere", "hopper"} {
		if !names[n] {
			t.Errorf("preset %s missing", n)
		}
	}
	if m := Toy(); m.Schedulers != 1 || m.FMA != (Pipe{Latency: 4, Interval: 1}) {
		t.Errorf("toy: %d schedulers, FMA %+v; want 1 scheduler, FFMA latency 4 interval 1", m.Schedulers, m.FMA)
	}
	if _, err := Preset("pascal"); err == nil || !strings.Contains(err.Error(), "want one of ad102, ampere, ga102, gf100") {
		t.Errorf("Preset(pascal): %v", err)
	}
	for _, s := range States() {
		if p, err := ParseState(s.String()); err != nil || p != s {
			t.Errorf("ParseState(%q) = %v, %v", s, p, err)
		}
	}
}

// TestParseProgram: a program alone parses to the same program as the
// program: of a workload file, and its errors are positioned in its own
// source (lines and byte columns), whatever comes before it.
func TestParseProgram(t *testing.T) {
	src := "- loop: 3\n  body:\n    - {op: FFMA, dst: r0, src: [r0, r1], ilp: 2}\n    - {op: LDG, dst: r2, src: [r3], level: l2}\n- {op: BRA, lanes: \"0-15\", then: [{op: MUFU, dst: r4, src: [r2]}]}\n"
	p, err := ParseProgram("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w, err := ParseWorkload("w.yaml", []byte("gpu: toy\nlaunch: {block: 32}\nprogram:\n"+indent(src)))
	if err != nil {
		t.Fatal(err)
	}
	if p.String() != w.Program.String() {
		t.Errorf("ParseProgram gives\n%s\nthe workload's program is\n%s", p, w.Program)
	}
	cases := []struct {
		name, src, want string
	}{
		{"empty", "", "p.yaml: empty program; want a list"},
		{"comment only", "# nothing\n", "p.yaml: empty program; want a list"},
		{"not a list", "op: FFMA\n", "p.yaml:1:1: program: want a list of instructions, loops and branches, got a mapping"},
		{"unknown op", "- {op: FFMA, dst: r0}\n- {op: FFMX, dst: r1}\n", `p.yaml:2:8: unknown op "FFMX"`},
		{"compile error", "- {op: NOP}\n- loop: 2\n  body: [{op: EXIT}]\n", "p.yaml:3:11: EXIT is only allowed at the top level"},
		{"issues nothing", "- loop: 0\n  body: [{op: NOP}]\n", "p.yaml:1:1: program issues no instruction"},
		{"syntax", "- {op: FFMA\n", "p.yaml:1:3: YAML syntax"},
		// Columns count bytes: "é" is two bytes, so the second item's op
		// value starts at byte column 13, character column 12.
		{"byte columns", "- {op: NOP}  # é\n- {dst: é, op: FFMX}\n", `p.yaml:2:17: unknown op "FFMX"`},
		{"two documents", "- {op: NOP}\n---\n- {op: NOP}\n", "p.yaml:3:1: more than one YAML document"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseProgram("p.yaml", []byte(c.src))
			if err == nil {
				t.Fatalf("no error; want %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error\n  %v\nwant it to contain\n  %s", err, c.want)
			}
			var e *Error
			if !errors.As(err, &e) || e.File != "p.yaml" {
				t.Errorf("error %T %v: want a *sim.Error for p.yaml", err, err)
			}
		})
	}
}
