package sass

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata listings with the CUDA toolkit (WARPBOOK_CUDA names nvcc)")

// compiledListing is one committed compiler output: a source of testdata
// compiled for an architecture and listed by a tool.
type compiledListing struct {
	src, arch string
	tool      Format
	plain     bool // cuobjdump -sass alone, without -res-usage
}

func (c compiledListing) file() string {
	ext := ".sass"
	if c.tool == Nvdisasm {
		ext = ".nvdisasm"
	}
	return strings.TrimSuffix(c.src, ".cu") + "_" + c.arch + ext
}

// listings are the compiler outputs the engine's tests read. The
// microbenchmarks are compiled for every architecture from sm_70 to
// sm_90a, the foreign kernels for sm_80 and sm_90.
var listings = func() []compiledListing {
	var out []compiledListing
	for _, a := range []string{"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"} {
		out = append(out, compiledListing{"micro.cu", a, Cuobjdump, false})
	}
	for _, a := range []string{"sm_80", "sm_90"} {
		out = append(out, compiledListing{"kernels.cu", a, Cuobjdump, false})
	}
	return append(out, compiledListing{"saxpy.cu", "sm_80", Cuobjdump, false}, compiledListing{"saxpy.cu", "sm_80", Nvdisasm, false},
		compiledListing{"stencil.cu", "sm_80", Cuobjdump, true})
}()

// toolkit returns nvcc and the directory of cuobjdump and nvdisasm, or
// skips the test. WARPBOOK_CUDA names nvcc (a file) or a toolkit directory
// with bin/nvcc; else nvcc is looked up in PATH. The listing tools are
// taken from nvcc's directory, else from PATH. WARPBOOK_CUDA_CCBIN, when
// set, is passed as -ccbin (Debian's toolkit wants g++-12).
func toolkit(t *testing.T) (nvcc string, tool func(string) string) {
	t.Helper()
	nvcc = os.Getenv("WARPBOOK_CUDA")
	if fi, err := os.Stat(nvcc); err == nil && fi.IsDir() {
		nvcc = filepath.Join(nvcc, "bin", "nvcc")
	}
	if nvcc == "" {
		p, err := exec.LookPath("nvcc")
		if err != nil {
			t.Skip("no CUDA toolkit: set WARPBOOK_CUDA to nvcc to compare the listings with the compiler's output")
		}
		nvcc = p
	}
	tool = func(name string) string {
		if p := filepath.Join(filepath.Dir(nvcc), name); fileExists(p) {
			return p
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
		t.Skipf("no %s next to %s or in PATH", name, nvcc)
		return ""
	}
	return nvcc, tool
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// TestListingsFromToolkit compiles the testdata sources with the CUDA
// toolkit and compares the listings with the committed ones (-update
// rewrites them). Without a toolkit it skips: every other test reads the
// committed listings.
func TestListingsFromToolkit(t *testing.T) {
	nvcc, tool := toolkit(t)
	dir := t.TempDir()
	for _, c := range listings {
		t.Run(c.file(), func(t *testing.T) {
			cubin := filepath.Join(dir, strings.TrimSuffix(c.src, ".cu")+"_"+c.arch+".cubin")
			args := []string{"-cubin", "-arch=" + c.arch, "-o", cubin, filepath.Join("testdata", c.src)}
			if cc := os.Getenv("WARPBOOK_CUDA_CCBIN"); cc != "" {
				args = append([]string{"-ccbin", cc}, args...)
			}
			if out, err := exec.Command(nvcc, args...).CombinedOutput(); err != nil {
				t.Fatalf("nvcc %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			var cmd *exec.Cmd
			switch {
			case c.tool == Nvdisasm:
				cmd = exec.Command(tool("nvdisasm"), "-hex", cubin)
			case c.plain:
				cmd = exec.Command(tool("cuobjdump"), "-sass", cubin)
			default:
				cmd = exec.Command(tool("cuobjdump"), "-sass", "-res-usage", cubin)
			}
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", cmd, err)
			}
			// The cubin's temporary path is the only thing that differs
			// between runs.
			got = bytes.ReplaceAll(got, []byte(cubin), []byte(filepath.Base(cubin)))
			file := filepath.Join("testdata", c.file())
			if *update {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from what the toolkit prints now; run go test ./engine/sass -run TestListingsFromToolkit -update and review the diff", file)
			}
		})
	}
}
