package site_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/site"
)

// vendored returns the asset that tools/vendor/build.sh writes from the
// npm registry, after checking it against the sha256 the script recorded
// in tools/vendor/sha256sums: a hand edit fails here.
func vendored(t *testing.T, asset string) []byte {
	t.Helper()
	sums, err := os.ReadFile("../tools/vendor/sha256sums")
	noErr(t, err)
	data, err := os.ReadFile(asset)
	noErr(t, err)
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); !slices.Contains(strings.Split(string(sums), "\n"), got+"  "+path.Base(asset)) {
		t.Errorf("%s has sha256 %s, not the one tools/vendor/sha256sums records: run sh tools/vendor/build.sh", asset, got)
	}
	return data
}

// The vendored libraries are the files tools/vendor/build.sh writes, and
// the site ships the search library with its licence.
func TestVendored(t *testing.T) {
	vendored(t, "assets/editor.js")
	data := vendored(t, "assets/minisearch.js")
	s := build(t, book("a.md", "# A\n"), site.Options{})
	if !strings.Contains(string(s.Files["assets/minisearch.LICENSE.txt"]), "Permission is hereby granted") {
		t.Error("the site lacks MiniSearch's licence")
	}
	if string(s.Files["assets/minisearch.js"]) != string(data) {
		t.Error("the site lacks assets/minisearch.js")
	}
}

// frontBook has parts, a prefix chapter, a nested chapter, a draft
// chapter, separators, snippets and questions: what the front page lists.
func frontBook() fstest.MapFS {
	return book(
		"book.yaml", "title: Tiny\ndescription: A tiny book.\n",
		"SUMMARY.md", "# Summary\n\n[Intro](intro.md)\n\n# Part one\n\n- [Warps](warps.md)\n  - [Lanes](lanes.md)\n- [Later]()\n\n# Part two\n\n- [Cells](cells.md)\n\n---\n\n[Afterword](after.md)\n",
		"intro.md", "# Intro\n\nStart here. Then go on.\n",
		"warps.md", "---\ndescription: What a warp is.\n---\n# Warps\n\nText.\n",
		"lanes.md", "# Lanes\n\nEach lane is a thread. More.\n",
		"cells.md", "# Cells\n\nRun this.\n\n```go run id=a\nprintln()\n```\n",
		"after.md", "# Afterword\n\nThanks.\n",
		"questions/q1.md", "---\nquestion: Why?\ndifficulty: easy\nsection: warps.md\n---\nBecause.\n",
	)
}

func TestFrontPage(t *testing.T) {
	s := build(t, frontBook(), site.Options{})
	home := page(t, s, "index.html")
	_, front, _ := strings.Cut(home, `<article class="content">`)
	front, _, _ = strings.Cut(front, "</article>")
	contains(t, "index.html", front,
		`<p class="lead">A tiny book.</p>`,
		`<h2 id="ways">Ways to use this book</h2>`,
		`<a href="intro.html">Start with Intro →</a>`,
		`1 snippet on 1 page`, `<code>warpbook run cells.md</code>`,
		`1 question,`, `<a href="questions/index.html">The questions →</a>`,
		`<h3>Part one</h3>`, `<h3>Part two</h3>`,
		`<a href="intro.html">Intro</a><span class="blurb">Start here.</span>`,
		`<a href="warps.html"><span class="num">1</span> Warps</a><span class="blurb">What a warp is.</span>`,
		`<a href="lanes.html"><span class="num">1.1</span> Lanes</a><span class="blurb">Each lane is a thread.</span>`,
		`<span class="num">2</span> Later <small>(not written yet)</small>`,
		`<a href="cells.html"><span class="num">3</span> Cells</a>`,
		`<a href="after.html">Afterword</a>`,
		`<a href="questions/index.html">Interview questions</a>`,
	)
	// Numbers once, no empty items, no list of bare part titles.
	lacks(t, "index.html", front, "<li></li>", `<li class="sep"`, `<li class="part"`, "1.</span>", `<ol class="nav">`)
	if strings.Count(front, "Warps</a>") != 1 {
		t.Errorf("the front page lists Warps %d times", strings.Count(front, "Warps</a>"))
	}
	// Without snippets or questions, those ways are not offered.
	plain := page(t, build(t, book("a.md", "# A\n\nText.\n"), site.Options{}), "index.html")
	lacks(t, "index.html", plain, "Run the snippets", "Practise for an interview")
	contains(t, "index.html", plain, "Start with A →")
}

