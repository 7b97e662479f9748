package sim

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/sass"
)

// listing reads a compiler listing committed under engine/sass/testdata.
func listing(t testing.TB, name string) *sass.Listing {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "sass", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	l, err := sass.Parse(name, b)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// loopHeads returns the heads of a function's loops (the targets of its
// reachable-looking backward branches, self-branches left out), in
// address order.
func loopHeads(f *sass.Function) []int {
	seen := map[int]bool{}
	var out []int
	for _, in := range f.Insts {
		if in.Op == "BRA" && in.Target >= 0 && in.Target < in.Addr && !seen[in.Target] {
			seen[in.Target] = true
			out = append(out, in.Target)
		}
	}
	sort.Ints(out)
	return out
}

// kernelOf returns a workload running function fn of a listing on its
// architecture's preset, every loop taking trips trips (the last loop of
// the function, its main one, mainTrips).
func kernelOf(t testing.TB, l *sass.Listing, fn string, block, blocks, trips, mainTrips int) Workload {
	t.Helper()
	f, err := l.Function(fn)
	if err != nil {
		t.Fatal(err)
	}
	k := &Kernel{Listing: l.File, Func: f, Loops: map[string]int{}}
	heads := loopHeads(f)
	for i, h := range heads {
		k.Loops[addrKey(h)] = trips
		if i == len(heads)-1 {
			k.Loops[addrKey(h)] = mainTrips
		}
	}
	g, ok := PresetForArch(f.Arch)
	if !ok {
		t.Fatalf("no preset for %s", f.Arch)
	}
	return Workload{Name: fn + "@" + f.Arch, GPU: g, Kernel: k,
		Launch: Launch{Block: block, Blocks: blocks, Regs: f.Resources.Regs, Smem: f.Resources.Shared}}
}

// chainCPI is the cycles between consecutive issues of the instructions
// with opcode op: the median, over those lines, of the warp-cycles sampled
// at the line per issue. With one warp that is the time each waits from the
// previous one's issue, what a clock()-bracketed dependent chain measures.
func chainCPI(t testing.TB, r *Result, op string) float64 {
	t.Helper()
	var v []float64
	for _, l := range r.Lines {
		if l.Issued > 0 && strings.HasPrefix(l.Text, op+" ") || strings.HasPrefix(l.Text, op+".") {
			if l.Issued > 0 {
				v = append(v, float64(l.Total())/float64(l.Issued))
			}
		}
	}
	if len(v) < 8 {
		t.Fatalf("%s: %d lines of %s", r.Workload, len(v), op)
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

// meanCPI is the warp-cycles sampled at the lines of opcode op per issue
// of them: with one warp, the average cycles between their issues.
func meanCPI(r *Result, op string) float64 {
	var samples, issued int
	for _, l := range r.Lines {
		if strings.HasPrefix(l.Text, op+" ") || strings.HasPrefix(l.Text, op+".") {
			samples += l.Total()
			issued += l.Issued
		}
	}
	if issued == 0 {
		return 0
	}
	return float64(samples) / float64(issued)
}

// stallOf returns the stall reason with the most samples on the lines of
// opcode op (selected left out).
func stallOf(r *Result, op string) State {
	var n [numStates]int
	for _, l := range r.Lines {
		if strings.HasPrefix(l.Text, op+" ") || strings.HasPrefix(l.Text, op+".") {
			for _, st := range States() {
				n[st] += l.Samples(st)
			}
		}
	}
	best := NotSelected
	for _, st := range States() {
		if st != Selected && n[st] > n[best] {
			best = st
		}
	}
	return best
}

// TestMicrobenchmarkLatency runs the dependent-chain microbenchmarks of
// engine/sass/testdata/micro.cu from the SASS nvcc emitted for each
// preset's architecture, one warp, and holds the cycles between the
// chain's issues to the published latency. The band is the published
// figure's precision: whole cycles read from a table (±0.5), "~N" (±1).
// Where ptxas's stall count and the paper disagree, the SASS run follows
// the compiler (the hardware does not check, Huerta et al. §4): the row
// says so and expects the compiler's figure.
//
// The stall reason is the one Nsight Compute names for the wait: wait for
// a fixed-latency chain (the stall count), long_scoreboard for global
// memory, short_scoreboard for shared memory and MUFU (Nsight's
// definitions). The MUFU chain on Volta is the exception the model
// predicts: ptxas puts a stall count of 8 on each MUFU (the XU's issue
// rate), which covers 7 of the 14 cycles, so wait edges out
// short_scoreboard there.
func TestMicrobenchmarkLatency(t *testing.T) {
	type row struct {
		kernel, op, listing string
		level               string  // ldg_chase
		want, tol           float64 // the published latency and its band
		source              string
		stall               State
	}
	rows := []row{
		{"ffma_chain", "FFMA", "micro_sm_70.sass", "", 4, 0.5, "Jia et al. 2018 Table 4.1 (V100): FFMA 4", Wait},
		{"ffma_chain", "FFMA", "micro_sm_75.sass", "", 4, 0.5, "Jia et al. 2019 Table 4.1 (T4): FFMA 4", Wait},
		{"ffma_chain", "FFMA", "micro_sm_80.sass", "", 4, 0.5, "Abdelkhalik et al. 2022 Table II (A100): mad.rn.f32 4", Wait},
		{"ffma_chain", "FFMA", "micro_sm_90.sass", "", 4, 0.5, "no published H100 figure: ptxas's stall count 4", Wait},
		// Jia et al. measured IMAD at 5 cycles on V100 and T4; ptxas issues
		// a dependent IMAD 4 cycles after the previous one on both.
		{"imad_chain", "IMAD", "micro_sm_70.sass", "", 4, 0.5, "ptxas's stall count 4 (Jia et al. 2018 Table 4.1 measured 5)", Wait},
		{"imad_chain", "IMAD", "micro_sm_75.sass", "", 4, 0.5, "ptxas's stall count 4 (Jia et al. 2019 Table 4.1 measured 5)", Wait},
		{"imad_chain", "IMAD", "micro_sm_80.sass", "", 4, 0.5, "no published A100 figure: ptxas's stall count 4", Wait},
		{"ldg_chase", "LDG", "micro_sm_70.sass", "l1", 28, 0.5, "Jia et al. 2018 Table 3.1 (V100): L1 hit 28", LongScoreboard},
		{"ldg_chase", "LDG", "micro_sm_75.sass", "l1", 32, 0.5, "Jia et al. 2019 Table 3.1 (T4): L1 hit 32", LongScoreboard},
		// A 64-bit load takes 2 cycles more than a 32-bit one (Huerta et
		// al. Table 2, 32 and 34 on an RTX A6000): 33 + 2.
		{"ldg_chase", "LDG", "micro_sm_80.sass", "l1", 35, 0.5, "Abdelkhalik et al. Table IV (A100): L1 33, + 2 for 64 bits (Huerta et al. Table 2)", LongScoreboard},
		{"ldg_chase", "LDG", "micro_sm_75.sass", "l2", 188, 9.4, "Jia et al. 2019 Table 3.1 (T4): L2 hit ~188 (the ~ taken as 5 %)", LongScoreboard},
		{"lds_chase", "LDS", "micro_sm_70.sass", "", 19, 0.5, "Jia et al. 2018 Table 3.1 (V100): shared memory 19", ShortScoreboard},
		{"lds_chase", "LDS", "micro_sm_75.sass", "", 19, 0.5, "Jia et al. 2019 Table 3.1 (T4): shared memory 19", ShortScoreboard},
		{"lds_chase", "LDS", "micro_sm_80.sass", "", 23, 0.5, "Abdelkhalik et al. Table IV (A100): shared memory 23", ShortScoreboard},
		{"lds_chase", "LDS", "micro_sm_90.sass", "", 29, 0.5, "Luo et al. 2024 Table IV (H800): shared memory 29.0", ShortScoreboard},
		{"mufu_chain", "MUFU", "micro_sm_70.sass", "", 14, 1, "Jia et al. 2018 Table 4.1 (V100): MUFU ~14", Wait},
		{"mufu_chain", "MUFU", "micro_sm_75.sass", "", 15, 1, "Jia et al. 2019 Table 4.1 (T4): MUFU ~15", ShortScoreboard},
	}
	for _, c := range rows {
		t.Run(c.kernel+"/"+c.listing, func(t *testing.T) {
			w := kernelOf(t, listing(t, c.listing), c.kernel, 32, 1, 32, 20)
			if c.level != "" {
				w.Kernel.Default = Access{Level: c.level}
			}
			r := run(t, w)
			got := chainCPI(t, r, c.op)
			if !within(got, c.want, c.tol) {
				t.Errorf("%s on %s: %.2f cycles per %s, published %g ± %g (%s)", c.kernel, r.Machine.Name, got, c.op, c.want, c.tol, c.source)
			}
			if st := stallOf(r, c.op); st != c.stall {
				t.Errorf("%s on %s: the chain's lines stall most in %s, want %s", c.kernel, r.Machine.Name, st, c.stall)
			}
		})
	}
}

// TestMicrobenchmarkILP runs independent FFMA chains (ILP 1 to 4 per
// thread) from their SASS. One warp issues an FFMA every max(latency ÷
// ILP, interval) cycles, the interval being the FP32 pipe's 32 ÷ lanes: 2
// on V100, T4 and A100 (16 lanes per sub-partition), 1 on H100 (32);
// Abdelkhalik et al. Table II measured A100's mad.rn.f32 at 4 cycles per
// instruction dependent and 2 independent. A full SM then issues the CUDA
// C++ Programming Guide's 64 FP32 FMA results per clock per SM (2 warp
// instructions per cycle) on compute capability 7.0 to 8.0.
func TestMicrobenchmarkILP(t *testing.T) {
	for _, c := range []struct {
		listing  string
		interval float64
	}{{"micro_sm_70.sass", 2}, {"micro_sm_75.sass", 2}, {"micro_sm_80.sass", 2}, {"micro_sm_90.sass", 1}} {
		l := listing(t, c.listing)
		for ilp := 1; ilp <= 4; ilp++ {
			fn := fmt.Sprintf("ffma_ilp%d", ilp)
			w := kernelOf(t, l, fn, 32, 1, 32, 20)
			r := run(t, w)
			want := max(4/float64(ilp), c.interval)
			if got := meanCPI(r, "FFMA"); !within(got, want, 0.5) {
				t.Errorf("%s on %s, one warp: %.2f cycles per FFMA, want %.2f", fn, r.Machine.Name, got, want)
			}
		}
		if c.interval != 2 {
			continue
		}
		// A full SM: 2 FFMA warp instructions per cycle.
		w := kernelOf(t, l, "ffma_ilp4", 1024, 0, 1, 200)
		m, _ := Preset(w.GPU)
		m.SMs = 1
		w.Launch.Blocks = 4
		r := runWith(t, Config{Machine: &m, Steady: true}, w)
		ffma := 0
		for _, ln := range r.Lines {
			if strings.HasPrefix(ln.Text, "FFMA") {
				ffma += ln.Issued
			}
		}
		if got := float64(ffma) / float64(r.Cycles); !within(got, 2, 0.04) {
			t.Errorf("ffma_ilp4 on %s, full SM: %.3f FFMA per cycle, the Programming Guide's 64 results per clock per SM are 2", r.Machine.Name, got)
		}
		if r.Dominant() != MathPipeThrottle && r.Dominant() != NotSelected {
			t.Errorf("ffma_ilp4 on %s, full SM: dominant stall %s, want the FMA pipe's math_pipe_throttle", r.Machine.Name, r.Dominant())
		}
	}
}

// synthetic writes a one-function cuobjdump listing for sm_80 from
// instructions and their control information.
func synthetic(name string, insts []synthInst) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "\n\tcode for sm_80\n\t\tFunction : %s\n", name)
	for i, in := range insts {
		fmt.Fprintf(&b, "        /*%04x*/                   %s ;  /* 0x%016x */\n", 16*i, in.text, uint64(0x1234))
		fmt.Fprintf(&b, "                                                  /* 0x%016x */\n", in.ctl.Encode())
	}
	return []byte(b.String())
}

type synthInst struct {
	text string
	ctl  sass.Control
}

// ctl is a control word with the given stall count, write and read
// counters (-1 none) and wait mask.
func ctl(stall, wr, rd int, wait uint8) sass.Control {
	return sass.Control{Stall: stall, WriteSB: wr, ReadSB: rd, Wait: wait}
}

// bothWays returns one program written both ways: as SASS whose stall
// counts are the presets' latencies and whose dependence counters track
// the variable-latency results, and as a program whose register
// dependencies say the same.
func bothWays(t testing.TB) (*Kernel, *Program) {
	t.Helper()
	const n = -1
	insts := []synthInst{
		{"LDG.E R2, [R10.64]", ctl(1, 0, n, 0)},
		{"FFMA R4, R2, R1, RZ", ctl(4, n, n, 1<<0)},
	}
	prog := NewProgram().LDG("r2", "r10", "l2").FFMA("r4", "r2", "r1")
	for i := 0; i < 6; i++ {
		insts = append(insts, synthInst{"FFMA R4, R4, R1, RZ", ctl(4, n, n, 0)})
		prog.FFMA("r4", "r4", "r1")
	}
	insts = append(insts,
		synthInst{"MUFU.EX2 R5, R4", ctl(1, 1, n, 0)},
		synthInst{"LDS R6, [R5]", ctl(1, 2, n, 1<<1)},
		synthInst{"FFMA R7, R6, R4, RZ", ctl(4, n, n, 1<<2)},
		synthInst{"STG.E [R10.64], R7", ctl(1, n, n, 0)},
		synthInst{"EXIT", ctl(1, n, n, 0)})
	prog.MUFU("r5", "r4").LDS("r6", "r5").FFMA("r7", "r6", "r4").
		Add(Inst{Op: "STG", Src: []string{"r7", "r10"}, Level: "l2"}).EXIT()
	l, err := sass.Parse("both.sass", synthetic("both", insts))
	if err != nil {
		t.Fatal(err)
	}
	return &Kernel{Listing: "both.sass", Func: l.Functions[0], Default: Access{Level: "l2"}}, prog
}

// TestSASSMatchesYAML runs one program written both ways, as SASS whose
// stall counts are the preset's latencies and whose dependence counters
// track the variable-latency results, and as a YAML-style program whose
// register dependencies say the same: every metric and every line's
// samples are the same.
func TestSASSMatchesYAML(t *testing.T) {
	kernel, prog := bothWays(t)
	launch := Launch{Block: 256, Blocks: 4 * 108, Regs: 32}
	for _, gpu := range []string{"ampere", "volta", "hopper"} {
		a, err := Run(Workload{Name: "sass", GPU: gpu, Launch: launch, Kernel: kernel})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Run(Workload{Name: "yaml", GPU: gpu, Launch: launch, Program: prog})
		if err != nil {
			t.Fatal(err)
		}
		checkIdentities(t, "sass", a)
		sameResult(t, gpu, "from SASS", "from YAML", a, b)
		if a.StateCycles(LongScoreboard) == 0 || a.StateCycles(ShortScoreboard) == 0 || a.StateCycles(Wait) == 0 {
			t.Errorf("%s: the program exercises too little: %d cycles, long %d, short %d, wait %d", gpu, a.Cycles,
				a.StateCycles(LongScoreboard), a.StateCycles(ShortScoreboard), a.StateCycles(Wait))
		}
	}
}

// runKernelFile runs a kernel file about a listing and checks the run's
// identities.
func runKernelFile(t *testing.T, l *sass.Listing, name, spec string) *Result {
	t.Helper()
	w, err := ParseKernel(name, []byte(spec), l)
	if err != nil {
		t.Fatal(err)
	}
	return run(t, w)
}

// TestSaxpyBlame traces saxpy's long_scoreboard to the loads: the FFMA
// that consumes them waits on SB2, which both LDG.E set, and the sentence
// the book prints says so.
func TestSaxpyBlame(t *testing.T) {
	l := listing(t, "saxpy_sm_80.sass")
	r := runKernelFile(t, l, "saxpy.yaml", "launch: {block: 256, blocks: 864}\n")
	bl := r.Blames(LongScoreboard)
	if len(bl) == 0 {
		t.Fatal("no long_scoreboard traced to an instruction")
	}
	top := bl[0]
	if !strings.HasPrefix(top.Line.Text, "FFMA R7, R2") || !strings.HasPrefix(top.By.Text, "LDG.E") || top.Cause.SB != 2 || top.Share < 0.5 {
		t.Errorf("top cause of long_scoreboard: %s", top)
	}
	want := "FFMA R7, R2, c[0x0][0x160], R7 waits on SB2 set by LDG.E R7, [R4.64] on the line above: "
	if s := top.String(); !strings.HasPrefix(s, want) || !strings.HasSuffix(s, " % of this kernel's long_scoreboard") {
		t.Errorf("blame %q\nwant %q...", s, want)
	}
}

// TestSourceViewTop cuts saxpy's source view to its largest lines: the
// FFMA that waits for the loads and the EXIT that drains the store, in
// address order, then a line that counts the rest and their samples.
func TestSourceViewTop(t *testing.T) {
	l := listing(t, "saxpy_sm_80.sass")
	r := runKernelFile(t, l, "saxpy.yaml", "launch: {block: 256, blocks: 864}\n")
	all := strings.Split(strings.TrimSuffix(r.SourceView(), "\n"), "\n")
	top := strings.Split(strings.TrimSuffix(r.SourceViewTop(2), "\n"), "\n")
	if len(top) != 4 || top[0] != all[0] {
		t.Fatalf("SourceViewTop(2):\n%s", strings.Join(top, "\n"))
	}
	// The two lines with most samples, found here from the lines.
	var first, second Line
	total, reached := 0, 0
	for _, ln := range r.Lines {
		if ln.Issued == 0 && ln.Total() == 0 {
			continue
		}
		reached++
		total += ln.Total()
		switch {
		case ln.Total() > first.Total():
			first, second = ln, first
		case ln.Total() > second.Total():
			second = ln
		}
	}
	if first.PC > second.PC {
		first, second = second, first
	}
	for i, ln := range []Line{first, second} {
		if !strings.HasPrefix(top[i+1], fmt.Sprintf("%04x   %s", ln.Address, ln.Text)) || !slices.Contains(all, top[i+1]) {
			t.Errorf("line %d: %q, want the line of %s as SourceView prints it", i+1, top[i+1], ln.Text)
		}
	}
	rest := 100 * float64(total-first.Total()-second.Total()) / float64(total)
	if want := fmt.Sprintf("(%d more lines: %.1f %% of the samples)", reached-2, rest); top[3] != want {
		t.Errorf("last line %q, want %q", top[3], want)
	}
	if got := r.SourceViewTop(len(r.Lines)); got != r.SourceView() || r.SourceViewTop(-1) != all[0]+"\n"+fmt.Sprintf("(%d more lines: 100.0 %% of the samples)\n", reached) {
		t.Errorf("SourceViewTop of every line or none:\n%s", got)
	}
}

// TestDivergentLanes runs divergent (engine/sass/testdata/kernels.cu): odd
// lanes run a loop of 8 FFMAs, even lanes a square root, and the warp
// reconverges at the store. Each path issues once per warp with its half of
// the lanes, the store with all of them.
func TestDivergentLanes(t *testing.T) {
	l := listing(t, "kernels_sm_80.sass")
	spec := `kernel: divergent
launch: {block: 64, blocks: 1}
branches:
  0x00d0: {lanes: "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30"}  # @P0 BRA: even lanes skip the FFMA path
  0x01c0: {taken: true}  # @!P0 BRA: the square root's fast path
`
	r := runKernelFile(t, l, "divergent.yaml", spec)
	at := func(addr int) Line { return r.Lines[addr/16] }
	for _, c := range []struct {
		addr, issued, threads int
	}{
		{0x00f0, 2, 32}, // FFMA on the odd lanes: 2 warps × 16 lanes
		{0x0200, 2, 32}, // FMUL.FTZ on the even lanes
		{0x01e0, 0, 0},  // CALL of the slow path: not taken
		{0x0260, 2, 64}, // STG.E after reconvergence: every lane
	} {
		if got := at(c.addr); got.Issued != c.issued || got.Threads != c.threads {
			t.Errorf("%04x %s: issued %d with %d threads, want %d with %d", c.addr, got.Text, got.Issued, got.Threads, c.issued, c.threads)
		}
	}
}

// TestCallReturn follows the square root's slow path of divergent: CALL to
// a subroutine after the kernel's EXIT and RET back to the instruction
// after the CALL.
func TestCallReturn(t *testing.T) {
	l := listing(t, "kernels_sm_80.sass")
	spec := "kernel: divergent\nlaunch: {block: 32}\nbranches: {0x00d0: {taken: true}}\n"
	r := runKernelFile(t, l, "divergent.yaml", spec)
	var ret, after Line
	for _, ln := range r.Lines {
		if strings.HasPrefix(ln.Text, "RET") {
			ret = ln
		}
	}
	after = r.Lines[0x01f0/16] // BRA 0x240 after the CALL
	if ret.Issued != 1 || after.Issued != 1 || r.Lines[0x01e0/16].Issued != 1 {
		t.Errorf("CALL %d, RET %d (%s), the instruction after the CALL %d; want each once",
			r.Lines[0x01e0/16].Issued, ret.Issued, ret.Text, after.Issued)
	}
}

// TestPredicatedExit: a bounds check that half of each warp fails
// (@P0 EXIT with lanes) leaves the other half to run on.
func TestPredicatedExit(t *testing.T) {
	l := listing(t, "saxpy_sm_80.sass")
	r := runKernelFile(t, l, "saxpy.yaml", "launch: {block: 128}\nbranches: {0x0050: {lanes: \"16-31\"}}\n")
	// Four warps: the EXIT (at 0x50) with 32 lanes, the FFMA and the final
	// EXIT with the 16 that stayed.
	if x, f := r.Lines[5], r.Lines[12]; x.Issued != 4 || x.Threads != 128 || f.Issued != 4 || f.Threads != 64 {
		t.Errorf("@P0 EXIT issued %d/%d threads, FFMA %d/%d", x.Issued, x.Threads, f.Issued, f.Threads)
	}
}

// TestForeignKernels runs every kernel of engine/sass/testdata/kernels.cu
// (not written for the simulator) from its sm_80 and sm_90 SASS with a
// short kernel file, and checks each run's identities.
func TestForeignKernels(t *testing.T) {
	for _, file := range []string{"kernels_sm_80.sass", "kernels_sm_90.sass"} {
		l := listing(t, file)
		for _, f := range l.Functions {
			t.Run(f.Arch+"/"+f.Name, func(t *testing.T) {
				w := kernelOf(t, l, f.Name, 256, 432, 4, 8)
				r := run(t, w)
				if r.Instructions < 100 {
					t.Errorf("%d instructions", r.Instructions)
				}
			})
		}
	}
}

// TestKernelErrors: what a kernel file or a listing gets wrong is an error
// at its line and column that says what to write.
func TestKernelErrors(t *testing.T) {
	micro := listing(t, "micro_sm_80.sass")
	saxpy := listing(t, "saxpy_sm_80.sass")
	unknown, err := sass.Parse("odd.sass", synthetic("odd", []synthInst{
		{"MOV R1, R2", ctl(1, -1, -1, 0)}, {"FROB R1, R2", ctl(1, -1, -1, 0)}, {"EXIT", ctl(1, -1, -1, 0)}}))
	if err != nil {
		t.Fatal(err)
	}
	tma, err := sass.Parse("tma.sass", synthetic("tma", []synthInst{
		{"UTMALDG.2D [UR8], [UR4]", ctl(1, -1, -1, 0)}, {"EXIT", ctl(1, -1, -1, 0)}}))
	if err != nil {
		t.Fatal(err)
	}
	noRes, err := sass.Parse("nores.sass", synthetic("nores", []synthInst{{"EXIT", ctl(1, -1, -1, 0)}}))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		l    *sass.Listing
		spec string
		want string
	}{
		{"unknown opcode", unknown, "launch: {block: 32, regs: 8}", "odd.sass:6:36: unknown opcode FROB in \"FROB R1, R2\""},
		{"unmodelled", tma, "launch: {block: 32, regs: 8}", "tma.sass:4:36: UTMALDG.2D is a TMA load"},
		{"no trip count", micro, "kernel: ffma_chain\nlaunch: {block: 32}", "micro_sm_80.sass:1213:31: @!P0 BRA 0xa0 closes a loop at 0x00a0 (line 1143) that has no trip count: add loops: {0x00a0: N}"},
		{"no launch", saxpy, "gpu: ampere", "k.yaml:1:1: missing launch.block"},
		{"no regs", noRes, "launch: {block: 32}", "k.yaml:1:10: missing launch.regs: the listing has no resource usage for nores"},
		{"several functions", micro, "launch: {block: 32}", "k.yaml:1:1: micro_sm_80.sass: the listing has 9 functions"},
		{"no such function", micro, "kernel: nope\nlaunch: {block: 32}", "k.yaml:1:9: micro_sm_80.sass: no function \"nope\""},
		{"loop head", micro, "kernel: ffma_chain\nlaunch: {block: 32}\nloops: {0x00a0: 10, 0x00b0: 3}", "k.yaml:3:21: 0x00b0 names no reachable loop head"},
		{"bad key", saxpy, "launch: {block: 32}\nloops: {head: 3}", "k.yaml:2:9: loops: key \"head\" is not an instruction address"},
		{"zero trips", micro, "kernel: ffma_chain\nlaunch: {block: 32}\nloops: {0x00a0: 0}", "k.yaml:3:17: loops.0x00a0 (the trip count): 0, want at least 1"},
		{"branch of a loop", micro, "kernel: ffma_chain\nlaunch: {block: 32}\nloops: {0x00a0: 2}\nbranches: {0x02d0: {taken: true}}", "k.yaml:4:12: @!P0 BRA 0xa0 at 0x02d0 closes a loop"},
		{"no such branch", saxpy, "launch: {block: 32}\nbranches: {0x0060: {taken: true}}", "k.yaml:2:12: 0x0060 names no conditional branch"},
		{"level of shared", micro, "kernel: lds_chase\nlaunch: {block: 32}\nloops: {0x00a0: 1, 0x01b0: 2}\naccess: {0x01e0: {level: l2}}", "k.yaml:4:10: LDS is a shared-memory instruction"},
		{"arch", saxpy, "gpu: nope\nlaunch: {block: 32}", "k.yaml:1:6: unknown gpu preset \"nope\""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := ParseKernel("k.yaml", []byte(c.spec), c.l)
			if err == nil {
				_, err = Run(w)
			}
			if err == nil {
				t.Fatal("no error")
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %v is a %T, want *Error", err, err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %q\nwant prefix %q", err, c.want)
			}
		})
	}
}

