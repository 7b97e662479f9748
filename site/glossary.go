package site

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strings"
	"unicode"

	"github.com/warpbook/warpbook/snippets/page"
	"github.com/yuin/goldmark/ast"
)

// termPattern is one spelling of a glossary term: its words, each folded
// (see fold), which match the same words in prose whether they are
// written with spaces, hyphens or a line break between them, in the
// singular or the plural, with or without a possessive.
type termPattern struct {
	words []string
	entry *htmlPage
}

// linkGlossary links the first mention of each glossary term (or alias)
// on every page to its entry, records every section that mentions it
// (headings included) on the entry, and warns about a term no page uses.
func (b *build) linkGlossary() error {
	if len(b.glossary) == 0 {
		return nil
	}
	byFirst := map[string][]termPattern{}
	seen := map[string]*htmlPage{}
	for _, g := range b.glossary {
		for i, s := range append([]string{g.fm().Term}, g.fm().Aliases...) {
			field := "term"
			if i > 0 {
				field = "aliases"
			}
			for _, ws := range spellings(s) {
				key := strings.Join(ws, " ")
				if other := seen[key]; other != nil && other != g {
					b.errorAt(g.fm().KeyPos(field), "front matter: %q is also a term or alias of %s", strings.TrimSpace(s), other.path)
					continue
				}
				if seen[key] == g {
					continue
				}
				seen[key] = g
				byFirst[ws[0]] = append(byFirst[ws[0]], termPattern{words: ws, entry: g})
			}
		}
	}
	// Longest first, so that "warp scheduler" wins over "warp".
	for _, pats := range byFirst {
		slices.SortStableFunc(pats, func(x, y termPattern) int {
			return cmp.Or(cmp.Compare(len(y.words), len(x.words)), slices.Compare(x.words, y.words))
		})
	}
	var pages []*htmlPage
	for _, p := range b.pages {
		if p.doc() != nil && (p.kind == kindChapter || p.kind == kindQuestion || p.kind == kindGlossary) {
			pages = append(pages, p)
		}
	}
	uses := map[*htmlPage][]use{}
	parallel(pages, func(p *htmlPage) {
		found := linkTerms(p, byFirst)
		b.mu.Lock()
		for _, u := range found {
			uses[u.entry] = append(uses[u.entry], u.use)
		}
		b.mu.Unlock()
	})
	rank := map[*htmlPage]int{}
	for i, p := range b.order {
		rank[p] = i + 1
	}
	for _, p := range b.questions {
		rank[p] = len(b.order) + 1 + len(rank)
	}
	for g, us := range uses {
		slices.SortStableFunc(us, func(x, y use) int {
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
	for _, g := range b.glossary {
		if len(g.uses) == 0 {
			b.warnf("%s: no page mentions %q or its aliases: link the term from the pages that need it, or drop it", b.file(g.path), g.fm().Term)
		}
	}
	return nil
}

// spellings returns the word sequences a term matches: its words folded,
// and for a hyphenated word also the word written solid ("sub-partition"
// matches "subpartition" too).
func spellings(term string) [][]string {
	var ws []string
	solid := false
	for _, w := range proseWords(term) {
		ws = append(ws, w.norm)
	}
	if len(ws) == 0 {
		return nil
	}
	out := [][]string{ws}
	if strings.Contains(term, "-") {
		var joined []string
		for _, part := range strings.Fields(term) {
			var pw []string
			for _, w := range proseWords(part) {
				pw = append(pw, w.norm)
			}
			if len(pw) > 1 {
				solid = true
			}
			if len(pw) > 0 {
				joined = append(joined, strings.Join(pw, ""))
			}
		}
		if solid {
			out = append(out, joined)
		}
	}
	return out
}

type termUse struct {
	entry *htmlPage
	use   use
}

// termMark is where a glossary link opens (entry set) or closes (entry
// nil) in a text node: at is a byte offset of the page's source, within
// the node's segment. The renderer writes the links there; the AST is
// never changed.
type termMark struct {
	at    int
	entry *htmlPage
}

// linkTerms finds the mentions of the glossary's terms in p's prose and
// headings, records where the link of each term's first mention in prose
// goes in p.terms, and returns every section that mentions a term.
func linkTerms(p *htmlPage, pats map[string][]termPattern) []termUse {
	var texts []*ast.Text
	var sections []use // section of each text
	cur := use{page: p, title: p.title}
	src := p.src()
	var found []termUse
	mentioned := map[termUse]bool{}
	record := func(g *htmlPage, sec use) {
		u := termUse{entry: g, use: sec}
		if g != p && !mentioned[u] {
			mentioned[u] = true
			found = append(found, u)
		}
	}
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
			// A heading that names a term is a use of it, not linked.
			for _, m := range matchTerms(textOf(n, src), pats) {
				record(m.entry, cur)
			}
			return ast.WalkSkipChildren, nil
		case *ast.Link, *ast.AutoLink, *ast.CodeSpan, *ast.Image, *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock, *ast.RawHTML,
			*page.CellNode, *page.CheckNode, *page.FrontMatterNode:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			if !n.IsRaw() {
				texts = append(texts, n)
				sections = append(sections, cur)
			}
		}
		return ast.WalkContinue, nil
	})
	linked := map[*htmlPage]bool{}
	if p.kind == kindGlossary {
		linked[p] = true // an entry does not link to itself
	}
	p.terms = map[*ast.Text][]termMark{}
	// A run is the text nodes of one stretch of prose: sibling nodes that
	// goldmark split on one line (where a construct could have started:
	// an autolink at "www", say), or that follow each other across a soft
	// line break, so that a term may end a line ("warp⏎scheduler").
	for i := 0; i < len(texts); {
		j := i + 1
		for j < len(texts) && texts[j-1].NextSibling() == texts[j] && (adjacent(texts[j-1], texts[j]) || texts[j-1].SoftLineBreak() && !texts[j-1].HardLineBreak()) {
			j++
		}
		linkRun(p, texts[i:j], sections[i], pats, linked, record)
		i = j
	}
	return found
}

