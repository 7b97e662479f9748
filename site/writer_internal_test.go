package site

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSiteWriter: what a build added while it ran is reconciled with the
// site it returns: a file it replaced is written again, one it never added
// is written, one the site does not have is gone; an aborted writer leaves
// the old site and nothing beside it, and makes nothing before its
// first file.
func TestSiteWriter(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "_site")
	if err := (&Site{Files: map[string][]byte{marker: []byte("//"), "old.html": []byte("old")}}).Write(out); err != nil {
		t.Fatal(err)
	}

	w, err := newSiteWriter(out)
	if err != nil {
		t.Fatal(err)
	}
	w.add("a/b.html", []byte("first"))
	w.add("gone.html", []byte("not in the site"))
	w.add(marker, []byte("js"))
	files := map[string][]byte{
		marker:       []byte("js"), // equal bytes, another slice: written again
		"a/b.html":   []byte("second"),
		"index.html": []byte("never added"),
	}
	if err := w.commit(files); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(out, p)
			data, _ := os.ReadFile(p)
			got = append(got, filepath.ToSlash(rel)+"="+string(data))
		}
		return err
	})
	want := []string{"a/b.html=second", marker + "=js", "index.html=never added"}
	if !slices.Equal(got, want) {
		t.Errorf("site after commit: %q, want %q", got, want)
	}

	w, err = newSiteWriter(out)
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("a writer with no file yet made %d entries beside the site, want none", len(entries)-1)
	}
	w.add("index.html", []byte("half a build"))
	w.abort()
	if data, _ := os.ReadFile(filepath.Join(out, "index.html")); string(data) != "never added" {
		t.Errorf("after abort index.html = %q, want the old site's", data)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("after abort %d entries beside the site, want none", len(entries)-1)
	}

	w, err = newSiteWriter(out)
	if err != nil {
		t.Fatal(err)
	}
	w.add("../escape.html", []byte("x"))
	if err := w.commit(map[string][]byte{marker: []byte("js")}); err == nil {
		t.Error("commit of an invalid path succeeded")
	}
	if _, err := os.Stat(filepath.Join(parent, "escape.html")); err == nil {
		t.Error("an invalid path was written outside the site")
	}
}
