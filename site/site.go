// Package site renders a book of Markdown pages into a static web site
// that works offline, from a web server or straight from a folder.
//
// # Books
//
// A book is a directory (any [fs.FS]) of Markdown files. book.yaml holds
// the [Settings]. SUMMARY.md, in mdBook's format, orders the chapters: an
// optional "# Summary" title, prefix chapters as plain links, "# Part"
// titles, numbered chapters as nested lists of links, "---" separators
// and suffix chapters. A draft chapter is written [Title]() and listed
// without a page. Without SUMMARY.md every .md file is a chapter, in path
// order. README.md and index.md become index.html; every other page
// <path>.md becomes <path>.html. Files and folders whose names start with
// "." or "_" are ignored.
//
// Each page may open with YAML front matter between "---" lines (see
// [page.FrontMatter]). The title comes from the front matter, else from the
// page's first heading. A page without a named author and a different
// named reviewer in its byline, or whose byline status is "draft" or
// "review", is a draft: it carries a visible banner, and [Options.Strict] refuses to
// build while any page is a draft.
//
// # Glossary and questions
//
// glossary/<slug>.md is a glossary entry (front matter term, short,
// aliases, related). The first mention of a term or an alias in each other
// page is linked to its entry, and each entry lists the sections that
// mention it. questions/<id>.md is an interview question (front matter
// question, difficulty, tags, section); its body is the short answer,
// then a "## Deep dive" heading and the long answer. The site makes
// glossary/index.html, questions/index.html and one page per question tag.
//
// # Links
//
// Pages link to each other with relative links to the .md files
// ("occupancy.md#the-cliffs"); the site rewrites them to .html. Every
// internal link and anchor is checked, and so is every local file a page
// links to; a page may not load anything from outside the book.
//
// # Figures
//
// A fenced block with the info string "figure" holds YAML that names a
// figure kind and its parameters; the site draws it from the engine at
// build time as inline SVG. See package [github.com/warpbook/warpbook/site/figure].
//
// # Output
//
// [Build] returns the whole site in memory; [Site.Write] replaces an
// output directory with it atomically. The same book always gives the
// same bytes.
package site

import (
	"bytes"
	"context"
	"html"
	"io/fs"
	"runtime"
	"strings"
	"sync"

	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/snippets"
)

// Options configure a build.
type Options struct {
	// Dir is the book directory as the user named it; messages name files
	// as Dir joined with their path in the book ("book/occupancy.md").
	Dir string
	// Strict refuses to build while any page is a draft.
	Strict bool
	// Kernel runs and verifies the pages' snippets. Nil runs nothing: runnable
	// snippets are shown with their expected output, marked as not verified
	// (for tests of the site itself).
	Kernel Kernel
	// Figures draws the figures (and may keep them between builds). Nil
	// draws each figure once for this build.
	Figures *Figures
	// Progress, when not nil, is told how many of the pages with snippets
	// are verified, each time one more is.
	Progress func(done, total int)
	// Warnf receives warnings that do not fail the build. Nil drops them.
	Warnf func(format string, args ...any)
	// Cache keeps parsed pages, verified results and highlighted code
	// between builds with the same options (see [Cache]). Nil keeps
	// nothing.
	Cache *Cache
	// Live returns the browser kernel, which lets readers run and edit the
	// snippets (see package live); it is called once, and only when a page
	// has a snippet or a figure. Nil, or an error (said once, as a
	// warning), builds the site without Run.
	Live func(context.Context) (*live.Kernel, error)
	// Practice returns the practice page's module (see package live,
	// Builder.Package), which generates and grades its problems; it is
	// called once, and only when the book has a practice page. Nil, or an
	// error (said once, as a warning), builds the page without them.
	Practice func(context.Context) (*live.Kernel, error)
	// Provenance says where the book's source comes from (see
	// [Provenance]); the pages show it to readers.
	Provenance Provenance
	// CUDA names the toolkit the kernel compiles the pages' CUDA cells
	// with ("" for none): a build with another toolkit, or without one,
	// does not reuse the last one's site.
	CUDA string
	// PDF, when set, prints a written site's print edition (print.html in
	// dir) to PDF, as package site/pdf does; [BuildDir] writes it into
	// the site as book.pdf.
	PDF func(ctx context.Context, dir string) ([]byte, error)
}

// A Site is a built site: every output file by its slash-separated path.
type Site struct {
	Files    map[string][]byte // file contents by slash-separated output path
	Pages    int               // number of HTML pages
	Drafts   []string          // source paths of the draft pages
	Warnings []string          // problems that did not fail the build

	notFound []byte // 404.html with its links rooted at rootToken
	hash     string // the hash of the book's files as the build read them (bookData)
}

// NotFound returns the 404 page with its links starting from root, the
// URL path the site is served from ("/" for a server's root), so that it
// works as the answer for a missing page at any depth. Files["404.html"]
// is the same page rooted at the book's site_url, or relative when the
// book has none.
func (s *Site) NotFound(root string) []byte {
	if s.notFound == nil {
		return s.Files["404.html"]
	}
	if !strings.HasSuffix(root, "/") {
		root += "/"
	}
	return bytes.ReplaceAll(s.notFound, []byte(rootToken), []byte(html.EscapeString(root)))
}

