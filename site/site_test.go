package site_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/snippets"
	mdpage "github.com/warpbook/warpbook/snippets/page"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// book makes an in-memory book from name/content pairs.
func book(files ...string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for i := 0; i+1 < len(files); i += 2 {
		fsys[files[i]] = &fstest.MapFile{Data: []byte(files[i+1])}
	}
	return fsys
}

func build(t *testing.T, fsys fs.FS, opts site.Options) *site.Site {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = "book"
	}
	s, err := site.Build(context.Background(), fsys, opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return s
}

// buildErr builds a book that must fail and returns the error lines.
func buildErr(t *testing.T, fsys fs.FS, opts site.Options) []string {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = "book"
	}
	s, err := site.Build(context.Background(), fsys, opts)
	if err == nil {
		t.Fatalf("Build succeeded (%d files), want an error", len(s.Files))
	}
	if s != nil {
		t.Errorf("Build returned a site with its error")
	}
	var list mdpage.Diagnostics
	if !errors.As(err, &list) {
		t.Fatalf("Build error is %T (%v), want mdpage.Diagnostics", err, err)
	}
	// Each diagnostic as every command prints it (see mdpage.Diagnostics.Write).
	var lines []string
	for _, d := range list {
		var b strings.Builder
		_ = mdpage.Diagnostics{d}.Write(&b)
		lines = append(lines, strings.TrimSuffix(b.String(), "\n"))
	}
	return lines
}

func page(t *testing.T, s *site.Site, name string) string {
	t.Helper()
	data, ok := s.Files[name]
	if !ok {
		t.Fatalf("no %s in the site; it has %s", name, strings.Join(slices.Sorted(maps.Keys(s.Files)), " "))
	}
	return string(data)
}

func contains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s does not contain %q", what, w)
		}
	}
}

func lacks(t *testing.T, what, text string, bads ...string) {
	t.Helper()
	for _, b := range bads {
		if strings.Contains(text, b) {
			t.Errorf("%s contains %q", what, b)
		}
	}
}

const signed = "byline:\n  author: Ada Lovelace\n  reviewer: Charles Babbage\n"

func TestSummaryStructure(t *testing.T) {
	s := build(t, book(
		"SUMMARY.md", "# Summary\n\n[Preface](README.md)\n\n# Part one\n\n- [Alpha](a.md)\n  - [Alpha two](a/two.md)\n- [Not yet]()\n- [Beta](b.md)\n\n---\n\n[Coda](c.md)\n",
		"README.md", "# Preface\n\nHello.\n",
		"a.md", "# Alpha\n\nA.\n",
		"a/two.md", "---\ntitle: Alpha, part two\n---\nNo heading here.\n",
		"b.md", "# Beta\n",
		"c.md", "# Coda\n",
		"stray.md", "# Stray\n",
	), site.Options{})

	wantFiles := []string{"index.html", "a.html", "a/two.html", "b.html", "c.html", "stray.html", "print.html", "404.html",
		"assets/warpbook.css", "assets/warpbook.js", "assets/search-index.js", "assets/icon.svg"}
	for _, f := range wantFiles {
		page(t, s, f)
	}
	a := page(t, s, "a.html")
	// Sidebar: numbering, current page, part title, draft chapter, separator.
	contains(t, "a.html", a,
		`<li class="part">Part one</li>`,
		`<a href="a.html" aria-current="page"><span class="num">1.</span> Alpha</a>`,
		`<a href="a/two.html"><span class="num">1.1.</span> Alpha two</a>`,
		`<span class="draft-chapter"><span class="num">2.</span> Not yet</span>`,
		`<a href="b.html"><span class="num">3.</span> Beta</a>`,
		`<li class="sep" aria-hidden="true"></li>`,
		`<link rel="prev" href="index.html">`,
		`<link rel="next" href="a/two.html">`,
	)
	// A nested page links back up with relative URLs and takes its title
	// from the front matter.
	two := page(t, s, "a/two.html")
	contains(t, "a/two.html", two,
		`<link rel="stylesheet" href="../assets/warpbook.css">`,
		`<h1>Alpha, part two</h1>`,
		`<link rel="prev" href="../a.html">`,
		`<link rel="next" href="../b.html">`,
		`<a href="../index.html">`,
	)
	// Breadcrumbs: book, parent chapter, page.
	contains(t, "a/two.html", two, `<li><a href="../a.html">Alpha</a></li>`)
	// The last chapter has no next page; the unlisted page is built with a warning.
	lacks(t, "c.html", page(t, s, "c.html"), `rel="next"`)
	if !slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.Contains(w, "book/stray.md: not listed in SUMMARY.md") }) {
		t.Errorf("warnings %q lack the unlisted page", s.Warnings)
	}
}

func TestPathOrderWithoutSummary(t *testing.T) {
	s := build(t, book(
		"b.md", "---\ntitle: Second by path\n---\nBody.\n",
		"a.md", "Intro text.\n\n# From the heading\n",
		"z/index.md", "# Zed index\n",
	), site.Options{Dir: "notes"})
	home := page(t, s, "index.html") // generated title page
	contains(t, "index.html", home, "<title>notes</title>", `<a href="a.html">From the heading</a>`)
	ia := strings.Index(home, `href="a.html"`)
	ib := strings.Index(home, `href="b.html"`)
	iz := strings.Index(home, `href="z/index.html"`)
	if !(ia < ib && ib < iz) {
		t.Errorf("contents not in path order: a at %d, b at %d, z at %d", ia, ib, iz)
	}
	contains(t, "b.html", page(t, s, "b.html"), "<h1>Second by path</h1>", `<link rel="prev" href="a.html">`)
}

