package site

import (
	"errors"
	"fmt"
	"html"

	"github.com/warpbook/warpbook/site/figure"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// figure draws a figure block from the engine as inline SVG with its
// caption, its alt text and a table of its numbers.
func (r *renderer) figure(w util.BufWriter, n *ast.FencedCodeBlock) {
	r.figures++
	id := r.id(fmt.Sprintf("figure-%d", r.figures))
	f, err := figure.Draw(n.Lines().Value(r.p.src), id)
	if err != nil {
		off := n.Pos()
		if off < 0 {
			off = lineStart(n)
		}
		var fe *figure.Error
		if errors.As(err, &fe) && fe.Line > 0 && n.Lines().Len() >= fe.Line {
			l := n.Lines().At(fe.Line - 1)
			off = l.Start + min(max(fe.Col-1, 0), l.Len())
		}
		msg := err.Error()
		if fe != nil {
			msg = "figure: " + fe.Msg
		}
		r.errorf(off, "%s", msg)
		return
	}
	fmt.Fprintf(w, `<figure class="figure" aria-labelledby="%s-caption">`+"\n", id)
	w.WriteString(f.SVG)
	fmt.Fprintf(w, "\n<figcaption id=\"%s-caption\">%s</figcaption>\n", id, html.EscapeString(f.Caption))
	if f.Data != "" {
		w.WriteString(`<details class="fig-data"><summary>The numbers behind this figure</summary>` + "\n")
		w.WriteString(f.Data)
		w.WriteString("\n</details>\n")
	}
	w.WriteString("</figure>\n")
}
