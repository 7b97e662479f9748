package site

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

func TestStamp(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	out := filepath.Join(t.TempDir(), "_site")
	fsys := fstest.MapFS{"a.md": {Data: []byte("# A\n")}}
	key, err := inputKey(fsys, "tool")
	if err != nil {
		t.Fatal(err)
	}
	if upToDate(out, key) {
		t.Fatal("a missing site is up to date")
	}
	(&Site{Files: map[string][]byte{"a.html": []byte("a")}}).Write(out)
	if err := saveStamp(out, key); err != nil {
		t.Fatal(err)
	}
	if !upToDate(out, key) {
		t.Fatal("not up to date right after a build")
	}
	if k2, _ := inputKey(fstest.MapFS{"a.md": {Data: []byte("# A changed\n")}}, "tool"); upToDate(out, k2) {
		t.Error("up to date after the book changed")
	}
	if k3, _ := inputKey(fsys, "another tool"); upToDate(out, k3) {
		t.Error("up to date after the tool changed")
	}
	os.Remove(filepath.Join(out, "a.html"))
	if upToDate(out, key) {
		t.Error("up to date after a file of the site was deleted")
	}
}