func TestMarkdownFeatures(t *testing.T) {
	s := build(t, book(
		"index.md", "# Home\n\n"+
			"| a | b |\n|---|--:|\n| 1 | 2 |\n\n"+
			"> [!WARNING]\n> Mind the cliff.\n\n"+
			"- [x] done\n- [ ] todo\n\n"+
			"Text with a note.[^n]\n\n[^n]: The note.\n\n"+
			"## Custom {#my-id}\n\n"+
			"```go\nfunc f() int { return 1 } // one\n```\n\n"+
			"Value [75.0 %](= \"100*r.Occupancy\") checked.\n\n"+
			"Inline <kbd>Ctrl</kbd> <!-- a note to authors -->\n",
	), site.Options{})
	h := page(t, s, "index.html")
	contains(t, "index.html", h,
		`<td style="text-align:right">2</td>`,
		`<div class="callout callout-warning" role="note"><p class="callout-title">Warning</p>`,
		`<p>Mind the cliff.</p>`,
		`aria-label="done">☑</span>`,
		`id="fn:1"`,
		`<h2 id="my-id">Custom<a class="hanchor" href="#my-id"`,
		`<span class="k">func</span> <span class="nf">f</span>() <span class="kt">int</span>`,
		`<span class="c">// one</span>`,
		`<span class="checked" title="Checked by the build: 100*r.Occupancy" data-check="value-1">75.0 %</span>`,
		`<kbd>Ctrl</kbd>`,
	)
	lacks(t, "index.html", h, "[!WARNING]", "a note to authors", `href="="`)
}

func TestLinkErrors(t *testing.T) {
	base := []string{
		"SUMMARY.md", "- [A](a.md)\n- [B](b.md)\n",
		"b.md", "# B\n\n## Real section\n",
		"pic.png", "png",
	}
	tests := []struct {
		name, a string
		want    string
	}{
		{"missing page", "# A\n\nSee [x](nope.md).\n", "book/a.md:3:5: link to a missing page: nope.md"},
		{"broken anchor", "# A\n\nSee [b](b.md#real-sectoin).\n", "book/a.md:3:5: broken anchor: b.md has no #real-sectoin (did you mean #real-section?)"},
		{"broken local anchor", "# A\n\nline\n\n[up](#nowhere)\n", "book/a.md:5:1: broken anchor: this page has no #nowhere"},
		{"absolute", "# A\n\n[b](/b.md)\n", "book/a.md:3:1: link \"/b.md\" is absolute"},
		{"html", "# A\n\n[b](b.html)\n", "book/a.md:3:1: link \"b.html\" points at generated HTML: link to the .md page instead"},
		{"outside image", "# A\n\n![cat](https://example.com/cat.png)\n", "book/a.md:3:1: image \"https://example.com/cat.png\" is not part of the book"},
		{"missing file", "# A\n\n![cat](cat.png)\n", "book/a.md:3:1: link to a missing file: cat.png"},
		{"leaves book", "# A\n\n[x](../x.md)\n", "book/a.md:3:1: link \"../x.md\" leaves the book"},
		{"javascript", "# A\n\n[x](javascript:alert(1))\n", "book/a.md:3:1: unsupported link"},
		{"raw html", "# A\n\n<div>hi</div>\n", "book/a.md:3:1: raw HTML blocks are not allowed"},
		{"raw inline html", "# A\n\nhi <span style=\"x\">there</span>\n", "book/a.md:3:4: raw HTML \"<span style=\\\"x\\\">\" is not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := buildErr(t, book(append(base, "a.md", tt.a)...), site.Options{})
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, tt.want) }) {
				t.Errorf("errors:\n%s\nwant one starting with\n%s", strings.Join(lines, "\n"), tt.want)
			}
		})
	}
	// Good links pass, and the linked file is copied.
	s := build(t, book(append(base, "a.md", "# A\n\n[b](b.md#real-section) [self](#a) ![p](pic.png) [web](https://go.dev/)\n")...), site.Options{})
	a := page(t, s, "a.html")
	contains(t, "a.html", a, `<a href="b.html#real-section">`, `<a href="#a">`, `<img src="pic.png" alt="p"`, `<a href="https://go.dev/" class="external" rel="noopener">`)
	page(t, s, "pic.png")
}

func TestSummaryErrors(t *testing.T) {
	lines := buildErr(t, book(
		"SUMMARY.md", "# Summary\n\n- [A](a.md)\n- [Gone](gone.md)\n- [A again](a.md)\n- [Web](https://x.org/a.md)\n",
		"a.md", "# A\n",
	), site.Options{})
	for _, want := range []string{
		"book/SUMMARY.md:4:3: no such page: gone.md",
		"book/SUMMARY.md:5:3: page listed twice: a.md",
		"book/SUMMARY.md:6:3: SUMMARY links must be relative links to .md files",
	} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("errors:\n%s\nwant one starting with %s", strings.Join(lines, "\n"), want)
		}
	}
}

