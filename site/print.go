package site

import (
	"fmt"
	"html"
	"strings"
	"sync"
	"unicode/utf8"
)

// printPage is the whole book on one page, the print edition: its
// contents, linked; the chapters in reading order, each part under its
// title; the interview questions with their answers; the glossary.
// `warpbook build --pdf` prints it to book.pdf.
func (r *renderer) printPage() string {
	b := r.b
	var w strings.Builder
	w.WriteString(`<p class="print-note">The whole book on one page. Use your browser's print command to print it or save it as PDF.</p>` + "\n")
	// Each chapter and question renders on its own, in parallel: this page
	// is the whole book.
	var all []*htmlPage
	all = append(all, b.printList...)
	all = append(all, b.questions...)
	parts := make(map[*htmlPage]*renderer, len(all))
	out := make(map[*htmlPage]string, len(all))
	var mu sync.Mutex
	parallel(all, func(p *htmlPage) {
		pr := b.newRenderer(p, r.at, true)
		var s string
		if p.kind == kindQuestion {
			s = pr.printQuestion()
		} else {
			s = pr.markdown(p.doc())
		}
		mu.Lock()
		parts[p], out[p] = pr, s
		mu.Unlock()
	})
	size := 0
	for _, p := range all {
		r.errs = append(r.errs, parts[p].errs...)
		size += len(out[p]) + 256
	}
	w.Grow(size + 64<<10) // the contents and the glossary besides

	r.printContents(&w)
	partOf := map[*htmlPage]string{} // the part a chapter opens
	var part string
	walkNav(b.nav, func(it *navItem, parents []*navItem) {
		switch {
		case it.part:
			part = it.title
		case it.sep:
			part = ""
		case it.page != nil && part != "" && b.inPrint[it.page] && len(parents) == 0:
			partOf[it.page] = part
			part = ""
		}
	})
	for _, p := range b.printList {
		if t := partOf[p]; t != "" {
			fmt.Fprintf(&w, `<h2 class="print-part">%s</h2>`+"\n", html.EscapeString(t))
		}
		fmt.Fprintf(&w, `<section class="print-page" id="%s">`+"\n", html.EscapeString(printID(p, "")))
		if !p.titleInDoc {
			fmt.Fprintf(&w, "<h2>%s</h2>\n", html.EscapeString(p.title))
		}
		if p.draft != "" {
			fmt.Fprintf(&w, `<div class="draft-banner" role="note"><strong>Draft.</strong> This page is not reviewed yet: %s.</div>`+"\n", html.EscapeString(p.draft))
		}
		w.WriteString(out[p])
		w.WriteString("</section>\n")
	}
	if len(b.questions) > 0 {
		w.WriteString(`<section class="print-page" id="p-questions"><h2>Interview questions</h2>` + "\n")
		fmt.Fprintf(&w, "<p>%s, in the order of the sections that explain them, each with its short answer and its deep dive.</p>\n", plural(len(b.questions), "question", "questions"))
		for _, q := range b.questions {
			w.WriteString(out[q])
		}
		w.WriteString("</section>\n")
	}
	if len(b.glossary) > 0 {
		w.WriteString(`<section class="print-page" id="p-glossary"><h2>Glossary</h2>` + "\n<dl class=\"glossary\">\n")
		for _, g := range b.glossary {
			fmt.Fprintf(&w, `<dt id="g-%s">%s</dt><dd>%s</dd>`+"\n", g.slug, html.EscapeString(g.title), html.EscapeString(g.fm().Short))
		}
		w.WriteString("</dl></section>\n")
	}
	return w.String()
}

