package cuda

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var found struct {
	sync.Once
	tk  *Toolkit
	err error
}

// needToolkit returns the toolkit Find finds, or skips the test when there
// is none; with WARPBOOK_CUDA_REQUIRE set (CI) it fails instead. go test
// -short skips it: it runs the CUDA compiler.
func needToolkit(t *testing.T) *Toolkit {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the CUDA compiler; skipped with -short")
	}
	found.Do(func() { found.tk, found.err = Find(context.Background()) })
	if found.err != nil {
		if os.Getenv("WARPBOOK_CUDA_REQUIRE") != "" {
			t.Fatalf("WARPBOOK_CUDA_REQUIRE is set and there is no toolkit: %v", found.err)
		}
		t.Skipf("no CUDA toolkit (run %s from the repository's root): %v", FetchCommand, found.err)
	}
	return found.tk
}

// TestFindNone: with no toolkit anywhere, Find says how to get one.
func TestFindNone(t *testing.T) {
	t.Setenv("WARPBOOK_CUDA", "")
	t.Setenv("PATH", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	_, err := Find(context.Background())
	if !errors.Is(err, ErrNoToolkit) || !strings.Contains(err.Error(), "run "+FetchCommand) || !strings.Contains(err.Error(), "WARPBOOK_CUDA") {
		t.Errorf("%v", err)
	}
}

// TestFindOldNVCC: an nvcc on PATH older than 12.4 is passed over, and
// the message says so.
func TestFindOldNVCC(t *testing.T) {
	bin := t.TempDir()
	script := "#!/bin/sh\necho 'Cuda compilation tools, release 11.8, V11.8.89'\n"
	if err := os.WriteFile(filepath.Join(bin, "nvcc"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WARPBOOK_CUDA", "")
	t.Setenv("PATH", bin)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	_, err := Find(context.Background())
	if !errors.Is(err, ErrNoToolkit) || !strings.Contains(err.Error(), "is release 11.8.89, older than 12.4") {
		t.Errorf("%v", err)
	}
}

// TestFindWarpbookCUDA: WARPBOOK_CUDA that names nothing usable is an
// error naming it, not a fall-back to another toolkit.
func TestFindWarpbookCUDA(t *testing.T) {
	empty := t.TempDir()
	for v, want := range map[string]string{
		filepath.Join(empty, "missing"): "no such file",
		empty:                           "no bin/nvcc",
	} {
		t.Setenv("WARPBOOK_CUDA", v)
		if _, err := Find(context.Background()); err == nil || !strings.Contains(err.Error(), "WARPBOOK_CUDA="+v) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", v, err)
		}
	}
}

// TestToolkitMacros audits the toolkit's headers for what their macros
// let a page do that the source check cannot see (see scan.go): no macro
// pastes onto the start of a refused identifier a token that could come
// from a page, and every _Pragma is a literal or a fixed pragma word. A
// new toolkit that fails it needs the check reviewed before it is used.
func TestToolkitMacros(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every header of the toolkit")
	}
	tk := needToolkit(t)
	// The pastes that start with a prefix of a refused identifier, and why
	// each is harmless: storage_class.h's __storage##_##sc and
	// host_defines.h's Windows-only __##a##__ make storage-class and
	// attribute names; __config's __check_builtin(__x) makes the operand
	// of __has_builtin and __has_keyword, never followed by a page's (.
	audited := map[string]int{"crt/storage_class.h": 1, "crt/host_defines.h": 1, "cuda/std/detail/libcxx/include/__config": 2}
	pragma := map[string]bool{}
	err := filepath.WalkDir(tk.IncludeDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(tk.IncludeDir, p)
		s := &scanner{src: b}
		s.splice()
		text := string(s.text)
		pastes := 0
		for _, line := range strings.Split(text, "\n") {
			for i := strings.Index(line, "##"); i >= 0; i = nextAt(line, "##", i) {
				left := strings.TrimSpace(line[:i])
				j := len(left)
				for j > 0 && isIdentChar(left[j-1]) {
					j--
				}
				word := left[j:]
				for _, r := range refusedWords {
					if word != "" && len(word) < len(r) && strings.HasPrefix(r, word) {
						pastes++
						break
					}
				}
			}
			for i := strings.Index(line, "_Pragma("); i >= 0; i = nextAt(line, "_Pragma(", i) {
				arg := strings.TrimSpace(line[i+len("_Pragma("):])
				if strings.HasPrefix(arg, "\"") {
					continue
				}
				// _Pragma(_X_TOSTRING(word ...)): the word is fixed.
				_, rest, ok := strings.Cut(arg, "TOSTRING(")
				word := strings.Fields(rest + " ")
				if !ok || len(word) == 0 {
					t.Errorf("%s: _Pragma of %q: not a literal or a TOSTRING of a fixed word", rel, clip(arg))
					continue
				}
				pragma[strings.TrimRight(word[0], ")")] = true
			}
		}
		if pastes != audited[filepath.ToSlash(rel)] {
			t.Errorf("%s: %d pastes onto a prefix of a refused identifier, %d audited", rel, pastes, audited[filepath.ToSlash(rel)])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for w := range pragma {
		switch w {
		case "unroll", "nv_diagnostic", "nv_diag_suppress", "diagnostic", "diag_suppress", "diag_default", "clang", "GCC":
			// GCC and clang are followed by "diagnostic ignored" in
			// __cccl_config: the word after them is fixed too.
		default:
			t.Errorf("a toolkit macro makes #pragma %s", w)
		}
	}
}

// nextAt returns the index of the next sep in line after the one at i, or -1.
func nextAt(line, sep string, i int) int {
	j := strings.Index(line[i+len(sep):], sep)
	if j < 0 {
		return -1
	}
	return i + len(sep) + j
}