func TestFrontMatterErrors(t *testing.T) {
	tests := []struct {
		name, file, src, want string
	}{
		{"unknown key", "a.md", "---\ntitle: A\ntitel: typo\n---\n# A\n", `book/a.md:3:1: front matter: unknown field "titel"`},
		{"bad difficulty", "questions/q.md", "---\nquestion: Why?\ndifficulty: tricky\nsection: a.md\n---\nBecause.\n", `book/questions/q.md:3:1: front matter: difficulty must be easy, medium or hard, not "tricky"`},
		{"question heading", "questions/q.md", "---\nquestion: Why?\ndifficulty: easy\nsection: a.md\n---\nBecause.\n\n## Details\n", `book/questions/q.md:8:4: a question's first heading must be "## Deep dive"`},
		{"question section", "questions/q.md", "---\nquestion: Why?\ndifficulty: easy\nsection: a.md#nope\n---\nBecause.\n", "book/questions/q.md:4:1: broken anchor: a.md has no #nope"},
		{"glossary without short", "glossary/w.md", "---\nterm: Warp\n---\nBody.\n", "book/glossary/w.md:2: glossary entry needs a short definition"},
		{"related missing", "glossary/w.md", "---\nterm: Warp\nshort: s\nrelated: [lane]\n---\n", `book/glossary/w.md:4:1: front matter: related term "lane" has no entry glossary/lane.md`},
		{"chapter with term", "b.md", "---\nterm: X\n---\n# B\n", `book/b.md:2:1: front matter: "term" is only for glossary entries`},
		{"unclosed front matter", "b.md", "---\ntitle: B\n# B\n\ntext\n", "book/b.md:1:1: front matter opened on line 1 is never closed"},
		{"bad tag", "b.md", "---\ntags: [Big Tag]\n---\n# B\n", `book/b.md:2:1: front matter: tag "Big Tag"`},
		{"bad status", "b.md", "---\nbyline:\n  status: done\n---\n# B\n", `book/b.md:3:3: front matter: byline status must be draft, review or published, not "done"`},
		{"bad figure", "b.md", "# B\n\n```figure\nkind: occupancy-vs-registers\ngpu: Z9000\ncaption: c\nalt: a\n```\n", `book/b.md:5:1: figure: gpu: unknown GPU "Z9000"`},
		{"figure kind", "b.md", "# B\n\n```figure\nkind: pie\n```\n", `book/b.md:4:1: figure: unknown kind "pie"`},
		{"figure alt", "b.md", "# B\n\n```figure\nkind: occupancy-vs-registers\ngpu: A100\ncaption: c\n```\n", "book/b.md:3:1: figure: alt is missing"},
		{"figure key", "b.md", "# B\n\n```figure\nkind: occupancy-vs-registers\ngpu: A100\nwarps: 4\ncaption: c\nalt: a\n```\n", "book/b.md:6:1: figure: occupancy-vs-registers takes no warps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := buildErr(t, book("a.md", "# A\n", tt.file, tt.src), site.Options{})
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, tt.want) }) {
				t.Errorf("errors:\n%s\nwant one starting with\n%s", strings.Join(lines, "\n"), tt.want)
			}
		})
	}
}

func TestDrafts(t *testing.T) {
	fsys := book(
		"a.md", "---\n"+signed+"---\n# Signed\n",
		"b.md", "# No byline\n",
		"c.md", "---\nbyline:\n  author: Ada Lovelace\n  reviewer: ada lovelace\n---\n# Self-reviewed\n",
		"d.md", "---\nbyline:\n  author: Ada Lovelace\n  reviewer: Charles Babbage\n  status: draft\n---\n# Marked draft\n",
	)
	s := build(t, fsys, site.Options{})
	if want := []string{"b.md", "c.md", "d.md"}; !slices.Equal(s.Drafts, want) {
		t.Errorf("drafts %q, want %q", s.Drafts, want)
	}
	lacks(t, "a.html", page(t, s, "a.html"), "draft-banner")
	contains(t, "a.html", page(t, s, "a.html"), "Written by Ada Lovelace, reviewed by Charles Babbage.")
	contains(t, "b.html", page(t, s, "b.html"), `<div class="draft-banner" role="note"><strong>Draft.</strong> This page is not reviewed yet: it has no named author.</div>`)
	contains(t, "c.html", page(t, s, "c.html"), "its reviewer is its author")
	contains(t, "d.html", page(t, s, "d.html"), "its byline status is draft")

	lines := buildErr(t, fsys, site.Options{Strict: true})
	for _, f := range []string{"book/b.md:1", "book/c.md:2", "book/d.md:2"} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, f+": draft") }) {
			t.Errorf("strict errors:\n%s\nlack %s", strings.Join(lines, "\n"), f)
		}
	}
}

func glossaryBook() fstest.MapFS {
	return book(
		"SUMMARY.md", "- [One](one.md)\n- [Two](two.md)\n",
		"one.md", "# One\n\nThe warp scheduler picks a warp. Another warp scheduler.\n\n## Later\n\nOccupancy matters; `warp` in code and [a warp link](two.md) are left alone.\n",
		"two.md", "# Two\n\n## Warp things\n\nNothing here mentions the term in a heading only.\n\nWarps are plural; the Warp is singular.\n",
		"glossary/warp.md", "---\nterm: Warp\nshort: Thirty-two threads.\nrelated: [warp-scheduler]\n---\nA warp is scheduled by a warp scheduler.\n",
		"glossary/warp-scheduler.md", "---\nterm: Warp scheduler\nshort: Picks a warp each cycle.\naliases: [schedulers]\n---\nIt picks warps.\n",
		"glossary/occupancy.md", "---\nterm: Occupancy\nshort: Resident warps over warp slots.\n---\nSee the chapter.\n",
		"glossary/index.md", "# Words\n\nThe book's vocabulary.\n",
	)
}

