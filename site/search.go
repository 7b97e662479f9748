package site

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// A searchDoc is one document of the search index: a section of a page
// (from one heading to the next, levels 2 to 4), a glossary entry or a
// question. Its text is split into the fields that search weighs
// differently; assets/search.js indexes them with MiniSearch when the
// reader first searches, and cuts the excerpt of a result from them.
type searchDoc struct {
	Title    string // the section's heading, the page title for its opening, the term or the question
	Page     string // title of the page it is on ("Glossary", "Interview questions" for those)
	URL      string // relative to the site root, with #anchor
	Kind     string // "s" section, "t" glossary term, "q" question
	Headings string // the headings below it (levels 5 and 6), a term's aliases, a question's tags
	Text     string // prose: paragraphs, lists, tables, callouts, figure captions and alt texts
	Code     string // runnable snippets (without their hidden setup lines) and code blocks
	Output   string // what the snippets print (as verified, else as the page states it)
}

// searchIndexJSON is assets/search-index.js: a script, not JSON fetched at
// run time, so that search works from file://.
//
//	window.warpbookSearch = {"pages": [page titles],
//	  "docs": [[title, page, url, kind, headings, text, code, output], ...]}
type searchIndexJSON struct {
	Pages []string `json:"pages"`
	Docs  [][]any  `json:"docs"`
}

// docText collects the fields of one search document while a page is
// walked.
type docText struct {
	headings, text, code, output []string
}

func (d *docText) doc(title, page, url, kind string) searchDoc {
	join := func(s []string) string { return strings.Join(s, "\n") }
	return searchDoc{Title: title, Page: page, URL: url, Kind: kind,
		Headings: join(d.headings), Text: join(d.text), Code: join(d.code), Output: join(d.output)}
}

