package site

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/warpbook/warpbook/snippets"
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
		for i, s := range append([]string{g.fm().Term}, g.fm().Aliases...) {
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
				b.errorAt(g.fm().KeyPos(field), "front matter: %q is also a term or alias of %s", s, other.path)
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
		if p.doc() != nil && (p.kind == kindChapter || p.kind == kindQuestion || p.kind == kindGlossary) {
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

// termMark is where a glossary link opens (entry set) or closes (entry
// nil) in a text node: at is a byte offset of the page's source, within
// the node's segment. The renderer writes the links there; the AST is
// never changed.
type termMark struct {
	at    int
	entry *page
}

// linkTerms finds the first mention of each pattern in p's prose, records
// where its link goes in p.terms, and returns the mentions.
func linkTerms(p *page, pats []termPattern) []termUse {
	var texts []*ast.Text
	var sections []use // section of each text
	cur := use{page: p, title: p.title}
	src := p.src()
	ast.Walk(p.doc(), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 1 {
				cur = use{page: p, title: p.title}
			} else {
				cur = use{page: p, anchor: headingID(n), title: textOf(n, src)}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Link, *ast.AutoLink, *ast.CodeSpan, *ast.Image, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *ast.RawHTML,
			*snippets.CellNode, *snippets.CheckNode, *snippets.FrontMatterNode:
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
	p.terms = map[*ast.Text][]termMark{}
	var found []termUse
	// A run is the text nodes of one stretch of prose: sibling nodes that
	// goldmark split on one line (where a construct could have started:
	// an autolink at "www", say), or that follow each other across a soft
	// line break, so that a term may end a line ("warp⏎scheduler").
	for i := 0; i < len(texts); {
		j := i + 1
		for j < len(texts) && texts[j-1].NextSibling() == texts[j] && (adjacent(texts[j-1], texts[j]) || texts[j-1].SoftLineBreak() && !texts[j-1].HardLineBreak()) {
			j++
		}
		found = linkRun(p, texts[i:j], sections[i], pats, done, found)
		i = j
	}
	return found
}

// adjacent reports whether text node b continues a on the same line.
func adjacent(a, b *ast.Text) bool {
	return !b.IsRaw() && !a.SoftLineBreak() && !a.HardLineBreak() && a.Segment.Stop == b.Segment.Start &&
		a.Segment.Padding == 0 && b.Segment.Padding == 0
}

// linkRun links the first mention of each pattern not yet done in a run
// of sibling text nodes; a soft line break between two matches as one
// space.
func linkRun(p *page, run []*ast.Text, sec use, pats []termPattern, done map[*page]bool, found []termUse) []termUse {
	src := p.src()
	var buf []byte
	starts := make([]int, len(run)) // where each node starts in buf
	for k, n := range run {
		if k > 0 && !adjacent(run[k-1], n) {
			buf = append(buf, ' ')
		}
		starts[k] = len(buf)
		buf = append(buf, n.Segment.Value(src)...)
	}
	lower := lowerASCII(string(buf))
	// node returns the node holding byte i of buf (the last one before it,
	// for the space of a line break), and i's offset in the source.
	node := func(i int) (*ast.Text, int) {
		k := 0
		for k+1 < len(run) && starts[k+1] <= i {
			k++
		}
		return run[k], run[k].Segment.Start + i - starts[k]
	}
	for from := 0; from < len(lower); {
		best, at := -1, -1
		for j, pat := range pats {
			if done[pat.entry] {
				continue
			}
			if k := indexWord(lower[from:], pat.text); k >= 0 && (at < 0 || k < at) {
				best, at = j, k
			}
		}
		if best < 0 {
			break
		}
		pat := pats[best]
		done[pat.entry] = true
		found = append(found, termUse{entry: pat.entry, use: sec})
		at += from
		end := at + len(pat.text)
		first, open := node(at)
		last, closeAt := node(end - 1)
		p.terms[first] = append(p.terms[first], termMark{at: open, entry: pat.entry})
		p.terms[last] = append(p.terms[last], termMark{at: closeAt + 1})
		from = end
	}
	return found
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
			g.slug, rel(r.at, g.out), html.EscapeString(g.title), html.EscapeString(g.fm().Short))
	}
	w.WriteString("</dl>\n")
	return w.String()
}

// glossaryEntry is the content of a glossary entry's page around its body.
func (b *build) glossaryEntry(r *renderer, body string) string {
	g := r.p
	var w strings.Builder
	fmt.Fprintf(&w, `<p class="short">%s</p>`+"\n", html.EscapeString(g.fm().Short))
	if len(g.fm().Aliases) > 0 {
		fmt.Fprintf(&w, `<p class="aliases">Also: %s</p>`+"\n", html.EscapeString(strings.Join(g.fm().Aliases, ", ")))
	}
	w.WriteString(body)
	if len(g.fm().Related) > 0 {
		w.WriteString(`<h2 id="related">Related terms</h2>` + "\n<ul class=\"related\">\n")
		for _, slug := range g.fm().Related {
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
