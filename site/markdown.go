package site

import (
	"bytes"
	"fmt"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// parserExtensions are the goldmark extensions the site adds to the one
// parse of each page: GitHub Flavored Markdown (tables, strikethrough,
// autolinks, task lists), footnotes, GitHub alert callouts and stable
// heading ids. The kernel's parse takes them, so that the site renders the
// very AST whose cells were run.
func parserExtensions() []goldmark.Extender {
	return []goldmark.Extender{
		extension.GFM,
		extension.Footnote,
		alertExtension{},
		headingIDs{},
		tableAlign{},
	}
}

// headingIDs turns on goldmark's automatic heading ids ("The cliffs" →
// "the-cliffs") and {#id} attributes.
type headingIDs struct{}

func (headingIDs) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithAutoHeadingID(), parser.WithHeadingAttribute())
}

// tableAlign records each table cell's alignment as a style attribute, and
// makes each table focusable, at parse time, so that rendering never changes the AST (goldmark's table
// renderer would add the style on every render) and a page can be rendered
// twice, and concurrently.
type tableAlign struct{}

func (tableAlign) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(tableAlign{}, 600)))
}

func (tableAlign) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
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

// KindAlert is the node kind of [Alert].
var KindAlert = ast.NewNodeKind("Alert")

// An Alert is a GitHub alert callout: a blockquote whose first line is
// [!NOTE], [!TIP], [!IMPORTANT], [!WARNING] or [!CAUTION].
type Alert struct {
	ast.BaseBlock
	AlertType string // "note", "tip", "important", "warning" or "caution"
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

type alertExtension struct{}

func (alertExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(util.Prioritized(alertTransformer{}, 500)))
}

type alertTransformer struct{}

// Transform replaces each blockquote that opens with an alert marker by an
// [Alert] holding the rest of the blockquote.
func (alertTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	var quotes []*ast.Blockquote
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
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

// KindTermLink is the node kind of [TermLink].
var KindTermLink = ast.NewNodeKind("TermLink")

// A TermLink is the first mention of a glossary term on a page, linked to
// its entry.
type TermLink struct {
	ast.BaseInline
	Slug  string // glossary entry: glossary/<Slug>.md
	Short string // the entry's one-line definition
}

// Kind implements ast.Node.
func (n *TermLink) Kind() ast.NodeKind { return KindTermLink }

// Dump implements ast.Node.
func (n *TermLink) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Slug": n.Slug}, nil)
}

// String returns "TermLink(slug)", for debugging.
func (n *TermLink) String() string { return fmt.Sprintf("TermLink(%s)", n.Slug) }