// addSearchText adds block n and what it holds to the fields.
func (b *build) addSearchText(p *htmlPage, d *docText, n ast.Node) {
	src := p.src()
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *page.FrontMatterNode:
			return ast.WalkSkipChildren, nil
		case *page.CellNode:
			b.addCellText(p, d, c.Cell)
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock:
			body := strings.TrimRight(string(c.Lines().Value(src)), "\n")
			switch string(c.Language(src)) {
			case "figure":
				if f, err := b.figures.draw(c.Lines().Value(src)); err == nil {
					d.text = append(d.text, f.Caption, f.Alt)
				}
			case "sass", "resources":
				// The compiler's output (addresses, registers, ptxas's
				// table) is left out: the prose names the instructions
				// and counts that matter, and the output would be most
				// of the index's bytes and none of its good answers.
			default:
				d.code = append(d.code, body)
			}
			return ast.WalkSkipChildren, nil
		case *ast.CodeBlock:
			d.code = append(d.code, strings.TrimRight(string(c.Lines().Value(src)), "\n"))
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			d.headings = append(d.headings, textOf(c, src))
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		}
		// A block whose children are inline holds prose; blocks that hold
		// blocks (lists, quotes, alerts, tables) are walked into.
		if c.Type() == ast.TypeBlock && c.FirstChild() != nil && c.FirstChild().Type() == ast.TypeInline {
			d.text = append(d.text, textOf(c, src))
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// addCellText adds a runnable snippet: its visible code, and what it
// prints as the kernel verified it (the page's output block without a
// kernel), or its verified failure.
func (b *build) addCellText(p *htmlPage, d *docText, c *page.Cell) {
	var code []string
	for _, l := range c.Lines {
		if !l.Hidden {
			code = append(code, l.Text)
		}
	}
	d.code = append(d.code, strings.Join(code, "\n"))
	out := c.Expected()
	if p.results != nil {
		if res := p.results.Result(c); res != nil {
			out = res.Output + "\n" + res.Panic + "\n" + res.Error
		}
	}
	if out = strings.TrimSpace(out); out != "" {
		d.output = append(d.output, out)
	}
}

// pageDocs returns the search documents of one page.
func (b *build) pageDocs(p *htmlPage) []searchDoc {
	var d docText
	switch p.kind {
	case kindGlossary:
		d.headings = slices.Clone(p.fm().Aliases)
		d.text = append(d.text, p.fm().Short)
		b.addSearchText(p, &d, p.doc())
		return []searchDoc{d.doc(p.title, "Glossary", rootRef(p.out, ""), "t")}
	case kindQuestion:
		d.headings = slices.Clone(p.tags)
		b.addSearchText(p, &d, p.doc())
		return []searchDoc{d.doc(p.title, "Interview questions", rootRef(p.out, ""), "q")}
	case kindGenerated:
		return nil
	}
	var docs []searchDoc
	title, url := p.title, rootRef(p.out, "")
	flush := func() {
		docs = append(docs, d.doc(title, p.title, url, "s"))
		d = docText{}
	}
	for c := p.doc().FirstChild(); c != nil; c = c.NextSibling() {
		if h, ok := c.(*ast.Heading); ok && h.Level >= 2 && h.Level <= 4 {
			flush()
			title, url = textOf(h, p.src()), rootRef(p.out, headingID(h))
			continue
		}
		if h, ok := c.(*ast.Heading); ok && h.Level == 1 {
			continue
		}
		b.addSearchText(p, &d, c)
	}
	flush()
	return docs
}

// searchIndex builds assets/search-index.js and warns past the size
// budget. It runs while the pages render.
func (b *build) searchIndex() error {
	idx := searchIndexJSON{Pages: []string{}, Docs: [][]any{}}
	pageNum := map[string]int{}
	var pages []*htmlPage
	pages = append(pages, b.order...)
	for _, p := range b.pages {
		if !slices.Contains(pages, p) {
			pages = append(pages, p)
		}
	}
	var withDoc []*htmlPage
	for _, p := range pages {
		if p.doc() != nil {
			withDoc = append(withDoc, p)
		}
	}
	docs := make(map[*htmlPage][]searchDoc, len(withDoc))
	var mu sync.Mutex
	parallel(withDoc, func(p *htmlPage) {
		// A page's documents depend on its source, what verified it, its
		// output path, title and kind; its tags, aliases and figures come
		// from its source.
		type key struct {
			src        *page.Page
			results    *snippets.PageResult
			out, title string
			kind       pageKind
		}
		e := b.cache.memo(key{p.snip, p.results, p.out, p.title, p.kind}, func() any { return b.pageDocs(p) }).([]searchDoc)
		mu.Lock()
		docs[p] = e
		mu.Unlock()
	})
	for _, p := range withDoc {
		for _, e := range docs[p] {
			n, ok := pageNum[e.Page]
			if !ok {
				n = len(idx.Pages)
				pageNum[e.Page] = n
				idx.Pages = append(idx.Pages, e.Page)
			}
			idx.Docs = append(idx.Docs, []any{e.Title, n, e.URL, e.Kind, e.Headings, e.Text, e.Code, e.Output})
		}
	}
	var buf bytes.Buffer
	buf.WriteString("// Search index of the book, generated by warpbook.\nwindow.warpbookSearch=")
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(idx); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	buf.WriteString(";\n")
	b.put("assets/search-index.js", buf.Bytes())

	// The budget is on the gzipped size at gzip's default level (close to
	// the best level on text like the book's, and faster); an index
	// that is smaller than the budget as it is needs no compressing.
	if len(buf.Bytes())/1024 <= b.settings.SearchBudget {
		return nil
	}
	if kb := gzipSize(buf.Bytes()) / 1024; kb > b.settings.SearchBudget {
		b.warnf("search index is %d KB gzipped, over the budget of %d KB (search_budget_kb in book.yaml)", kb, b.settings.SearchBudget)
	}
	return nil
}

// gzipSize returns about what data weighs gzipped at the default level:
// the sum over its two halves, compressed at once, plus gzip's header and
// trailer. The halves lose the matches that would reach back across the
// middle and their own Huffman tables: about 1 % more than gzip makes of
// the book's text. The split is fixed, so the answer does not depend on
// the machine.
func gzipSize(data []byte) int {
	const parts = 2
	sizes := make([]int, parts)
	var wg sync.WaitGroup
	for i := range parts {
		part := data[i*len(data)/parts : (i+1)*len(data)/parts]
		wg.Go(func() {
			var n countWriter
			zw, _ := flate.NewWriter(&n, flate.DefaultCompression)
			zw.Write(part)
			zw.Close()
			sizes[i] = int(n)
		})
	}
	wg.Wait()
	total := 18 // gzip's 10-byte header and 8-byte trailer
	for _, n := range sizes {
		total += n
	}
	return total
}

// countWriter counts the bytes written to it.
type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}