// printContents writes the print edition's contents: the parts and their
// chapters, numbered once, linked to where they start on the page.
func (r *renderer) printContents(w *strings.Builder) {
	b := r.b
	w.WriteString(`<div class="print-contents"><h2 id="p-contents">Contents</h2>` + "\n")
	open := false
	var item func(it *navItem)
	item = func(it *navItem) {
		if it.page == nil || !b.inPrint[it.page] {
			return
		}
		num := ""
		if it.number != "" {
			num = `<span class="num">` + html.EscapeString(strings.TrimSuffix(it.number, ".")) + `</span> `
		}
		fmt.Fprintf(w, `<li><a href="%s">%s%s</a>`, fragment(printID(it.page, "")), num, html.EscapeString(it.title))
		if len(it.children) > 0 {
			w.WriteString("<ol>")
			for _, c := range it.children {
				item(c)
			}
			w.WriteString("</ol>")
		}
		w.WriteString("</li>\n")
	}
	list := func() {
		if !open {
			w.WriteString("<ol>\n")
			open = true
		}
	}
	end := func() {
		if open {
			w.WriteString("</ol>\n")
			open = false
		}
	}
	for _, it := range b.nav {
		switch {
		case it.part:
			end()
			fmt.Fprintf(w, "<h3>%s</h3>\n", html.EscapeString(it.title))
		case it.sep:
			end()
		case it.page != nil && b.inPrint[it.page]:
			list()
			item(it)
		}
	}
	end()
	var tail []string
	if len(b.questions) > 0 {
		tail = append(tail, fmt.Sprintf(`<li><a href="#p-questions">Interview questions</a></li>`))
	}
	if len(b.glossary) > 0 {
		tail = append(tail, `<li><a href="#p-glossary">Glossary</a></li>`)
	}
	if len(tail) > 0 {
		w.WriteString("<ol>\n" + strings.Join(tail, "\n") + "\n</ol>\n")
	}
	w.WriteString("</div>\n")
}

// printQuestion is a question in the print edition: the question, what it
// is about, its short answer and its deep dive, all open.
func (r *renderer) printQuestion() string {
	b := r.b
	q := r.p
	var w strings.Builder
	fmt.Fprintf(&w, `<article class="print-q" id="%s">`+"\n", html.EscapeString(printID(q, "")))
	fmt.Fprintf(&w, "<h3>%s</h3>\n", html.EscapeString(q.title))
	fmt.Fprintf(&w, `<p class="qa-meta"><span class="difficulty d-%s">%s</span>`, q.fm().Difficulty, q.fm().Difficulty)
	for _, t := range q.tags {
		fmt.Fprintf(&w, ` <span class="tag">%s</span>`, html.EscapeString(t))
	}
	if s := q.sectionPage; s != nil && b.inPrint[s] {
		label := s.title
		for _, h := range s.headings {
			if h.id == q.sectionFrag && q.sectionFrag != "" {
				label += " › " + h.text
			}
		}
		fmt.Fprintf(&w, ` <span class="explained">Explained in <a href="%s">%s</a></span>`, fragment(printID(s, q.sectionFrag)), html.EscapeString(label))
	}
	w.WriteString("</p>\n")
	short, deep := b.questionParts(q)
	w.WriteString(`<div class="answer">` + "\n")
	w.WriteString(r.markdown(short...))
	w.WriteString("</div>\n")
	if len(deep) > 0 {
		w.WriteString(`<div class="deep"><p class="deep-title">Deep dive</p>` + "\n")
		w.WriteString(r.markdown(deep...))
		w.WriteString("</div>\n")
	}
	w.WriteString("</article>\n")
	return w.String()
}

// printWidth is how many columns of code fit the printed page at the
// print edition's code size; a wider block is printed smaller.
const printWidth = 96

// wide returns the attributes of a code or output block whose longest
// line passes printWidth: its width, which the print stylesheet scales its
// type by. "" for a block that fits.
func wide(text string) string {
	cols := 0
	for _, l := range strings.Split(text, "\n") {
		cols = max(cols, utf8.RuneCountInString(strings.ReplaceAll(l, "\t", "    ")))
	}
	if cols <= printWidth {
		return ""
	}
	return fmt.Sprintf(` style="--cols:%d"`, cols)
}
