package page

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Page is one parsed Markdown page: its AST, front matter, runnable cells
// and checked prose values. Pages are read-only once parsed: renderers
// render Doc as it is.
type Page struct {
	// Path is the file name as the caller gave it, cleaned
	// (filepath.Clean); every Pos carries it.
	Path string
	// Source is the page's bytes; the AST's segments index into it.
	Source []byte
	// Doc is the goldmark document: the dialect's nodes ([FrontMatterNode],
	// [CellNode], [CheckNode], [Alert]) in place of the Markdown they were
	// written as.
	Doc *ast.Document
	// FrontMatter is the page's front matter, decoded; nil if it has none.
	FrontMatter *FrontMatter
	// Cells are the page's runnable snippets (fenced blocks whose info
	// string starts with "go run"), in document order.
	Cells []*Cell
	// Checks are the page's checked prose values, in document order.
	Checks []*Check
	// CUDA are the page's CUDA cells (fenced blocks whose info string
	// starts with "cuda compile"), and SASS its sass blocks, in document
	// order.
	CUDA []*CUDACell
	SASS []*SASSBlock
	// Diagnostics are the page's parse errors (what Parse returned as its
	// error); a page with any is not run.
	Diagnostics Diagnostics

	lines    []int              // byte offset of the start of each line
	warnings func() Diagnostics // Notices, then lintNumbers, once

	// Notices are warnings Parse finds that every command shows: a fence
	// that looks like a snippet but is not one (```go-run, ```Go run).
	// [Page.Warnings] includes them.
	Notices Diagnostics
}

// Warnings returns the problems that do not stop the page: its Notices,
// then numbers typed in its prose that one of its snippets prints (see
// the package documentation). The numbers are found on the first call,
// not by Parse: the browser kernel, which parses a page before its first
// run, never shows them.
func (p *Page) Warnings() Diagnostics {
	if p.warnings == nil {
		return nil
	}
	return p.warnings()
}

// Cell returns the cell with the given id, or nil.
func (p *Page) Cell(id string) *Cell {
	for _, c := range p.Cells {
		if c.ID() == id {
			return c
		}
	}
	return nil
}

// Pos returns the Markdown position of byte offset off in the page.
func (p *Page) Pos(off int) Pos {
	if off < 0 {
		return Pos{File: p.Path}
	}
	i := max(sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > off })-1, 0)
	return Pos{File: p.Path, Line: i + 1, Col: off - p.lines[i] + 1}
}

// lineStart returns the byte offset of the start of 1-based line n, or
// len(Source) past the end.
func (p *Page) lineStart(n int) int {
	if n-1 < len(p.lines) {
		return p.lines[n-1]
	}
	return len(p.Source)
}

// transformKey holds, in goldmark's parser context, the transform of the
// page being parsed, for the cell transformer. It holds the method value,
// not the *Page: a Page stored in an interface would keep every exported
// method of Page linked in the browser kernel, used or not.
var transformKey = parser.NewContextKey()

// Parse parses src, the contents of the page at path, in warpbook's one
// Markdown dialect (see the package documentation). It always returns a
// page whose Doc can be rendered; the error, when not nil, is a
// [Diagnostics] listing every malformed cell, attribute, checked value or
// front matter.
func Parse(path string, src []byte) (*Page, error) {
	// One spelling of the path from here on ("./a//b.md" is "a/b.md"):
	// every position, cache entry and update uses it.
	path = filepath.Clean(path)
	pg := &Page{Path: path, Source: src}
	pg.lines = append(pg.lines, 0)
	for i, b := range src {
		if b == '\n' && i+1 < len(src) {
			pg.lines = append(pg.lines, i+1)
		}
	}
	if bytes.HasPrefix(src, utf8BOM) {
		// goldmark reads the mark as text: front matter after it is a
		// paragraph and a heading after it is not one.
		pg.Diagnostics = append(pg.Diagnostics, &Diagnostic{Pos: Pos{File: path, Line: 1, Col: 1},
			Msg: "the page starts with a UTF-8 byte order mark (EF BB BF), which hides its front matter and first line: save it as UTF-8 without a BOM"})
	}
	ctx := parser.NewContext()
	ctx.Set(transformKey, pg.transform)
	pg.Doc = markdown.Parse(text.NewReader(src), parser.WithContext(ctx)).(*ast.Document)
	pg.assignIDs()
	pg.warnings = sync.OnceValue(func() Diagnostics {
		return append(slices.Clip(pg.Notices), pg.lintNumbers()...)
	})
	pg.Diagnostics.Sort()
	return pg, pg.Diagnostics.Err()
}

