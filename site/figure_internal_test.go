package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFigureCacheForged: the site publishes a drawn figure's SVG as it
// is, so a figure in the cache that this user's warpbook did not write (a
// forged entry, with a script) is drawn again, never published.
func TestFigureCacheForged(t *testing.T) {
	dir := t.TempDir()
	spec := []byte("kind: occupancy-vs-block-size\ngpu: V100\nregisters: [32]\ncaption: C.\nalt: A.\n")
	if _, err := (&Figures{CacheDir: dir}).draw(spec); err != nil {
		t.Fatal(err)
	}
	entries, err := filepath.Glob(filepath.Join(dir, "figures", "*", "*.json"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("cache entries %q (%v), want one", entries, err)
	}
	forged := `{"fig":{"SVG":"<svg><script>alert(1)</script></svg>","Caption":"C.","Alt":"A."}}`
	for _, data := range []string{forged, forged + strings.Repeat("\x00", 32)} {
		if err := os.WriteFile(entries[0], []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := (&Figures{CacheDir: dir}).draw(spec)
		if err != nil || strings.Contains(f.SVG, "<script>") || !strings.HasPrefix(f.SVG, "<svg") {
			t.Errorf("a forged entry (%d bytes) gave %.80q, %v", len(data), f.SVG, err)
		}
	}
}
