package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "sub", "f.txt")
	if err := Write(name, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(name, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(name)
	if err != nil || string(b) != "two" {
		t.Fatalf("read %q, %v; want two", b, err)
	}
	fi, err := os.Stat(name)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, %v; want 0644", fi.Mode(), err)
	}
	// Nothing but the file is left behind.
	ents, _ := os.ReadDir(filepath.Dir(name))
	if len(ents) != 1 {
		t.Errorf("the directory holds %d entries, want 1", len(ents))
	}
	// A directory in the way is an error, and leaves no temporary file.
	if err := Write(filepath.Dir(name), []byte("x"), 0o644); err == nil {
		t.Error("writing over a directory succeeded")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("a failed write left %d entries, want 1", len(ents))
	}
}
