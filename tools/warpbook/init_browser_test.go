package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/warpbook/warpbook/site/pdf"
)

// TestInitOutsideModule is the author's first hour, in a directory outside
// this repository: warpbook init, then warpbook test and warpbook build,
// run as processes there (the test binary is the command), with the
// user's cache as the command uses it; then the built site, opened from
// file:// in Chromium, runs a cell with the browser kernel (built from
// the tool's own source, not from anything in the book's directory) and
// runs an edit of it typed in the editor.
func TestInitOutsideModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the browser kernel and drives Chromium; skipped with -short")
	}
	exe, err := os.Executable()
	noErr(t, err)
	dir := filepath.Join(t.TempDir(), "mybook")
	warpbook := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(exe, args...)
		cmd.Dir = dir
		if args[0] == "init" {
			cmd.Dir = filepath.Dir(dir)
		}
		cmd.Env = append(os.Environ(), asCommand+"=1", "CI=true")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("warpbook %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	warpbook("init", "mybook")
	if out := warpbook("test"); !strings.Contains(out, "0 failed") {
		t.Fatalf("warpbook test:\n%s", out)
	}
	out := warpbook("build")
	if strings.Contains(out, "warning") {
		t.Errorf("warpbook build warns (a book outside the module must keep Run and Edit):\n%s", out)
	}
	site := filepath.Join(dir, "_site")
	for _, f := range []string{"occupancy.html", "practice.html", "questions/register-step.html"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Errorf("the site has no %s: %v", f, err)
		}
	}
	kernels, _ := filepath.Glob(filepath.Join(site, "assets", "kernel-*.js"))
	if len(kernels) != 1 {
		t.Fatalf("the site has %d browser kernels, want 1", len(kernels))
	}

	ctx := chromium(t)
	page := (&url.URL{Scheme: "file", Path: filepath.ToSlash(site) + "/occupancy.html"}).String()
	const cell = `.cell[data-cell="a100"]`
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string { return textOf(ctx, t, sel) }
	do("open the chapter", chromedp.Navigate(page))
	do("run the cell", chromedp.Click(chromedp.CSS(cell+` .cell-run-button`)),
		chromedp.WaitVisible(chromedp.CSS(cell+` .cell-run pre.output`)))
	if got := text(cell + ` .cell-run pre.output`); got != "12 blocks, 48 warps" {
		t.Errorf("Run shows %q, want the verified 12 blocks, 48 warps", got)
	}
	if got := text(cell + ` .run-verdict`); !strings.Contains(got, "verified output") {
		t.Errorf("Run's verdict is %q", got)
	}

	// Edit: 32 registers per thread fill the SM.
	do("open the editor", chromedp.Click(chromedp.CSS(cell+` .cell-edit`)),
		chromedp.WaitVisible(chromedp.CSS(cell+` .cell-editor .cm-content`)))
	do("type an edit and run it",
		chromedp.Focus(chromedp.CSS(cell+` .cm-content`)),
		chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.KeyEvent("\nfmt.Println(\"edited:\", r.ActiveWarps*2)"),
		chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.WaitVisible(chromedp.CSS(cell+` .run-diff`)))
	if got := text(cell + ` .cell-run pre.output`); got != "12 blocks, 48 warps\nedited: 96" {
		t.Errorf("the edited cell shows %q, want its new line", got)
	}
	if got := text(cell + ` .run-diff pre`); !strings.Contains(got, "+edited: 96") {
		t.Errorf("the diff %q lacks +edited: 96", got)
	}
}

// chromium returns a tab of a new Chromium for the test (ended with it),
// and skips the test where there is none, unless WARPBOOK_BROWSER=require.
func chromium(t *testing.T) context.Context {
	t.Helper()
	exePath, err := pdf.Browser()
	if errors.Is(err, pdf.ErrNoChromium) {
		if os.Getenv("WARPBOOK_BROWSER") == "require" {
			t.Fatal("no chromium in PATH; WARPBOOK_BROWSER=require asks for the browser tests")
		}
		t.Skip("no chromium in PATH: install Debian's chromium to run the browser part")
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), pdf.Options(exePath, t.TempDir())...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	if d, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(ctx, d.Add(-30*time.Second))
		t.Cleanup(cancel)
	}
	return ctx
}

// textOf returns the text of the element sel selects in the tab.
func textOf(ctx context.Context, t *testing.T, sel string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`document.querySelector(%q).textContent`, sel)))
	if err != nil {
		t.Fatalf("%s: %v", sel, err)
	}
	return v
}
