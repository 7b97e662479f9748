package site

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"

	"github.com/warpbook/warpbook/snippets"
)

// A searchEntry is one entry of the search index: a section of a page, a
// glossary term or a question.
type searchEntry struct {
	Title string // the section title, term or question
	Page  string // title of the page (chapter) it is on
	URL   string // relative to the site root, with #anchor
	Kind  string // "section", "term" or "question"
	Words string // the distinct words of its text, lower-case, space-separated
}

// searchIndex is the index written to assets/search-index.js. It is a
// script, not JSON fetched at run time, so that search works from file://.
type searchIndex struct {
	Pages   []string `json:"p"` // page titles
	Entries [][]any  `json:"e"` // [title, page index, url, kind, words]
}

// stopWords are left out of the index.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by can do does for from has have how if in into is it its
		not of on or so than that the their then there these this to was what when where which while who why will with you your`) {
		m[w] = true
	}
	return m
}()

// words returns the distinct words of s, lower-case, in first-seen order.
// A word is a run of letters, digits, '_', '.', and '%' ("sm_80", "75.0",
// "%"), trimmed of dots.
func words(s string, seen map[string]bool) []string {
	var out []string
	add := func(w string) {
		w = strings.Trim(w, ".")
		if len(w) < 2 || stopWords[w] || seen[w] {
			return
		}
		seen[w] = true
		out = append(out, w)
	}
	start := -1
	lower := true // the current word is lower-case ASCII already
	for i := 0; i <= len(s); {
		var r rune = ' '
		size := 1
		if i < len(s) {
			if c := s[i]; c < utf8.RuneSelf {
				r = rune(c)
			} else {
				r, size = utf8.DecodeRuneInString(s[i:])
			}
		}
		inWord := r == '_' || r == '.' || r == '%' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' ||
			'A' <= r && r <= 'Z' || r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
		switch {
		case inWord && start < 0:
			start, lower = i, true
			fallthrough
		case inWord:
			if !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '_' || r == '.' || r == '%') {
				lower = false
			}
		case start >= 0:
			w := s[start:i]
			if !lower {
				w = strings.ToLower(w)
			}
			add(w)
			start = -1
		}
		i += size
	}
	return out
}

// pageEntries returns the search entries of one page: one per section.
func (b *build) pageEntries(p *page) []searchEntry {
	switch p.kind {
	case kindGlossary:
		seen := map[string]bool{}
		ws := words(p.title+" "+strings.Join(p.fm().Aliases, " ")+" "+p.fm().Short+" "+textOf(p.doc(), p.src()), seen)
		return []searchEntry{{Title: p.title, Page: "Glossary", URL: p.out, Kind: "term", Words: strings.Join(ws, " ")}}
	case kindQuestion:
		seen := map[string]bool{}
		ws := words(p.title+" "+strings.Join(p.tags, " "), seen)
		return []searchEntry{{Title: p.title, Page: "Interview questions", URL: p.out, Kind: "question", Words: strings.Join(ws, " ")}}
	case kindGenerated:
		return nil
	}
	var entries []searchEntry
	cur := searchEntry{Title: p.title, Page: p.title, URL: p.out, Kind: "section"}
	seen := map[string]bool{}
	var text []string
	flush := func() {
		ws := words(cur.Title+" "+strings.Join(text, " "), seen)
		cur.Words = strings.Join(ws, " ")
		entries = append(entries, cur)
		text = text[:0]
		clear(seen)
	}
	for c := p.doc().FirstChild(); c != nil; c = c.NextSibling() {
		switch n := c.(type) {
		case *ast.Heading:
			if n.Level == 1 {
				continue
			}
			if n.Level <= 3 {
				flush()
				cur = searchEntry{Title: textOf(n, p.src()), Page: p.title, URL: p.out + "#" + headingID(n), Kind: "section"}
				continue
			}
			text = append(text, textOf(n, p.src()))
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock, *ast.ThematicBreak, *snippets.CellNode, *snippets.FrontMatterNode:
		default:
			text = append(text, textOf(n, p.src()))
		}
	}
	flush()
	return entries
}

// searchIndex builds assets/search-index.js and warns past the size
// budget.
func (b *build) searchIndex() ([]byte, error) {
	idx := searchIndex{Entries: [][]any{}}
	pageNum := map[string]int{}
	var pages []*page
	pages = append(pages, b.order...)
	for _, p := range b.pages {
		if !slices.Contains(pages, p) {
			pages = append(pages, p)
		}
	}
	var withDoc []*page
	for _, p := range pages {
		if p.doc() != nil {
			withDoc = append(withDoc, p)
		}
	}
	entries := make(map[*page][]searchEntry, len(withDoc))
	var mu sync.Mutex
	parallel(withDoc, func(p *page) {
		// A page's entries depend on its source, output path, title and
		// kind; its tags and aliases come from its source.
		type key struct {
			src        *snippets.Page
			out, title string
			kind       pageKind
		}
		e := b.cache.memo(key{p.snip, p.out, p.title, p.kind}, func() any { return b.pageEntries(p) }).([]searchEntry)
		mu.Lock()
		entries[p] = e
		mu.Unlock()
	})
	for _, p := range withDoc {
		for _, e := range entries[p] {
			n, ok := pageNum[e.Page]
			if !ok {
				n = len(idx.Pages)
				pageNum[e.Page] = n
				idx.Pages = append(idx.Pages, e.Page)
			}
			idx.Entries = append(idx.Entries, []any{e.Title, n, e.URL, e.Kind[:1], e.Words})
		}
	}
	var buf bytes.Buffer
	buf.WriteString("// Search index of the book, generated by warpbook.\nwindow.warpbookSearch=")
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(idx); err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	buf.WriteString(";\n")

	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write(buf.Bytes())
	zw.Close()
	if kb := gz.Len() / 1024; kb > b.settings.SearchBudget {
		b.warnf("search index is %d KB gzipped, over the budget of %d KB (search_budget_kb in book.yaml)", kb, b.settings.SearchBudget)
	}
	return buf.Bytes(), nil
}
