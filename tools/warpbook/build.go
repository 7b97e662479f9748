package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/snippets"
)

var buildCommand = command{
	summary: "build the book into a static site",
	usage: `usage: warpbook build [flags] [book]

Build parses, runs and verifies every page of the book (default: book), then
renders the site into -o. On any failing snippet, broken link or malformed
page it prints every problem at once, writes nothing and exits 1. When
neither the book nor the tool changed since the last build into -o, it does
nothing (--force rebuilds).`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		book := fs.String("book", "book", "book `directory` (or give it as the argument): Markdown pages, SUMMARY.md, book.yaml")
		out := fs.String("o", "_site", "output `directory`, replaced atomically")
		strict := fs.Bool("strict", false, "refuse to build while any page is a draft")
		force := fs.Bool("force", false, "rebuild even when nothing changed")
		liveKernel := fs.Bool("live", true, "build the browser kernel, so that readers can run and edit the snippets (needs the Go toolchain and the warpbook module)")
		return func(args []string) int {
			switch len(args) {
			case 0:
			case 1:
				*book = args[0]
			default:
				return c.usagef("want one book directory, not %d arguments", len(args))
			}
			return buildBook(context.Background(), c, *book, *out, *strict, *force, *liveKernel)
		}
	},
}

// buildBook builds the book in dir into out and reports like the build
// command.
func buildBook(ctx context.Context, c *cli, dir, out string, strict, force, liveKernel bool) int {
	start := time.Now()
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return c.failf("%s is not a directory", dir)
	}
	// The book is read through an os.Root, which refuses any path or link
	// that leaves the directory.
	root, err := os.OpenRoot(dir)
	if err != nil {
		return c.failf("%v", err)
	}
	defer root.Close()
	// A build is short and allocates much that lives until the end: fewer
	// collections make it faster.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	prog := newProgress(c.stderr, "pages verified")
	s, upToDate, err := site.BuildDir(ctx, root.FS(), out, site.Options{
		Dir:      dir,
		Strict:   strict,
		Kernel:   newKernel(),
		Figures:  newFigures(),
		Live:     newLive(liveKernel),
		Progress: prog.update,
		Warnf: func(format string, args ...any) {
			prog.clear()
			fmt.Fprintf(c.stderr, "warning: "+format+"\n", args...)
		},
	}, force)
	prog.clear()
	pruneCache()
	stdout, stderr := c.stdout, c.stderr
	if upToDate {
		fmt.Fprintf(stdout, "%s is up to date\n", out)
		return 0
	}
	if err != nil {
		var list snippets.Diagnostics
		if errors.As(err, &list) {
			list.Write(stderr)
			fmt.Fprintf(stderr, "warpbook build: %s; nothing written\n", plural(len(list), "error", "errors"))
		} else {
			fmt.Fprintf(stderr, "warpbook build: %v; nothing written\n", err)
		}
		return 1
	}
	drafts := ""
	if n := len(s.Drafts); n > 0 {
		drafts = fmt.Sprintf(" (%s)", plural(n, "draft", "drafts"))
	}
	fmt.Fprintf(stdout, "built %s%s into %s in %s\n", plural(s.Pages, "page", "pages"), drafts, out, seconds(time.Since(start)))
	if abs, err := filepath.Abs(filepath.Join(out, "index.html")); err == nil {
		fmt.Fprintf(stdout, "open %s, or preview with: warpbook serve\n", (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String())
	}
	return 0
}

// seconds writes a duration as the summaries do: "3.2s".
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1fs", d.Seconds())
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