func TestGlossaryLinksAndBacklinks(t *testing.T) {
	s := build(t, glossaryBook(), site.Options{})
	one := page(t, s, "one.html")
	// Longest match first, first mention only.
	contains(t, "one.html", one,
		`The <a class="term" href="glossary/warp-scheduler.html" title="Picks a warp each cycle.">warp scheduler</a> picks a <a class="term" href="glossary/warp.html" title="Thirty-two threads.">warp</a>. Another warp scheduler.`,
		`<a class="term" href="glossary/occupancy.html" title="Resident warps over warp slots.">Occupancy</a> matters; <code>warp</code> in code`,
	)
	if n := strings.Count(one, `class="term"`); n != 3 {
		t.Errorf("one.html has %d term links, want 3", n)
	}
	two := page(t, s, "two.html")
	// Not in headings; "Warps" is "Warp" in the plural.
	contains(t, "two.html", two, `<h2 id="warp-things">Warp things`, `<a class="term" href="glossary/warp.html" title="Thirty-two threads.">Warps</a> are plural; the Warp is singular.`)

	// Entries list where they are used, with the section, and do not link to themselves.
	w := page(t, s, "glossary/warp.html")
	contains(t, "glossary/warp.html", w,
		`<p class="short">Thirty-two threads.</p>`,
		`A warp is scheduled by a <a class="term" href="warp-scheduler.html"`,
		`<li><a href="warp-scheduler.html">Warp scheduler</a></li>`,
		`<li><a href="../one.html">One</a></li>`,
		`<li><a href="../two.html">Two</a> › <a href="../two.html#warp-things">Warp things</a></li>`,
	)
	lacks(t, "glossary/warp.html", w, `href="warp.html"`)
	occ := page(t, s, "glossary/occupancy.html")
	contains(t, "glossary/occupancy.html", occ, `<li><a href="../one.html">One</a> › <a href="../one.html#later">Later</a></li>`)
	ws := page(t, s, "glossary/warp-scheduler.html")
	contains(t, "glossary/warp-scheduler.html", ws, `<li><a href="../one.html">One</a></li>`, `<li><a href="warp.html">Warp</a></li>`)

	// The glossary index keeps the book's own text and lists every term.
	idx := page(t, s, "glossary/index.html")
	contains(t, "glossary/index.html", idx, `<h1 id="words">Words</h1>`, "vocabulary.</p>", `<dt id="occupancy"><a href="occupancy.html">Occupancy</a></dt>`)
}

// A term at the end of a line keeps the line break outside its link, and a
// term may span two lines.
func TestGlossaryLineBreaks(t *testing.T) {
	s := build(t, book(
		"one.md", "# One\n\nEach SM\nholds warps. A warp\nscheduler picks one;\nthe streaming\nmultiprocessor count\nvaries. Occupancy\\\nafter a hard break.\n",
		"glossary/sm.md", "---\nterm: SM\nshort: The unit.\naliases: [streaming multiprocessor count]\n---\nText.\n",
		"glossary/warp-scheduler.md", "---\nterm: Warp scheduler\nshort: Picks.\n---\nText.\n",
		"glossary/occupancy.md", "---\nterm: Occupancy\nshort: Ratio.\n---\nText.\n",
	), site.Options{})
	one := page(t, s, "one.html")
	contains(t, "one.html", one,
		"Each <a class=\"term\" href=\"glossary/sm.html\" title=\"The unit.\">SM</a>\nholds warps.",
		"A <a class=\"term\" href=\"glossary/warp-scheduler.html\" title=\"Picks.\">warp\nscheduler</a> picks one;\nthe streaming\nmultiprocessor count\nvaries.",
		"<a class=\"term\" href=\"glossary/occupancy.html\" title=\"Ratio.\">Occupancy</a><br>\nafter a hard break.",
	)
	lacks(t, "one.html", one, "\n</a>", " </a>")
	// The words around a link are the page's words, in the search index too.
	entries := searchEntries(t, s)
	for _, e := range entries {
		if e.URL == "one.html" {
			if !strings.Contains(e.Text, "Each SM holds warps. A warp scheduler picks one;") {
				t.Errorf("text %q lacks the words around the links", e.Text)
			}
		}
	}
}

// A term that spans lines is one mention; the second mention of a term
// is not linked, on whichever line it is.
func TestGlossarySpanningTerm(t *testing.T) {
	s := build(t, book(
		"one.md", "# One\n\nThe warp\nscheduler and the warp scheduler. A\nwarp.\n",
		"glossary/warp.md", "---\nterm: Warp\nshort: Threads.\n---\nText.\n",
		"glossary/warp-scheduler.md", "---\nterm: Warp scheduler\nshort: Picks.\n---\nText.\n",
	), site.Options{})
	one := page(t, s, "one.html")
	// The second "warp scheduler" is that term again, not "warp".
	contains(t, "one.html", one, "The <a class=\"term\" href=\"glossary/warp-scheduler.html\" title=\"Picks.\">warp\nscheduler</a> and the warp scheduler. A\n<a class=\"term\" href=\"glossary/warp.html\" title=\"Threads.\">warp</a>.")
	if n := strings.Count(one, `class="term"`); n != 2 {
		t.Errorf("%d term links, want 2", n)
	}
	ws := page(t, s, "glossary/warp-scheduler.html")
	contains(t, "glossary/warp-scheduler.html", ws, `<li><a href="../one.html">One</a></li>`)
}

