package site_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/snippets"
)

// TestPackagesRebuild builds a book whose cell imports the book's own
// package with a kernel that was not given the packages (the site gives
// them), then edits the package alone: the rebuild through the same
// Cache runs the unchanged page again, and fails on its output.
func TestPackagesRebuild(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), src)
	}
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	write("lib/h/h.go", "// Package h answers.\npackage h\n\n// Answer answers.\nfunc Answer() int { return 42 }\n")
	write("book/book.yaml", "title: m\npackages:\n  - example.com/m/lib/h\n")
	write("book/index.md", "# M\n\n```go run id=answer\nimport (\n\t\"fmt\"\n\n\t\"example.com/m/lib/h\"\n)\n\nfmt.Println(h.Answer())\n```\n\n```output\n42\n```\n")
	book := filepath.Join(dir, "book")
	cache := &site.Cache{}
	opts := site.Options{Dir: book, Kernel: &snippets.Kernel{InProcess: true}, Cache: cache}
	if _, err := site.Build(context.Background(), os.DirFS(book), opts); err != nil {
		t.Fatalf("build: %v", err)
	}
	write("lib/h/h.go", "// Package h answers.\npackage h\n\n// Answer answers.\nfunc Answer() int { return 43 }\n")
	_, err := site.Build(context.Background(), os.DirFS(book), opts)
	if err == nil || !strings.Contains(err.Error(), "output differs") {
		t.Fatalf("the rebuild after the package changed: %v, want the cell's output to differ", err)
	}
}
