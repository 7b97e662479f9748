package page

import (
	"bytes"
	"regexp"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// KindCaption is the node kind of [Caption].
var KindCaption = ast.NewNodeKind("Caption")

// A Caption is a table's caption: the paragraph right after a table that
// starts with "Table:". Its children are the caption's text, without the
// "Table:" and the id.
type Caption struct {
	ast.BaseBlock
	// ID is the {#tbl-ID} at the caption's end, "tbl-ID"; "" without one.
	ID string
}

// Kind implements ast.Node.
func (n *Caption) Kind() ast.NodeKind { return KindCaption }

// Dump implements ast.Node.
func (n *Caption) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"ID": n.ID}, nil)
}

// KindRef is the node kind of [Ref].
var KindRef = ast.NewNodeKind("Ref")

// A Ref is a reference in prose to a numbered figure or table: "@fig-ID"
// or "@tbl-ID", after a space or punctuation, not inside a word (an email
// address is not one).
type Ref struct {
	ast.BaseInline
	// Target is the id referred to: "fig-ID" or "tbl-ID".
	Target string
}

// Kind implements ast.Node.
func (n *Ref) Kind() ast.NodeKind { return KindRef }

// Dump implements ast.Node.
func (n *Ref) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Target": n.Target}, nil)
}

// refPattern is a reference: @fig- or @tbl- and an id of letters, digits,
// '-' and '_' that ends in a letter or digit.
var refPattern = regexp.MustCompile(`^@((?:fig|tbl)-[A-Za-z0-9_-]*[A-Za-z0-9])`)

type refParser struct{}

func (refParser) Trigger() []byte { return []byte{'@'} }

func (refParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if p := block.PrecendingCharacter(); p == '_' || p == '@' || 'a' <= p && p <= 'z' || 'A' <= p && p <= 'Z' || '0' <= p && p <= '9' {
		return nil
	}
	line, seg := block.PeekLine()
	m := refPattern.FindSubmatch(line)
	if m == nil {
		return nil
	}
	n := &Ref{Target: string(m[1])}
	n.SetPos(seg.Start)
	block.Advance(len(m[0]))
	return n
}

// captionID is the {#tbl-ID} at the end of a caption.
var captionID = regexp.MustCompile(`\s*\{#(tbl-[A-Za-z0-9_-]*[A-Za-z0-9])\}\s*$`)

// captionTransformer turns the "Table:" paragraph after a table into the
// table's Caption.
type captionTransformer struct{}

func (captionTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	var tables []*east.Table
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := n.(*east.Table); ok && entering {
			tables = append(tables, t)
		}
		return ast.WalkContinue, nil
	})
	for _, t := range tables {
		para, ok := t.NextSibling().(*ast.Paragraph)
		if !ok {
			continue
		}
		first, ok := para.FirstChild().(*ast.Text)
		if !ok || !bytes.HasPrefix(first.Segment.Value(src), []byte("Table:")) {
			continue
		}
		cap := &Caption{}
		cap.SetPos(first.Segment.Start)
		cap.SetLines(para.Lines())
		cap.SetBlankPreviousLines(para.HasBlankPreviousLines())
		v := first.Segment.Value(src)
		skip := len(v) - len(bytes.TrimLeft(v[len("Table:"):], " \t"))
		first.Segment = first.Segment.WithStart(first.Segment.Start + skip)
		// The id ends the last line; the text nodes that hold it (goldmark
		// may have split it) give it up.
		lines := para.Lines()
		lastLine := lines.At(lines.Len() - 1)
		if m := captionID.FindSubmatchIndex(lastLine.Value(src)); m != nil {
			cap.ID = string(lastLine.Value(src)[m[2]:m[3]])
			cut := lastLine.Start + m[0]
			for c := para.LastChild(); c != nil; {
				prev := c.PreviousSibling()
				t, ok := c.(*ast.Text)
				if !ok || t.Segment.Stop <= cut {
					break
				}
				if t.Segment.Start >= cut {
					para.RemoveChild(para, t)
				} else {
					t.Segment = t.Segment.WithStop(cut)
				}
				c = prev
			}
		}
		for c := para.FirstChild(); c != nil; {
			next := c.NextSibling()
			cap.AppendChild(cap, c)
			c = next
		}
		para.Parent().ReplaceChild(para.Parent(), para, cap)
	}
}
