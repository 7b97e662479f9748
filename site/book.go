package site

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

type pageKind int

const (
	kindChapter   pageKind = iota // a page of the book, from a .md file
	kindGlossary                  // glossary/<slug>.md
	kindQuestion                  // questions/<id>.md
	kindGenerated                 // made by the site: title page, indexes, tag pages
)

// An htmlPage is one HTML page of the site.
type htmlPage struct {
	path string // source path relative to the book, slash-separated ("occupancy.md"); generated pages have one too
	out  string // output path ("occupancy.html")
	kind pageKind
	snip *page.Page // the page as parsed; nil for generated pages

	title      string
	titleInDoc bool   // the document opens with an h1 that is the title
	number     string // "1.2." in a numbered SUMMARY
	listed     bool   // reachable from the sidebar
	headings   []heading
	draft      string // why the page is a draft; "" if it is not
	prev       *htmlPage
	next       *htmlPage
	crumbs     []crumb

	// kind-specific
	slug string      // glossary slug or question id
	uses []use       // glossary: where the term is used
	qs   []*htmlPage // chapter: questions whose section is on this page
	tags []string
	body func(r *renderer) string // generated pages: the whole content
	list func(r *renderer) string // collection pages from a file: added after the file's content

	sectionPage *htmlPage                // question: the page that explains it
	sectionFrag string                   // ...and the anchor there
	results     *snippets.PageResult     // what the kernel verified; nil without a kernel
	terms       map[*ast.Text][]termMark // glossary links written into its text
	floats      map[ast.Node]*numbered   // its figures and captioned tables, numbered
	programs    map[string]string        // each cell that runs as a Go program of its own, by id ("Copy as program")
}

// doc returns the page's AST, nil for a generated page.
func (p *htmlPage) doc() *ast.Document {
	if p.snip == nil {
		return nil
	}
	return p.snip.Doc
}

// src returns the page's source.
func (p *htmlPage) src() []byte {
	if p.snip == nil {
		return nil
	}
	return p.snip.Source
}

// noFrontMatter is the front matter of a page without one.
var noFrontMatter = &page.FrontMatter{Line: 1}

// fm returns the page's front matter, decoded by the parse (an empty one
// for a page without, or a generated page).
func (p *htmlPage) fm() *page.FrontMatter {
	if p.snip == nil || p.snip.FrontMatter == nil {
		return noFrontMatter
	}
	return p.snip.FrontMatter
}

// fmLine returns the page line where the front matter starts (1 without
// front matter).
func (p *htmlPage) fmLine() int { return p.fm().Line }

type heading struct {
	level int
	id    string
	text  string
}

type crumb struct {
	title string
	page  *htmlPage // nil: no link
}

// use is one page where a glossary term is mentioned.
type use struct {
	page   *htmlPage
	anchor string // id of the section of the first mention; "" for the top
	title  string // title of that section
}

// outPath returns the output path of a Markdown source path.
func outPath(p string) string {
	dir, file := path.Split(p)
	base := strings.TrimSuffix(file, path.Ext(file))
	if strings.EqualFold(base, "README") || base == "index" {
		return dir + "index.html"
	}
	return dir + base + ".html"
}

// rootOf returns the relative prefix from output path p to the site root.
func rootOf(p string) string { return strings.Repeat("../", strings.Count(p, "/")) }

// navItem is an entry of the sidebar, from SUMMARY.md.
type navItem struct {
	title    string
	page     *htmlPage // nil for a part title, a separator or a draft chapter
	number   string
	part     bool // a part title (# heading in SUMMARY)
	sep      bool // a separator (---)
	children []*navItem
}

// textOf returns the plain text of the inline content of n.
func textOf(n ast.Node, src []byte) string { return textOfMarked(n, src, nil) }

// textOfMarked is textOf(n), with the checked value target, when it is
// not nil, written as valueMark.
func textOfMarked(n ast.Node, src []byte, target *page.CheckNode) string {
	var b bytes.Buffer
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if c.Type() == ast.TypeBlock || c.Kind() == east.KindTableCell {
				b.WriteByte(' ')
			}
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *page.CheckNode:
			if target != nil && c == target {
				b.WriteString(valueMark)
				return ast.WalkSkipChildren, nil
			}
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.CodeSpan:
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if t, ok := t.(*ast.Text); ok {
					b.Write(t.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.RawHTML, *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			if c != n {
				return ast.WalkSkipChildren, nil
			}
		}
		return ast.WalkContinue, nil
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

// isHidden reports whether a path element is hidden from the build.
func isHidden(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// maxBookDirs bounds the directories a walk of a book visits.
const maxBookDirs = 10000

// bookFiles lists every entry of the book that is not a directory, in
// path order, leaving out hidden ones (a name that starts with "." or
// "_", and whatever is below such a directory). A symbolic link to a
// directory inside the book is walked as the directory (its files are
// listed under the link's path), unless it leads to a directory the walk
// is in (a loop); any other link is listed as it is, for reading it to
// follow or refuse ([page.ReadFile]).
func bookFiles(fsys fs.FS) ([]string, error) {
	var files []string
	// walk lists directory dir of the book, which is real in fsys
	// (links followed); in holds the real directories the walk is in.
	var walk func(dir, real string, in []string) error
	dirs := 0
	walk = func(dir, real string, in []string) error {
		// Links between directories can make a small book a large
		// walk: it stops at a bound.
		if dirs++; dirs > maxBookDirs {
			return fmt.Errorf("%s: more than %d directories, counting those reached through symbolic links", dir, maxBookDirs)
		}
		entries, err := fs.ReadDir(fsys, real)
		if err != nil {
			return err
		}
		in = append(in, real)
		for _, e := range entries {
			if isHidden(e.Name()) {
				continue
			}
			p, rp := path.Join(dir, e.Name()), path.Join(real, e.Name())
			switch {
			case e.IsDir():
				if err := walk(p, rp, in); err != nil {
					return err
				}
				continue
			case e.Type()&fs.ModeSymlink != 0:
				target, err := page.ResolveLinks(fsys, rp)
				if err != nil {
					break
				}
				if fi, err := fs.Stat(fsys, target); err != nil || !fi.IsDir() || slices.Contains(in, target) {
					break
				}
				if err := walk(p, target, in); err != nil {
					return err
				}
				continue
			}
			files = append(files, p)
		}
		return nil
	}
	err := walk(".", ".", nil)
	slices.Sort(files)
	return files, err
}

// sourceFiles sorts the book's files ([bookFiles]) into the Markdown
// pages, in path order, and the other files that pages may link to. Every
// entry that is not a directory is listed, whatever it is: reading a page
// or a linked file refuses what is not a regular file inside the book, at
// its path.
func sourceFiles(files []string) (md []string, others map[string]bool) {
	others = map[string]bool{}
	for _, p := range files {
		switch {
		case p == "SUMMARY.md" || p == "book.yaml":
		case strings.HasSuffix(p, ".md"):
			md = append(md, p)
		default:
			others[p] = true
		}
	}
	slices.Sort(md)
	return md, others
}

// kindOf classifies a source path.
func kindOf(p string) (pageKind, string) {
	dir, file := path.Split(p)
	slug := strings.TrimSuffix(file, ".md")
	if slug == "index" || strings.EqualFold(slug, "README") {
		return kindChapter, ""
	}
	switch dir {
	case "glossary/":
		return kindGlossary, slug
	case "questions/":
		return kindQuestion, slug
	}
	return kindChapter, ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
