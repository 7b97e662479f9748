package site

import (
	"cmp"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
)

// structure orders the pages: the sidebar from SUMMARY.md (or path
// order), previous and next links, breadcrumbs, the glossary and question
// collections, and the pages the site generates.
func (b *build) structure() error {
	// Generated collection pages, linkable as glossary/index.md and
	// questions/index.md even when no such file exists.
	var glossIndex, qIndex *htmlPage
	for _, p := range b.pages {
		switch p.kind {
		case kindGlossary:
			b.glossary = append(b.glossary, p)
		case kindQuestion:
			b.questions = append(b.questions, p)
		}
	}
	if len(b.glossary) > 0 {
		glossIndex = b.collection("glossary/index.md", "Glossary", (*renderer).glossaryIndex)
	}
	if len(b.questions) > 0 {
		qIndex = b.collection("questions/index.md", "Interview questions", (*renderer).questionIndex)
	}
	slices.SortFunc(b.glossary, func(x, y *htmlPage) int {
		return cmp.Or(strings.Compare(strings.ToLower(x.title), strings.ToLower(y.title)), strings.Compare(x.slug, y.slug))
	})

	// The sidebar.
	listed := map[*htmlPage]bool{}
	if src, err := b.read("SUMMARY.md", page.MaxPageBytes, "a page"); err == nil {
		nav, errs := parseSummary(b.file("SUMMARY.md"), src, func(p string, pos page.Pos) *htmlPage {
			pg := b.bySrc[p]
			switch {
			case pg == nil:
				b.addErrs(&page.Diagnostic{Pos: pos, Msg: "no such page: " + p})
			case listed[pg]:
				b.addErrs(&page.Diagnostic{Pos: pos, Msg: "page listed twice: " + p})
				return nil
			}
			listed[pg] = true
			return pg
		})
		b.addErrs(errs...)
		b.nav = nav
	} else if !isNotExist(err) {
		b.addErrs(err)
	} else {
		for _, p := range b.pages {
			if p.kind == kindChapter {
				b.nav = append(b.nav, &navItem{title: p.title, page: p})
				listed[p] = true
			}
		}
		// The front page first.
		slices.SortStableFunc(b.nav, func(x, y *navItem) int {
			return cmp.Compare(boolInt(x.page.out != "index.html"), boolInt(y.page.out != "index.html"))
		})
	}
	var suffix []*navItem
	if glossIndex != nil && !listed[glossIndex] {
		suffix = append(suffix, &navItem{title: glossIndex.title, page: glossIndex})
	}
	if qIndex != nil && !listed[qIndex] {
		suffix = append(suffix, &navItem{title: qIndex.title, page: qIndex})
	}
	if b.hasDrills() {
		practice := b.collection("practice.md", "Practice", (*renderer).practicePage)
		if !listed[practice] {
			suffix = append(suffix, &navItem{title: practice.title, page: practice})
		}
		b.practice = practice
	}
	if len(suffix) > 0 {
		if len(b.nav) > 0 {
			b.nav = append(b.nav, &navItem{sep: true})
		}
		b.nav = append(b.nav, suffix...)
	}

	// The title page, unless the book has its own.
	if b.bySrc["index.md"] == nil && b.bySrc["README.md"] == nil && b.pageAt("index.html") == nil {
		home := &htmlPage{path: "index.md", out: "index.html", kind: kindGenerated, title: b.settings.Title, body: (*renderer).frontPage}
		b.pages = append(b.pages, home)
		b.bySrc["index.md"] = home
		b.order = append(b.order, home)
	}

	// Reading order and breadcrumbs.
	walkNav(b.nav, func(it *navItem, parents []*navItem) {
		if it.page == nil {
			return
		}
		p := it.page
		p.listed = true
		p.number = it.number
		b.order = append(b.order, p)
		p.crumbs = []crumb{{title: b.settings.Title, page: b.pageAt("index.html")}}
		for _, par := range parents {
			p.crumbs = append(p.crumbs, crumb{title: par.title, page: par.page})
		}
		if p.out == "index.html" {
			p.crumbs = nil
		}
	})
	chain(b.order)
	for _, p := range b.pages {
		if p.kind == kindChapter && !listed[p] && p.out != "glossary/index.html" && p.out != "questions/index.html" && p.out != practicePath {
			b.warnf("%s: not listed in SUMMARY.md; it is built but only reachable by links", b.file(p.path))
		}
	}

	// Glossary entries.
	chain(b.glossary)
	for _, p := range b.glossary {
		p.crumbs = []crumb{{title: b.settings.Title, page: b.pageAt("index.html")}, {title: glossIndex.title, page: glossIndex}}
		for _, r := range p.fm().Related {
			if b.bySrc["glossary/"+r+".md"] == nil {
				b.errorAt(p.fm().KeyPos("related"), "front matter: related term %q has no entry glossary/%s.md", r, r)
			}
		}
	}

	// Questions: by the reading order of the section that explains them.
	rank := map[*htmlPage]int{}
	for i, p := range b.order {
		rank[p] = i + 1
	}
	for _, q := range b.questions {
		b.questionSection(q)
	}
	slices.SortStableFunc(b.questions, func(x, y *htmlPage) int {
		rx, ry := len(b.order)+1, len(b.order)+1
		if x.sectionPage != nil && rank[x.sectionPage] > 0 {
			rx = rank[x.sectionPage]
		}
		if y.sectionPage != nil && rank[y.sectionPage] > 0 {
			ry = rank[y.sectionPage]
		}
		return cmp.Or(cmp.Compare(rx, ry), strings.Compare(x.slug, y.slug))
	})
	chain(b.questions)
	for _, q := range b.questions {
		q.crumbs = []crumb{{title: b.settings.Title, page: b.pageAt("index.html")}, {title: qIndex.title, page: qIndex}}
		if q.sectionPage != nil {
			q.sectionPage.qs = append(q.sectionPage.qs, q)
		}
		for _, t := range q.tags {
			b.tags[t] = append(b.tags[t], q)
		}
	}
	for _, t := range slices.Sorted(maps.Keys(b.tags)) {
		tp := &htmlPage{
			path: "questions/tags/" + t + ".md", out: "questions/tags/" + t + ".html", kind: kindGenerated,
			title: "Questions tagged " + t, slug: t, body: (*renderer).tagPage,
			crumbs: []crumb{{title: b.settings.Title, page: b.pageAt("index.html")}, {title: qIndex.title, page: qIndex}},
		}
		b.pages = append(b.pages, tp)
	}

	// Pages printed on print.html: the reading order, then the glossary.
	for _, p := range b.order {
		if p.kind == kindChapter && p.doc() != nil {
			b.printList = append(b.printList, p)
		}
	}
	b.inPrint = map[*htmlPage]bool{}
	for _, p := range b.printList {
		b.inPrint[p] = true
	}
	for _, q := range b.questions {
		b.inPrint[q] = true // after the chapters
	}
	b.pages = append(b.pages,
		&htmlPage{path: "print.md", out: "print.html", kind: kindGenerated, title: b.settings.Title, body: (*renderer).printPage},
		&htmlPage{path: "404.md", out: "404.html", kind: kindGenerated, title: "Page not found", body: (*renderer).notFoundPage},
	)
	slices.SortFunc(b.pages, func(x, y *htmlPage) int { return strings.Compare(x.out, y.out) })
	return nil
}

