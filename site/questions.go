package site

import (
	"cmp"
	"fmt"
	"html"
	"maps"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
	"github.com/yuin/goldmark/ast"
)

// questionParts splits a question's body into the short answer (before
// the first heading) and the deep dive (after a "Deep dive" heading).
func (b *build) questionParts(q *htmlPage) (short, deep []ast.Node) {
	inDeep := false
	for c := q.doc().FirstChild(); c != nil; c = c.NextSibling() {
		if h, ok := c.(*ast.Heading); ok && !inDeep {
			if !strings.EqualFold(textOf(h, q.src()), "deep dive") {
				b.addErrs(&page.Diagnostic{Pos: q.snip.Pos(lineStart(h)),
					Msg: "a question's first heading must be \"## Deep dive\": the short answer comes before it, the long answer after"})
			}
			inDeep = true
			continue
		}
		if c.Kind() == page.KindFrontMatter {
			continue
		}
		if inDeep {
			deep = append(deep, c)
		} else {
			short = append(short, c)
		}
	}
	if len(short) == 0 {
		b.errorf(q.path, q.fmLine(), "a question needs a short answer before its first heading")
	}
	return short, deep
}

// questionMeta writes a question's difficulty, tags and section link.
func (r *renderer) questionMeta(w *strings.Builder, q *htmlPage) {
	b := r.b
	fmt.Fprintf(w, `<p class="qa-meta"><span class="difficulty d-%s">%s</span>`, q.fm().Difficulty, q.fm().Difficulty)
	for _, t := range q.tags {
		fmt.Fprintf(w, ` <a class="tag" href="%s" data-tag="%s">%s</a>`, r.href("questions/tags/"+t+".html", ""), t, html.EscapeString(t))
	}
	if s := q.sectionPage; s != nil {
		href := r.href(s.out, q.sectionFrag)
		label := s.title
		if q.sectionFrag != "" {
			for _, h := range s.headings {
				if h.id == q.sectionFrag {
					label += " › " + h.text
				}
			}
		}
		fmt.Fprintf(w, ` <span class="explained">Explained in <a href="%s">%s</a></span>`, href, html.EscapeString(label))
		if b.practice != nil && r.p == q {
			fmt.Fprintf(w, ` <a class="drill" href="%s">Drill this chapter</a>`, html.EscapeString(drillHref(r, s)))
		}
	}
	w.WriteString("</p>\n")
}

// questionItem writes one question of an index: the question, its
// metadata and the short answer inside <details>.
func (r *renderer) questionItem(w *strings.Builder, q *htmlPage) {
	b := r.b
	qr := b.newRenderer(q, r.at, false)
	short, _ := b.questionParts(q)
	fmt.Fprintf(w, `<article class="qa" id="q-%s" data-tags="%s">`+"\n", q.slug, html.EscapeString(strings.Join(q.tags, " ")))
	fmt.Fprintf(w, `<h2 class="qa-q"><a href="%s">%s</a></h2>`+"\n", r.href(q.out, ""), html.EscapeString(q.title))
	r.questionMeta(w, q)
	w.WriteString(`<details class="answer"><summary>Show the answer</summary>` + "\n")
	w.WriteString(qr.markdown(short...))
	fmt.Fprintf(w, `<p><a href="%s">Deep dive →</a></p>`+"\n", r.href(q.out, "deep-dive"))
	w.WriteString("</details>\n</article>\n")
	r.links = append(r.links, qr.links...)
	r.errs = append(r.errs, qr.errs...)
}

// questionIndex is the body of questions/index.html.
func (r *renderer) questionIndex() string {
	b := r.b
	var w strings.Builder
	fmt.Fprintf(&w, "<p>%s. Each answer stays hidden until you open it.</p>\n", plural(len(b.questions), "question", "questions"))
	r.tagList(&w, "")
	for _, q := range b.questions {
		r.questionItem(&w, q)
	}
	return w.String()
}

