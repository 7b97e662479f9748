package cuda

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

const kernels = `#include <cuda_fp16.h>
__global__ void saxpy(int n, float a, const float* __restrict__ x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
// 32 x 33 floats: 4224 bytes.
__global__ void transpose(float* out, const float* in) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.x * 32 + threadIdx.y] = tile[threadIdx.x][threadIdx.y];
  int unused = 1;
}
`

// TestCompile compiles real kernels for two architectures. The figures
// checked come from outside the code under test: saxpy's 10 registers
// and LDG.E.CONSTANT on sm_80 are the record of this toolkit, the
// tile's 4224 bytes are 32 x 33 x 4.
func TestCompile(t *testing.T) {
	tk := needToolkit(t)
	ctx := context.Background()
	c := &Compiler{Toolkit: tk, CacheDir: t.TempDir()}
	job := Job{Source: kernels, Archs: []string{"sm_80", "sm_90a"}, File: "book/x.md", Line: 41}
	res, err := c.Compile(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	saxpy, ok := res.Kernel("saxpy", "sm_80")
	if !ok {
		t.Fatalf("no saxpy for sm_80 in %+v", res.Functions)
	}
	if saxpy.Resources.Registers != 10 || !strings.Contains(saxpy.SASS, "LDG.E.CONSTANT") || saxpy.Demangled != "saxpy(int, float, float const*, float*)" {
		t.Errorf("saxpy sm_80: %+v", saxpy)
	}
	for _, arch := range job.Archs {
		tr, ok := res.Kernel("transpose(float*, float const*)", arch)
		if !ok || tr.Resources.SharedMem != 4224 || !strings.HasPrefix(tr.SASS, "\t\tFunction : _Z9transposePfPKf\n") || !strings.Contains(tr.SASS, "BAR.SYNC") {
			t.Errorf("transpose %s: %+v", arch, tr)
		}
	}
	if len(res.Functions) != 4 || res.Toolkit != tk.Version {
		t.Errorf("%d functions, toolkit %s", len(res.Functions), res.Toolkit)
	}
	// The warning both architectures give, once, at its page line and column.
	if len(res.Warnings) != 1 || res.Warnings[0].String() != `book/x.md:52:7: warning: variable "unused" was declared but never referenced` {
		t.Errorf("warnings %v", res.Warnings)
	}

	// A second compile is served from the cache: with an nvcc that does not
	// exist, the same result.
	broken := *tk
	broken.NVCC, broken.Cuobjdump = "/nonexistent/nvcc", "/nonexistent/cuobjdump"
	again, err := (&Compiler{Toolkit: &broken, CacheDir: c.CacheDir}).Compile(ctx, job)
	if err != nil || !reflect.DeepEqual(again, res) {
		t.Errorf("from the cache: %v\n%+v\nwant\n%+v", err, again, res)
	}
}

// TestCompileFlags: -maxrregcount caps registers and makes ptxas spill;
// setmaxnreg compiles for sm_90a to USETMAXREG (the record).
func TestCompileFlags(t *testing.T) {
	tk := needToolkit(t)
	c := &Compiler{Toolkit: tk}
	spill := `__global__ void spill(float* out, const float* in) {
  float acc[64];
#pragma unroll
  for (int i = 0; i < 64; i++) acc[i] = in[threadIdx.x + i * 32];
#pragma unroll
  for (int j = 0; j < 8; j++)
#pragma unroll
    for (int i = 0; i < 64; i++) acc[i] = acc[i] * acc[(i + j) % 64] + 1.0f;
  float s = 0;
#pragma unroll
  for (int i = 0; i < 64; i++) s += acc[i];
  out[threadIdx.x] = s;
}
__global__ void grow() { asm volatile("setmaxnreg.inc.sync.aligned.u32 240;"); }
`
	res, err := c.Compile(context.Background(), Job{Source: spill, Archs: []string{"sm_90a"}, Flags: []string{"-maxrregcount=32"}})
	if err != nil {
		t.Fatal(err)
	}
	k, _ := res.Kernel("spill", "sm_90a")
	if r := k.Resources; r.Registers > 32 || r.SpillStores == 0 || r.SpillLoads == 0 || !strings.Contains(k.SASS, "STL") {
		t.Errorf("spill under -maxrregcount=32: %+v", r)
	}
	if g, _ := res.Kernel("grow", "sm_90a"); !strings.Contains(g.SASS, "USETMAXREG") {
		t.Errorf("grow: no USETMAXREG in\n%s", g.SASS)
	}
}

// TestCompileErrors: a compile error is an *Error positioned at the page's
// line, with the architecture, and no host path in any message.
func TestCompileErrors(t *testing.T) {
	tk := needToolkit(t)
	c := &Compiler{Toolkit: tk, CacheDir: t.TempDir()}
	for _, tc := range []struct {
		name, src string
		kind      Kind
		want      string
	}{
		{"undefined", "__global__ void k(float* o) {\n  o[0] = undefined_x;\n}\n", Failed, `book/x.md:11:10: error: sm_80: identifier "undefined_x" is undefined`},
		{"ptxas", "__global__ void k() { asm(\"bogus.instr;\"); }\n", Failed, "book/x.md:10: error: sm_80: ptxas: PTX line"},
		{"arch", "__global__ void k() {}\n", Refused, "book/x.md:10: error: architecture \"sm_100\" is not one CUDA 12.4 compiles for"},
		{"flag", "__global__ void k() {}\n", Refused, "book/x.md:10: error: flag \"-I/etc\" is not allowed"},
	} {
		job := Job{Source: tc.src, Archs: []string{"sm_80"}, File: "book/x.md", Line: 10}
		switch tc.name {
		case "arch":
			job.Archs = []string{"sm_100"}
		case "flag":
			job.Flags = []string{"-I/etc"}
		}
		_, err := c.Compile(context.Background(), job)
		var e *Error
		if !errors.As(err, &e) || e.Kind != tc.kind || !strings.HasPrefix(e.Messages[0].String(), tc.want) {
			t.Errorf("%s: %v; want %s %s", tc.name, err, tc.kind, tc.want)
			continue
		}
		noHostPath(t, tk, err.Error())
	}
}

// noHostPath fails when s holds a directory of this machine.
func noHostPath(t *testing.T, tk *Toolkit, s string) {
	t.Helper()
	home, _ := os.UserHomeDir()
	for _, p := range []string{os.TempDir(), tk.Root, tk.IncludeDir, home, "/etc/", "/proc/", "/dev/"} {
		if p != "" && p != "/" && strings.Contains(s, p) {
			t.Errorf("a message shows %s: %s", p, s)
		}
	}
}
