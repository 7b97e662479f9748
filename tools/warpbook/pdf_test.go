package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// build --pdf writes book.pdf into the site through Chromium (not with
// -short); without one it says so and builds the site all the same.
func TestBuildPDF(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	bk := writeBook(t, "a.md", "# A\n\nText.\n")
	out := filepath.Join(t.TempDir(), "site")
	if _, err := exec.LookPath("chromium"); err == nil && !testing.Short() {
		code, stdout, stderr := runCmd(t, "", "build", "--pdf", "--book", bk, "-o", out)
		if code != 0 {
			t.Fatalf("build --pdf: exit %d\n%s", code, stderr)
		}
		data, err := os.ReadFile(filepath.Join(out, "book.pdf"))
		if err != nil || !bytes.HasPrefix(data, []byte("%PDF-")) {
			t.Errorf("book.pdf: %v, %q", err, data[:min(len(data), 8)])
		}
		if !strings.Contains(stdout, "printed the print edition to "+filepath.Join(out, "book.pdf")) {
			t.Errorf("stdout %q", stdout)
		}
	}
	t.Setenv("PATH", t.TempDir()) // no chromium
	code, _, stderr := runCmd(t, "", "build", "--pdf", "--force", "--book", bk, "-o", out)
	if code != 0 || !strings.Contains(stderr, "not printing book.pdf: no Chromium in PATH") {
		t.Errorf("without chromium: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Errorf("without chromium the site is not built: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "book.pdf")); err == nil {
		t.Error("a book.pdf from the build before survives a build without one")
	}
}
