package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

var testCommand = command{
	summary: "run the snippets of Markdown pages and check their outputs",
	usage: `usage: warpbook test [flags] [path ...]

Runs the Go snippets of Markdown pages, checks what they print against the
pages' output blocks, checks their prose values and figures, and reports
every difference as file.md:LINE:COL with a diff. It compiles the pages'
CUDA cells with NVIDIA's toolkit and checks the resources and SASS they
record; without a toolkit it says so once and leaves them as recorded
(--require-cuda fails instead). Paths are .md files or directories
(searched for *.md); the default is book. A directory is also checked as
build checks a book (links, anchors, figure and table ids, questions'
sections, SUMMARY.md, book.yaml), by the same code. Each page is reported
as soon as it is verified.

Exit status: 0 all pass, 1 any failure, 2 a usage error or a malformed page
(the other pages still run).`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		var o testOptions
		fs.StringVar(&o.run, "run", "", "run only the snippets and checked values whose id matches this regular expression (the ones above still run, silently)")
		fs.BoolVar(&o.verbose, "v", false, "print every snippet's status")
		fs.BoolVar(&o.json, "json", false, "print test2json-style events")
		fs.StringVar(&o.format, "format", "text", "report format: text or github (workflow annotations)")
		fs.BoolVar(&o.update, "update", false, "rewrite the output blocks of snippets whose output differs, and the resources and sass blocks of CUDA cells that differ from their compile")
		fs.BoolVar(&o.requireCUDA, "require-cuda", false, requireCUDAUsage)
		fs.BoolVar(&o.native, "native", false, "also compile every page's snippets with the Go toolchain, run them and compare")
		fs.DurationVar(&o.timeout, "timeout", snippets.DefaultTimeout, "time limit per snippet (timeout= overrides)")
		fs.StringVar(&o.cache, "cache", "", `result cache directory (default: the user cache directory's warpbook; "off" disables it)`)
		fs.IntVar(&o.jobs, "j", 0, "pages to run at once (default: the number of CPUs)")
		return func(args []string) int { return runTest(c, o, args) }
	},
}

// testOptions are the flags of warpbook test.
type testOptions struct {
	run, format, cache string
	verbose, json      bool
	update, native     bool
	requireCUDA        bool
	timeout            time.Duration
	jobs               int
}

