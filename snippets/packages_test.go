package snippets

import (
	"context"
	"go/build"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets/page"
)

// writeModule writes files (slash paths) into a new module directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		writeFileT(t, filepath.Join(dir, filepath.FromSlash(name)), src)
	}
	return dir
}

// writeFileT writes data to the file p, making its directory, or fails t.
func writeFileT[D string | []byte](t testing.TB, p string, data D) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

const testModule = "module example.com/m\n\ngo 1.26\n"

// TestPackagesRefused loads hostile packages: each is refused (at the
// import of a cell, with the reason) or its listing is an error, and
// nothing panics or reads outside the module.
func TestPackagesRefused(t *testing.T) {
	outside := t.TempDir()
	writeFileT(t, filepath.Join(outside, "x.go"), "package x\n\nvar X = 1\n")
	big := "package big\n\nvar S = \"" + strings.Repeat("a", MaxPackageFileBytes) + "\"\n"
	for _, c := range []struct {
		name   string
		files  map[string]string
		link   [2]string // a symbolic link to make: name in the module, target
		listed string
		want   string // in the refusal, or in the listing's error
	}{
		{name: "unsafe", files: map[string]string{"p/p.go": "package p\n\nimport \"unsafe\"\n\nvar N = unsafe.Sizeof(0)\n"}, listed: "p",
			want: "p/p.go:3:8 imports unsafe, which snippets may not use"},
		{name: "net-http", files: map[string]string{"p/p.go": "package p\n\nimport _ \"net/http\"\n"}, listed: "p",
			want: "p/p.go:3:10 imports net/http, which snippets may not use"},
		{name: "cgo", files: map[string]string{"p/p.go": "package p\n\nimport \"C\"\n"}, listed: "p",
			want: "imports C, which snippets may not use"},
		{name: "os-file", files: map[string]string{"p/p.go": "package p\n\nimport \"os\"\n\nfunc F() { os.Stdout.Close() }\n"}, listed: "p",
			want: "p/p.go:5:22: calls the Close method of *os.File, which snippets may not use"},
		{name: "linkname", files: map[string]string{"p/p.go": "package p\n\n//go:linkname f runtime.f\nfunc f()\n"}, listed: "p",
			want: "p/p.go:3:1: compiler directives such as //go:linkname are not allowed in packages snippets import"},
		{name: "line-directive", files: map[string]string{"p/p.go": "package p\n\n//line other.go:1\nvar X = 1\n"}, listed: "p",
			want: "line directives are not allowed in packages snippets import"},
		{name: "no-body", files: map[string]string{"p/p.go": "package p\n\nfunc f()\n"}, listed: "p",
			want: "p/p.go:3:6: missing function body"},
		{name: "platform-file", files: map[string]string{"p/p.go": "package p\n", "p/p_linux.go": "package p\n\nvar X = 1\n"}, listed: "p",
			want: "p/p_linux.go: the file is built only on some platforms"},
		{name: "command", files: map[string]string{"p/p.go": "package main\n\nfunc main() {}\n"}, listed: "p",
			want: "p is a command (package main), which cannot be imported"},
		{name: "two-names", files: map[string]string{"p/a.go": "package a\n", "p/b.go": "package b\n"}, listed: "p",
			want: "p/b.go:1:9: package b, but other files of p are package a"},
		{name: "type-error", files: map[string]string{"p/p.go": "package p\n\nvar X int = \"s\"\n"}, listed: "p",
			want: "p/p.go:3:13: cannot use \"s\""},
		{name: "range-int", files: map[string]string{"p/p.go": "package p\n\nfunc F() (s int) {\n\tfor i := range 3 {\n\t\ts += i\n\t}\n\treturn s\n}\n"}, listed: "p",
			want: "p/p.go:4:2: the interpreter does not support range over an integer (Go 1.22)"},
		{name: "loop-var", files: map[string]string{"p/p.go": "package p\n\nfunc F() (fs []func() int) {\n\tfor i := 0; i < 3; i++ {\n\t\tfs = append(fs, func() int { return i })\n\t}\n\treturn fs\n}\n"}, listed: "p",
			want: "p/p.go:5:39: the interpreter shares one i across all iterations of the loop"},
		{name: "min", files: map[string]string{"p/p.go": "package p\n\nvar M = min(1, 2)\n"}, listed: "p",
			want: "p/p.go:3:9: the interpreter does not support the built-in min"},
		{name: "cycle", files: map[string]string{"a/a.go": "package a\n\nimport \"example.com/m/b\"\n\nvar A = b.B\n", "b/b.go": "package b\n\nimport _ \"example.com/m/a\"\n\nvar B = 1\n"}, listed: "a",
			want: "a imports b, b/b.go:3:10 imports a: an import cycle"},
		{name: "huge-file", files: map[string]string{"big/big.go": big}, listed: "big",
			want: "larger than 1048576 bytes"},
		{name: "link-file", files: map[string]string{"p/p.go": "package p\n"}, link: [2]string{"p/x.go", filepath.Join(outside, "x.go")}, listed: "p",
			want: "p/x.go: not a regular file"},
		{name: "link-dir", files: map[string]string{"p/p.go": "package p\n"}, link: [2]string{"q", outside}, listed: "q",
			want: "packages: example.com/m/q: no such package in example.com/m"},
		{name: "outside-module", files: map[string]string{}, listed: "example.org/other/p",
			want: "is not a package of the book's module example.com/m"},
		{name: "standard-name", files: map[string]string{}, listed: "=fmt",
			want: "snippets may import fmt without listing it"},
		{name: "engine", files: map[string]string{}, listed: "github.com/warpbook/warpbook/engine/sim",
			want: "snippets may import github.com/warpbook/warpbook/engine/sim without listing it"},
		{name: "not-a-path", files: map[string]string{}, listed: "example.com/m/../x",
			want: "is not a valid import path"},
		{name: "empty", files: map[string]string{"p/README": "no Go here\n"}, listed: "p",
			want: "example.com/m/p has no Go files"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.files["go.mod"] = testModule
			dir := writeModule(t, c.files)
			if c.link[0] != "" {
				if err := os.Symlink(c.link[1], filepath.Join(dir, filepath.FromSlash(c.link[0]))); err != nil {
					t.Fatal(err)
				}
			}
			// A path of the module is written without it; "=" writes
			// it as it is.
			listed, ok := strings.CutPrefix(c.listed, "=")
			if !ok && !strings.Contains(listed, ".") {
				listed = "example.com/m/" + listed
			}
			// Messages name files from the working directory.
			t.Chdir(dir)
			ps, ds := LoadPackages(".", map[string]page.Pos{listed: {File: "book.yaml", Line: 3, Col: 5}})
			got := ""
			switch {
			case len(ds) > 0:
				got = ds[0].Error()
			case ps != nil:
				got = ps.refusal(listed)
			}
			if !strings.Contains(got, c.want) {
				t.Errorf("got %q, want it to contain %q", got, c.want)
			}
		})
	}
}

