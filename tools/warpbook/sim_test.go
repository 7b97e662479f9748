package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/internal/booktest"
)

// simExample is the workload file of issue 5, exactly as written there.
const simExample = "../../engine/sim/testdata/example.yaml"

// TestSimExampleJSON is the issue's acceptance check: "warpbook sim
// example.yaml --json" runs the example and prints every metric the issue
// names under its Nsight Compute name.
func TestSimExampleJSON(t *testing.T) {
	code, out, errs := runCmd(t, "", "sim", simExample, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		GPU     string             `json:"gpu"`
		Policy  string             `json:"policy"`
		Metrics map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if got.GPU != "toy" || got.Policy != "gto" {
		t.Errorf("gpu %q policy %q, want toy and gto", got.GPU, got.Policy)
	}
	want := []string{
		"sm__cycles_elapsed.avg", "smsp__inst_executed.sum",
		"smsp__issue_active.avg.pct_of_peak_sustained_active", "smsp__issue_inst0.avg.pct_of_peak_sustained_active",
		"smsp__warps_active.avg.per_cycle_active", "smsp__warps_eligible.avg.per_cycle_active",
		"smsp__average_warp_latency_per_inst_issued.ratio", "sm__warps_active.avg.pct_of_peak_sustained_active",
		"smsp__thread_inst_executed_per_inst_executed.ratio",
	}
	for _, r := range []string{"selected", "not_selected", "wait", "short_scoreboard", "long_scoreboard", "barrier",
		"membar", "math_pipe_throttle", "mio_throttle", "lg_throttle", "no_instruction", "branch_resolving", "drain", "sleeping"} {
		want = append(want, "smsp__average_warps_issue_stalled_"+r+"_per_issue_active.ratio")
	}
	for _, m := range want {
		if _, ok := got.Metrics[m]; !ok {
			t.Errorf("metric %s missing from --json output", m)
		}
	}
	if got.Metrics["smsp__inst_executed.sum"] != 1604 {
		t.Errorf("smsp__inst_executed.sum = %v, want 1604 (4 warps × 401)", got.Metrics["smsp__inst_executed.sum"])
	}
	// Same input, same bytes out.
	_, again, _ := runCmd(t, "", "sim", "--json", simExample)
	if again != out {
		t.Errorf("a second run (flags before the file) printed different bytes")
	}
}

// testListings is where the compiler's listings the engine tests read are
// committed.
const testListings = "../../engine/sass/testdata/"

// writeKernelFile writes a kernel file into a temporary directory.
func writeKernelFile(t *testing.T, spec string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "k.yaml")
	writeFileT(t, p, spec)
	return p
}

// TestSimForeignKernel is issue 31's acceptance check: a kernel the book
// does not contain (stencil.cu), compiled by nvcc -cubin -arch=sm_80 and
// listed with cuobjdump -sass, runs with a short kernel file, and a file
// that leaves out what the listing cannot give gets an error naming it.
func TestSimForeignKernel(t *testing.T) {
	listing := testListings + "stencil_sm_80.sass"
	// Foreign means the book holds neither its source nor its SASS. That
	// reads every file of the book, so it is checked with the whole-book
	// tests (booktest), and a chapter's edit does not run this package's
	// tests again.
	if booktest.Enabled() {
		err := filepath.WalkDir("../../book", func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err == nil && strings.Contains(string(b), "stencil1d") {
				t.Errorf("%s holds the stencil kernel: the acceptance check needs a kernel the book does not contain", p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	short := writeKernelFile(t, "launch: {block: 256, blocks: 4096}\n")
	code, _, errs := runCmd(t, "", "sim", listing, short)
	if code != 1 || !strings.Contains(errs, "k.yaml:1:10: missing launch.regs: the listing has no resource usage for _Z9stencil1dPKfPfi") {
		t.Errorf("exit %d, stderr %q; want the missing registers named at k.yaml:1:10", code, errs)
	}
	// ptxas -v says "Used 12 registers, 1048 bytes smem" for the kernel.
	ok := writeKernelFile(t, "launch: {block: 256, blocks: 4096, regs: 12, smem: 1048}\n")
	code, out, errs := runCmd(t, "", "sim", listing, ok)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"on ampere (policy gty)", "Section: Source Counters", "STS [R9.X4], R6 waits on SB2 set by @P1 LDG.E R6, [R2.64+-0xc] 2 lines above"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestSimKernelJSON: --json keeps Nsight Compute's names per instruction,
// the listing may come from standard input, and the per-line samples add
// up to the run's.
func TestSimKernelJSON(t *testing.T) {
	src, err := os.ReadFile(testListings + "saxpy_sm_80.sass")
	noErr(t, err)
	spec := writeKernelFile(t, "launch: {block: 256, blocks: 864}\n")
	code, out, errs := runCmd(t, string(src), "sim", "--json", "-", spec)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Metrics map[string]float64 `json:"metrics"`
		Lines   []struct {
			Address string         `json:"address"`
			Text    string         `json:"sass"`
			Metrics map[string]int `json:"metrics"`
			Causes  []struct {
				Address string `json:"address"`
				Reason  string `json:"reason"`
				SB      *int   `json:"sb"`
				Samples int    `json:"samples"`
			} `json:"causes"`
		} `json:"lines"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if len(got.Lines) < 16 {
		t.Fatalf("%d lines", len(got.Lines))
	}
	var inst, long int
	for _, l := range got.Lines {
		inst += l.Metrics["inst_executed"]
		long += l.Metrics["smsp__pcsamp_warps_issue_stalled_long_scoreboard"]
	}
	if float64(inst) != got.Metrics["smsp__inst_executed.sum"] {
		t.Errorf("lines executed %d instructions, the run %v", inst, got.Metrics["smsp__inst_executed.sum"])
	}
	ffma := got.Lines[12]
	if ffma.Address != "0x00c0" || !strings.HasPrefix(ffma.Text, "FFMA") || len(ffma.Causes) == 0 ||
		ffma.Causes[0].Reason != "long_scoreboard" || ffma.Causes[0].SB == nil || *ffma.Causes[0].SB != 2 || ffma.Causes[0].Address != "0x00b0" {
		t.Errorf("line 12: %+v", ffma)
	}
	if long == 0 || ffma.Metrics["smsp__pcsamp_warps_issue_stalled_long_scoreboard"] < long/2 {
		t.Errorf("the FFMA holds %d of %d long_scoreboard samples", ffma.Metrics["smsp__pcsamp_warps_issue_stalled_long_scoreboard"], long)
	}
}

// TestSimArguments: sim takes one workload file or a listing and a kernel
// file, and says so otherwise.
func TestSimArguments(t *testing.T) {
	code, _, errs := runCmd(t, "", "sim", "a", "b", "c")
	if code != 2 || !strings.Contains(errs, "want a workload file, or a SASS listing and a kernel file; not 3 arguments") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	code, _, errs = runCmd(t, "", "sim", testListings+"micro.cu", writeKernelFile(t, "launch: {block: 32}\n"))
	if code != 1 || !strings.Contains(errs, "micro.cu: no functions found; want the output of cuobjdump -sass or nvdisasm -hex") {
		t.Errorf("a CUDA source as the listing: exit %d, stderr %q", code, errs)
	}
}