// TestKernelDefaults: a kernel file with only a launch takes the preset
// from the listing's architecture and the registers and shared memory
// from its resource usage.
func TestKernelDefaults(t *testing.T) {
	l := listing(t, "micro_sm_80.sass")
	w, err := ParseKernel("k.yaml", []byte("kernel: lds_chase\nlaunch: {block: 128, blocks: 2, smem: 1024}\nloops: {0x00a0: 8, 0x01b0: 4}\n"), l)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := l.Function("lds_chase")
	if w.GPU != "ampere" || w.Launch.Regs != f.Resources.Regs || w.Launch.Smem != 4096+1024 {
		t.Errorf("gpu %q, launch %+v; want ampere, %d registers, 4096 + 1024 bytes", w.GPU, w.Launch, f.Resources.Regs)
	}
	if _, err := Run(w); err != nil {
		t.Fatal(err)
	}
}

// FuzzParseKernel: no kernel file makes ParseKernel or Run panic or run
// away, whatever it says about saxpy and lds_chase.
func FuzzParseKernel(f *testing.F) {
	saxpy := listing(f, "saxpy_sm_80.sass")
	micro := listing(f, "micro_sm_80.sass")
	f.Add("launch: {block: 256, blocks: 8}\nbranches: {0x0050: {lanes: \"0-7\"}}\n", false)
	f.Add("kernel: lds_chase\nlaunch: {block: 96}\nloops: {0x00a0: 3, 0x01b0: 2}\naccess: {default: {level: l2, stride: 4}}\n", true)
	f.Fuzz(func(t *testing.T, spec string, useMicro bool) {
		l := saxpy
		if useMicro {
			l = micro
		}
		w, err := ParseKernel("f.yaml", []byte(spec), l)
		if err != nil {
			return
		}
		for k, v := range w.Kernel.Loops {
			if v > 64 {
				w.Kernel.Loops[k] = 64
			}
		}
		w.Launch.Blocks = min(w.Launch.Blocks, 64)
		if r, err := (Config{MaxCycles: 200_000}).Run(w); err == nil {
			checkIdentities(t, "fuzz", r)
		}
	})
}

