package site_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warpbook/warpbook/site"
)

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(files)
	return files
}

func siteOf(files map[string]string) *site.Site {
	s := &site.Site{Files: map[string][]byte{"assets/warpbook.js": []byte("//")}}
	for k, v := range files {
		s.Files[k] = []byte(v)
	}
	return s
}

func TestWriteReplacesAtomically(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "_site")
	noErr(t, siteOf(map[string]string{"index.html": "one", "old.html": "old", "a/b.html": "b"}).Write(out))
	noErr(t, siteOf(map[string]string{"index.html": "two", "a/c.html": "c"}).Write(out))
	if got, want := listDir(t, out), []string{"a/c.html", "assets/warpbook.js", "index.html"}; !slices.Equal(got, want) {
		t.Errorf("after the second write: %q, want %q", got, want)
	}
	if data, _ := os.ReadFile(filepath.Join(out, "index.html")); string(data) != "two" {
		t.Errorf("index.html = %q, want two", data)
	}
	// Nothing is left beside the site.
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("parent holds %q, want only _site", names)
	}
}

func TestWriteFailureLeavesOldSite(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "_site")
	noErr(t, siteOf(map[string]string{"index.html": "one"}).Write(out))
	// A site that fails halfway through writing (an invalid file name sorts last).
	bad := siteOf(map[string]string{"index.html": "two", "zz/../../escape.html": "x"})
	if err := bad.Write(out); err == nil {
		t.Fatal("Write of an invalid path succeeded")
	}
	if data, _ := os.ReadFile(filepath.Join(out, "index.html")); string(data) != "one" {
		t.Errorf("after a failed write index.html = %q, want the old site's", data)
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		t.Errorf("a failed write left %d entries beside the site", len(entries)-1)
	}
}

func TestWriteRemovesStaleNewSites(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "_site")
	stale := filepath.Join(parent, "._site.new-123")
	fresh := filepath.Join(parent, "._site.new-456")
	os.Mkdir(stale, 0o755)
	os.Mkdir(fresh, 0o755)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	noErr(t, siteOf(map[string]string{"index.html": "x"}).Write(out))
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("an interrupted build's old directory is still there")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Error("a recent directory (maybe a build running now) was removed")
	}
}

func TestWriteRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "thesis.tex")
	writeFile(t, precious, "years of work")
	err := siteOf(map[string]string{"index.html": "x"}).Write(dir)
	if err == nil || !strings.Contains(err.Error(), "refusing to replace") {
		t.Fatalf("Write over a foreign directory: %v, want a refusal", err)
	}
	if _, err := os.Stat(precious); err != nil {
		t.Errorf("the foreign file is gone: %v", err)
	}
	// An empty directory is fine.
	empty := filepath.Join(t.TempDir(), "empty")
	os.Mkdir(empty, 0o755)
	if err := siteOf(map[string]string{"index.html": "x"}).Write(empty); err != nil {
		t.Errorf("Write into an empty directory: %v", err)
	}
}