// TestPackagesRun runs cells that import a book's package: the type check
// sees the package's API, the interpreter interprets it from source, and
// its hash is part of the cells' cache keys.
func TestPackagesRun(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.mod": testModule,
		"h/h.go": `// Package h helps.
package h

import (
	"fmt"

	"example.com/m/h/inner"
	"github.com/warpbook/warpbook/engine/gpu"
)

// Warps is the A100's warp slots, as a sentence.
func Warps() string { return fmt.Sprintf("%s: %d warps", gpu.A100().Name, inner.Slots(gpu.A100())) }
`,
		"h/inner/inner.go": `package inner

import "github.com/warpbook/warpbook/engine/gpu"

// Slots returns d's warp slots per SM.
func Slots(d gpu.Device) int { return d.MaxThreadsPerSM / d.WarpSize }
`,
	})
	ps, ds := LoadPackages(dir, map[string]page.Pos{"example.com/m/h": {}})
	if len(ds) > 0 || ps == nil {
		t.Fatalf("LoadPackages: %v", ds)
	}
	src := "# P\n\n```go run id=a\nimport (\n\t\"fmt\"\n\n\t\"example.com/m/h\"\n)\n\nfmt.Println(h.Warps())\n```\n\n```output\nA100 SXM4: 64 warps\n```\n\n```go run id=b error=\"undefined: h.Nope\"\nh.Nope()\n```\n"
	p := mustParse(t, "p.md", src)
	k := &Kernel{InProcess: true, Packages: func(*page.Page) *Packages { return ps }}
	r := k.RunPage(context.Background(), p)
	if r.Failed() {
		t.Fatalf("the page failed: %v", r.AllDiagnostics())
	}
	if !ps.Imported(p) {
		t.Error("Imported: the page imports the package")
	}
	// The same packages, sent as the browser kernel is sent them.
	again, ds := PackagesFromData(ps.Data())
	if len(ds) > 0 || again.Hash() != ps.Hash() {
		t.Errorf("PackagesFromData: %v, hash %s, want %s", ds, again.Hash(), ps.Hash())
	}
	// Without the packages, the import is refused; and the cache keys
	// of the cells that import them change with their sources.
	r = (&Kernel{InProcess: true}).RunPage(context.Background(), p)
	if msg := r.AllDiagnostics().Error(); !strings.Contains(msg, `snippets may not import "example.com/m/h"`) || !strings.Contains(msg, "book.yaml's packages:") {
		t.Errorf("without the packages: %s", msg)
	}
	pl, _, _ := compileUpTo(p, len(p.Cells), DefaultTimeout, nil, ps)
	before := pl.keys(Verifier{}, "interp")[pl.units[0]]
	writeFileT(t, filepath.Join(dir, "h", "inner", "inner.go"), "package inner\n\nimport \"github.com/warpbook/warpbook/engine/gpu\"\n\n// Slots returns d's warp slots per SM.\nfunc Slots(d gpu.Device) int { return d.MaxThreadsPerSM / d.WarpSize / 2 }\n")
	ps2, _ := LoadPackages(dir, map[string]page.Pos{"example.com/m/h": {}})
	pl2, _, _ := compileUpTo(p, len(p.Cells), DefaultTimeout, nil, ps2)
	if after := pl2.keys(Verifier{}, "interp")[pl2.units[0]]; after == before {
		t.Error("the cell's cache key did not change with the package it imports")
	}
}

