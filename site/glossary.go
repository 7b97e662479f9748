package site

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// termPattern is one spelling of a glossary term.
type termPattern struct {
	text  string // lower-case ASCII
	entry *page
}

// linkGlossary links the first mention of each glossary term (or alias)
// on every page to its entry, and records the mention on the entry.
func (b *build) linkGlossary() error {
	if len(b.glossary) == 0 {
		return nil
	}
	var pats []termPattern
	seen := map[string]*page{}
	for _, g := range b.glossary {
		for i, s := range append([]string{g.fm.Term}, g.fm.Aliases...) {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			key := lowerASCII(s)
			if other := seen[key]; other != nil && other != g {
				field := "term"
				if i > 0 {
					field = "aliases"
				}
				b.errorf(g.path, keyLine(g.fmRaw, g.fmAt, field), "front matter: %q is also a term or alias of %s", s, other.path)
				continue
			}
			if seen[key] == g {
				continue
			}
			seen[key] = g
			pats = append(pats, termPattern{text: key, entry: g})
		}
	}
	// Longest first, so that "warp scheduler" wins over "warp".
	slices.SortStableFunc(pats, func(x, y termPattern) int {
		return cmp.Or(cmp.Compare(len(y.text), len(x.text)), strings.Compare(x.text, y.text))
	})
	var pages []*page
	for _, p := range b.pages {
		if p.doc != nil && (p.kind == kindChapter || p.kind == kindQuestion || p.kind == kindGlossary) {
			pages = append(pages, p)
		}
	}
	uses := map[*page][]use{}
	parallel(pages, func(p *page) {
		found := linkTerms(p, pats)
		b.mu.Lock()
		for _, u := range found {
			uses[u.entry] = append(uses[u.entry], u.use)
		}
		b.mu.Unlock()
	})
	rank := map[*page]int{}
	for i, p := range b.order {
		rank[p] = i + 1
	}
	for _, p := range b.questions {
		rank[p] = len(b.order) + 1 + len(rank)
	}
	for g, us := range uses {
		slices.SortFunc(us, func(x, y use) int {
			rx, ry := rank[x.page], rank[y.page]
			if rx == 0 {
				rx = 1 << 30
			}
			if ry == 0 {
				ry = 1 << 30
			}
			return cmp.Or(cmp.Compare(x.page.kind, y.page.kind), cmp.Compare(rx, ry), strings.Compare(x.page.path, y.page.path))
		})
		g.uses = us
	}
	return nil
}

type termUse struct {
	entry *page
	use   use
}

// linkTerms links the first mention of each pattern in p's prose.
func linkTerms(p *page, pats []termPattern) []termUse {
	mergeTexts(p.doc)
	var texts []*ast.Text
	var sections []use // section of each text
	cur := use{page: p, title: p.title}
	ast.Walk(p.doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 1 {
				cur = use{page: p, title: p.title}
			} else {
				cur = use{page: p, anchor: headingID(n), title: textOf(n, p.src)}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Link, *ast.AutoLink, *ast.CodeSpan, *ast.Image, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *ast.RawHTML, *TermLink:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if !n.IsRaw() {
				texts = append(texts, n)
				sections = append(sections, cur)
			}
		}
		return ast.WalkContinue, nil
	})
	done := map[*page]bool{}
	if p.kind == kindGlossary {
		done[p] = true // an entry does not link to itself
	}
	var found []termUse
	// A run is the text nodes of one stretch of prose, line after line:
	// a term may end a line ("warp⏎scheduler") or span two.
	for i := 0; i < len(texts); {
		j := i + 1
		for j < len(texts) && texts[j-1].SoftLineBreak() && !texts[j-1].HardLineBreak() && texts[j-1].NextSibling() == texts[j] {
			j++
		}
		found = linkRun(p.src, texts[i:j], sections[i], pats, done, found)
		i = j
	}
	return found
}

// linkRun links the first mention of each pattern not yet done in a run
// of sibling text nodes joined by soft line breaks, which match as one
// space.
func linkRun(src []byte, run []*ast.Text, sec use, pats []termPattern, done map[*page]bool, found []termUse) []termUse {
	nodes := slices.Clone(run)
	for len(nodes) > 0 {
		var buf []byte
		starts := make([]int, len(nodes))
		for k, n := range nodes {
			if k > 0 {
				buf = append(buf, ' ')
			}
			starts[k] = len(buf)
			buf = append(buf, n.Segment.Value(src)...)
		}
		lower := lowerASCII(string(buf))
		best, at := -1, -1
		for j, pat := range pats {
			if done[pat.entry] {
				continue
			}
			if k := indexWord(lower, pat.text); k >= 0 && (at < 0 || k < at) {
				best, at = j, k
			}
		}
		if best < 0 {
			break
		}
		pat := pats[best]
		done[pat.entry] = true
		found = append(found, termUse{entry: pat.entry, use: sec})
		end := at + len(pat.text)
		a, z := 0, 0 // the nodes holding the first and the last byte
		for k := range nodes {
			if starts[k] <= at {
				a = k
			}
			if starts[k] < end {
				z = k
			}
		}
		first, last := nodes[a], nodes[z]
		if off := at - starts[a]; off > 0 {
			first = cutText(first, off)
			if a == z {
				last = first
				starts[z] += off
			}
		}
		var rest *ast.Text
		if off := end - starts[z]; off < last.Segment.Len() || last.SoftLineBreak() || last.HardLineBreak() {
			// The line break after the term stays outside its link.
			rest = cutText(last, off)
		}
		wrapTerm(first, last, pat.entry)
		nodes = nodes[z+1:]
		if rest != nil {
			nodes = append([]*ast.Text{rest}, nodes...)
		}
	}
	return found
}