func TestQuestions(t *testing.T) {
	s := build(t, book(
		"SUMMARY.md", "- [Occ](occ.md)\n",
		"occ.md", "# Occ\n\n## Basics\n\nFirst.\n\n## The cliffs\n\nText.\n",
		"questions/zeta.md", "---\nquestion: What comes first?\ndifficulty: easy\nsection: occ.md#basics\n---\nBasics.\n",
		"questions/cliff.md", "---\nquestion: Why the cliff?\ndifficulty: hard\ntags: [occupancy, registers]\nsection: occ.md#the-cliffs\n---\nShort answer.\n\n## Deep dive\n\nLong answer.\n",
		"questions/basic.md", "---\nquestion: What is occupancy?\ndifficulty: easy\ntags: [occupancy]\nsection: occ.md\n---\nA ratio.\n",
	), site.Options{})
	idx := page(t, s, "questions/index.html")
	contains(t, "questions/index.html", idx,
		`<article class="qa" id="q-basic" data-tags="occupancy">`,
		`<details class="answer"><summary>Show the answer</summary>`,
		`<p>Short answer.</p>`,
		`<a href="../occ.html#the-cliffs">Occ › The cliffs</a>`,
		`<a class="tag" href="tags/registers.html" data-tag="registers">registers <span class="count">1</span></a>`,
	)
	lacks(t, "questions/index.html", idx, "Long answer")
	// The index's tag bar is marked for the in-page filter; a tag page's is not.
	contains(t, "questions/index.html", idx, `<nav class="tags" aria-label="Filter by tag" data-filter="qa">`, `<a class="tag" href="tags/occupancy.html" data-tag="occupancy">occupancy</a>`)
	lacks(t, "tags/registers.html", page(t, s, "questions/tags/registers.html"), "data-filter")
	q := page(t, s, "questions/cliff.html")
	contains(t, "questions/cliff.html", q, `<a class="drill" href="../practice.html#chapter=occ">Drill this chapter</a>`, "<h1>Why the cliff?</h1>", `<details class="answer deep" id="deep-dive"><summary>Deep dive</summary>`, "<p>Long answer.</p>", `<span class="difficulty d-hard">hard</span>`)
	tag := page(t, s, "questions/tags/registers.html")
	contains(t, "tags/registers.html", tag, `id="q-cliff"`, `<a href="../cliff.html">Why the cliff?</a>`, `aria-current="page">registers`)
	lacks(t, "tags/registers.html", tag, `id="q-basic"`)
	// The chapter lists its questions, without JavaScript, in the order
	// of the sections that answer them, and its contents link to the list.
	occ := page(t, s, "occ.html")
	contains(t, "occ.html", occ,
		`<section class="chapter-qs" aria-labelledby="wb-qs"><h2 id="wb-qs">Interview questions on this chapter`,
		"<p>3 questions whose answer this chapter explains. "+`<a class="drill" href="practice.html#chapter=occ">Drill this chapter</a>: its questions and what its snippets print, one card at a time.</p>`+"\n<ul>\n"+
			`<li><a href="questions/basic.html">What is occupancy?</a> <span class="difficulty d-easy">easy</span></li>`+"\n"+
			`<li><a href="questions/zeta.html">What comes first?</a> <span class="difficulty d-easy">easy</span> <span class="explained">explained in <a href="#basics">Basics</a></span></li>`+"\n"+
			`<li><a href="questions/cliff.html">Why the cliff?</a> <span class="difficulty d-hard">hard</span> <span class="explained">explained in <a href="#the-cliffs">The cliffs</a></span></li>`,
		`<li class="l2"><a href="#wb-qs">Interview questions</a></li>`,
	)
	// Not on the print page, whose chapters end with their own text.
	lacks(t, "print.html", page(t, s, "print.html"), "Interview questions on this chapter")
}

// The 404 page's links work for a missing page at any depth: rooted at
// the book's site_url, or at the root the server gives NotFound.
func TestNotFoundPage(t *testing.T) {
	files := []string{"SUMMARY.md", "- [A](a.md)\n- [B](sub/b.md)\n", "a.md", "# A\n", "sub/b.md", "# B\n"}
	s := build(t, book(files...), site.Options{})
	// Without site_url: relative, as at the top level (and from file://).
	nf := page(t, s, "404.html")
	contains(t, "404.html", nf, `data-root=""`, `href="assets/warpbook.css"`, `src="assets/warpbook.js"`,
		`<a href="a.html">`, `<a href="sub/b.html">`, `<a href="index.html">contents</a>`, `href="print.html"`)
	root := string(s.NotFound("/"))
	contains(t, "NotFound(/)", root, `data-root="/"`, `href="/assets/warpbook.css"`, `src="/assets/warpbook.js"`,
		`<a href="/a.html">`, `<a href="/sub/b.html">`, `<a href="/index.html">contents</a>`, `href="/print.html"`)
	contains(t, "NotFound(/x)", string(s.NotFound("/x")), `href="/x/assets/warpbook.css"`)

	// With site_url: 404.html starts from its path; every other page
	// stays relative.
	s = build(t, book(append(files, "book.yaml", "title: T\nsite_url: https://example.org/docs/book\n")...), site.Options{})
	nf = page(t, s, "404.html")
	contains(t, "404.html", nf, `data-root="/docs/book/"`, `href="/docs/book/assets/warpbook.css"`,
		`<a href="/docs/book/sub/b.html">`, `<a href="/docs/book/index.html">contents</a>`, `href="#wb-main"`)
	b := page(t, s, "sub/b.html")
	contains(t, "sub/b.html", b, `href="../assets/warpbook.css"`, `<a href="../a.html">`)
	lacks(t, "sub/b.html", b, "/docs/")
	for name, data := range s.Files {
		if bytes.Contains(data, []byte("__warpbook_root__")) {
			t.Errorf("%s holds the root placeholder", name)
		}
	}
	contains(t, "404.html with site_url /", page(t, build(t, book("a.md", "# A\n", "book.yaml", "site_url: /\n"), site.Options{}), "404.html"), `href="/a.html"`)

	for _, tt := range []struct{ url, want string }{
		{"docs/", `book/book.yaml:2:1: site_url "docs/": a path must start with /`},
		{"ftp://example.org/", `book/book.yaml:2:1: site_url "ftp://example.org/": want an http(s) URL`},
		{"/docs/?x=1", `book/book.yaml:2:1: site_url "/docs/?x=1": want a URL or a path without a query or fragment`},
	} {
		lines := buildErr(t, book("a.md", "# A\n", "book.yaml", "title: T\nsite_url: "+tt.url+"\n"), site.Options{})
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, tt.want) }) {
			t.Errorf("site_url %s: errors %q, want %s", tt.url, lines, tt.want)
		}
	}
}