// The provenance note names the source (the commit, else the content
// hash), the date the build was given, the tools, the source link at that
// commit and the command that checks the page again; each snippet links
// its line and says how to run it. Two builds of one source are the same
// bytes: nothing reads a clock.
func TestProvenance(t *testing.T) {
	fsys := book(
		"book.yaml", "title: T\nrepository: https://example.org/me/tiny\n",
		"cells.md", "# Cells\n\nA warp has [32](= \"n\") lanes.\n\n```go run id=a\nn := 32\nprintln(n)\n```\n",
		"plain.md", "# Plain\n\nNo snippets.\n",
	)
	commit := "0123456789abcdef0123456789abcdef01234567"
	opts := site.Options{Kernel: fakeKernel{}, Provenance: site.Provenance{Commit: commit, Date: time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC), Prefix: "docs/"}}
	s := build(t, fsys, opts)
	cells := page(t, s, "cells.html")
	contains(t, "cells.html", cells,
		`1 snippet and 1 value on this page were run and checked on <time datetime="2025-11-30">30 November 2025</time>`,
		`from <abbr title="git commit `+commit+`">commit 0123456789ab</abbr>`,
		`by warpbook v0-test with <abbr`, `engine e0</abbr> (go1.26)`,
		`<code>git clone https://example.org/me/tiny &amp;&amp; cd tiny &amp;&amp; git checkout 0123456789ab</code>, then <code>warpbook test docs/cells.md</code>`,
		`<a href="https://example.org/me/tiny/blob/`+commit+`/docs/cells.md" rel="noopener">docs/cells.md</a>`,
		`<a href="https://example.org/me/tiny/blob/`+commit+`/docs/cells.md#L5" rel="noopener">docs/cells.md:5</a> · <code>warpbook run docs/cells.md -run &#39;^a$&#39;</code>`,
	)
	if n := strings.Count(cells, "v0-test"); n != 1 {
		t.Errorf("the tool is named %d times on the page, want once", n)
	}
	contains(t, "plain.html", page(t, s, "plain.html"), `Built from <abbr title="git commit `+commit+`">commit 0123456789ab</abbr> on <time`)
	again := build(t, fsys, opts)
	for name, data := range s.Files {
		if string(again.Files[name]) != string(data) {
			t.Errorf("%s differs between two builds of one commit", name)
		}
	}

	// Changed files: the content hash names the source, the links go to
	// HEAD, no clone command; no date when none was given.
	opts.Provenance = site.Provenance{Commit: commit, Dirty: true, Prefix: "docs/"}
	cells = page(t, build(t, fsys, opts), "cells.html")
	contains(t, "cells.html (dirty)", cells, `commit 0123456789ab with changes, content `, `/blob/HEAD/docs/cells.md#L5`)
	lacks(t, "cells.html (dirty)", cells, "git clone", "<time")

	// Not a git checkout, no repository: the content hash, the path in
	// the book; never the directory the build was given, which is the
	// build machine's (an absolute path in CI, or ../ from elsewhere).
	for _, dir := range []string{"mybook", "/home/runner/work/org/repo/mybook", "../x/mybook"} {
		s = build(t, book("cells.md", "# Cells\n\n```go run id=a\nprintln(1)\n```\n"), site.Options{Dir: dir, Kernel: fakeKernel{}})
		cells = page(t, s, "cells.html")
		contains(t, "cells.html (no git)", cells, `the book is not a git checkout: this is the sha256 of its files`, `<code>warpbook test cells.md</code>`,
			`<p class="cell-meta">cells.md:3 · <code>warpbook run cells.md -run &#39;^a$&#39;</code></p>`, `data-live-path="cells.md"`)
		lacks(t, "cells.html (no git)", cells, "Source:", "Verified by")
		for name, data := range s.Files {
			if strings.Contains(dir, "/") && strings.Contains(string(data), dir) {
				t.Errorf("%s holds the book's directory %s", name, dir)
			}
		}
	}
}