// adjacent reports whether text node b continues a on the same line.
func adjacent(a, b *ast.Text) bool {
	return !b.IsRaw() && !a.SoftLineBreak() && !a.HardLineBreak() && a.Segment.Stop == b.Segment.Start &&
		a.Segment.Padding == 0 && b.Segment.Padding == 0
}

// linkRun finds the mentions in a run of sibling text nodes (a soft line
// break between two reads as a space), records each, and links the first
// mention on the page of each term.
func linkRun(p *htmlPage, run []*ast.Text, sec use, pats map[string][]termPattern, linked map[*htmlPage]bool, record func(*htmlPage, use)) {
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
	// node returns the node holding byte i of buf (the last one before it,
	// for the space of a line break), and i's offset in the source.
	node := func(i int) (*ast.Text, int) {
		k := 0
		for k+1 < len(run) && starts[k+1] <= i {
			k++
		}
		return run[k], run[k].Segment.Start + i - starts[k]
	}
	for _, m := range matchTerms(string(buf), pats) {
		record(m.entry, sec)
		if linked[m.entry] {
			continue
		}
		linked[m.entry] = true
		first, open := node(m.start)
		last, closeAt := node(m.end - 1)
		p.terms[first] = append(p.terms[first], termMark{at: open, entry: m.entry})
		p.terms[last] = append(p.terms[last], termMark{at: closeAt + 1})
	}
}

// A termMatch is a mention of a term in a text: bytes [start, end).
type termMatch struct {
	start, end int
	entry      *htmlPage
}

// matchTerms returns the mentions of the terms in text, left to right;
// where terms overlap, the longest wins ("warp scheduler", not "warp").
func matchTerms(text string, pats map[string][]termPattern) []termMatch {
	ws := proseWords(text)
	var out []termMatch
	for i := 0; i < len(ws); {
		n := 0
		for _, pat := range pats[ws[i].norm] {
			if i+len(pat.words) > len(ws) {
				continue
			}
			ok := true
			for k := 1; k < len(pat.words) && ok; k++ {
				ok = ws[i+k].norm == pat.words[k] && joins(text[ws[i+k-1].end:ws[i+k].start])
			}
			if ok {
				out = append(out, termMatch{ws[i].start, ws[i+len(pat.words)-1].end, pat.entry})
				n = len(pat.words)
				break
			}
		}
		i += max(n, 1)
	}
	return out
}