// TestSASSOpsSorted: lookupOp's binary search needs the opcode table in
// order, each opcode once, and no opcode both run and left out.
func TestSASSOpsSorted(t *testing.T) {
	for i := 1; i < len(sassOps); i++ {
		if sassOps[i-1].name >= sassOps[i].name {
			t.Errorf("sassOps: %s before %s", sassOps[i-1].name, sassOps[i].name)
		}
	}
	for _, u := range sassUnmodelled {
		if _, ok := lookupOp(u[0]); ok {
			t.Errorf("%s is both run and left out", u[0])
		}
	}
	if o, ok := lookupOp("LDG"); !ok || o.act != actGlobal || o.sb != sbLong {
		t.Errorf("LDG: %+v %v", o, ok)
	}
}

// TestKernelKeysOnce: two names for one instruction (two spellings of
// its address, or its address and its label) are an error, not a choice
// that depends on map order.
func TestKernelKeysOnce(t *testing.T) {
	w := kernelOf(t, listing(t, "micro_sm_80.sass"), "ffma_chain", 32, 1, 1, 4)
	w.Kernel.Loops = map[string]int{"0xa0": 4, "0x00a0": 5}
	_, err := Run(w)
	if err == nil || !strings.Contains(err.Error(), "0x00a0 and 0xa0 name the same instruction") {
		t.Errorf("error %v", err)
	}
}
