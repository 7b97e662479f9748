package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// buildLog is a real nvcc build's output (testdata/ptxas/gen.sh): six
// kernels for sm_75, sm_80, sm_86 and sm_90a, and one more built with
// -maxrregcount=32.
const buildLog = "testdata/ptxas/build.log"

// logKernels are the figures of every kernel in buildLog, copied by hand
// from ptxas's lines there: the compiler's output is the reference.
var logKernels = []struct {
	name, demangled, arch  string
	regs, smem, spillStore int
}{
	{"_Z5ilp64PfPKfi", "ilp64(float*, float const*, int)", "sm_75", 71, 0, 0},
	{"scale_dynamic", "scale_dynamic", "sm_75", 10, 0, 0},
	{"_Z6reduceILi1024EEvPfPKf", "void reduce<1024>(float*, float const*)", "sm_75", 12, 4096, 0},
	{"_Z6reduceILi256EEvPfPKf", "void reduce<256>(float*, float const*)", "sm_75", 12, 1024, 0},
	{"_Z9transposePfPKfi", "transpose(float*, float const*, int)", "sm_75", 14, 4224, 0},
	{"_Z5saxpyifPKfPf", "saxpy(int, float, float const*, float*)", "sm_75", 10, 0, 0},
	{"_Z5ilp64PfPKfi", "ilp64(float*, float const*, int)", "sm_80", 71, 0, 0},
	{"scale_dynamic", "scale_dynamic", "sm_80", 9, 0, 0},
	{"_Z6reduceILi1024EEvPfPKf", "void reduce<1024>(float*, float const*)", "sm_80", 12, 4096, 0},
	{"_Z6reduceILi256EEvPfPKf", "void reduce<256>(float*, float const*)", "sm_80", 12, 1024, 0},
	{"_Z9transposePfPKfi", "transpose(float*, float const*, int)", "sm_80", 14, 4224, 0},
	{"_Z5saxpyifPKfPf", "saxpy(int, float, float const*, float*)", "sm_80", 10, 0, 0},
	{"_Z5ilp64PfPKfi", "ilp64(float*, float const*, int)", "sm_86", 69, 0, 0},
	{"scale_dynamic", "scale_dynamic", "sm_86", 10, 0, 0},
	{"_Z6reduceILi1024EEvPfPKf", "void reduce<1024>(float*, float const*)", "sm_86", 12, 4096, 0},
	{"_Z6reduceILi256EEvPfPKf", "void reduce<256>(float*, float const*)", "sm_86", 12, 1024, 0},
	{"_Z9transposePfPKfi", "transpose(float*, float const*, int)", "sm_86", 14, 4224, 0},
	{"_Z5saxpyifPKfPf", "saxpy(int, float, float const*, float*)", "sm_86", 10, 0, 0},
	{"_Z5ilp64PfPKfi", "ilp64(float*, float const*, int)", "sm_90a", 70, 0, 0},
	{"scale_dynamic", "scale_dynamic", "sm_90a", 10, 0, 0},
	{"_Z6reduceILi1024EEvPfPKf", "void reduce<1024>(float*, float const*)", "sm_90a", 12, 4096, 0},
	{"_Z6reduceILi256EEvPfPKf", "void reduce<256>(float*, float const*)", "sm_90a", 12, 1024, 0},
	{"_Z9transposePfPKfi", "transpose(float*, float const*, int)", "sm_90a", 14, 4224, 0},
	{"_Z5saxpyifPKfPf", "saxpy(int, float, float const*, float*)", "sm_90a", 10, 0, 0},
	{"_Z5spillPfPKf", "spill(float*, float const*)", "sm_75", 32, 0, 1988},
	{"_Z5spillPfPKf", "spill(float*, float const*)", "sm_80", 32, 0, 1988},
	{"_Z5spillPfPKf", "spill(float*, float const*)", "sm_86", 32, 0, 1988},
	{"_Z5spillPfPKf", "spill(float*, float const*)", "sm_90a", 32, 0, 1988},
}

