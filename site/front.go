package site

import (
	"fmt"
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// frontPage is the front page of a book without index.md or README.md:
// what the book is, the ways to use it (read it; run its snippets; practise
// with its questions, for the parts the book has), where to start, and the
// contents by part, each chapter numbered once with its opening sentence.
func (r *renderer) frontPage() string {
	b := r.b
	var w strings.Builder
	if b.settings.Description != "" {
		fmt.Fprintf(&w, `<p class="lead">%s</p>`+"\n", html.EscapeString(b.settings.Description))
	}
	var chapters, withCells []*htmlPage
	cells := 0
	for _, p := range b.order {
		if p.kind != kindChapter || p.snip == nil {
			continue
		}
		chapters = append(chapters, p)
		if n := len(p.snip.Cells); n > 0 {
			cells += n
			withCells = append(withCells, p)
		}
	}
	parts := 0
	for _, it := range b.nav {
		if it.part {
			parts++
		}
	}

	w.WriteString(`<section class="front-ways" aria-labelledby="ways">` + "\n" + `<h2 id="ways">Ways to use this book</h2>` + "\n<ul>\n")
	if len(chapters) > 0 {
		first := chapters[0]
		in := ""
		if parts > 1 {
			in = fmt.Sprintf(" in %d parts", parts)
		}
		fmt.Fprintf(&w, `<li><h3>Read it</h3><p>%s%s, in order or by topic.`, plural(len(chapters), "chapter", "chapters"), in)
		if b.verifiedPages() > 0 {
			w.WriteString(" Every number a snippet prints was computed and checked when this site was built.")
		}
		fmt.Fprintf(&w, `</p><p class="start"><a href="%s">Start with %s →</a></p></li>`+"\n", r.href(first.out, ""), html.EscapeString(first.title))
	}
	if cells > 0 {
		example := b.repoPath(withCells[0].path)
		fmt.Fprintf(&w, `<li><h3>Run the snippets</h3><p>%s on %s, on your machine as on this site: <code>warpbook run %s</code> runs a page like a notebook. `,
			plural(cells, "snippet", "snippets"), plural(len(withCells), "page", "pages"), html.EscapeString(example))
		w.WriteString("Each snippet shows the command that runs it, and copies as a Go program of its own.</p></li>\n")
	}
	if len(b.questions) > 0 {
		qi := b.bySrc["questions/index.md"]
		fmt.Fprintf(&w, `<li><h3>Practise for an interview</h3><p>%s, tagged by topic, each with a short answer to try yourself against and a deep dive that works it out.</p><p class="start"><a href="%s">The questions →</a>`,
			plural(len(b.questions), "question", "questions"), r.href(qi.out, ""))
		if b.practice != nil {
			fmt.Fprintf(&w, ` <a href="%s">Drill them, and predict what the snippets print →</a>`, r.href(b.practice.out, ""))
		}
		w.WriteString("</p></li>\n")
	}
	w.WriteString("</ul>\n</section>\n")

	w.WriteString(`<section class="front-contents" aria-labelledby="contents">` + "\n" + `<h2 id="contents">Contents</h2>` + "\n")
	open := false
	closeList := func() {
		if open {
			w.WriteString("</ol>\n")
			open = false
		}
	}
	var item func(it *navItem)
	item = func(it *navItem) {
		w.WriteString("<li>")
		num := ""
		if it.number != "" {
			num = `<span class="num">` + html.EscapeString(strings.TrimSuffix(it.number, ".")) + `</span> `
		}
		if it.page == nil {
			fmt.Fprintf(&w, `<span class="draft-chapter">%s%s <small>(not written yet)</small></span>`, num, html.EscapeString(it.title))
		} else {
			fmt.Fprintf(&w, `<a href="%s">%s%s</a>`, r.href(it.page.out, ""), num, html.EscapeString(it.title))
			if s := b.blurb(it.page); s != "" {
				fmt.Fprintf(&w, `<span class="blurb">%s</span>`, html.EscapeString(s))
			}
		}
		if len(it.children) > 0 {
			w.WriteString(`<ol class="chapters">`)
			for _, c := range it.children {
				item(c)
			}
			w.WriteString("</ol>")
		}
		w.WriteString("</li>\n")
	}
	for _, it := range b.nav {
		switch {
		case it.sep:
			closeList()
		case it.part:
			closeList()
			fmt.Fprintf(&w, "<h3>%s</h3>\n", html.EscapeString(it.title))
		case it.page != nil && it.page.out == "index.html":
		default:
			if !open {
				w.WriteString(`<ol class="chapters">` + "\n")
				open = true
			}
			item(it)
		}
	}
	closeList()
	w.WriteString("</section>\n")
	return w.String()
}

// blurb is what the front page says under a chapter: its description, or
// the first sentence of its first paragraph.
func (b *build) blurb(p *htmlPage) string {
	if p.fm().Description != "" {
		return p.fm().Description
	}
	if p.doc() == nil || p.kind != kindChapter {
		return ""
	}
	for c := p.doc().FirstChild(); c != nil; c = c.NextSibling() {
		if _, ok := c.(*ast.Paragraph); !ok {
			continue
		}
		t := textOf(c, p.src())
		if i := strings.Index(t, ". "); i > 0 {
			t = t[:i+1]
		}
		if len(t) > 220 {
			t = t[:strings.LastIndex(t[:220], " ")] + " …"
		}
		return t
	}
	return ""
}

// verifiedPages counts the pages whose snippets the kernel ran.
func (b *build) verifiedPages() int {
	n := 0
	for _, p := range b.pages {
		if p.results != nil {
			n++
		}
	}
	return n
}
