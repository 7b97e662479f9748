package main

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"golang.org/x/tools/txtar"
)

// TestPackagesBrowser builds, outside this repository, the book of
// testdata/script/packages.txtar (its chapter whose cells import the
// book's own package) and runs a cell that calls the package in the
// built site's browser kernel: the page sends the package's sources with
// its own, and the output is the one warpbook test verified.
func TestPackagesBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the browser kernel and drives Chromium; skipped with -short")
	}
	exe, err := os.Executable()
	noErr(t, err)
	ar, err := txtar.ParseFile("testdata/script/packages.txtar")
	noErr(t, err)
	work := t.TempDir()
	dir := filepath.Join(work, "mine")
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, "mine/") || f.Name == "mine/book/bad.md" {
			continue
		}
		writeFileT(t, filepath.Join(work, filepath.FromSlash(f.Name)), f.Data)
	}
	cmd := exec.Command(exe, "build")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), asCommand+"=1", "CI=true")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("warpbook build: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "cannot run") {
		t.Fatalf("warpbook build has no browser kernel:\n%s", out)
	}
	site := filepath.Join(dir, "_site")

	ctx := chromium(t)
	page := (&url.URL{Scheme: "file", Path: filepath.ToSlash(site) + "/ch.html"}).String()
	text := func(sel string) string { return textOf(ctx, t, sel) }
	const cell = `.cell[data-cell="warps"]`
	if err := chromedp.Do(ctx, chromedp.Navigate(page),
		chromedp.Click(chromedp.CSS(cell+` .cell-run-button`)),
		chromedp.WaitVisible(chromedp.CSS(cell+` .cell-run pre.output`))); err != nil {
		t.Fatalf("run the cell: %v", err)
	}
	if got := text(cell + ` .cell-run pre.output`); got != "64 16" {
		t.Errorf("Run shows %q, want the verified 64 16", got)
	}
	if got := text(cell + ` .run-verdict`); !strings.Contains(got, "verified output") {
		t.Errorf("Run's verdict is %q", got)
	}
}