// TestPackagesThisBook loads this repository's book's packages: in the
// module that also holds the engine, the engine stays the compiled one.
// It reads them from a copy of go.mod, book.yaml and book/lib
// (copyFromModule): the loader opens the module's root.
func TestPackagesThisBook(t *testing.T) {
	dir := t.TempDir()
	copyFromModule(t, dir, "go.mod", "book/book.yaml", "book/lib")
	ps, ds := ReadPackages(filepath.Join(dir, "book"))
	if len(ds) > 0 || ps == nil {
		t.Fatalf("ReadPackages(book): %v", ds)
	}
	const wb = "github.com/warpbook/warpbook/book/lib/wb"
	if msg := ps.refusal(wb); msg != "" {
		t.Fatalf("%s is refused: %s", wb, msg)
	}
	if ps.pkgs["github.com/warpbook/warpbook/engine/sim"] != nil {
		t.Error("the engine was read from source")
	}
}

// TestEverywhere compares everywhere with go/build's reading of file
// names on the platforms the kernel runs on and two others.
func TestEverywhere(t *testing.T) {
	platforms := [][2]string{{"linux", "amd64"}, {"js", "wasm"}, {"darwin", "arm64"}, {"windows", "386"}, {"plan9", "riscv64"}}
	for _, name := range []string{"a.go", "a_linux.go", "a_test.go", "a_linux_test.go", "a_wasm.go", "a_js_wasm.go", "a_riscv64.go", "a_plan9.go",
		"a_foo.go", "a_foo_bar.go", "linux.go", "a_linux_foo.go", "a_foo_amd64.go", "_linux.go", "x_y_windows.go"} {
		want := true
		for _, pl := range platforms {
			ctx := build.Context{GOOS: pl[0], GOARCH: pl[1], Compiler: "gc",
				OpenFile: func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("package p\n")), nil }}
			if ok, err := ctx.MatchFile(".", name); err != nil || !ok {
				want = false
			}
		}
		if got := everywhere(name); got != want {
			t.Errorf("everywhere(%q) = %v, go/build says %v", name, got, want)
		}
	}
}

// TestPackagesGoModBounded: the go.mod that encloses a book is read as
// pages are, bounded: one that links to a file larger than any module file
// is a diagnostic at book.yaml, not a read of the whole file.
func TestPackagesGoModBounded(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	writeFileT(t, big, "module example.com/big\n"+strings.Repeat("// padding\n", 200_000))
	if err := os.Symlink(big, filepath.Join(dir, "go.mod")); err != nil {
		t.Fatal(err)
	}
	book := filepath.Join(dir, "book")
	writeFileT(t, filepath.Join(book, "book.yaml"), "packages:\n  - example.com/big/lib\n")
	ps, ds := ReadPackages(book)
	if ps != nil || len(ds) != 1 || !strings.Contains(ds[0].Msg, "larger than 1 MiB, the limit on a go.mod file") {
		t.Fatalf("a 2 MB go.mod: packages %v, diagnostics %v", ps, ds)
	}
}