// tagList writes the links that filter the questions by tag: to the tag
// pages, and on the index (current "") marked for the script, which
// filters the list in place instead.
func (r *renderer) tagList(w *strings.Builder, current string) {
	b := r.b
	filter := ""
	if current == "" {
		filter = ` data-filter="qa"`
	}
	fmt.Fprintf(w, `<nav class="tags" aria-label="Filter by tag"%s><ul>`, filter)
	cls := ""
	if current == "" {
		cls = ` aria-current="page"`
	}
	fmt.Fprintf(w, `<li><a class="tag" href="%s" data-tag=""%s>all</a></li>`, r.href("questions/index.html", ""), cls)
	for _, t := range slices.Sorted(maps.Keys(b.tags)) {
		cls := ""
		if t == current {
			cls = ` aria-current="page"`
		}
		fmt.Fprintf(w, `<li><a class="tag" href="%s" data-tag="%s"%s>%s <span class="count">%d</span></a></li>`,
			r.href("questions/tags/"+t+".html", ""), t, cls, html.EscapeString(t), len(b.tags[t]))
	}
	w.WriteString("</ul></nav>\n")
}

// tagPage is the body of questions/tags/<tag>.html.
func (r *renderer) tagPage() string {
	b := r.b
	var w strings.Builder
	tag := r.p.slug
	fmt.Fprintf(&w, "<p>%s tagged <strong>%s</strong>.</p>\n", plural(len(b.tags[tag]), "question", "questions"), html.EscapeString(tag))
	r.tagList(&w, tag)
	for _, q := range b.tags[tag] {
		r.questionItem(&w, q)
	}
	return w.String()
}

// questionPage is the content of a question's own page.
func (r *renderer) questionPage() string {
	b := r.b
	q := r.p
	var w strings.Builder
	r.questionMeta(&w, q)
	short, deep := b.questionParts(q)
	w.WriteString(`<details class="answer"><summary>Show the answer</summary>` + "\n")
	w.WriteString(r.markdown(short...))
	w.WriteString("</details>\n")
	if len(deep) > 0 {
		w.WriteString(`<details class="answer deep" id="deep-dive"><summary>Deep dive</summary>` + "\n")
		w.WriteString(r.markdown(deep...))
		w.WriteString("</details>\n")
	}
	return w.String()
}

// chapterQuestionsID is the id of the list of a chapter's questions.
const chapterQuestionsID = "wb-qs"

// chapterQuestions lists, at the end of a chapter, the interview questions
// whose section is on it, in the order of their sections, each with a
// link to the section that answers it.
func (r *renderer) chapterQuestions() string {
	b := r.b
	p := r.p
	if len(p.qs) == 0 || r.print {
		return ""
	}
	at := map[string]int{}
	titles := map[string]string{}
	for i, h := range p.headings {
		if _, dup := at[h.id]; h.id != "" && !dup {
			at[h.id], titles[h.id] = i+1, h.text
		}
	}
	qs := slices.Clone(p.qs)
	slices.SortStableFunc(qs, func(x, y *htmlPage) int { return cmp.Compare(at[x.sectionFrag], at[y.sectionFrag]) })
	var w strings.Builder
	fmt.Fprintf(&w, `<section class="chapter-qs" aria-labelledby="%[1]s"><h2 id="%[1]s">Interview questions on this chapter<a class="hanchor" href="#%[1]s" aria-label="Link to this section">#</a></h2>`+"\n", chapterQuestionsID)
	fmt.Fprintf(&w, "<p>%s whose answer this chapter explains.", plural(len(qs), "question", "questions"))
	if b.practice != nil {
		fmt.Fprintf(&w, ` <a class="drill" href="%s">Drill this chapter</a>: its questions and what its snippets print, one card at a time.`, html.EscapeString(drillHref(r, p)))
	}
	w.WriteString("</p>\n<ul>\n")
	for _, q := range qs {
		fmt.Fprintf(&w, `<li><a href="%s">%s</a> <span class="difficulty d-%s">%s</span>`,
			r.href(q.out, ""), html.EscapeString(q.title), q.fm().Difficulty, q.fm().Difficulty)
		if t := titles[q.sectionFrag]; t != "" && q.sectionFrag != "" {
			fmt.Fprintf(&w, ` <span class="explained">explained in <a href="%s">%s</a></span>`, fragment(q.sectionFrag), html.EscapeString(t))
		}
		w.WriteString("</li>\n")
	}
	w.WriteString("</ul></section>\n")
	return w.String()
}
