package page

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Check is a checked prose value: a Markdown link whose destination is "="
// and whose title is a Go expression,
//
//	the reference gives [24](= "r.ActiveBlocks") blocks
//
// The expression is evaluated in the page's session after the cells above
// it; fmt.Sprint of its value must equal the link text, trimmed. The site
// renders the link as its plain text.
type Check struct {
	// Index is the check's place among the page's checks, from 0.
	Index int
	// Pos is the position of the link's "[".
	Pos Pos
	// ExprPos is the position of the expression's first byte.
	ExprPos Pos
	// Text is the link text, trimmed: the value the prose states.
	Text string
	// Expr is the Go expression (the link title).
	Expr string
	// After is the number of cells above the link: Cells[:After] run first.
	After int
	// NoDrill keeps the value off the practice page's drills: an HTML
	// comment <!-- nodrill --> right after the link.
	NoDrill bool
	// Drill is the prompt the practice page asks above the value's
	// sentence, from a comment <!-- drill: PROMPT --> right after the
	// link; "" without one.
	Drill string
	// DrillPos is the position of that comment; zero without one.
	DrillPos Pos
}

// ID is "value-N" (N = Index+1): what -run filters on.
func (c *Check) ID() string { return "value-" + strconv.Itoa(c.Index+1) }

// KindCheck is the node kind of [CheckNode].
var KindCheck = ast.NewNodeKind("Check")

// CheckNode is a checked prose value in a page's AST, in place of its link;
// its children are the link's text.
type CheckNode struct {
	ast.BaseInline
	// Check is the value.
	Check *Check
}

// Kind implements ast.Node.
func (n *CheckNode) Kind() ast.NodeKind { return KindCheck }

// Dump implements ast.Node.
func (n *CheckNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Expr": n.Check.Expr}, nil)
}

func (pg *Page) check(n *ast.Link, after int, diags *Diagnostics) *Check {
	c := &Check{
		Pos:   pg.Pos(n.Pos()),
		Text:  strings.TrimSpace(plainText(n, pg.Source)),
		Expr:  strings.TrimSpace(string(n.Title)),
		After: after,
	}
	c.ExprPos = pg.Pos(pg.exprOffset(n))
	pg.drillComment(c, n.NextSibling(), diags)
	switch {
	case c.Expr == "":
		*diags = append(*diags, &Diagnostic{Pos: c.Pos,
			Msg: fmt.Sprintf(`checked value [%s](=) has no expression: write [%s](= "expression")`, c.Text, c.Text)})
		return nil
	case c.Text == "":
		*diags = append(*diags, &Diagnostic{Pos: c.Pos,
			Msg: fmt.Sprintf(`checked value with expression %q has no text: write [value](= %q)`, c.Expr, c.Expr)})
		return nil
	}
	return c
}

// exprOffset finds the byte offset of the title of a "(= title)" link, or
// the link's own offset if the source does not look as expected.
func (pg *Page) exprOffset(n *ast.Link) int {
	start := n.Pos()
	if start < 0 {
		return start
	}
	end := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering && t.Segment.Stop > end {
			end = t.Segment.Stop
		}
		return ast.WalkContinue, nil
	})
	src := pg.Source
	i := end
	if i < 0 || i+1 >= len(src) || src[i] != ']' || src[i+1] != '(' {
		return start
	}
	i += 2
	skip := func() {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
			i++
		}
	}
	skip()
	if i >= len(src) || src[i] != '=' {
		return start
	}
	i++
	skip()
	if i >= len(src) || (src[i] != '"' && src[i] != '\'' && src[i] != '(') {
		return start
	}
	i++
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// drillComment reads the practice page's directive for a checked value:
// an HTML comment right after its link, <!-- nodrill --> or
// <!-- drill: PROMPT -->. Other comments are left alone; a comment that
// starts with "drill" or "nodrill" and is neither is an error.
func (pg *Page) drillComment(c *Check, next ast.Node, diags *Diagnostics) {
	raw, ok := next.(*ast.RawHTML)
	if !ok || raw.Segments.Len() == 0 {
		return
	}
	var b strings.Builder
	for i := 0; i < raw.Segments.Len(); i++ {
		seg := raw.Segments.At(i)
		b.Write(seg.Value(pg.Source))
	}
	body, ok := strings.CutPrefix(b.String(), "<!--")
	if !ok {
		return
	}
	body = strings.TrimSpace(strings.TrimSuffix(body, "-->"))
	word := strings.ToLower(strings.SplitN(strings.Fields(body + " x")[0], ":", 2)[0])
	if word != "drill" && word != "nodrill" {
		return
	}
	pos := pg.Pos(raw.Segments.At(0).Start)
	switch {
	case body == "nodrill":
		c.NoDrill, c.DrillPos = true, pos
	case strings.HasPrefix(body, "drill:"):
		prompt := strings.Join(strings.Fields(strings.TrimPrefix(body, "drill:")), " ")
		if prompt == "" {
			*diags = append(*diags, &Diagnostic{Pos: pos, Msg: "the drill comment has no prompt: write <!-- drill: the question to ask --> or <!-- nodrill -->"})
			return
		}
		c.Drill, c.DrillPos = prompt, pos
	default:
		*diags = append(*diags, &Diagnostic{Pos: pos, Msg: fmt.Sprintf("unknown drill comment %q after a checked value: write <!-- nodrill --> or <!-- drill: the question to ask -->", "<!-- "+body+" -->")})
	}
}
