package site

import (
	"fmt"
	"net/url"
	"path"
	"strconv"

	"github.com/warpbook/warpbook/snippets/page"
	"github.com/yuin/goldmark/ast"
)

// summaryEntry is a chapter named in SUMMARY.md.
type summaryEntry struct {
	title string
	path  string // "" for a draft chapter, written [Title]()
	line  int
}

// parseSummary reads mdBook's SUMMARY.md format: an optional title, prefix
// chapters (plain links), part titles (# headings), numbered chapters
// (nested lists of links), separators (---) and suffix chapters. Links are
// relative to the book root. It returns the sidebar tree; pages resolves a
// path to its page or reports an error.
func parseSummary(file string, src []byte, resolve func(p string, pos page.Pos) *htmlPage) ([]*navItem, page.Diagnostics) {
	sum, _ := page.Parse(file, src)
	doc := sum.Doc
	errs := sum.Diagnostics
	errorf := func(off int, format string, args ...any) {
		errs = append(errs, &page.Diagnostic{Pos: sum.Pos(off), Msg: fmt.Sprintf(format, args...)})
	}

	entry := func(n ast.Node) (*navItem, bool) {
		var link *ast.Link
		ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if l, ok := c.(*ast.Link); ok && entering && link == nil {
				link = l
				return ast.WalkStop, nil
			}
			return ast.WalkContinue, nil
		})
		if link == nil {
			return nil, false
		}
		item := &navItem{title: textOf(link, src)}
		dest := string(link.Destination)
		if dest == "" {
			return item, true // draft chapter: listed, no page
		}
		u, err := url.Parse(dest)
		if err != nil || u.Scheme != "" || u.Host != "" || path.IsAbs(u.Path) || path.Ext(u.Path) != ".md" || u.Fragment != "" {
			errorf(link.Pos(), "SUMMARY links must be relative links to .md files, without #anchor: %q", dest)
			return nil, false
		}
		item.page = resolve(path.Clean(u.Path), sum.Pos(link.Pos()))
		return item, item.page != nil
	}

	var list func(l *ast.List, prefix string) []*navItem
	counter := 0
	list = func(l *ast.List, prefix string) []*navItem {
		var items []*navItem
		n := 0
		for li := l.FirstChild(); li != nil; li = li.NextSibling() {
			var item *navItem
			var sub *ast.List
			for c := li.FirstChild(); c != nil; c = c.NextSibling() {
				switch c := c.(type) {
				case *ast.List:
					sub = c
				default:
					if item == nil {
						var ok bool
						if item, ok = entry(c); !ok && item == nil {
							errorf(lineStart(c), "a SUMMARY list item must be a link: [Title](page.md)")
						}
					}
				}
			}
			if item == nil {
				continue
			}
			n++
			if prefix == "" {
				counter++
				n = counter
			}
			item.number = prefix + strconv.Itoa(n) + "."
			if sub != nil {
				item.children = list(sub, item.number)
			}
			items = append(items, item)
		}
		return items
	}

	var nav []*navItem
	sawEntry := false
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Heading:
			if !sawEntry && c.Level == 1 && len(nav) == 0 {
				continue // the title, "# Summary"
			}
			nav = append(nav, &navItem{title: textOf(c, src), part: true})
		case *ast.List:
			sawEntry = true
			nav = append(nav, list(c, "")...)
		case *ast.ThematicBreak:
			nav = append(nav, &navItem{sep: true})
		case *ast.Paragraph:
			sawEntry = true
			found := false
			for l := c.FirstChild(); l != nil; l = l.NextSibling() {
				if _, ok := l.(*ast.Link); ok {
					found = true
					if item, ok := entry(l); ok || item != nil {
						nav = append(nav, item)
					}
				}
			}
			if !found {
				errorf(lineStart(c), "unexpected text in SUMMARY.md: want links, lists of links, # part titles or ---")
			}
		default:
			errorf(lineStart(c), "unexpected %s in SUMMARY.md", c.Kind())
		}
	}
	return nav, errs
}

// lineStart returns the source offset of a block node.
func lineStart(n ast.Node) int {
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return n.Lines().At(0).Start
	}
	if p := n.Pos(); p >= 0 {
		return p
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if p := lineStart(c); p >= 0 {
			return p
		}
	}
	return -1
}

// walkNav calls f for every item of the tree in reading order.
func walkNav(items []*navItem, f func(*navItem, []*navItem)) {
	var walk func([]*navItem, []*navItem)
	walk = func(items, parents []*navItem) {
		for _, it := range items {
			f(it, parents)
			walk(it.children, append(parents, it))
		}
	}
	walk(items, nil)
}
