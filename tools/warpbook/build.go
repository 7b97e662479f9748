package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/pdf"
	"github.com/warpbook/warpbook/snippets"
)

func runBuild(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("build", flag.ContinueOnError)
	fset.SetOutput(stderr)
	book := fset.String("book", "book", "book `directory`: Markdown pages, SUMMARY.md, book.yaml")
	out := fset.String("o", "_site", "output `directory`, replaced atomically")
	strict := fset.Bool("strict", false, "refuse to build while any page is a draft")
	force := fset.Bool("force", false, "rebuild even when nothing changed")
	toPDF := fset.Bool("pdf", false, "also print the print edition to DIR/book.pdf with Chromium (skipped, with a message, without one)")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: warpbook build [--book DIR] [-o DIR] [--strict] [--force] [--pdf]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Build parses, runs and verifies every page of the book, then renders the")
		fmt.Fprintln(stderr, "site. On any failing snippet or broken link it writes nothing and exits 1.")
		fmt.Fprintln(stderr)
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if fset.NArg() > 0 {
		fset.Usage()
		return 2
	}
	return buildBook(context.Background(), *book, *out, buildFlags{strict: *strict, force: *force, pdf: *toPDF}, stdout, stderr)
}

// buildFlags are the build command's options.
type buildFlags struct {
	strict, force, pdf bool
}

// buildBook builds the book in dir into out and reports like the build
// command.
func buildBook(ctx context.Context, dir, out string, f buildFlags, stdout, stderr io.Writer) int {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "warpbook build: %s is not a directory\n", dir)
		return 1
	}
	// The book is read through an os.Root, which refuses any path or link
	// that leaves the directory.
	root, err := os.OpenRoot(dir)
	if err != nil {
		fmt.Fprintf(stderr, "warpbook build: %v\n", err)
		return 1
	}
	defer root.Close()
	// A build is short and allocates much that lives until the end: fewer
	// collections make it faster.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	opts := site.Options{
		Dir:        dir,
		Strict:     f.strict,
		Kernel:     newKernel(),
		Provenance: provenance(dir),
		Warnf: func(format string, args ...any) {
			fmt.Fprintf(stderr, "warning: "+format+"\n", args...)
		},
	}
	if f.pdf {
		if _, err := pdf.Browser(); err != nil {
			fmt.Fprintf(stderr, "warpbook build: not printing book.pdf: %v\n", err)
		} else {
			date := opts.Provenance.Date
			opts.PDF = func(ctx context.Context, dir string) ([]byte, error) { return pdf.Print(ctx, dir, date) }
		}
	}
	s, upToDate, err := site.BuildDir(ctx, root.FS(), out, opts, f.force)
	if upToDate {
		fmt.Fprintf(stdout, "%s is up to date\n", out)
		return 0
	}
	if err != nil && s != nil {
		fmt.Fprintf(stderr, "warpbook build: built %s into %s, but %v\n", sitePlural(s.Pages, "page", "pages"), out, err)
		return 1
	}
	if err != nil {
		var list snippets.Diagnostics
		if errors.As(err, &list) {
			list.Write(stderr)
			fmt.Fprintf(stderr, "warpbook build: %s; nothing written\n", sitePlural(len(list), "error", "errors"))
		} else {
			fmt.Fprintf(stderr, "warpbook build: %v; nothing written\n", err)
		}
		return 1
	}
	drafts := ""
	if n := len(s.Drafts); n > 0 {
		drafts = fmt.Sprintf(" (%s)", sitePlural(n, "draft", "drafts"))
	}
	fmt.Fprintf(stdout, "built %s%s into %s\n", sitePlural(s.Pages, "page", "pages"), drafts, out)
	if p, ok := s.Files["book.pdf"]; ok {
		fmt.Fprintf(stdout, "printed the print edition to %s (%d KB)\n", filepath.Join(out, "book.pdf"), len(p)/1024)
	}
	return 0
}

func sitePlural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// newKernel returns the snippet kernel the build runs pages through, with
// its result cache in the user's cache directory.
func newKernel() site.Kernel {
	k := &snippets.Kernel{}
	if d, err := snippets.DefaultCacheDir(); err == nil {
		k.CacheDir = d
	}
	return k
}