// cutText splits text node t before byte k of its segment and returns the
// new node after it, which takes t's line break.
func cutText(t *ast.Text, k int) *ast.Text {
	seg := t.Segment
	after := ast.NewTextSegment(text.NewSegment(seg.Start+k, seg.Stop))
	after.SetSoftLineBreak(t.SoftLineBreak())
	after.SetHardLineBreak(t.HardLineBreak())
	t.Segment = seg.WithStop(seg.Start + k)
	t.SetSoftLineBreak(false)
	t.SetHardLineBreak(false)
	t.Parent().InsertAfter(t.Parent(), t, after)
	return after
}

// wrapTerm moves the sibling nodes first to last into a TermLink to entry.
func wrapTerm(first, last *ast.Text, entry *page) {
	parent := first.Parent()
	link := &TermLink{Slug: entry.slug, Short: entry.fm.Short}
	parent.InsertBefore(parent, first, link)
	for n := ast.Node(first); n != nil; {
		next := n.NextSibling()
		parent.RemoveChild(parent, n)
		link.AppendChild(link, n)
		if n == last {
			break
		}
		n = next
	}
}

// mergeTexts joins runs of adjacent text nodes on one line: goldmark's
// inline parsers split text where a construct could have started (an
// autolink at "www", say), and a term must match across such splits.
func mergeTexts(doc ast.Node) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		t, ok := n.(*ast.Text)
		if !ok || !entering {
			return ast.WalkContinue, nil
		}
		for {
			next, ok := t.NextSibling().(*ast.Text)
			if !ok || t.IsRaw() || next.IsRaw() || t.SoftLineBreak() || t.HardLineBreak() || t.Segment.Stop != next.Segment.Start ||
				t.Segment.Padding != 0 || next.Segment.Padding != 0 {
				break
			}
			t.Segment = t.Segment.WithStop(next.Segment.Stop)
			t.SetSoftLineBreak(next.SoftLineBreak())
			t.SetHardLineBreak(next.HardLineBreak())
			t.Parent().RemoveChild(t.Parent(), next)
		}
		return ast.WalkContinue, nil
	})
}

// lowerASCII lower-cases ASCII letters only, keeping byte offsets.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// indexWord returns the first index of word in s that is not inside a
// longer word, or -1.
func indexWord(s, word string) int {
	for off := 0; ; {
		k := strings.Index(s[off:], word)
		if k < 0 {
			return -1
		}
		k += off
		end := k + len(word)
		if (k == 0 || !isWordByte(s[k-1])) && (end == len(s) || !isWordByte(s[end])) {
			return k
		}
		off = k + 1
	}
}

// glossaryIndex is the body of glossary/index.html: every term with its
// definition.
func (b *build) glossaryIndex(r *renderer) string {
	var w strings.Builder
	w.WriteString(`<dl class="glossary">` + "\n")
	for _, g := range b.glossary {
		fmt.Fprintf(&w, `<dt id="%s"><a href="%s">%s</a></dt><dd>%s</dd>`+"\n",
			g.slug, rel(r.at, g.out), html.EscapeString(g.title), html.EscapeString(g.fm.Short))
	}
	w.WriteString("</dl>\n")
	return w.String()
}

// glossaryEntry is the content of a glossary entry's page around its body.
func (b *build) glossaryEntry(r *renderer, body string) string {
	g := r.p
	var w strings.Builder
	fmt.Fprintf(&w, `<p class="short">%s</p>`+"\n", html.EscapeString(g.fm.Short))
	if len(g.fm.Aliases) > 0 {
		fmt.Fprintf(&w, `<p class="aliases">Also: %s</p>`+"\n", html.EscapeString(strings.Join(g.fm.Aliases, ", ")))
	}
	w.WriteString(body)
	if len(g.fm.Related) > 0 {
		w.WriteString(`<h2 id="related">Related terms</h2>` + "\n<ul class=\"related\">\n")
		for _, slug := range g.fm.Related {
			if t := b.bySrc["glossary/"+slug+".md"]; t != nil {
				fmt.Fprintf(&w, `<li><a href="%s">%s</a></li>`+"\n", rel(r.at, t.out), html.EscapeString(t.title))
			}
		}
		w.WriteString("</ul>\n")
	}
	w.WriteString(`<h2 id="used-in">Where it is used</h2>` + "\n")
	if len(g.uses) == 0 {
		w.WriteString("<p>No page mentions this term yet.</p>\n")
	} else {
		w.WriteString("<ul class=\"uses\">\n")
		for _, u := range g.uses {
			href := rel(r.at, u.page.out)
			label := html.EscapeString(u.page.title)
			if u.anchor != "" {
				href += "#" + u.anchor
				if u.title != u.page.title {
					label += " › " + html.EscapeString(u.title)
				}
			}
			fmt.Fprintf(&w, `<li><a href="%s">%s</a></li>`+"\n", html.EscapeString(href), label)
		}
		w.WriteString("</ul>\n")
	}
	return w.String()
}
