package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBook writes name/content pairs under a new directory.
func writeBook(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i+1 < len(files); i += 2 {
		p := filepath.Join(dir, filepath.FromSlash(files[i]))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(files[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = dispatch(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestBuildCommand(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	bk := writeBook(t,
		"SUMMARY.md", "- [A](a.md)\n- [B](b.md)\n",
		"a.md", "# A\n\nSee [B](b.md#b-section).\n",
		"b.md", "# B\n\n## B section\n",
	)
	out := filepath.Join(t.TempDir(), "site")

	code, stdout, stderr := runCmd("build", "--book", bk, "-o", out)
	if code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "built 5 pages (2 drafts) into "+out) {
		t.Errorf("stdout %q", stdout)
	}
	for _, f := range []string{"index.html", "a.html", "b.html", "print.html", "404.html", "assets/warpbook.css", "assets/search-index.js"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	first, _ := os.ReadFile(filepath.Join(out, "a.html"))

	// Nothing changed: nothing to do.
	code, stdout, _ = runCmd("build", "--book", bk, "-o", out)
	if code != 0 || !strings.Contains(stdout, "is up to date") {
		t.Errorf("second build: exit %d, %q; want up to date", code, stdout)
	}
	// Forced, the same bytes.
	if code, _, stderr = runCmd("build", "--book", bk, "-o", out, "--force"); code != 0 {
		t.Fatalf("forced build: exit %d\n%s", code, stderr)
	}
	if again, _ := os.ReadFile(filepath.Join(out, "a.html")); !bytes.Equal(first, again) {
		t.Error("two builds of the same book differ")
	}

	// A broken anchor: exit 1 with file:line, and the old site stays.
	os.WriteFile(filepath.Join(bk, "a.md"), []byte("# A\n\nSee [B](b.md#nope).\n"), 0o644)
	code, _, stderr = runCmd("build", "--book", bk, "-o", out)
	if code != 1 {
		t.Errorf("broken anchor: exit %d, want 1", code)
	}
	if want := filepath.Join(bk, "a.md") + ":3:5: broken anchor: b.md has no #nope"; !strings.Contains(stderr, want) {
		t.Errorf("stderr %q lacks %q", stderr, want)
	}
	if !strings.Contains(stderr, "1 error; nothing written") {
		t.Errorf("stderr %q does not say nothing was written", stderr)
	}
	if now, _ := os.ReadFile(filepath.Join(out, "a.html")); !bytes.Equal(first, now) {
		t.Error("a failed build changed the site")
	}
	// Into a new directory, a failed build creates nothing.
	fresh := filepath.Join(t.TempDir(), "fresh")
	if code, _, _ = runCmd("build", "--book", bk, "-o", fresh); code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a failed build created %s", fresh)
	}
}

func TestBuildStrictAndUsage(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	bk := writeBook(t, "a.md", "# A\n")
	out := filepath.Join(t.TempDir(), "site")
	code, _, stderr := runCmd("build", "--strict", "--book", bk, "-o", out)
	if code != 1 || !strings.Contains(stderr, "a.md:1: draft (it has no named author): --strict refuses to build while pages are drafts") {
		t.Errorf("strict build of a draft: exit %d\n%s", code, stderr)
	}
	if code, _, _ := runCmd("build", "extra"); code != 2 {
		t.Errorf("build with an argument: exit %d, want 2", code)
	}
	if code, _, _ := runCmd("build", "--nope"); code != 2 {
		t.Errorf("build with an unknown flag: exit %d, want 2", code)
	}
	if code, _, stderr := runCmd("build", "--book", filepath.Join(bk, "missing")); code != 1 || !strings.Contains(stderr, "is not a directory") {
		t.Errorf("missing book: exit %d, %q", code, stderr)
	}
}

// TestBuildRunsSnippets builds a page with real snippets through the real
// kernel: a passing one is marked verified, a wrong output fails the build
// with the kernel's file:line and diff, and nothing is written.
func TestBuildRunsSnippets(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	page := "# Occupancy\n\n```go run id=a100\nimport (\n\t\"fmt\"\n\n\t\"github.com/warpbook/warpbook/engine/gpu\"\n\t\"github.com/warpbook/warpbook/engine/occupancy\"\n)\n\n" +
		"r, _ := occupancy.Compute(gpu.A100(), occupancy.Kernel{BlockSize: 64, Registers: 33})\nfmt.Println(r.ActiveBlocks)\n```\n\n```output\n%s\n```\n\nThe reference gives [24](= \"r.ActiveBlocks\") blocks.\n"
	bk := writeBook(t, "a.md", fmt.Sprintf(page, "24"))
	out := filepath.Join(t.TempDir(), "site")
	// --live=false: this is about the build's kernel, not the reader's.
	code, _, stderr := runCmd("build", "--live=false", "--book", bk, "-o", out)
	if code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	html, _ := os.ReadFile(filepath.Join(out, "a.html"))
	for _, want := range []string{`<div class="cell" id="cell-a100" data-cell="a100">`, "✓ verified</span>", "<code>24</code>", `<span class="checked" title="Checked by the build: r.ActiveBlocks" data-check="value-1">24</span>`} {
		if !strings.Contains(string(html), want) {
			t.Errorf("a.html lacks %q", want)
		}
	}

	// The source notes' wrong 25 blocks: the build fails and writes nothing.
	bad := writeBook(t, "a.md", fmt.Sprintf(page, "25"))
	fresh := filepath.Join(t.TempDir(), "fresh")
	code, _, stderr = runCmd("build", "--live=false", "--book", bad, "-o", fresh)
	if code != 1 {
		t.Errorf("wrong output: exit %d, want 1", code)
	}
	if want := filepath.Join(bad, "a.md") + ":15:1: a100: output differs"; !strings.Contains(stderr, want) || !strings.Contains(stderr, "-25") || !strings.Contains(stderr, "+24") {
		t.Errorf("stderr lacks %q and a diff:\n%s", want, stderr)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a failed build created %s", fresh)
	}
}

// TestBuildWithoutGo builds a book with snippets where there is no Go
// toolchain: the site is built without Run, and the build says so once.
func TestBuildWithoutGo(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	page := "# A\n\n```go run id=one\nimport \"fmt\"\n\nfmt.Println(1)\n```\n\n```output\n1\n```\n\n# B\n\n```go run id=two\nfmt.Println(2)\n```\n\n```output\n2\n```\n"
	bk := writeBook(t, "a.md", page, "b.md", page)
	out := filepath.Join(t.TempDir(), "site")
	code, _, stderr := runCmd("build", "--book", bk, "-o", out)
	if code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	if n := strings.Count(stderr, "warning: readers cannot run the snippets in this build: no Go toolchain"); n != 1 {
		t.Errorf("the build says %d times that there is no Run, want once:\n%s", n, stderr)
	}
	html, _ := os.ReadFile(filepath.Join(out, "a.html"))
	if !strings.Contains(string(html), `data-live-off="the browser kernel could not be built: no Go toolchain`) || strings.Contains(string(html), "data-live-kernel") {
		t.Errorf("a.html does not say why it has no Run:\n%s", html[:min(len(html), 600)])
	}
}
