package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestBuildSameBytesFromAnyDirectory builds one book four ways (named
// relative to the working directory, absolute from another one, as ../
// from a sibling, and as . from inside it) and wants the same site, byte
// for byte: no path of the machine that built it (a CI runner's
// /home/runner/work/...) reaches the site, in a page, its live data or
// its programs.
func TestBuildSameBytesFromAnyDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the snippets of a book four times; skipped with -short")
	}
	exe, err := os.Executable()
	noErr(t, err)
	work := t.TempDir()
	cache := filepath.Join(work, "cache")
	for name, data := range map[string]string{
		"book/SUMMARY.md": "- [Cells](cells.md)\n- [Deep](part/deep.md)\n",
		"book/cells.md":   "# Cells\n\n```go run id=a\nimport \"fmt\"\n\nn := 32\nfmt.Println(n)\n```\n```output\n32\n```\n\nA warp has [32](= \"n\") lanes.\n",
		"book/part/deep.md": "# Deep\n\n```go run id=b\nimport \"fmt\"\n\nfmt.Println(\"deep\")\n```\n```output\ndeep\n```\n\n" +
			"```figure\nkind: occupancy-vs-block-size\ngpu: V100\nregisters: [32, 64]\ncaption: Block size against occupancy.\nalt: Sawtooth curves.\n```\n",
		"other/keep": "",
	} {
		writeFileT(t, filepath.Join(work, filepath.FromSlash(name)), data)
	}
	build := func(dir, book, out string) {
		t.Helper()
		cmd := exec.Command(exe, "build", "-live=false", "-o", out, book)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), asCommand+"=1", "XDG_CACHE_HOME="+cache)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("in %s: warpbook build %s: %v\n%s", dir, book, err, b)
		}
	}
	book := filepath.Join(work, "book")
	sites := map[string]string{
		"book, from its parent":    filepath.Join(work, "s1"),
		"absolute, from elsewhere": filepath.Join(work, "s2"),
		"../book, from a sibling":  filepath.Join(work, "s3"),
		"., from inside the book":  filepath.Join(work, "s4"),
	}
	build(work, "book", sites["book, from its parent"])
	build(os.TempDir(), book, sites["absolute, from elsewhere"])
	build(filepath.Join(work, "other"), "../book", sites["../book, from a sibling"])
	build(book, ".", sites["., from inside the book"])

	want := readTree(t, sites["book, from its parent"])
	if len(want) < 10 || want["part/deep.html"] == nil || want["assets/pages/part/deep.js"] == nil || want["assets/programs/cells.js"] == nil {
		t.Fatalf("the site has %d files, without the pages, their live data or their programs", len(want))
	}
	for how, dir := range sites {
		got := readTree(t, dir)
		for name, data := range want {
			if !bytes.Equal(got[name], data) {
				t.Errorf("%s: %s differs from the build of book from its parent", how, name)
			}
		}
		for name, data := range got {
			if want[name] == nil {
				t.Errorf("%s: %s is new", how, name)
			}
			if bytes.Contains(data, []byte(work)) || bytes.Contains(data, []byte("../book")) {
				t.Errorf("%s: %s holds a path of the machine", how, name)
			}
		}
	}
}

// readTree reads every file under dir by its slash-separated path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
