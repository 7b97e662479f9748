package snippets

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets/page"
)

// TestNativePagesBuildAlone checks the fall-back of the shared native
// build: when the one go build of every page's sessions fails, each page
// is built on its own, its foldable sessions in an executable of the
// page's, and still runs. The go command here refuses any build that
// names the shared executable.
func TestNativePagesBuildAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("native runs build Go programs; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	fake := filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\ncase \"$*\" in\n*_wbnative_*/all*) echo 'refused: the shared executable' >&2; exit 1;;\nesac\nexec " + goCmd + " \"$@\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	mk := func(name, word string) *page.Page {
		src := "# " + name + "\n\n```go run\nimport \"fmt\"\n\nfmt.Println(\"" + word + "\")\n```\n```output\n" + word + "\n```\n\n" +
			"```go run fresh\nimport \"fmt\"\n\nfmt.Println(\"" + word + " again\")\n```\n```output\n" + word + " again\n```\n"
		p := mustParse(t, name, src)
		return p
	}
	k := &Kernel{Native: true, GoCommand: fake}
	for _, r := range k.Run(context.Background(), []*page.Page{mk("a.md", "one"), mk("b.md", "two")}) {
		var b strings.Builder
		WriteText(&b, []*PageResult{r}, false)
		if !strings.HasPrefix(b.String(), "ok   "+r.Page.Path+"\t2 passed") {
			t.Errorf("%s:\n%s", r.Page.Path, b.String())
		}
	}
}

// nativePage is a page whose snippet prints the name of the engine's
// A100 preset.
func nativePage(t *testing.T) *page.Page {
	t.Helper()
	p := mustParse(t, "page.md", "# Native\n\n```go run\nimport (\n\t\"fmt\"\n\n\t\"github.com/warpbook/warpbook/engine/gpu\"\n)\n\nfmt.Println(gpu.A100().Name)\n```\n```output\nA100 SXM4\n```\n")
	return p
}

// nativeReport runs the page with -native and returns the report.
func nativeReport(k *Kernel, p *page.Page) string {
	var b strings.Builder
	WriteText(&b, k.Run(context.Background(), []*page.Page{p}), false)
	return b.String()
}

// TestNativeModuleFromBuild: -native builds in the module warpbook was
// built from, not in the one the go command finds from the working
// directory: run from inside a book with a go.mod naming the warpbook
// module and an engine of its own (whose init would run on the host), it
// compiles the real engine, and the fake one never runs.
func TestNativeModuleFromBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("native runs build Go programs; skipped with -short")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	marker := filepath.Join(t.TempDir(), "pwned")
	book := t.TempDir()
	for name, data := range map[string]string{
		"go.mod": "module github.com/warpbook/warpbook\n\ngo 1.26\n",
		"engine/gpu/gpu.go": "package gpu\n\nimport \"os\"\n\ntype Device struct{ Name string }\n\nfunc A100() Device { return Device{Name: \"fake\"} }\n\n" +
			"func init() { os.WriteFile(" + fmt.Sprintf("%q", marker) + ", []byte(\"ran\"), 0o644) }\n",
	} {
		writeFileT(t, filepath.Join(book, filepath.FromSlash(name)), data)
	}
	t.Chdir(book)
	report := nativeReport(&Kernel{Native: true}, nativePage(t))
	if !strings.HasPrefix(report, "ok   page.md\t1 passed") {
		t.Errorf("-native from inside the book:\n%s", report)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the book's own engine was compiled and run on the host")
	}
}

// copyModule copies what native programs are built from (go.mod, go.sum
// and the engine) into a new directory and returns it.
func copyModule(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	copyFromModule(t, dst, "go.mod", "go.sum", "engine")
	return dst
}

// copyFromModule copies files and directories of the module (paths
// relative to its root, slash-separated) to the same paths under dst. It
// reads only those: a listing of the module's root would make go test's
// cache of this package depend on every entry there (.git's time among
// them).
func copyFromModule(t *testing.T, dst string, paths ...string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		src, to := filepath.Join(root, filepath.FromSlash(p)), filepath.Join(dst, filepath.FromSlash(p))
		fi, err := os.Stat(src)
		if err != nil {
			t.Fatal(err)
		}
		if fi.IsDir() {
			err = os.CopyFS(to, os.DirFS(src))
		} else {
			var data []byte
			if data, err = os.ReadFile(src); err == nil {
				writeFileT(t, to, data)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestNativeOverlayFresh: the packages of a native build live in a
// directory of the module that exists only in the build's overlay, under
// a new name each run: files at the fixed name earlier builds used
// (_wbnative), or anywhere else in the module, never join them.
func TestNativeOverlayFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("native runs build Go programs; skipped with -short")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root := copyModule(t)
	for _, pkg := range []string{"p0s0", "p0", "all"} {
		src := "package " + pkg + "\n\nfunc init() { panic(\"a stray file joined the build\") }\n"
		if pkg == "all" {
			src = "package main\n\nfunc init() { panic(\"a stray file joined the build\") }\n"
		}
		writeFileT(t, filepath.Join(root, "_wbnative", pkg, "zz.go"), src)
	}
	k := &Kernel{Native: true, moduleDir: root}
	if report := nativeReport(k, nativePage(t)); !strings.HasPrefix(report, "ok   page.md\t1 passed") {
		t.Errorf("with stray files in _wbnative:\n%s", report)
	}

	// An engine that is not the one warpbook was built with is refused.
	f := filepath.Join(root, "engine", "gpu", "presets.go")
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	writeFileT(t, f, append(data, "\n// changed\n"...))
	if report := nativeReport(k, nativePage(t)); !strings.Contains(report, "is not the one this warpbook was built with") {
		t.Errorf("with a changed engine:\n%s", report)
	}
}
