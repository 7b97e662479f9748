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
	"cmp"
	"context"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/url"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/snippets/page"
	"github.com/yuin/goldmark/ast"
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

// basePath returns the URL path of a site_url, ending in "/".
func basePath(siteURL string) (string, error) {
	u, err := url.Parse(siteURL)
	switch {
	case err != nil:
		return "", err
	case u.RawQuery != "" || u.Fragment != "":
		return "", errors.New("want a URL or a path without a query or fragment")
	case u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" || u.Scheme != "" && u.Host == "" || u.Scheme == "" && u.Host != "":
		return "", errors.New("want an http(s) URL (https://example.org/book/) or a path (/book/)")
	case !strings.HasPrefix(u.EscapedPath(), "/") && u.Scheme == "":
		return "", errors.New("a path must start with / (/book/, or / for a site at the server's root)")
	}
	p := u.EscapedPath()
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return p, nil
}

// build is the state of one build.
type build struct {
	ctx      context.Context
	opts     Options
	fsys     fs.FS
	settings Settings

	pages     []*htmlPage          // every page, in output path order once built
	bySrc     map[string]*htmlPage // by source path
	order     []*htmlPage          // reading order, for previous/next
	nav       []*navItem
	glossary  []*htmlPage // by term
	questions []*htmlPage // by section order, then id
	practice  *htmlPage   // practice.html; nil for a book with nothing to practise
	tags      map[string][]*htmlPage
	inPrint   map[*htmlPage]bool
	printList []*htmlPage

	files    map[string]bool // non-Markdown files of the book
	mu       sync.Mutex
	used     map[string]bool   // files pages link to
	cache    *Cache            // parsed pages, results and highlighted code, kept for the next build if Options.Cache is set
	figures  *Figures          // draws the figures, each once
	sidebars map[string]string // sidebar HTML by output directory
	links    []linkRef
	errs     page.Diagnostics
	warns    []string
	out      map[string][]byte              // the site's files; put adds one
	emit     func(name string, data []byte) // told each file put makes, when not nil
	base     string                         // URL path of the site from site_url, ending in "/"; "" if unset
	notFound []byte                         // 404.html with its links rooted at rootToken
	kernel   *live.Kernel
	liveOff  string // why the site's snippets cannot run in the browser
	// practiceKernel is the practice page's module; practiceOff says why
	// there is none.
	practiceKernel *live.Kernel
	practiceOff    string
	prov           Provenance
	book           bookData             // the one read of the book's files
	numbered       map[string]*numbered // figures and tables by the ids references name
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
		ctx:   ctx,
		emit:  emit,
		opts:  opts,
		fsys:  fsys,
		bySrc: map[string]*htmlPage{},
		used:  map[string]bool{},
		tags:  map[string][]*htmlPage{},
		out:   map[string][]byte{},

		sidebars: map[string]string{},
		figures:  opts.Figures,
		cache:    opts.Cache,
		prov:     opts.Provenance,
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

// file returns the name of a book file for messages.
func (b *build) file(p string) string {
	if b.opts.Dir == "" {
		return p
	}
	return path.Join(strings.ReplaceAll(b.opts.Dir, "\\", "/"), p)
}

// errorAt reports a problem at a position.
func (b *build) errorAt(pos page.Pos, format string, args ...any) {
	b.addErrs(&page.Diagnostic{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// errorf reports a problem at a line of a file of the book (0: the file).
func (b *build) errorf(file string, line int, format string, args ...any) {
	b.addErrs(&page.Diagnostic{Pos: page.Pos{File: b.file(file), Line: line}, Msg: fmt.Sprintf(format, args...)})
}

func (b *build) addErrs(errs ...*page.Diagnostic) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errs = append(b.errs, errs...)
}

func (b *build) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	b.mu.Lock()
	b.warns = append(b.warns, msg)
	b.mu.Unlock()
	if b.opts.Warnf != nil {
		b.opts.Warnf("%s", msg)
	}
}

// put makes the site's file name. Callers that run in parallel hold b.mu.
func (b *build) put(name string, data []byte) {
	b.out[name] = data
	if b.emit != nil {
		b.emit(name, data)
	}
}

func (b *build) useFile(p string) {
	b.mu.Lock()
	b.used[p] = true
	b.mu.Unlock()
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

// load reads book.yaml and parses every page.
func (b *build) load() (err error) {
	if b.book, err = readBook(b.fsys); err != nil {
		return fmt.Errorf("read book: %w", err)
	}
	var keys map[string]page.Pos
	settings, rerr := b.read("book.yaml", page.MaxYAMLBytes, "a YAML document")
	if rerr == nil {
		var d *page.Diagnostic
		if keys, d = decodeYAML(b.file("book.yaml"), 1, settings, &b.settings); d != nil {
			b.addErrs(d)
		}
	} else if !isNotExist(rerr) {
		b.addErrs(rerr)
	}
	if b.settings.Title == "" {
		b.settings.Title = "Book"
		if d := path.Base(strings.ReplaceAll(b.opts.Dir, "\\", "/")); d != "" && d != "." && d != "/" {
			b.settings.Title = d
		}
	}
	if b.settings.Language == "" {
		b.settings.Language = "en"
	}
	if b.settings.SearchBudget == 0 {
		b.settings.SearchBudget = 300
	}
	if u := b.settings.SiteURL; u != "" {
		base, err := basePath(u)
		if err != nil {
			b.errorAt(keys["site_url"], "site_url %q: %v", u, err)
		}
		b.base = base
	}

	md, others := sourceFiles(b.book.files)
	b.files = others
	for _, p := range md {
		kind, slug := kindOf(p)
		pg := &htmlPage{path: p, out: outPath(p), kind: kind, slug: slug}
		if other := b.pageAt(pg.out); other != nil {
			b.errorf(p, 0, "%s and %s would both become %s", other.path, p, pg.out)
			continue
		}
		b.pages = append(b.pages, pg)
		b.bySrc[p] = pg
	}
	if len(b.pages) == 0 {
		return fmt.Errorf("%s: no Markdown pages", cmp.Or(b.opts.Dir, "book"))
	}
	parallel(b.pages, b.parse)
	warned := 0
	for _, p := range b.pages {
		warned += len(p.snip.Warnings())
	}
	if warned > 0 {
		b.warnf("%d numbers typed in prose are printed by snippets (warpbook test -v lists them)", warned)
	}
	return nil
}

// parse reads and parses one page (the one parse of the page, which every
// later step reads) and finds its metadata.
func (b *build) parse(p *htmlPage) {
	src, rerr := b.read(p.path, page.MaxPageBytes, "a page")
	if rerr != nil {
		// The steps after this one still run, on an empty page.
		b.addErrs(rerr)
		src = nil
	}
	p.snip = b.cache.page(b.file(p.path), src)
	b.addErrs(p.snip.Diagnostics...)
	b.meta(p)
}

// meta decodes and checks a page's front matter and finds its title,
// headings and draft state.
func (b *build) meta(p *htmlPage) {
	if p.doc() == nil {
		return
	}
	fm := p.fm()
	notFor := func(what string, keys map[string]bool) {
		for k, set := range keys {
			if set {
				b.errorAt(fm.KeyPos(k), "front matter: %q is only for %s", k, what)
			}
		}
	}
	glossaryKeys := map[string]bool{"term": fm.Term != "", "short": fm.Short != "", "aliases": len(fm.Aliases) > 0, "related": len(fm.Related) > 0}
	questionKeys := map[string]bool{"question": fm.Question != "", "difficulty": fm.Difficulty != "", "section": fm.Section != ""}
	p.tags = fm.Tags

	// Headings.
	var firstH1 string // the first h1, else the first heading
	firstLevel := 0
	first := true
	ast.Walk(p.doc(), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !ok || !entering {
			if entering && n.Kind() != ast.KindDocument && n.Type() == ast.TypeBlock && n.Kind() != page.KindFrontMatter {
				first = false
			}
			return ast.WalkContinue, nil
		}
		t := textOf(h, p.src())
		if h.Level == 1 && first {
			p.titleInDoc = true
		}
		if firstH1 == "" || h.Level == 1 && firstLevel > 1 {
			firstH1, firstLevel = t, h.Level
		}
		first = false
		p.headings = append(p.headings, heading{level: h.Level, id: headingID(h), text: t})
		return ast.WalkSkipChildren, nil
	})

	switch p.kind {
	case kindChapter:
		notFor("glossary entries (glossary/*.md)", glossaryKeys)
		notFor("questions (questions/*.md)", questionKeys)
		p.title = cmp.Or(fm.Title, firstH1)
	case kindGlossary:
		notFor("questions (questions/*.md)", questionKeys)
		if !page.ValidSlug(p.slug) {
			b.errorf(p.path, 1, "glossary file name %q: use lower-case letters, digits and hyphens", p.slug+".md")
		}
		if fm.Term == "" {
			b.errorf(p.path, p.fmLine(), "glossary entry needs a term in its front matter")
		}
		if fm.Short == "" {
			b.errorf(p.path, p.fmLine(), "glossary entry needs a short definition (short:) in its front matter")
		}
		p.title = fm.Term
		p.titleInDoc = false
		if fm.Title != "" {
			b.errorAt(fm.KeyPos("title"), "front matter: a glossary entry is titled by its term; drop title")
		}
	case kindQuestion:
		notFor("glossary entries (glossary/*.md)", glossaryKeys)
		if !page.ValidSlug(p.slug) {
			b.errorf(p.path, 1, "question file name %q: use lower-case letters, digits and hyphens (it is the question's stable id)", p.slug+".md")
		}
		if fm.Question == "" {
			b.errorf(p.path, p.fmLine(), "question needs question: in its front matter")
		}
		if !slices.Contains(page.Difficulties, fm.Difficulty) {
			b.errorAt(fm.KeyPos("difficulty"), "front matter: difficulty must be easy, medium or hard, not %q", fm.Difficulty)
		}
		if fm.Section == "" {
			b.errorf(p.path, p.fmLine(), "question needs section: the page.md#anchor that explains it")
		}
		p.title = fm.Question
		p.titleInDoc = false
	}
	if p.title == "" {
		p.title = strings.TrimSuffix(path.Base(p.path), ".md")
	}

	// Drafts.
	by := fm.Byline
	author, reviewer := strings.TrimSpace(by.Author), strings.TrimSpace(by.Reviewer)
	switch {
	case author == "":
		p.draft = "it has no named author"
	case reviewer == "":
		p.draft = "it has no named reviewer"
	case strings.EqualFold(author, reviewer):
		p.draft = "its reviewer is its author"
	case by.Status == "draft" || by.Status == "review":
		p.draft = "its byline status is " + by.Status
	}
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// read reads the book's file p, a regular file inside the book of at
// most max bytes (see [page.ReadFile]); what names the kind of file
// for the limit's message. The diagnostic is at p; it wraps
// fs.ErrNotExist when p does not exist.
func (b *build) read(p string, max int64, what string) ([]byte, *page.Diagnostic) {
	if data, ok := b.book.data[p]; ok && int64(len(data)) <= max {
		return data, nil
	}
	data, err := page.ReadFile(b.fsys, p, max, what)
	if err == nil {
		return data, nil
	}
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	if errors.Is(err, page.ErrOutside) {
		msg += "; pages and the files they link to must be inside the book"
	}
	return nil, &page.Diagnostic{Pos: page.Pos{File: b.file(p)}, Msg: msg, Err: err}
}