// collection returns the page for a glossary or question index: the book's
// own file if it has one, else a generated page.
func (b *build) collection(src, title string, body func(*renderer) string) *htmlPage {
	if p := b.bySrc[src]; p != nil {
		p.list = body
		return p
	}
	p := &htmlPage{path: src, out: outPath(src), kind: kindGenerated, title: title, body: body}
	b.pages = append(b.pages, p)
	b.bySrc[src] = p
	return p
}

// questionSection resolves a question's section: a link, relative to the
// book root, to the page and anchor that explain it.
func (b *build) questionSection(q *htmlPage) {
	sec := q.fm().Section
	if sec == "" {
		return
	}
	at := q.fm().KeyPos("section")
	u, err := url.Parse(sec)
	if err != nil || u.Scheme != "" || u.Host != "" || !strings.HasSuffix(u.Path, ".md") || path.IsAbs(u.Path) {
		b.errorAt(at, "front matter: section %q: want page.md#anchor, relative to the book root", sec)
		return
	}
	t := b.bySrc[path.Clean(u.Path)]
	if t == nil {
		b.errorAt(at, "front matter: section %q: no such page", sec)
		return
	}
	q.sectionPage, q.sectionFrag = t, u.Fragment
	b.links = append(b.links, linkRef{from: q, pos: at, target: t, frag: u.Fragment})
}

// pageAt returns the page whose output path is out, or nil.
func (b *build) pageAt(out string) *htmlPage {
	for _, p := range b.pages {
		if p.out == out {
			return p
		}
	}
	return nil
}

// chain links pages with previous and next.
func chain(pages []*htmlPage) {
	for i, p := range pages {
		if i > 0 {
			p.prev = pages[i-1]
		}
		if i+1 < len(pages) {
			p.next = pages[i+1]
		}
	}
}

func boolInt(v bool) int {
	if v {
		return 1
	}
	return 0
}