func TestSearchIndex(t *testing.T) {
	s := build(t, glossaryBook(), site.Options{})
	entries := searchEntries(t, s)
	type key struct{ title, page, url, kind string }
	var got []key
	for _, e := range entries {
		got = append(got, key{e.Title, e.Page, e.URL, e.Kind})
	}
	want := []key{
		{"One", "One", "one.html", "section"},
		{"Later", "One", "one.html#later", "section"},
		{"Two", "Two", "two.html", "section"},
		{"Warp things", "Two", "two.html#warp-things", "section"},
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("index lacks %v; has %v", w, got)
		}
	}
	for _, term := range []string{"Warp", "Warp scheduler", "Occupancy"} {
		if !slices.ContainsFunc(entries, func(e searchEntry) bool { return e.Title == term && e.Kind == "term" && e.Page == "Glossary" }) {
			t.Errorf("index lacks the term %q", term)
		}
	}
	for _, e := range entries {
		if e.URL == "one.html#later" && !strings.HasPrefix(e.Text, "Occupancy matters;") {
			t.Errorf("section Later's text is %q", e.Text)
		}
	}
}

// The index holds a section's prose, code and outputs apart, and what
// its headings below level 4 say; a cell's hidden setup lines are left
// out, its output is what the kernel verified.
func TestSearchIndexFields(t *testing.T) {
	s := build(t, book(
		"a.md", "# A\n\nIntro `sm_89` text.\n\n## Part one\n\nProse here.\n\n"+
			"```go run id=c\nimport \"fmt\"\n// ---\nfmt.Println(\"GeForce RTX 4090\")\n```\n```output\nGeForce RTX 4090\n```\n\n"+
			"##### Small heading\n\n```go\nx := cudaThing()\n```\n\n#### Deeper\n\nMore.\n",
	), site.Options{Kernel: relabelKernel{}})
	byURL := map[string]searchEntry{}
	for _, e := range searchEntries(t, s) {
		byURL[e.URL] = e
	}
	if e := byURL["a.html"]; e.Text != "Intro sm_89 text." || e.Code != "" {
		t.Errorf("opening section %+v", e)
	}
	e := byURL["a.html#part-one"]
	if e.Title != "Part one" || e.Text != "Prose here." || e.Headings != "Small heading" {
		t.Errorf("section Part one: %+v", e)
	}
	if e.Code != "fmt.Println(\"GeForce RTX 4090\")\nx := cudaThing()" {
		t.Errorf("code %q: want the visible lines of the cell, then the code block", e.Code)
	}
	if e.Output != "GeForce RTX 4090 (verified)" {
		t.Errorf("output %q: want the verified output", e.Output)
	}
	if d := byURL["a.html#deeper"]; d.Title != "Deeper" || d.Text != "More." {
		t.Errorf("an h4 starts its own document: %+v", d)
	}
}

func TestSearchBudget(t *testing.T) {
	var text strings.Builder
	for i := range 3000 {
		text.WriteString("word")
		text.WriteString(strings.Repeat("x", i%7))
		text.WriteString(string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26)) + " ")
	}
	s := build(t, book("book.yaml", "search_budget_kb: 1\n", "a.md", "# A\n\n"+text.String()+"\n"), site.Options{})
	if !slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.Contains(w, "over the budget of 1 KB") }) {
		t.Errorf("no budget warning in %q", s.Warnings)
	}
}

func TestDeterministic(t *testing.T) {
	fsys := os.DirFS("testdata/book")
	a := build(t, fsys, site.Options{Dir: "testdata/book"})
	b := build(t, fsys, site.Options{Dir: "testdata/book"})
	if len(a.Files) != len(b.Files) {
		t.Fatalf("%d files, then %d", len(a.Files), len(b.Files))
	}
	for name, data := range a.Files {
		if !bytes.Equal(data, b.Files[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}

// TestBuildDirWritesTheSite: BuildDir writes files while it builds; what
// lands in the directory is exactly the site, byte for byte, and the same
// as Build makes.
func TestBuildDirWritesTheSite(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	fsys := os.DirFS("testdata/book")
	want := build(t, fsys, site.Options{Dir: "testdata/book"})
	out := filepath.Join(t.TempDir(), "_site")
	s, _, err := site.BuildDir(context.Background(), fsys, out, site.Options{Dir: "testdata/book"}, true)
	noErr(t, err)
	got := map[string][]byte{}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		got[filepath.ToSlash(rel)], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(s.Files) || len(got) != len(want.Files) {
		t.Errorf("%d files written, the site has %d, Build makes %d", len(got), len(s.Files), len(want.Files))
	}
	for name, data := range want.Files {
		if !bytes.Equal(got[name], data) || !bytes.Equal(s.Files[name], data) {
			t.Errorf("%s: written or returned differs from what Build makes", name)
		}
	}
}

// figureBody matches the drawing and the data table of a figure. The
// golden pages leave them out: they come from the engine, whose models
// change in their own packages, and site/figure tests them against
// reference numbers.
var figureBody = regexp.MustCompile(`(?s)(<figure class="figure"[^>]*>\n).*?(<figcaption)`)
var figureData = regexp.MustCompile(`(?s)(<details class="fig-data">).*?(</details>)`)

func withoutFigures(b []byte) []byte {
	b = figureBody.ReplaceAll(b, []byte("${1}(drawn from the engine)\n${2}"))
	return figureData.ReplaceAll(b, []byte("${1}(its numbers)${2}"))
}

// TestGolden compares every page of testdata/book with
// testdata/golden. Run go test ./site -update to rewrite them and review
// the change with git diff.
func TestGolden(t *testing.T) {
	s := build(t, os.DirFS("testdata/book"), site.Options{Dir: "testdata/book", Kernel: fakeKernel{}})
	dir := filepath.Join("testdata", "golden")
	if *update {
		os.RemoveAll(dir)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Files)) {
		if !strings.HasSuffix(name, ".html") && name != "assets/search-index.js" {
			continue
		}
		golden := filepath.Join(dir, filepath.FromSlash(name))
		got := withoutFigures(s.Files[name])
		if *update {
			writeFile(t, golden, got)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%v (run go test ./site -update)", err)
			continue
		}
		if !bytes.Equal(want, got) {
			t.Errorf("%s differs from %s:\n%s", name, golden, firstDiff(string(want), string(got)))
		}
	}
	// No golden file is left without a page.
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			if _, ok := s.Files[filepath.ToSlash(rel)]; !ok {
				t.Errorf("golden %s has no page in the build", p)
			}
		}
		return nil
	})
}