func runTest(c *cli, o testOptions, paths []string) int {
	start := time.Now()
	stdout, stderr := c.stdout, c.stderr
	if o.format != "text" && o.format != "github" {
		return c.usagef("-format must be text or github, not %q", o.format)
	}
	k := &snippets.Kernel{Timeout: o.timeout, Native: o.native, Jobs: o.jobs}
	if o.run != "" {
		re, err := regexp.Compile(o.run)
		if err != nil {
			return c.usagef("-run: %v", err)
		}
		k.Filter = re.MatchString
	}
	switch o.cache {
	case "off":
	case "":
		d, err := snippets.DefaultCacheDir()
		if err == nil {
			k.CacheDir = d
		}
	default:
		k.CacheDir = o.cache
	}
	if len(paths) == 0 {
		paths = []string{"book"}
	}
	files, err := markdownFiles(paths)
	if err != nil {
		return c.failf("%v", err)
	}
	pages, code := parsePages(files, stderr)
	if pages == nil {
		return code
	}
	pkgs, pkgProblems := bookPackages(files)
	k.Packages = func(p *page.Page) *snippets.Packages { return pkgs[p.Path] }
	var noCUDA error
	if hasCUDA(pages) {
		k.CUDA, noCUDA = findCUDA(context.Background(), k.CacheDir)
		if k.CUDA == nil && o.requireCUDA {
			return c.failf("--require-cuda: no CUDA toolkit to compile the pages' CUDA cells: %v", noCUDA)
		}
	}
	uncompiledCells := 0
	// Figures are drawn from the engine as build draws them, so that test
	// reports a figure's error as build does (and remembers what it drew).
	figures := &site.Figures{CacheDir: k.CacheDir}
	// Every directory is checked as a book, by build's own code, unless
	// -run narrows the run to some snippets.
	var book map[string]page.Diagnostics
	if k.Filter == nil {
		var err error
		if book, err = checkBooks(paths, figures); err != nil {
			return c.failf("%v", err)
		}
	}
	if book == nil {
		book = map[string]page.Diagnostics{}
	}
	for file, ds := range pkgProblems {
		// The book's check (build's code) reports them too.
		for _, d := range ds {
			if !slices.ContainsFunc(book[file], func(e *page.Diagnostic) bool { return e.Error() == d.Error() }) {
				book[file] = append(book[file], d)
			}
		}
	}
	root := ""
	if o.format == "github" {
		root = repoRoot()
	}
	var results []*snippets.PageResult
	failed := false
	report := func(r *snippets.PageResult) {
		results = append(results, r)
		for _, c := range r.CUDA {
			if uncompiled(c) {
				uncompiledCells++
			}
		}
		if k.Filter == nil && len(r.Page.Diagnostics) == 0 && r.Page.Doc != nil {
			r.Diagnostics = append(r.Diagnostics, figures.Check(r.Page)...)
		}
		r.Diagnostics = append(r.Diagnostics, newDiagnostics(book[r.Page.Path], r.AllDiagnostics())...)
		delete(book, r.Page.Path)
		if o.update {
			ids, err := snippets.UpdateFile(r)
			if err != nil {
				code = max(code, c.failf("%v", err))
			}
			if len(ids) > 0 {
				fmt.Fprintf(stderr, "updated %s: %s\n", r.Page.Path, strings.Join(ids, ", "))
				markUpdated(r, ids)
			}
		}
		one := []*snippets.PageResult{r}
		switch {
		case o.json:
			if err := snippets.WriteJSON(stdout, one, time.Now); err != nil {
				code = max(code, c.failf("%v", err))
			}
		case o.format == "github":
			snippets.WriteGitHub(stdout, one, root)
		default:
			snippets.WriteText(stdout, one, o.verbose)
		}
		failed = failed || r.Failed()
	}
	// Each page is reported as soon as it and the pages before it are
	// verified: as they finish, in a deterministic order.
	done := make([]*snippets.PageResult, len(pages))
	next := 0
	prog := newProgress(stderr, "pages verified")
	k.Stream(context.Background(), pages, func(i int, r *snippets.PageResult) {
		done[i] = r
		prog.clear()
		for ; next < len(done) && done[next] != nil; next++ {
			report(done[next])
		}
		prog.update(next, len(done))
	})
	prog.clear()
	// What the book checks found in files that are no page (book.yaml).
	for _, file := range slices.Sorted(maps.Keys(book)) {
		report(&snippets.PageResult{Page: &page.Page{Path: file}, Diagnostics: book[file]})
	}
	if k.CacheDir != "" {
		pruneCache()
	}
	reportUncompiled(c, uncompiledCells, noCUDA)
	s := snippets.Summarize(results)
	if k.Filter != nil && s.Pass+s.Fail+s.Skip == 0 {
		// As go test does for a -run that matches no test.
		fmt.Fprintf(stderr, "warpbook test: warning: -run %q matches no snippet or checked value\n", o.run)
	}
	if !o.json {
		warn := ""
		switch {
		case s.Warn > 0 && o.verbose:
			warn = fmt.Sprintf(", %d warnings", s.Warn)
		case s.Warn > 0:
			warn = fmt.Sprintf(", %d warnings (-v lists them)", s.Warn)
		}
		fmt.Fprintf(stdout, "%d pages: %d passed, %d failed, %d skipped%s in %s\n", s.Pages, s.Pass, s.Fail, s.Skip, warn, seconds(time.Since(start)))
	}
	switch {
	case code == 2:
		return 2
	case failed || code != 0:
		return 1
	}
	return 0
}

// markUpdated records that -update fixed the given cells.
func markUpdated(r *snippets.PageResult, ids []string) {
	for _, c := range r.Cells {
		if c != nil && slices.Contains(ids, c.ID) {
			c.Status = snippets.StatusPass
			c.Diagnostics = nil
		}
	}
	for _, c := range r.CUDA {
		if c != nil && slices.Contains(ids, c.ID) {
			c.Status = snippets.StatusPass
			c.Diagnostics = nil
		}
	}
}

// pageFile is a page to read: its path as the user will see it, and where
// to read it from. A page found in a directory is read inside that
// directory (a link out of it is refused); a page named on the command
// line is read by its path.
type pageFile struct {
	path string // as printed: the directory joined with name, or the argument
	dir  fs.FS  // the directory it was found in; nil for an argument
	name string // its slash-separated path in dir
	book string // the book's directory: the one searched, or the nearest above with book.yaml
}

