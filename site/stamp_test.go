package site

import (
	"errors"
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
	keyed := func(k string) func() (string, error) {
		return func() (string, error) { return k, nil }
	}
	if upToDate(out, func() (string, error) { t.Error("a missing site's key was computed"); return key, nil }) {
		t.Fatal("a missing site is up to date")
	}
	(&Site{Files: map[string][]byte{"a.html": []byte("a")}}).Write(out)
	if err := saveStamp(out, key); err != nil {
		t.Fatal(err)
	}
	if !upToDate(out, keyed(key)) {
		t.Fatal("not up to date right after a build")
	}
	if k2, _ := inputKey(fstest.MapFS{"a.md": {Data: []byte("# A changed\n")}}, "tool"); upToDate(out, keyed(k2)) {
		t.Error("up to date after the book changed")
	}
	if k3, _ := inputKey(fsys, "another tool"); upToDate(out, keyed(k3)) {
		t.Error("up to date after the tool changed")
	}
	if upToDate(out, func() (string, error) { return key, errors.New("unreadable") }) {
		t.Error("up to date when the book could not be hashed")
	}
	os.Remove(filepath.Join(out, "a.html"))
	if upToDate(out, keyed(key)) {
		t.Error("up to date after a file of the site was deleted")
	}
}
