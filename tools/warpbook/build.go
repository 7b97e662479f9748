package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/snippets"
)

func runBuild(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("build", flag.ContinueOnError)
	fset.SetOutput(stderr)
	book := fset.String("book", "book", "book `directory`: Markdown pages, SUMMARY.md, book.yaml")
	out := fset.String("o", "_site", "output `directory`, replaced atomically")
	strict := fset.Bool("strict", false, "refuse to build while any page is a draft")
	force := fset.Bool("force", false, "rebuild even when nothing changed")
	liveKernel := fset.Bool("live", true, "build the browser kernel, so that readers can run and edit the snippets (needs the Go toolchain and the warpbook module)")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: warpbook build [--book DIR] [-o DIR] [--strict] [--force] [--live=false]")
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
	return buildBook(context.Background(), *book, *out, *strict, *force, *liveKernel, stdout, stderr)
}

// buildBook builds the book in dir into out and reports like the build
// command.
func buildBook(ctx context.Context, dir, out string, strict, force, liveKernel bool, stdout, stderr io.Writer) int {
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
	s, upToDate, err := site.BuildDir(ctx, root.FS(), out, site.Options{
		Dir:     dir,
		Strict:  strict,
		Kernel:  newKernel(),
		Figures: newFigures(),
		Live:    newLive(liveKernel),
		Warnf: func(format string, args ...any) {
			fmt.Fprintf(stderr, "warning: "+format+"\n", args...)
		},
	}, force)
	if upToDate {
		fmt.Fprintf(stdout, "%s is up to date\n", out)
		return 0
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
	return 0
}

func sitePlural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// newLive returns what builds the browser kernel (nil without one), with
// its cache in the user's cache directory.
func newLive(on bool) func(context.Context) (*live.Kernel, error) {
	if !on {
		return nil
	}
	b := &live.Builder{}
	if d, err := live.DefaultCacheDir(); err == nil {
		b.CacheDir = d
	}
	return b.Kernel
}

// newKernel returns the snippet kernel the build runs pages through, with
// its result cache in the user's cache directory.
func newKernel() *snippets.Kernel {
	k := &snippets.Kernel{}
	if d, err := snippets.DefaultCacheDir(); err == nil {
		k.CacheDir = d
	}
	return k
}

// newFigures returns what draws the build's figures, keeping them in the
// user's cache directory.
func newFigures() *site.Figures {
	f := &site.Figures{}
	if d, err := snippets.DefaultCacheDir(); err == nil {
		f.CacheDir = d
	}
	return f
}