// cellTransformer finds the page's front matter, cells and checked values
// and puts the dialect's nodes in their place.
type cellTransformer struct{}

func (cellTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	if transform, ok := pc.Get(transformKey).(func(*ast.Document)); ok {
		transform(doc)
	}
}

// transform is the cell transformer's work for one page.
func (pg *Page) transform(doc *ast.Document) {
	diags := &pg.Diagnostics
	var links []*ast.Link
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *FrontMatterNode:
			if !n.closed {
				*diags = append(*diags, &Diagnostic{Pos: pg.Pos(n.Pos()),
					Msg: "front matter opened on line 1 is never closed: end it with a line of ---"})
				return ast.WalkSkipChildren, nil
			}
			pg.FrontMatter = &FrontMatter{Raw: n.Lines().Value(pg.Source), Line: 2, file: pg.Path}
			*diags = append(*diags, pg.FrontMatter.decode()...)
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock:
			if c := pg.fencedBlock(n, diags); c != nil {
				pg.Cells = append(pg.Cells, c)
			}
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			if string(n.Destination) == "=" {
				if c := pg.check(n, len(pg.Cells), diags); c != nil {
					c.Index = len(pg.Checks)
					pg.Checks = append(pg.Checks, c)
					links = append(links, n)
				}
				return ast.WalkSkipChildren, nil
			}
		}
		return ast.WalkContinue, nil
	})
	// Put the nodes in place once the walk is over.
	for _, c := range pg.Cells {
		enclose(&CellNode{Cell: c}, c.Code, c.Output)
	}
	for _, c := range pg.CUDA {
		enclose(&CUDANode{Cell: c}, c.Code, c.Resources)
	}
	for _, s := range pg.SASS {
		node := &SASSNode{SASS: s}
		node.SetPos(s.Block.Pos())
		parent := s.Block.Parent()
		parent.ReplaceChild(parent, s.Block, node)
		node.AppendChild(node, s.Block)
	}
	for i, l := range links {
		node := &CheckNode{Check: pg.Checks[i]}
		node.SetPos(l.Pos())
		l.Parent().ReplaceChild(l.Parent(), l, node)
		for ch := l.FirstChild(); ch != nil; {
			next := ch.NextSibling()
			node.AppendChild(node, ch)
			ch = next
		}
	}
}

// fencedBlock classifies a fenced code block: a runnable cell (returned), an
// output block (attached to the cell before it), or display-only.
func (pg *Page) fencedBlock(n *ast.FencedCodeBlock, diags *Diagnostics) *Cell {
	if n.Info == nil {
		return nil
	}
	info := string(n.Info.Segment.Value(pg.Source))
	infoPos := pg.Pos(n.Info.Segment.Start)
	toks, err := splitInfo(info)
	if err != nil {
		*diags = append(*diags, &Diagnostic{Pos: shift(infoPos, err.col), Msg: err.msg})
		return nil
	}
	if len(toks) == 0 {
		return nil
	}
	if toks[0].text != "go" || len(toks) < 2 || toks[1].text != "run" {
		if looksRunnable(info) {
			pg.Notices = append(pg.Notices, &Diagnostic{Pos: infoPos,
				Msg: fmt.Sprintf("this fence looks like a snippet but is not one, so it never runs: write ```go run (found ```%s)", info)})
		}
	}
	switch toks[0].text {
	case "go":
		if len(toks) >= 2 && toks[1].text == "run" {
			return pg.newCell(n, info, infoPos, toks[2:], diags)
		}
		if len(toks) >= 2 {
			*diags = append(*diags, &Diagnostic{Pos: shift(infoPos, toks[1].col),
				Msg: fmt.Sprintf("a display-only go block takes no attributes (found %q); start the info string with \"go run\" to run it", toks[1].text)})
		}
	case "cuda":
		if len(toks) >= 2 && toks[1].text == "compile" {
			pg.CUDA = append(pg.CUDA, pg.newCUDACell(n, infoPos, toks[2:], diags))
			return nil
		}
		if len(toks) >= 2 {
			*diags = append(*diags, &Diagnostic{Pos: shift(infoPos, toks[1].col),
				Msg: fmt.Sprintf("a display-only cuda block takes no attributes (found %q); start the info string with \"cuda compile\" to compile it", toks[1].text)})
		}
	case "resources":
		pg.resources(n, infoPos, toks, diags)
	case "sass":
		if s := pg.sass(n, infoPos, toks[1:], diags); s != nil {
			pg.SASS = append(pg.SASS, s)
		}
	case "output":
		if len(toks) > 1 {
			*diags = append(*diags, &Diagnostic{Pos: shift(infoPos, toks[1].col),
				Msg: fmt.Sprintf("an output block takes no attributes (found %q); put them on the go run block above", toks[1].text)})
		}
		prev, _ := n.PreviousSibling().(*ast.FencedCodeBlock)
		var owner *Cell
		if prev != nil && len(pg.Cells) > 0 && pg.Cells[len(pg.Cells)-1].Code == prev {
			owner = pg.Cells[len(pg.Cells)-1]
		}
		switch {
		case owner != nil && owner.Output == nil:
			owner.Output = n
			owner.OutputPos = pg.Pos(n.Pos())
			if !pg.closed(n) {
				*diags = append(*diags, &Diagnostic{Pos: owner.OutputPos, ID: owner.ID(), Msg: "output block is never closed"})
			}
			if owner.Attrs.Error != "" {
				*diags = append(*diags, &Diagnostic{Pos: owner.OutputPos, ID: owner.ID(),
					Msg: "a snippet with error= does not compile, so it has no output; remove this output block"})
			}
		case prev != nil && isDisplayGo(prev, pg.Source):
			*diags = append(*diags, &Diagnostic{Pos: pg.Pos(n.Pos()),
				Msg: "output block follows a display-only go block; start its info string with \"go run\" to run it"})
		default:
			*diags = append(*diags, &Diagnostic{Pos: pg.Pos(n.Pos()),
				Msg: "output block with no go run snippet right before it"})
		}
	}
	return nil
}