// firstDiff shows the first differing line.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, w, g)
		}
	}
	return ""
}

// fakeKernel verifies every cell by echoing its expected output, as a
// kernel that found everything right would.
type fakeKernel struct{ fail, noCUDA bool }

// relabelKernel verifies every cell with an output that differs from the
// page's, so that a test sees which of the two the site shows.
type relabelKernel struct{}

func (relabelKernel) Stream(ctx context.Context, pages []*mdpage.Page, done func(int, *snippets.PageResult)) {
	fakeKernel{}.Stream(ctx, pages, func(i int, r *snippets.PageResult) {
		for _, c := range r.Cells {
			c.Output = strings.TrimSuffix(c.Output, "\n") + " (verified)\n"
		}
		done(i, r)
	})
}

func (k fakeKernel) Stream(ctx context.Context, pages []*mdpage.Page, done func(int, *snippets.PageResult)) {
	for i, p := range pages {
		r := &snippets.PageResult{Page: p, Verifier: snippets.Verifier{Tool: "warpbook v0-test", Engine: "e0", Go: "go1.26"}}
		for _, c := range p.Cells {
			cr := &snippets.CellResult{ID: c.ID(), Status: snippets.StatusPass, Output: c.Expected()}
			switch {
			case c.Attrs.Skip != "":
				cr.Status, cr.Skip = snippets.StatusSkip, c.Attrs.Skip
			case c.Attrs.Panics != "":
				cr.Panic = "runtime error: " + c.Attrs.Panics
			case c.Attrs.Error != "":
				cr.Error = "1:2: " + c.Attrs.Error
			}
			if k.fail {
				cr.Status = snippets.StatusFail
				cr.Diagnostics = mdpage.Diagnostics{{Pos: c.Pos, ID: c.ID(), Msg: "output differs", Diff: "-want\n+got"}}
			}
			r.Cells = append(r.Cells, cr)
		}
		for _, c := range p.Checks {
			r.Checks = append(r.Checks, &snippets.CheckResult{ID: c.ID(), Status: snippets.StatusPass, Value: c.Text})
		}
		// CUDA cells compile to what they record, or are not compiled
		// (no toolkit) with noCUDA.
		for _, c := range p.CUDA {
			cr := &snippets.CUDAResult{ID: c.ID(), Status: snippets.StatusPass, Resources: c.Recorded()}
			if k.noCUDA {
				cr = &snippets.CUDAResult{ID: c.ID(), Status: snippets.StatusSkip, Skip: snippets.ErrNoCUDA.Error()}
			}
			r.CUDA = append(r.CUDA, cr)
		}
		done(i, r)
	}
}

const cellPage = "# Cells\n\n" +
	"```go run id=occ\nimport \"fmt\"\nx := 1\n// ---\nfmt.Println(x + 1)\n```\n\n```output\n2\n```\n\n" +
	"```go run id=boom panics=\"index out of range\"\nvar s []int\n_ = s[3]\n```\n\n" +
	"```go run id=later skip=\"needs a GPU\"\nfmt.Println(3)\n```\n"

func TestCells(t *testing.T) {
	s := build(t, book("a.md", cellPage), site.Options{Kernel: fakeKernel{}})
	a := page(t, s, "a.html")
	contains(t, "a.html", a,
		`<div class="cell" id="cell-occ" data-program="a" data-cell="occ">`,
		`<input type="checkbox" class="show-hidden" id="cell-occ-hidden"><label for="cell-occ-hidden" class="show-hidden-label"><span class="when-closed">Show 3 hidden lines of setup</span><span class="when-open">Hide the 3 lines of setup</span></label>`,
		`<span class="hl"><span class="k">import</span> <span class="s">&#34;fmt&#34;</span>`+"\n</span>",
		`Output <span class="verified">✓ verified</span></p><pre class="output" tabindex="0"><code>2</code></pre>`,
		`<p class="callout-title">Why this fails <span class="verified">✓ verified panic</span></p><pre class="output" tabindex="0"><code>runtime error: index out of range</code></pre>`,
		`<p class="cell-skip">Not run: needs a GPU</p>`,
		`by warpbook v0-test with <abbr title="a hash of the engine packages&#39; source">engine e0</abbr> (go1.26)`,
	)
	lacks(t, "a.html", a, "```output", `<pre class="output" tabindex="0"><code>2</code></pre>`+"\n<pre")

	// Without a kernel the outputs show, marked as not verified.
	s = build(t, book("a.md", cellPage), site.Options{})
	contains(t, "a.html", page(t, s, "a.html"), `Expected output <span class="unverified">not verified in this build</span>`)

	// A failing snippet fails the build with the kernel's file:line, diff included.
	lines := buildErr(t, book("a.md", cellPage), site.Options{Kernel: fakeKernel{fail: true}})
	if want := "book/a.md:3:1: occ: output differs\n\t-want\n\t+got"; !slices.Contains(lines, want) {
		t.Errorf("errors:\n%s\nwant\n%s", strings.Join(lines, "\n"), want)
	}
	// So does a malformed cell, from the one parse.
	lines = buildErr(t, book("a.md", "# A\n\n```go run colour=blue\n```\n"), site.Options{Kernel: fakeKernel{}})
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "book/a.md:3:") }) {
		t.Errorf("errors %q lack the attribute error at book/a.md:3", lines)
	}
}