// Glossary terms are found as readers write them: plurals, possessives,
// hyphens or spaces or a solid word, aliases, any case; never in code; a
// heading that names a term is a use of it (unlinked); the entry lists each
// page once with its sections; a term nobody uses is a warning.
func TestGlossaryMatching(t *testing.T) {
	s := build(t, book(
		"SUMMARY.md", "- [One](one.md)\n- [Two](two.md)\n- [Three](three.md)\n",
		"one.md", "# One\n\nThe warp schedulers' queues and a sub-partition.\n\n## Long-scoreboard stalls\n\nNothing else.\n\n## Later\n\nIn `warp scheduler` code, then latencies.\n",
		"two.md", "# Two\n\nEach subpartition has a Warp-Scheduler; `long scoreboard` in code.\n\n## Register allocation granularity\n\nThe granularity.\n",
		"three.md", "# Three\n\nA warp scheduler's pick, then the long scoreboard.\n",
		"glossary/warp-scheduler.md", "---\nterm: Warp scheduler\nshort: Picks.\n---\nText.\n",
		"glossary/sub-partition.md", "---\nterm: Sub-partition\nshort: A quarter.\n---\nText.\n",
		"glossary/long-scoreboard.md", "---\nterm: Long scoreboard\nshort: A stall.\naliases: [long_scoreboard]\n---\nText.\n",
		"glossary/latency.md", "---\nterm: Latency\nshort: Cycles.\n---\nText.\n",
		"glossary/granularity.md", "---\nterm: Register allocation granularity\nshort: The unit.\n---\nText.\n",
		"glossary/unused.md", "---\nterm: Nobody says this\nshort: Unused.\n---\nText.\n",
	), site.Options{})
	link := func(slug, text string) string {
		return `<a class="term" href="glossary/` + slug + `.html"`
	}
	one := page(t, s, "one.html")
	contains(t, "one.html", one,
		link("warp-scheduler", "")+` title="Picks.">warp schedulers</a>' queues and a `+link("sub-partition", "")+` title="A quarter.">sub-partition</a>.`,
		`<h2 id="long-scoreboard-stalls">Long-scoreboard stalls`,
		`In <code>warp scheduler</code> code, then `+link("latency", "")+` title="Cycles.">latencies</a>.`,
	)
	if strings.Contains(one, link("long-scoreboard", "")) {
		t.Error("one.html links a term in a heading")
	}
	two := page(t, s, "two.html")
	contains(t, "two.html", two,
		`Each `+link("sub-partition", "")+` title="A quarter.">subpartition</a> has a `+link("warp-scheduler", "")+` title="Picks.">Warp-Scheduler</a>; <code>long scoreboard</code> in code.`)
	three := page(t, s, "three.html")
	contains(t, "three.html", three, link("warp-scheduler", "")+` title="Picks.">warp scheduler's</a> pick`, `the `+link("long-scoreboard", ""))

	uses := func(name string) string {
		_, list, _ := strings.Cut(page(t, s, name), `<h2 id="used-in">`)
		list, _, _ = strings.Cut(list, "</article>")
		return list
	}
	ls := uses("glossary/long-scoreboard.html")
	contains(t, "glossary/long-scoreboard.html", ls,
		`<li><a href="../one.html">One</a> › <a href="../one.html#long-scoreboard-stalls">Long-scoreboard stalls</a></li>`,
		`<li><a href="../three.html">Three</a></li>`)
	lacks(t, "glossary/long-scoreboard.html", ls, `../two.html`)
	gr := uses("glossary/granularity.html")
	contains(t, "glossary/granularity.html", gr, `<a href="../two.html#register-allocation-granularity">Register allocation granularity</a>`)
	ws := uses("glossary/warp-scheduler.html")
	if n := strings.Count(ws, `<li><a href="../one.html">`); n != 1 {
		t.Errorf("warp scheduler's uses list One %d times, want once", n)
	}
	if !slices.ContainsFunc(s.Warnings, func(w string) bool {
		return strings.Contains(w, `book/glossary/unused.md: no page mentions "Nobody says this"`)
	}) {
		t.Errorf("no warning for the unused term: %q", s.Warnings)
	}
	if slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.Contains(w, "no page mentions \"Latency\"") }) {
		t.Errorf("warned about a used term: %q", s.Warnings)
	}
}