// rootToken stands for the site's root in the links of the 404 page until
// the root is known.
const rootToken = "/__warpbook_root__/"

// build is the state of one build. buildSite runs its stages in order;
// each fills in its part of the state, which the later ones read.
type build struct {
	ctx       context.Context
	opts      Options
	fsys      fs.FS
	report    // what the stages find wrong (report.go)
	siteFiles // what they make (sitefiles.go)

	cache   *Cache   // parsed pages, results and highlighted code, kept for the next build if Options.Cache is set
	figures *Figures // draws the figures, each once

	// Read by load (load.go).
	book     bookData             // the one read of the book's files
	settings Settings             // book.yaml
	pkgs     *snippets.Packages   // the book's packages book.yaml lists; nil: none
	base     string               // URL path of the site from site_url, ending in "/"; "" if unset
	files    map[string]bool      // non-Markdown files of the book
	pages    []*htmlPage          // every page, in output path order once structure has run
	bySrc    map[string]*htmlPage // by source path

	// Arranged by structure (structure.go) and numberFloats (floats.go).
	order     []*htmlPage // reading order, for previous/next
	nav       []*navItem
	glossary  []*htmlPage // by term
	questions []*htmlPage // by section order, then id
	practice  *htmlPage   // practice.html; nil for a book with nothing to practise
	tags      map[string][]*htmlPage
	inPrint   map[*htmlPage]bool
	printList []*htmlPage
	numbered  map[string]*numbered // figures and tables by the ids references name

	// Found by live (livepage.go) and practiceModule (practice.go): the
	// browser kernel and the practice page's module, or why there is none.
	kernel         *live.Kernel
	liveOff        string
	practiceKernel *live.Kernel
	practiceOff    string

	// Made by render (layout.go); checkLinks (finish.go) reads links.
	mu       sync.Mutex        // guards sidebars and links
	sidebars map[string]string // sidebar HTML by output directory
	links    []linkRef
	notFound []byte // 404.html with its links rooted at rootToken
}

// Build reads the book in fsys, runs and verifies its snippets through the
// kernel, and renders the site. It runs every check it can, and content
// errors come back together, sorted, as [page.Diagnostics]; then no site
// is returned.
func Build(ctx context.Context, fsys fs.FS, opts Options) (*Site, error) {
	return buildSite(ctx, fsys, opts, nil)
}

// buildSite is [Build], handing each file of the site to emit (when not
// nil) as soon as it is made, so that it can be written while the build
// goes on; a later file under the same name replaces it.
func buildSite(ctx context.Context, fsys fs.FS, opts Options, emit func(name string, data []byte)) (*Site, error) {
	b := &build{
		ctx:       ctx,
		opts:      opts,
		fsys:      fsys,
		report:    report{dir: opts.Dir, onWarn: opts.Warnf},
		siteFiles: siteFiles{out: map[string][]byte{}, emit: emit, used: map[string]bool{}},

		figures:  opts.Figures,
		cache:    opts.Cache,
		bySrc:    map[string]*htmlPage{},
		tags:     map[string][]*htmlPage{},
		sidebars: map[string]string{},
	}
	if b.figures == nil {
		b.figures = &Figures{}
	}
	if b.cache == nil {
		b.cache = &Cache{}
	}
	b.cache.begin()
	steps := []func() error{
		b.load,
		b.structure,
		b.numberFloats,
		b.runCells,
		b.live,
		b.practiceModule,
		b.linkGlossary,
		b.render,
		b.checkLinks,
		b.finish,
	}
	// Every step runs, so that one build reports every problem (a failing
	// snippet does not hide a broken link); the steps after one that
	// failed work with what it left.
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	if len(b.errs) > 0 {
		return nil, b.errs.Sorted()
	}
	s := &Site{Files: b.out, Warnings: b.warns, notFound: b.notFound, hash: b.book.hash}
	for _, p := range b.pages {
		if p.draft != "" {
			s.Drafts = append(s.Drafts, p.path)
		}
	}
	for name := range b.out {
		if strings.HasSuffix(name, ".html") {
			s.Pages++
		}
	}
	return s, nil
}

// highlight returns highlighted HTML for code, computed once per build.
func (b *build) highlight(lang, code string) string {
	type key struct{ lang, code string }
	return b.cache.memo(key{lang, code}, func() any { return highlight(lang, code) }).(string)
}

// parallel calls f for each item (a page, a file) on all CPUs.
func parallel[T any](items []T, f func(T)) {
	var wg sync.WaitGroup
	ch := make(chan T)
	for range min(runtime.GOMAXPROCS(0), max(len(items), 1)) {
		wg.Go(func() {
			for x := range ch {
				f(x)
			}
		})
	}
	for _, x := range items {
		ch <- x
	}
	close(ch)
	wg.Wait()
}