// looksRunnable reports whether a fence's info string that does not start
// a snippet reads as a mistyped "go run": go-run, Go run, golang run,
// go_run, gorun, {go run}.
func looksRunnable(info string) bool {
	s := strings.ToLower(info)
	s = strings.Trim(s, "{}. \t")
	s = strings.NewReplacer("-", " ", "_", " ", ":", " ", ",", " ", "golang", "go").Replace(s)
	f := strings.Fields(s)
	switch {
	case len(f) >= 2 && f[0] == "go" && f[1] == "run":
		return true
	case len(f) >= 1 && f[0] == "gorun":
		return true
	}
	return false
}

func isDisplayGo(n *ast.FencedCodeBlock, src []byte) bool {
	return string(n.Language(src)) == "go"
}

// closed reports whether the fenced block n ends with a closing fence (an
// unclosed block runs to the end of the page).
func (pg *Page) closed(n *ast.FencedCodeBlock) bool {
	_, ok := pg.closingFence(n)
	return ok
}

// closingFence returns the 1-based line of n's closing fence, and whether
// there is one.
func (pg *Page) closingFence(n *ast.FencedCodeBlock) (int, bool) {
	open := pg.Pos(n.Pos())
	last := open.Line
	if l := n.Lines(); l.Len() > 0 {
		last = pg.Pos(l.At(l.Len() - 1).Start).Line
	}
	line := last + 1
	if line > len(pg.lines) {
		return 0, false
	}
	start := pg.lineStart(line)
	end := pg.lineStart(line + 1)
	s := bytes.TrimRight(pg.Source[start:end], "\r\n")
	fenceChar := pg.Source[n.Pos()]
	if i := bytes.IndexByte(s, fenceChar); i >= 0 && bytes.Count(s[i:], []byte{fenceChar}) >= 3 {
		return line, true
	}
	return 0, false
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// shift moves p right by col-1 bytes (col is 1-based within a token list).
func shift(p Pos, col int) Pos {
	p.Col += col - 1
	return p
}

// assignIDs reports duplicate ids: Go cells and CUDA cells share one
// namespace (anchors, -run).
func (pg *Page) assignIDs() {
	seen := map[string]Pos{}
	add := func(id string, at Pos) {
		if first, ok := seen[id]; ok {
			pg.Diagnostics = append(pg.Diagnostics, &Diagnostic{Pos: at, ID: id,
				Msg: fmt.Sprintf("duplicate snippet id %q (first used at line %d)", id, first.Line)})
			return
		}
		seen[id] = at
	}
	for _, c := range pg.Cells {
		add(c.ID(), c.Pos)
	}
	for _, c := range pg.CUDA {
		add(c.ID(), c.Pos)
	}
}

// plainText returns the text of an inline subtree.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(n.Segment.Value(src))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(n.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// enclose puts node in place of a cell's code block, with the code and
// the block recorded after it (its output or resources, when not nil) as
// its children.
func enclose(node ast.Node, code, after *ast.FencedCodeBlock) {
	node.SetPos(code.Pos())
	parent := code.Parent()
	parent.InsertBefore(parent, code, node)
	node.AppendChild(node, code)
	if after != nil {
		node.AppendChild(node, after)
	}
}
