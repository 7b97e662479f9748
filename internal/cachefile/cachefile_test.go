//go:build unix

package cachefile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestMain(m *testing.M) {
	// One key for the whole test process (Key is loaded once).
	os.Setenv(KeyEnv, "the tests' key")
	os.Exit(m.Run())
}

func TestReadWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ab", "abcdef.json")
	if err := Write(p, []byte(`{"output":"1\n"}`)); err != nil {
		t.Fatal(err)
	}
	got, err := Read(p, 1<<10)
	if err != nil || string(got) != `{"output":"1\n"}` {
		t.Fatalf("Read = %q, %v", got, err)
	}
	if _, err := Read(filepath.Join(dir, "none.json"), 1<<10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing entry: %v, want fs.ErrNotExist", err)
	}
	if _, err := Read(p, 4); err == nil {
		t.Error("an entry over its limit was read")
	}
}

// TestForged: an entry is used only with the tag of its name and data
// under this user's key: not changed, not without a tag (as warpbook
// wrote them before), not under another key, not copied to another name.
func TestForged(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "abcdef.json")
	if err := Write(p, []byte(`{"output":"1\n"}`)); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(p)
	key, _ := Key()
	other := append([]byte{}, key...)
	other[0] ^= 1
	for name, data := range map[string][]byte{
		"changed":            bytes.Replace(good, []byte(`1\n`), []byte(`2\n`), 1),
		"untagged":           []byte(`{"output":"2\n"}`),
		"another key":        append([]byte(`{"output":"2\n"}`), tag(other, p, []byte(`{"output":"2\n"}`))...),
		"shorter than a tag": []byte("{}"),
	} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := Read(p, 1<<10); !errors.Is(err, ErrForged) {
			t.Errorf("%s: Read = %q, %v; want ErrForged", name, got, err)
		}
	}
	// A good entry copied under another entry's name.
	q := filepath.Join(dir, "012345.json")
	if err := os.WriteFile(q, good, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(q, 1<<10); !errors.Is(err, ErrForged) {
		t.Errorf("an entry under another name: Read = %q, %v; want ErrForged", got, err)
	}
}

// TestNotRegular: what is not a regular file at an entry's path is never
// read: a named pipe does not block, /dev/zero does not fill memory, a
// link to a file elsewhere is not followed.
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("root:x:0:0"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for name, target := range map[string]string{"zero.json": "/dev/zero", "leak.json": secret, "dir.json": dir} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Skipf("symlink: %v", err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "d.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fifo.json", "zero.json", "leak.json", "dir.json", "d.json"} {
		if got, err := Read(filepath.Join(dir, name), 1<<10); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: Read = %q, %v; want ErrNotRegular", name, got, err)
		}
	}
}

// TestKeyFile: the key is made once, readable by the user alone, and read
// back by later runs; a file that is not a key is not used.
func TestKeyFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "warpbook", "cache-key")
	k1, err := keyFile(p)
	if err != nil || len(k1) != 32 {
		t.Fatalf("keyFile = %x, %v", k1, err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the key file's mode is %v (%v), want 0600", fi.Mode(), err)
	}
	if k2, err := keyFile(p); err != nil || !bytes.Equal(k1, k2) {
		t.Errorf("a second run reads %x (%v), want %x", k2, err, k1)
	}
	if err := os.WriteFile(p, []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if k, err := keyFile(p); err == nil {
		t.Errorf("a file of 5 bytes is the key %x", k)
	}
}
