package page

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown is the one configuration of goldmark that reads every page, in
// every command: CommonMark, GitHub Flavored Markdown (tables,
// strikethrough, autolinks, task lists), footnotes, heading ids (automatic
// and {#id}), front matter, GitHub alerts, and warpbook's cells and
// checked values, table captions and references to figures and tables
// (see xref.go). It is immutable and safe for concurrent use.
//
// It is goldmark's parser alone, with the parsers and transformers that
// goldmark.New and the extensions' Extend would register at the same
// priorities (the same AST), and none of their HTML renderers: the browser
// kernel parses pages but renders none, and each renderer it links costs
// the reader download (see docs/live-book.md).
var markdown = parser.NewParser(
	parser.WithBlockParsers(parser.DefaultBlockParsers()...),
	parser.WithInlineParsers(parser.DefaultInlineParsers()...),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	// extension.GFM: Linkify, Table, Strikethrough, TaskList.
	parser.WithInlineParsers(util.Prioritized(extension.NewLinkifyParser(), 999)),
	parser.WithParagraphTransformers(util.Prioritized(extension.NewTableParagraphTransformer(), 200)),
	parser.WithASTTransformers(util.Prioritized(extension.NewTableASTTransformer(), 0)),
	parser.WithInlineParsers(util.Prioritized(extension.NewStrikethroughParser(), 500)),
	parser.WithInlineParsers(util.Prioritized(extension.NewTaskCheckBoxParser(), 0)),
	// extension.Footnote.
	parser.WithBlockParsers(util.Prioritized(extension.NewFootnoteBlockParser(), 999)),
	parser.WithInlineParsers(util.Prioritized(extension.NewFootnoteParser(), 101)),
	parser.WithASTTransformers(util.Prioritized(extension.NewFootnoteASTTransformer(), 999)),
	// warpbook's dialect.
	parser.WithAutoHeadingID(),
	parser.WithHeadingAttribute(),
	parser.WithBlockParsers(util.Prioritized(frontMatterParser{}, 0)),
	parser.WithInlineParsers(util.Prioritized(refParser{}, 90)),
	parser.WithASTTransformers(
		util.Prioritized(cellTransformer{}, 100),
		util.Prioritized(alertTransformer{}, 500),
		util.Prioritized(tableTransformer{}, 600),
		util.Prioritized(captionTransformer{}, 610),
	),
)

// KindFrontMatter is the node kind of [FrontMatterNode].
var KindFrontMatter = ast.NewNodeKind("FrontMatter")

// FrontMatterNode is the YAML block between "---" lines at the top of a
// page. Renderers show nothing for it.
type FrontMatterNode struct {
	ast.BaseBlock
	delim  int  // the number of dashes of the opening line
	closed bool // a closing line was found
}

// Kind implements ast.Node.
func (n *FrontMatterNode) Kind() ast.NodeKind { return KindFrontMatter }

// IsRaw implements ast.Node: its lines are YAML, not Markdown text.
func (n *FrontMatterNode) IsRaw() bool { return true }

// Dump implements ast.Node.
func (n *FrontMatterNode) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// frontMatterParser reads front matter: a line of three or more dashes on
// the page's first line, up to the same line again.
type frontMatterParser struct{}

func (frontMatterParser) Trigger() []byte { return []byte{'-'} }

func (frontMatterParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	if line, _ := reader.Position(); line > 0 || parent.Kind() != ast.KindDocument || parent.HasChildren() {
		return nil, parser.NoChildren
	}
	line, seg := reader.PeekLine()
	n := dashes(line)
	if n < 3 {
		return nil, parser.NoChildren
	}
	fm := &FrontMatterNode{delim: n}
	fm.SetPos(seg.Start)
	return fm, parser.NoChildren
}

func (frontMatterParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	fm := node.(*FrontMatterNode)
	line, seg := reader.PeekLine()
	if line == nil {
		return parser.Close
	}
	reader.AdvanceToEOL()
	if dashes(line) == fm.delim {
		fm.closed = true
		return parser.Close
	}
	fm.Lines().Append(seg)
	return parser.Continue | parser.NoChildren
}