const cudaPage = "# CUDA\n\n" +
	"```cuda compile id=ilp arch=sm_80,sm_90a flags=\"-maxrregcount=64\"\n__global__ void ilp4(float* __restrict__ y) { y[threadIdx.x] = 1; }\n```\n" +
	"```resources\nKERNEL  ARCH    REGISTERS  SMEM  STACK  SPILL-STORES  SPILL-LOADS\nilp4    sm_80          8     0      0             0            0\n```\n" +
	"```sass arch=sm_80 match=\"^STG\"\n/*0070*/ STG.E [R2.64], R5 ;\n```\n" +
	"```sass arch=sm_80 raw\n" +
	"        /*0000*/                   STG.E [R2.64], R5 ;                                /* 0x0000000502007986 */\n" +
	"                                                                                      /* 0x000fe2000c101904 */\n" +
	"        /*0010*/                   EXIT ;                                             /* 0x000000000000794d */\n" +
	"                                                                                      /* 0x000fea0003800000 */\n" +
	"```\n"

// TestCUDACells: a CUDA cell shows its source highlighted as CUDA, the
// architectures and flags it compiles with, its resources and SASS marked
// by how far the build checked them, and an Edit that says what compiling
// it takes.
func TestCUDACells(t *testing.T) {
	s := build(t, book("a.md", cudaPage), site.Options{Kernel: fakeKernel{}})
	a := page(t, s, "a.html")
	contains(t, "a.html", a,
		`<div class="cell cuda-cell" id="cuda-ilp">`,
		`<details class="cuda-edit"><summary>Edit</summary><p>Compiling CUDA needs NVIDIA's toolkit on your machine, not in this page: in a clone of the book's repository run <code>tools/cuda/fetch</code>, edit <code>a.md</code>, and run <code>warpbook test -run &#39;^ilp$&#39; a.md</code>`,
		`<p class="cuda-head">CUDA, compiled for <code>sm_80</code>, <code>sm_90a</code> with <code>-maxrregcount=64</code></p>`,
		`<code class="language-cuda"><span class="k">__global__</span> <span class="kt">void</span> <span class="nf">ilp4</span>(<span class="kt">float</span><span class="o">*</span> <span class="k">__restrict__</span> y)`,
		`ptxas: registers per thread, sizes in bytes <span class="verified">✓ verified: compiled in this build</span></p><pre class="output" tabindex="0"><code>KERNEL  ARCH    REGISTERS`,
		`SASS of <code>ilp4</code> for <code>sm_80</code>, the instructions matching <code>^STG</code> (cuobjdump) <span class="verified">✓ verified: compiled in this build</span></p><pre class="output" tabindex="0"><code>/*0070*/ STG.E [R2.64], R5 ;</code></pre>`,
		`<p class="cell-meta">a.md:3</p>`,
		// The whole listing is the Go snippets': the page names it and
		// leaves it to the page's source.
		`SASS of <code>ilp4</code> for <code>sm_80</code> (cuobjdump): the whole listing, 2 instructions, which the Go snippets run on the simulator <span class="verified">`,
	)
	lacks(t, "a.html", a, "```resources", "```sass", "0x000fea0003800000")
	// Without a toolkit the recorded blocks are shown as they are, and say so.
	s = build(t, book("a.md", cudaPage), site.Options{Kernel: fakeKernel{noCUDA: true}})
	contains(t, "a.html", page(t, s, "a.html"), `<span class="unverified">as recorded: not compiled in this build</span>`)
	// A plain cuda block is highlighted, and is not a cell.
	s = build(t, book("a.md", "# A\n\n```cuda\n__shared__ float s[32];\n```\n"), site.Options{Kernel: fakeKernel{}})
	a = page(t, s, "a.html")
	contains(t, "a.html", a, `<code class="language-cuda"><span class="k">__shared__</span>`)
	lacks(t, "a.html", a, "cuda-cell")
}

func TestNoOutsideRequests(t *testing.T) {
	s := build(t, os.DirFS("testdata/book"), site.Options{Dir: "testdata/book", Kernel: fakeKernel{}})
	// Anything that loads: src=, <link href=, url(...), @import, fetch.
	load := regexp.MustCompile(`(?i)(?:src=|<link[^>]+href=|url\(|@import|fetch\(|XMLHttpRequest)\s*["']?(?:https?:)?//`)
	for name, data := range s.Files {
		if m := load.Find(data); m != nil {
			t.Errorf("%s loads from outside the site: %s", name, m)
		}
	}
}

// searchEntry is one document of assets/search-index.js.
type searchEntry struct {
	Title, Page, URL string
	Kind             string // "section", "term" or "question"
	Headings, Text   string
	Code, Output     string
}

// searchEntries reads the search index of a built site the way
// assets/search.js reads it: window.warpbookSearch = {pages: page titles,
// docs: [title, page index, url, kind letter, headings, text, code, output]}.
func searchEntries(t *testing.T, s *site.Site) []searchEntry {
	t.Helper()
	data := s.Files["assets/search-index.js"]
	_, js, _ := bytes.Cut(data, []byte("window.warpbookSearch="))
	js = bytes.TrimSuffix(bytes.TrimSpace(js), []byte(";"))
	var idx struct {
		Pages []string            `json:"pages"`
		Docs  [][]json.RawMessage `json:"docs"`
	}
	if err := json.Unmarshal(js, &idx); err != nil {
		t.Fatalf("search index: %v", err)
	}
	var out []searchEntry
	for _, e := range idx.Docs {
		var se searchEntry
		var n int
		var kind string
		if len(e) != 8 {
			t.Fatalf("search index document %s: want 8 fields", e)
		}
		for i, v := range []any{&se.Title, &n, &se.URL, &kind, &se.Headings, &se.Text, &se.Code, &se.Output} {
			if err := json.Unmarshal(e[i], v); err != nil {
				t.Fatalf("search index document %s: field %d: %v", e, i, err)
			}
		}
		if n >= 0 && n < len(idx.Pages) {
			se.Page = idx.Pages[n]
		}
		se.Kind = map[string]string{"s": "section", "t": "term", "q": "question"}[kind]
		out = append(out, se)
	}
	return out
}