// Figures and captioned tables are numbered after the chapter, and
// @fig-ID and @tbl-ID link to them by their label, on their page, on
// another, and in the print edition; an unknown id, a shared one or a
// figure attribute other than id= is an error at its line.
func TestNumberedFloats(t *testing.T) {
	fig := "```figure id=fig-staircase\nkind: occupancy-vs-registers\ngpu: A100\ncaption: A staircase.\nalt: Steps.\n```\n"
	s := build(t, book(
		"SUMMARY.md", "- [One](one.md)\n- [Two](two.md)\n",
		"one.md", "# One\n\nAs @fig-staircase and @tbl-limits show.\n\n"+fig+"\n| a | b |\n|---|---|\n| 1 | 2 |\n\nTable: The limits {#tbl-limits}\n\n"+
			"```figure\nkind: occupancy-vs-registers\ngpu: A100\ncaption: Another.\nalt: Steps.\n```\n",
		"two.md", "# Two\n\nBack to @fig-staircase.\n\n| c |\n|---|\n| 3 |\n\nTable: Uncounted elsewhere.\n",
	), site.Options{})
	one := page(t, s, "one.html")
	contains(t, "one.html", one,
		`As <a class="xref" href="#fig-staircase">Figure 1.1</a> and <a class="xref" href="#tbl-limits">Table 1.1</a> show.`,
		`<figure class="figure" aria-labelledby="fig-staircase-caption">`,
		`<figcaption id="fig-staircase-caption"><span class="float-label">Figure 1.1:</span> A staircase.</figcaption>`,
		`<p class="table-caption" id="tbl-limits"><span class="float-label">Table 1.1:</span> The limits</p>`,
		`<figcaption id="figure-2-caption"><span class="float-label">Figure 1.2:</span> Another.</figcaption>`,
	)
	two := page(t, s, "two.html")
	contains(t, "two.html", two, `Back to <a class="xref" href="one.html#fig-staircase">Figure 1.1</a>.`,
		`<p class="table-caption" id="table-1"><span class="float-label">Table 2.1:</span> Uncounted elsewhere.</p>`)
	contains(t, "print.html", page(t, s, "print.html"), `Back to <a class="xref" href="#p-one--fig-staircase">Figure 1.1</a>.`, `id="p-one--fig-staircase"`)

	lines := buildErr(t, book(
		"one.md", "# One\n\nSee @fig-staircse.\n\n"+fig+"\n"+strings.Replace(fig, "figure id=fig-staircase", "figure id=fig-staircase", 1)+"\n```figure size=big\nkind: x\n```\n",
	), site.Options{})
	for _, want := range []string{
		"book/one.md:3:5: @fig-staircse: no figure or table of the book has this id (did you mean @fig-staircase?)",
		"book/one.md:12:4: fig-staircase is also the id of Figure 1 of one.md",
		`book/one.md:19:4: figure: unknown attribute "size=big": a figure's info string takes only id=fig-NAME`,
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("errors %q lack %q", lines, want)
		}
	}
}

// pageWeightBudget is the most a chapter of the book may weigh on a first
// visit, gzipped: its HTML and the stylesheets and scripts it loads before
// the reader does anything (the search index and library, the programs of
// "Copy as program" and the figures' numbers load, or open, on demand).
const pageWeightBudget = 56 << 10

// The real book's chapters stay within the page weight budget. go test
// -run PageWeight -v ./site prints each one's weight (docs/benchmarks.md
// gives them).
func TestPageWeight(t *testing.T) {
	booktest.Require(t)
	s := build(t, os.DirFS("../book"), site.Options{Dir: "../book"})
	gz := func(b []byte) int {
		var buf bytes.Buffer
		w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		w.Write(b)
		w.Close()
		return buf.Len()
	}
	loads := regexp.MustCompile(`<(?:link rel="(?:stylesheet|icon)"[^>]* href|script src)="([^"]+)"`)
	for _, name := range slices.Sorted(maps.Keys(s.Files)) {
		if !strings.HasSuffix(name, ".html") || strings.Contains(name, "/") || name == "print.html" || name == "404.html" {
			continue
		}
		html := s.Files[name]
		total := gz(html)
		for _, m := range loads.FindAllSubmatch(html, -1) {
			asset := strings.TrimPrefix(string(m[1]), "./")
			data, ok := s.Files[asset]
			if !ok {
				t.Errorf("%s loads %s, which the site lacks", name, asset)
			}
			total += gz(data)
		}
		t.Logf("%-36s %5.1f KB (HTML %5.1f KB)", name, float64(total)/1024, float64(gz(html))/1024)
		// The practice page holds every card of the book, as print.html
		// holds every page: it is logged, and not held to a chapter's
		// budget.
		if total > pageWeightBudget && name != "practice.html" {
			t.Errorf("%s weighs %.1f KB gzipped on a first visit, over the budget of %d KB", name, float64(total)/1024, pageWeightBudget>>10)
		}
	}
}
