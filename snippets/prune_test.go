package snippets

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPruneCache: the least recently used files go first until the cache
// fits, and the directory is walked at most once per PruneInterval.
func TestPruneCache(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Now().Add(-10 * time.Hour)
	put := func(name string, age time.Duration) {
		p := filepath.Join(dir, "results", name)
		writeFileT(t, p, make([]byte, 100))
		at := t0.Add(-age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, "results", name))
		return err == nil
	}
	put("old", 3*time.Hour)
	put("middle", 2*time.Hour)
	put("new", time.Hour)
	if err := PruneCache(dir, 250); err != nil {
		t.Fatal(err)
	}
	if exists("old") || !exists("middle") || !exists("new") {
		t.Errorf("after pruning to 250 bytes: old %v middle %v new %v, want only old gone", exists("old"), exists("middle"), exists("new"))
	}
	// Within the interval nothing is walked, however full.
	put("newest", 0)
	if err := PruneCache(dir, 150); err != nil {
		t.Fatal(err)
	}
	if !exists("middle") {
		t.Error("a second prune within the interval removed a file")
	}
	// Once the interval has passed, it prunes again.
	past := time.Now().Add(-2 * PruneInterval)
	if err := os.Chtimes(filepath.Join(dir, "pruned"), past, past); err != nil {
		t.Fatal(err)
	}
	if err := PruneCache(dir, 150); err != nil {
		t.Fatal(err)
	}
	if exists("middle") || exists("new") || !exists("newest") {
		t.Errorf("after the interval: middle %v new %v newest %v, want only newest left", exists("middle"), exists("new"), exists("newest"))
	}
	if err := PruneCache(filepath.Join(dir, "missing"), 1); err != nil {
		t.Errorf("a missing cache: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Error("pruning a missing cache created it")
	}
}
