package site

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
	"github.com/yuin/goldmark/ast"
)

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
		b.settings.Title = bookName(b.opts.Dir)
	}
	if b.settings.Language == "" {
		b.settings.Language = "en"
	}
	if b.settings.SearchBudget == 0 {
		b.settings.SearchBudget = 300
	}
	if len(b.settings.Packages) > 0 {
		b.loadPackages(keys)
	}
	if u := b.settings.SiteURL; u != "" {
		base, err := basePath(u)
		if err != nil {
			b.errorAt(keys["site_url"], "site_url %q: %v", u, err)
		}
		b.base = base
	}
	for key, u := range map[string]string{"repository": b.settings.Repository, "edit_url": b.settings.EditURL} {
		if err := checkHTTP(u); u != "" && err != nil {
			b.errorAt(keys[key], "%s %q: %v", key, u, err)
		}
	}

	var files []string
	for _, p := range b.book.files {
		// A name goes into addresses (escaped), and into comments and
		// messages: none of a book's may hold a line break (U+2028 and
		// U+2029 end a line of a script) or another control character;
		// nor a backslash, which Windows and browsers read as a slash,
		// and which a site cannot hold.
		if strings.ContainsFunc(p, func(r rune) bool { return unicode.In(r, unicode.Cc, unicode.Zl, unicode.Zp) }) || strings.Contains(p, `\`) {
			b.errorf("", 0, "file name %q has a control character or a backslash: rename it", p)
			continue
		}
		files = append(files, p)
	}
	md, others := sourceFiles(files)
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
		for _, d := range p.snip.Notices {
			b.warnf("%s: %s", d.Pos, d.Msg)
		}
		warned += len(p.snip.Warnings()) - len(p.snip.Notices)
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

// bookName is the name of the book directory dir, the title of a book
// that has none: its last element, also when dir is "." or ".." (the same
// book from anywhere has the same title); "Book" when it has none.
func bookName(dir string) string {
	d := path.Base(strings.ReplaceAll(dir, "\\", "/"))
	if d == "." || d == ".." {
		if abs, err := filepath.Abs(dir); err == nil {
			d = filepath.Base(abs)
		}
	}
	if d == "" || d == "." || d == ".." || d == "/" || strings.ContainsAny(d, `/\`) {
		return "Book"
	}
	return d
}

// checkHTTP says what is wrong with a setting that must be an http(s)
// URL (repository, edit_url): every page links to it, and a reader's
// click follows it.
func checkHTTP(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return err
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return errors.New("want an http(s) URL (https://example.org/...)")
	}
	return nil
}

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

// loadPackages loads the book's own Go packages that book.yaml lists (see
// snippets.Packages), for the live pages whose cells import them: the
// browser kernel is sent their sources with the page.
func (b *build) loadPackages(keys map[string]page.Pos) {
	listed := map[string]page.Pos{}
	for i, p := range b.settings.Packages {
		pos, ok := keys[fmt.Sprintf("%s[%d]", snippets.PackagesKey, i)]
		if !ok {
			pos = keys[snippets.PackagesKey]
		}
		listed[p] = pos
	}
	if b.opts.Dir == "" {
		b.errorAt(keys[snippets.PackagesKey], "book.yaml lists packages, but the book is not a directory on disk: its packages are read from the module its go.mod makes")
		return
	}
	ps, ds := snippets.LoadPackages(b.opts.Dir, listed)
	b.addErrs(ds...)
	b.pkgs = ps
}
