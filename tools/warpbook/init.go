package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"

	"github.com/warpbook/warpbook/internal/source"
	"github.com/warpbook/warpbook/tools/warpbook/internal/newbook"
)

var initCommand = command{
	summary: "start a book in a directory of its own, with a CI workflow",
	usage: `usage: warpbook init [flags] DIR

Init writes a small book into DIR/book (SUMMARY.md, book.yaml, a chapter
with snippets, a checked value and an interview question) and a GitHub
Actions workflow, DIR/.github/workflows/book.yml, that runs warpbook test
on every push and pull request and publishes warpbook build to GitHub
Pages from main. It creates DIR if needed and refuses one that is not
empty unless -force is given; it never replaces a file.`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		force := fs.Bool("force", false, "write into a directory that is not empty (existing files are kept)")
		return func(args []string) int {
			if len(args) != 1 {
				return c.usagef("want one directory, not %d arguments", len(args))
			}
			return initBook(c, args[0], *force)
		}
	},
}

// initBook writes a new book into dir and says what to run next.
func initBook(c *cli, dir string, force bool) int {
	written, kept, err := newbook.Write(dir, newbook.Options{Install: installArg(), GoVersion: goRelease(), Force: force})
	for _, p := range written {
		fmt.Fprintf(c.stdout, "wrote %s\n", filepath.Join(dir, filepath.FromSlash(p)))
	}
	for _, p := range kept {
		fmt.Fprintf(c.stdout, "kept  %s (already there)\n", filepath.Join(dir, filepath.FromSlash(p)))
	}
	if err != nil {
		return c.failf("%v", err)
	}
	fmt.Fprintf(c.stdout, "next: cd %s && warpbook test && warpbook serve\n", dir)
	return 0
}

// installArg is what the workflow gives go install: this executable's
// own release when it is one (not a local build's pseudo-version, whose
// commit may be nowhere public), else the latest.
func installArg() string {
	v := "latest"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == source.Module && semver.IsValid(bi.Main.Version) && semver.Build(bi.Main.Version) == "" && !module.IsPseudoVersion(bi.Main.Version) {
		v = bi.Main.Version
	}
	return source.Module + "/tools/warpbook@" + v
}

// goRelease is the Go release this executable was built with, as
// "1.26": the workflow builds warpbook and its kernels with it.
func goRelease() string {
	v := strings.TrimPrefix(runtime.Version(), "go")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return "stable"
	}
	return parts[0] + "." + strings.Fields(parts[1])[0]
}