// joins reports whether the text between two words keeps them one term:
// spaces, or a hyphen or an underscore ("warp-scheduler",
// "long_scoreboard"), not punctuation.
func joins(sep string) bool {
	if sep == "" || len(sep) > 3 {
		return false
	}
	dashes := 0
	for _, c := range sep {
		switch c {
		case ' ', '\t', '\n':
		case '-', '_', '\u2011':
			dashes++
		default:
			return false
		}
	}
	return dashes <= 1
}

// A proseWord is a word of a text: bytes [start, end), and its folded form.
type proseWord struct {
	start, end int
	norm       string
}

// proseWords splits text into words: runs of letters and digits, with an
// apostrophe inside or at the end ("warp's", "warps'").
func proseWords(text string) []proseWord {
	var out []proseWord
	start := -1
	for i, c := range text + " " {
		word := unicode.IsLetter(c) || unicode.IsDigit(c)
		if !word && start >= 0 && (c == '\'' || c == '’') && i+1 < len(text) {
			continue // an apostrophe inside a word; fold drops it
		}
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			w := strings.TrimRight(text[start:i], "'’")
			out = append(out, proseWord{start, start + len(w), fold(w)})
			start = -1
		}
	}
	return out
}

// fold lower-cases a word and folds the plural and the possessive:
// "Warps", "warp's" and "warps'" are "warp", "latencies" is "latency".
// Words with digits, and words of three letters or fewer, stay as they
// are. The search box folds words the same way (assets/search.js, stem).
func fold(w string) string {
	w = strings.ToLower(w)
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	w = strings.TrimRight(w, "'’")
	if len(w) < 4 || strings.ContainsAny(w, "0123456789") {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && !strings.ContainsRune("aeiou", rune(w[len(w)-4])):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// glossaryIndex is the body of glossary/index.html: every term with its
// definition.
func (r *renderer) glossaryIndex() string {
	b := r.b
	var w strings.Builder
	w.WriteString(`<dl class="glossary">` + "\n")
	for _, g := range b.glossary {
		fmt.Fprintf(&w, `<dt id="%s"><a href="%s">%s</a></dt><dd>%s</dd>`+"\n",
			g.slug, r.href(g.out, ""), html.EscapeString(g.title), html.EscapeString(g.fm().Short))
	}
	w.WriteString("</dl>\n")
	return w.String()
}

// glossaryEntry is the content of a glossary entry's page around its body.
func (r *renderer) glossaryEntry(body string) string {
	b := r.b
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
				fmt.Fprintf(&w, `<li><a href="%s">%s</a></li>`+"\n", r.href(t.out, ""), html.EscapeString(t.title))
			}
		}
		w.WriteString("</ul>\n")
	}
	w.WriteString(`<h2 id="used-in">Where it is used</h2>` + "\n")
	if len(g.uses) == 0 {
		w.WriteString("<p>No page mentions this term yet.</p>\n")
	} else {
		// One item per page, with the sections that mention the term.
		w.WriteString("<ul class=\"uses\">\n")
		for i := 0; i < len(g.uses); {
			pg := g.uses[i].page
			j := i
			for j < len(g.uses) && g.uses[j].page == pg {
				j++
			}
			fmt.Fprintf(&w, `<li><a href="%s">%s</a>`, r.href(pg.out, ""), html.EscapeString(pg.title))
			var secs []string
			for _, u := range g.uses[i:j] {
				if u.anchor != "" && u.title != pg.title {
					secs = append(secs, fmt.Sprintf(`<a href="%s">%s</a>`, r.href(pg.out, u.anchor), html.EscapeString(u.title)))
				}
			}
			const most = 6
			if len(secs) > most {
				secs = append(secs[:most], fmt.Sprintf("and %d more", len(secs)-most))
			}
			if len(secs) > 0 {
				w.WriteString(" › " + strings.Join(secs, ", "))
			}
			w.WriteString("</li>\n")
			i = j
		}
		w.WriteString("</ul>\n")
	}
	return w.String()
}