// parsePages parses every file. Pages with syntax errors are kept (their
// results carry the errors) and make the exit status 2; a file that cannot
// be read (missing, not a regular file, larger than page.MaxPageBytes,
// a link out of its directory) stops everything, with exit status 1.
func parsePages(files []pageFile, stderr io.Writer) ([]*page.Page, int) {
	var pages []*page.Page
	code := 0
	for _, f := range files {
		name := f.path
		if f.dir != nil {
			name = f.name
		}
		src, err := page.ReadFile(f.dir, name, page.MaxPageBytes, "a page")
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			fmt.Fprintf(stderr, "warpbook: %s: %v\n", f.path, err)
			return nil, 1
		}
		p, err := page.Parse(f.path, src)
		if err != nil {
			code = 2
		}
		pages = append(pages, p)
	}
	return pages, code
}

// markdownFiles expands paths: files are kept, directories are searched
// for *.md (skipping hidden and _-prefixed directories).
func markdownFiles(paths []string) ([]pageFile, error) {
	var files []pageFile
	seen := map[string]bool{}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			if !seen[p] {
				seen[p] = true
				files = append(files, pageFile{path: p, book: bookDir(filepath.Dir(p))})
			}
			continue
		}
		var found []pageFile
		dir := os.DirFS(p)
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && path != p && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") && !seen[path] {
				seen[path] = true
				rel, err := filepath.Rel(p, path)
				if err != nil {
					return err
				}
				found = append(found, pageFile{path: path, dir: dir, name: filepath.ToSlash(rel), book: p})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Slice(found, func(i, j int) bool { return found[i].path < found[j].path })
		files = append(files, found...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no Markdown files in %s", strings.Join(paths, " "))
	}
	return files, nil
}

// bookDir returns the book a page in directory dir belongs to: the
// nearest directory from dir up with a book.yaml, stopping at a go.mod's
// directory; dir itself when there is none.
func bookDir(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "book.yaml")); err == nil {
			return d
		}
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Join(d, "..")
		if abs, err := filepath.Abs(up); err != nil || abs == mustAbs(d) {
			return dir
		}
		d = up
	}
}

func mustAbs(p string) string {
	a, _ := filepath.Abs(p)
	return a
}

// bookPackages loads the packages each book of files lists in book.yaml
// (see snippets.Packages) and returns them by page path, with the
// problems of the lists by file.
func bookPackages(files []pageFile) (map[string]*snippets.Packages, map[string]page.Diagnostics) {
	byBook := map[string]*snippets.Packages{}
	done := map[string]bool{}
	probs := map[string]page.Diagnostics{}
	byPage := map[string]*snippets.Packages{}
	for _, f := range files {
		if !done[f.book] {
			done[f.book] = true
			ps, ds := snippets.ReadPackages(f.book)
			byBook[f.book] = ps
			for _, d := range ds {
				probs[d.Pos.File] = append(probs[d.Pos.File], d)
			}
		}
		if ps := byBook[f.book]; ps != nil {
			byPage[f.path] = ps
		}
	}
	return byPage, probs
}

// checkBooks checks each directory of paths as build checks a book, with
// build's own code (site.Build with no kernel: snippets are not run
// there, test runs them), and returns the problems by file.
func checkBooks(paths []string, figures *site.Figures) (map[string]page.Diagnostics, error) {
	byFile := map[string]page.Diagnostics{}
	for _, dir := range paths {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		ds, err := checkBook(dir, figures)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			byFile[d.Pos.File] = append(byFile[d.Pos.File], d)
		}
	}
	return byFile, nil
}

// checkBook checks the book in dir as build does and returns its problems.
func checkBook(dir string, figures *site.Figures) (page.Diagnostics, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	_, err = site.Build(context.Background(), root.FS(), site.Options{Dir: dir, Figures: figures})
	var list page.Diagnostics
	if errors.As(err, &list) {
		return list, nil
	}
	return nil, err
}

// newDiagnostics returns the diagnostics of ds that are not in seen (the
// same position, message, diff and hint): a page's problems that the
// book's checks found beside the ones its run found.
func newDiagnostics(ds, seen page.Diagnostics) page.Diagnostics {
	key := func(d *page.Diagnostic) string { return d.Error() + "\x00" + d.Diff + "\x00" + d.Hint }
	have := map[string]bool{}
	for _, d := range seen {
		have[key(d)] = true
	}
	var out page.Diagnostics
	for _, d := range ds {
		if !have[key(d)] {
			have[key(d)] = true
			out = append(out, d)
		}
	}
	return out
}

// repoRoot returns the top directory of the git repository holding the
// working directory (the nearest directory above it with a .git), else the
// working directory: the root workflow annotations' paths start from. It
// reads no git configuration.
func repoRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return wd
		}
		d = up
	}
}
