package cuda_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/sass"
	"github.com/warpbook/warpbook/snippets/cuda"
)

var updateListings = flag.Bool("update-listings", false, "rewrite engine/sass/testdata's listings with the CUDA toolkit Find finds")

// listingsDir holds the compiler's listings the engine's tests read
// (engine/sass, engine/sim, tools/warpbook): the sources, and what the
// toolkit printed for them.
const listingsDir = "../../engine/sass/testdata"

// compiledListing is one committed compiler output: a source of
// listingsDir compiled for an architecture and listed by a tool.
type compiledListing struct {
	src, arch string
	tool      sass.Format
	plain     bool // cuobjdump -sass alone, without -res-usage
}

func (c compiledListing) file() string {
	ext := ".sass"
	if c.tool == sass.Nvdisasm {
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
		out = append(out, compiledListing{"micro.cu", a, sass.Cuobjdump, false})
	}
	for _, a := range []string{"sm_80", "sm_90"} {
		out = append(out, compiledListing{"kernels.cu", a, sass.Cuobjdump, false})
	}
	return append(out, compiledListing{"saxpy.cu", "sm_80", sass.Cuobjdump, false}, compiledListing{"saxpy.cu", "sm_80", sass.Nvdisasm, false},
		compiledListing{"stencil.cu", "sm_80", sass.Cuobjdump, true})
}()

// toolkit returns the CUDA toolkit snippets/cuda finds (WARPBOOK_CUDA, a
// recent nvcc on PATH, or the fetched copy) and the path of one of its
// tools (cuobjdump, nvdisasm: beside cuobjdump, else on PATH), or skips
// the test.
func toolkit(t *testing.T) (*cuda.Toolkit, func(string) string) {
	t.Helper()
	tk, err := cuda.Find(context.Background())
	if errors.Is(err, cuda.ErrNoToolkit) {
		t.Skipf("no CUDA toolkit, so the listings are not compared with the compiler's output: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tk, func(name string) string {
		if p := filepath.Join(filepath.Dir(tk.Cuobjdump), name); fileExists(p) {
			return p
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
		t.Skipf("no %s beside %s or on PATH", name, tk.Cuobjdump)
		return ""
	}
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// TestListingsFromToolkit compiles the sources of engine/sass/testdata
// with the CUDA toolkit and compares the listings with the committed ones
// (-update-listings rewrites them). Without a toolkit, and with -short, it
// skips: every other test reads the committed listings.
func TestListingsFromToolkit(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles 12 listings; skipped with -short")
	}
	tk, tool := toolkit(t)
	dir := t.TempDir()
	compiled := map[string]bool{} // the cubins built so far: a source and architecture listed by two tools is compiled once
	for _, c := range listings {
		t.Run(c.file(), func(t *testing.T) {
			cubin := filepath.Join(dir, strings.TrimSuffix(c.src, ".cu")+"_"+c.arch+".cubin")
			if !compiled[cubin] {
				src := filepath.Join(listingsDir, c.src)
				// nvcc reads the source, not this process: reading it here
				// too puts it among the files go test's cache checks, so
				// that an edited source is not answered from the cache.
				if _, err := os.ReadFile(src); err != nil {
					t.Fatal(err)
				}
				args := []string{"-ccbin", tk.HostCompiler, "-cubin", "-arch=" + c.arch, "-o", cubin, src}
				if out, err := exec.Command(tk.NVCC, args...).CombinedOutput(); err != nil {
					t.Fatalf("nvcc %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				compiled[cubin] = true
			}
			var cmd *exec.Cmd
			switch {
			case c.tool == sass.Nvdisasm:
				cmd = exec.Command(tool("nvdisasm"), "-hex", cubin)
			case c.plain:
				cmd = exec.Command(tk.Cuobjdump, "-sass", cubin)
			default:
				cmd = exec.Command(tk.Cuobjdump, "-sass", "-res-usage", cubin)
			}
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v", cmd, err)
			}
			// The cubin's temporary path is the only thing that differs
			// between runs.
			got = bytes.ReplaceAll(got, []byte(cubin), []byte(filepath.Base(cubin)))
			file := filepath.Join(listingsDir, c.file())
			if *updateListings {
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
				t.Errorf("%s differs from what the toolkit prints now; run go test ./snippets/cuda -run TestListingsFromToolkit -update-listings and review the diff", file)
			}
		})
	}
}
