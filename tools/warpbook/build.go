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
	"github.com/warpbook/warpbook/site/pdf"
	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

var buildCommand = command{
	summary: "build the book into a static site",
	usage: `usage: warpbook build [flags] [book]

Build parses, runs and verifies every page of the book (default: book), then
renders the site into -o. On any failing snippet, broken link or malformed
page it prints every problem at once, writes nothing and exits 1. It
compiles the book's CUDA cells with NVIDIA's toolkit and checks what they
record; without a toolkit it says so once and shows them as recorded
(--require-cuda fails instead). When neither the book nor the tool (nor
the toolkit) changed since the last build into -o, it does nothing
(--force rebuilds).`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		book := fs.String("book", "book", "book `directory` (or give it as the argument): Markdown pages, SUMMARY.md, book.yaml")
		out := fs.String("o", "_site", "output `directory`, replaced atomically")
		strict := fs.Bool("strict", false, "refuse to build while any page is a draft")
		force := fs.Bool("force", false, "rebuild even when nothing changed")
		liveKernel := fs.Bool("live", true, "build the browser kernel and the practice module, so that readers can run and edit the snippets and generate problems (needs the Go toolchain and the warpbook module)")
		format := fs.String("format", "text", "report format: text or github (workflow annotations, with paths from the repository's top)")
		toPDF := fs.Bool("pdf", false, "also print the print edition to book.pdf in the site, with Chromium (skipped, with a message, without one)")
		requireCUDA := fs.Bool("require-cuda", false, requireCUDAUsage)
		return func(args []string) int {
			if code, ok := c.bookArg(book, args); !ok {
				return code
			}
			if *format != "text" && *format != "github" {
				return c.usagef("-format must be text or github, not %q", *format)
			}
			return buildBook(context.Background(), c, *book, *out, buildFlags{strict: *strict, force: *force, pdf: *toPDF, live: *liveKernel, requireCUDA: *requireCUDA, github: *format == "github"})
		}
	},
}

// buildFlags are the build command's options.
type buildFlags struct {
	strict, force, pdf, live bool
	requireCUDA              bool
	github                   bool // report as workflow annotations
}

// buildBook builds the book in dir into out and reports like the build
// command.
func buildBook(ctx context.Context, c *cli, dir, out string, f buildFlags) int {
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
	k := &countingKernel{Kernel: newKernel()}
	// The book's packages (the site reports what is wrong with the list).
	pkgs, _ := snippets.ReadPackages(dir)
	k.Packages = func(*page.Page) *snippets.Packages { return pkgs }
	var noCUDA error
	k.CUDA, noCUDA = findCUDA(ctx, k.CacheDir)
	cudaName := ""
	switch {
	case k.CUDA != nil:
		cudaName = k.CUDA.Toolkit.String()
	case f.requireCUDA:
		return c.failf("--require-cuda: no CUDA toolkit to compile the book's CUDA cells: %v", noCUDA)
	}
	opts := site.Options{
		Dir:        dir,
		Strict:     f.strict,
		Kernel:     k,
		CUDA:       cudaName,
		Figures:    newFigures(),
		Live:       newLive(f.live, ""),
		Practice:   newLive(f.live, live.PracticePackage),
		Progress:   prog.update,
		Provenance: provenance(dir),
		Warnf: func(format string, args ...any) {
			prog.clear()
			if f.github {
				fmt.Fprintf(c.stdout, "::warning::%s\n", snippets.GitHubData(fmt.Sprintf(format, args...)))
				return
			}
			fmt.Fprintf(c.stderr, "warning: "+format+"\n", args...)
		},
	}
	if f.pdf {
		if _, err := pdf.Browser(); err != nil {
			fmt.Fprintf(c.stderr, "warpbook build: not printing book.pdf: %v\n", err)
		} else {
			date := opts.Provenance.Date
			opts.PDF = func(ctx context.Context, dir string) ([]byte, error) { return pdf.Print(ctx, dir, date) }
		}
	}
	s, upToDate, err := site.BuildDir(ctx, root.FS(), out, opts, f.force)
	prog.clear()
	pruneCache()
	stdout, stderr := c.stdout, c.stderr
	reportUncompiled(c, int(k.uncompiled.Load()), noCUDA)
	if upToDate {
		fmt.Fprintf(stdout, "%s is up to date\n", out)
		return 0
	}
	if err != nil && s != nil {
		fmt.Fprintf(stderr, "warpbook build: built %s into %s, but %v\n", plural(s.Pages, "page", "pages"), out, err)
		return 1
	}
	if err != nil {
		var list page.Diagnostics
		if errors.As(err, &list) {
			if f.github {
				snippets.WriteGitHubErrors(stdout, list, repoRoot())
			} else {
				list.Write(stderr)
			}
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
	if p, ok := s.Files["book.pdf"]; ok {
		fmt.Fprintf(stdout, "printed the print edition to %s (%d KB)\n", filepath.Join(out, "book.pdf"), len(p)/1024)
	}
	if abs, err := filepath.Abs(filepath.Join(out, "index.html")); err == nil && !f.github {
		fmt.Fprintf(stdout, "open %s, or preview with: warpbook serve\n", (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String())
	}
	return 0
}

// seconds writes a duration as the summaries do: "3.2s".
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// newLive returns what builds the browser kernel, or with pkg the module
// of that main package (nil without one), with its cache in the user's
// cache directory.
func newLive(on bool, pkg string) func(context.Context) (*live.Kernel, error) {
	if !on {
		return nil
	}
	b := &live.Builder{Package: pkg}
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