// TestOccupancyPtxas is the check: for every kernel of a real
// multi-kernel nvcc log, "warpbook occupancy --ptxas" prints what
// occupancy.Compute gives for ptxas's registers and shared memory on the
// GPU of the kernel's architecture, in JSON and in text.
func TestOccupancyPtxas(t *testing.T) {
	for _, threads := range []int{96, 256, 1024} {
		t.Run(fmt.Sprint(threads), func(t *testing.T) {
			args := []string{"occupancy", "--ptxas", buildLog, "--threads", fmt.Sprint(threads), "--dyn-smem", "2K"}
			code, out, stderr := runCmd(t, "", append(args, "--json")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got struct {
				Kernels []struct {
					Name, Demangled, Arch, GPU string
					Resources                  struct {
						Registers   int `json:"registers"`
						SharedMem   int `json:"shared_mem"`
						SpillStores int `json:"spill_stores"`
					} `json:"resources"`
					Result struct {
						ActiveBlocks int     `json:"active_blocks"`
						ActiveWarps  int     `json:"active_warps"`
						Occupancy    float64 `json:"occupancy"`
						Limiters     []string
					} `json:"result"`
				}
			}
			noErr(t, json.Unmarshal([]byte(out), &got))
			if len(got.Kernels) != len(logKernels) {
				t.Fatalf("%d kernels printed, the log has %d", len(got.Kernels), len(logKernels))
			}
			_, text, _ := runCmd(t, "", args...)
			for i, want := range logKernels {
				g := got.Kernels[i]
				if g.Name != want.name || g.Demangled != want.demangled || g.Arch != want.arch ||
					g.Resources.Registers != want.regs || g.Resources.SharedMem != want.smem || g.Resources.SpillStores != want.spillStore {
					t.Errorf("kernel %d: got %s %q %s regs %d smem %d spills %d, the log says %s %q %s %d %d %d", i,
						g.Name, g.Demangled, g.Arch, g.Resources.Registers, g.Resources.SharedMem, g.Resources.SpillStores,
						want.name, want.demangled, want.arch, want.regs, want.smem, want.spillStore)
					continue
				}
				cc, err := gpu.ParseCC(strings.TrimSuffix(want.arch, "a"))
				noErr(t, err)
				d, err := gpu.ForCapability(cc)
				noErr(t, err)
				r, err := occupancy.Compute(d, occupancy.Kernel{BlockSize: threads, Registers: want.regs, StaticSharedMem: want.smem, DynamicSharedMem: 2048, Barriers: 1})
				noErr(t, err)
				if g.GPU != d.Name || g.Result.ActiveBlocks != r.ActiveBlocks || g.Result.ActiveWarps != r.ActiveWarps || g.Result.Occupancy != r.Occupancy ||
					strings.Join(g.Result.Limiters, "|") != r.Limiters.String() {
					t.Errorf("%s %s: printed %s %+v, occupancy.Compute gives %s %+v", want.demangled, want.arch, g.GPU, g.Result, d.Name, r)
				}
				row := fmt.Sprintf("%s %s %d %d %d %d/%d %.2f %%", want.arch, d.Name, want.regs, want.smem, r.ActiveBlocks, r.ActiveWarps, r.MaxWarps, 100*r.Occupancy)
				if !containsFields(text, want.demangled, row) {
					t.Errorf("the text output has no line for %s with %q:\n%s", want.demangled, row, text)
				}
			}
		})
	}
}

// containsFields reports whether a line of text starts with name and
// then holds the words of want in order, others between them allowed
// (tabwriter pads with spaces).
func containsFields(text, name, want string) bool {
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, name+" ")
		if !ok {
			continue
		}
		w := strings.Fields(want)
		for _, f := range strings.Fields(rest) {
			if len(w) > 0 && f == w[0] {
				w = w[1:]
			}
		}
		if len(w) == 0 {
			return true
		}
	}
	return false
}

// TestOccupancyPtxasGPU: with --gpu, each kernel runs from the SASS the
// GPU would load: an RTX 4090 (8.9) loads sm_86, an H100 sm_90a, and a
// V100 nothing of this build.
func TestOccupancyPtxasGPU(t *testing.T) {
	for _, c := range []struct{ gpu, arch string }{{"RTX 4090", "sm_86"}, {"H100", "sm_90a"}, {"A100", "sm_80"}, {"T4", "sm_75"}} {
		code, out, stderr := runCmd(t, "", "occupancy", "--ptxas", buildLog, "--threads", "128", "--gpu", c.gpu, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.gpu, code, stderr)
		}
		var got struct{ Kernels []struct{ Arch string } }
		noErr(t, json.Unmarshal([]byte(out), &got))
		if len(got.Kernels) != 7 {
			t.Errorf("%s: %d kernels, want the log's 7", c.gpu, len(got.Kernels))
		}
		for _, k := range got.Kernels {
			if k.Arch != c.arch {
				t.Errorf("%s runs the %s SASS, want %s", c.gpu, k.Arch, c.arch)
			}
		}
	}
	code, _, stderr := runCmd(t, "", "occupancy", "--ptxas", buildLog, "--threads", "128", "--gpu", "V100")
	if code != 1 || !strings.Contains(stderr, "no SASS a 7.0 GPU loads (built for sm_75, sm_80, sm_86, sm_90a)") {
		t.Errorf("V100: exit %d, %q", code, stderr)
	}
}

// TestOccupancyPtxasBadInput: what is wrong is said with its line, and
// input is bounded.
func TestOccupancyPtxasBadInput(t *testing.T) {
	log, err := os.ReadFile(buildLog)
	noErr(t, err)
	broken := strings.Replace(string(log), "Used 14 registers, 4224 bytes smem, 372 bytes cmem[0]", "Used 14 registers, 4224 bytes of smem", 1)
	lineOf := strings.Count(broken[:strings.Index(broken, "bytes of smem")], "\n") + 1
	for _, c := range []struct {
		name, stdin string
		args        []string
		code        int
		want        string
	}{
		{"unknown item", broken, nil, 1, fmt.Sprintf("stdin:%d: unknown item \"4224 bytes of smem\"", lineOf)},
		{"no frame line", "ptxas info    : Compiling entry function 'k' for 'sm_80'\nptxas info    : Function properties for k\nnot a frame\n", nil, 1, "stdin:3: want ptxas's stack frame line"},
		{"used before a name", "ptxas info    : Used 3 registers\n", nil, 1, "stdin:1: ptxas reports resources"},
		{"no ptxas lines", "make: nothing to be done\n", nil, 1, "holds no ptxas resource report"},
		{"long line", strings.Repeat("x", 70<<10), nil, 1, "stdin:1: a line longer than"},
		{"huge", strings.Repeat("ptxas info    : 0 bytes gmem\n", (64<<20)/28+1), nil, 1, "larger than 64 MiB"},
		{"regs", string(log), []string{"--regs", "3"}, 2, "drop --regs"},
		{"batch", string(log), []string{"--batch"}, 2, "--batch does not go with --ptxas"},
		{"no threads", string(log), []string{"--threads", "0"}, 2, "--threads must be a positive block size"},
	} {
		args := append([]string{"occupancy", "--ptxas", "-", "--threads", "256"}, c.args...)
		code, out, stderr := runCmd(t, c.stdin, args...)
		if code != c.code || !strings.Contains(stderr, c.want) || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", c.name, code, clipOut(out), stderr, c.code, c.want)
		}
	}
}

func clipOut(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
