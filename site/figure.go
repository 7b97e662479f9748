package site

import (
	"errors"
	"fmt"
	"html"
	"strings"

	"github.com/warpbook/warpbook/site/figure"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// drawn is a figure drawn once per build, with figID standing for its
// id: the chapter and the print page show the same drawing.
type drawn struct {
	fig *figure.Figure
	err error
}

// figID stands for a figure's id in its drawing until the page that shows
// it is known.
const figID = "wbfigid"

// draw draws the figure block n once per build.
func (r *renderer) draw(n *ast.FencedCodeBlock) (*figure.Figure, error) {
	if d, ok := r.b.figs.Load(n); ok {
		return d.(*drawn).fig, d.(*drawn).err
	}
	f, err := figure.Draw(n.Lines().Value(r.p.src()), figID)
	d, _ := r.b.figs.LoadOrStore(n, &drawn{f, err})
	return d.(*drawn).fig, d.(*drawn).err
}

// figure draws a figure block from the engine as inline SVG with its
// caption, its alt text and a table of its numbers.
func (r *renderer) figure(w util.BufWriter, n *ast.FencedCodeBlock) {
	fl := r.p.floats[n]
	if fl == nil {
		return // its info string is wrong, and reported
	}
	id := r.id(fl.id)
	f, err := r.draw(n)
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
	w.WriteString(strings.ReplaceAll(f.SVG, figID, id))
	fmt.Fprintf(w, "\n<figcaption id=\"%s-caption\"><span class=\"float-label\">%s:</span> %s</figcaption>\n", id, html.EscapeString(fl.label), html.EscapeString(f.Caption))
	if f.Data != "" {
		w.WriteString(`<details class="fig-data"><summary>The numbers behind this figure</summary>` + "\n")
		w.WriteString(strings.ReplaceAll(f.Data, figID, id))
		w.WriteString("\n</details>\n")
	}
	w.WriteString("</figure>\n")
}
