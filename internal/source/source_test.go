package source

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDir: the test binary, built from this module, finds this module,
// wherever the test runs from.
func TestDir(t *testing.T) {
	want, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	got, err := Dir()
	if err != nil || got != want {
		t.Fatalf("Dir() = %q, %v; want %q", got, err, want)
	}
}

// TestFingerprint: the engine's fingerprint changes with any file beside
// its sources (an assembly file, an object file the linker takes), not
// with its tests or test data.
func TestFingerprint(t *testing.T) {
	root := t.TempDir()
	write := func(name, data string) {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fp := func() string {
		t.Helper()
		s, err := Fingerprint(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	write("engine/gpu/gpu.go", "package gpu\n")
	first := fp()
	write("engine/gpu/gpu_test.go", "package gpu\n")
	write("engine/gpu/testdata/x.csv", "1\n")
	write("engine/_old/x.go", "package old\n")
	if fp() != first {
		t.Error("a test, test data or a hidden directory changed the fingerprint")
	}
	write("engine/gpu/evil_amd64.syso", "\x7fELF")
	if fp() == first {
		t.Error("an object file beside the engine did not change the fingerprint")
	}
}