func (frontMatterParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}
func (frontMatterParser) CanInterruptParagraph() bool                                { return false }
func (frontMatterParser) CanAcceptIndentedLine() bool                                { return false }

// dashes returns the length of a line made only of dashes (its line end
// aside), or 0.
func dashes(line []byte) int {
	line = bytes.TrimRight(line, "\r\n")
	if len(line) == 0 || len(bytes.Trim(line, "-")) != 0 {
		return 0
	}
	return len(line)
}

// KindAlert is the node kind of [Alert].
var KindAlert = ast.NewNodeKind("Alert")

// An Alert is a GitHub alert callout: a blockquote whose first line is
// [!NOTE], [!TIP], [!IMPORTANT], [!WARNING] or [!CAUTION]. Its children are
// the rest of the blockquote.
type Alert struct {
	ast.BaseBlock
	// AlertType is "note", "tip", "important", "warning" or "caution".
	AlertType string
}

// Kind implements ast.Node.
func (n *Alert) Kind() ast.NodeKind { return KindAlert }

// Dump implements ast.Node.
func (n *Alert) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Type": n.AlertType}, nil)
}

var alertTypes = map[string]string{
	"[!NOTE]":      "note",
	"[!TIP]":       "tip",
	"[!IMPORTANT]": "important",
	"[!WARNING]":   "warning",
	"[!CAUTION]":   "caution",
}

type alertTransformer struct{}

// Transform replaces each blockquote that opens with an alert marker by an
// [Alert] holding the rest of the blockquote.
func (alertTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	var quotes []*ast.Blockquote
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if q, ok := n.(*ast.Blockquote); ok && entering {
			quotes = append(quotes, q)
		}
		return ast.WalkContinue, nil
	})
	for _, q := range quotes {
		para, ok := q.FirstChild().(*ast.Paragraph)
		if !ok || para.Lines().Len() == 0 {
			continue
		}
		first := para.Lines().At(0)
		typ, ok := alertTypes[string(bytes.ToUpper(bytes.TrimSpace(first.Value(src))))]
		if !ok {
			continue
		}
		// Drop the inline nodes of the marker line.
		for c := para.FirstChild(); c != nil; {
			next := c.NextSibling()
			t, isText := c.(*ast.Text)
			if !isText || t.Segment.Start >= first.Stop {
				break
			}
			para.RemoveChild(para, c)
			if t.SoftLineBreak() || t.HardLineBreak() {
				break
			}
			c = next
		}
		lines := para.Lines()
		if lines.Len() == 1 {
			q.RemoveChild(q, para)
		} else {
			rest := text.NewSegments()
			for i := 1; i < lines.Len(); i++ {
				rest.Append(lines.At(i))
			}
			para.SetLines(rest)
		}
		alert := &Alert{AlertType: typ}
		alert.SetPos(q.Pos())
		for c := q.FirstChild(); c != nil; {
			next := c.NextSibling()
			alert.AppendChild(alert, c)
			c = next
		}
		q.Parent().ReplaceChild(q.Parent(), q, alert)
	}
}

// tableTransformer records each table cell's alignment as a style
// attribute, and makes each table focusable, at parse time, so that
// rendering never changes the AST (goldmark's table renderer would add
// the style on every render) and a page can be rendered twice, and
// concurrently.
type tableTransformer struct{}

func (tableTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if c, ok := n.(*east.TableCell); ok && entering && c.Alignment != east.AlignNone {
			c.SetAttributeString("style", []byte("text-align:"+c.Alignment.String()))
		}
		if t, ok := n.(*east.Table); ok && entering {
			// A wide table scrolls sideways on a narrow screen: keyboard
			// users scroll it once it has the focus, as with code.
			t.SetAttributeString("tabindex", []byte("0"))
		}
		return ast.WalkContinue, nil
	})
}
