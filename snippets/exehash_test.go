//go:build !js

package snippets

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warpbook/warpbook/internal/cachefile"
)

// TestExeHash: the executable's hash is its sha256, kept in the cache
// under its path, size and time, and taken again when the file changes.
func TestExeHash(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	exe := filepath.Join(t.TempDir(), "tool")
	write := func(content string, at time.Time) string {
		if err := os.WriteFile(exe, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(exe, at, at); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256([]byte(content))
		return hex.EncodeToString(sum[:])
	}
	t0 := time.Unix(1_700_000_000, 0)
	want := write("first build", t0)
	if got := exeHash(exe); got != want {
		t.Fatalf("exeHash = %q, want %q", got, want)
	}
	// The memo answers while the file looks the same: overwrite it with
	// another valid hash, as warpbook writes entries, and it is what
	// comes back; the same hash in a file warpbook did not write is not.
	dir, err := DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	memos, _ := filepath.Glob(filepath.Join(dir, "exe", "*"))
	if len(memos) != 1 {
		t.Fatalf("%d memos, want 1", len(memos))
	}
	other := strings.Repeat("ab", 32)
	writeFileT(t, memos[0], other)
	if got := exeHash(exe); got != want {
		t.Errorf("with a forged memo, exeHash = %q, want %q", got, want)
	}
	if err := cachefile.Write(memos[0], []byte(other)); err != nil {
		t.Fatal(err)
	}
	if got := exeHash(exe); got != other {
		t.Errorf("with a memo, exeHash = %q, want the memo's %q", got, other)
	}
	// A rebuild (new content, new time) is hashed again; so is a memo
	// that is not a hash.
	want = write("second build!", t0.Add(time.Second))
	if got := exeHash(exe); got != want {
		t.Errorf("after a rebuild exeHash = %q, want %q", got, want)
	}
	memos, _ = filepath.Glob(filepath.Join(dir, "exe", "*"))
	for _, m := range memos {
		os.WriteFile(m, []byte("not a hash"), 0o644)
	}
	if got := exeHash(exe); got != want {
		t.Errorf("with a broken memo exeHash = %q, want %q", got, want)
	}
	if got := exeHash(filepath.Join(t.TempDir(), "missing")); got != "" {
		t.Errorf("a missing executable hashes to %q", got)
	}
}
