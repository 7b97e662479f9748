package site

import (
	"fmt"
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// cell writes a runnable snippet: hidden setup lines collapsed behind a
// toggle that works without JavaScript, then its output marked as
// verified, or the verified failure as a "why this fails" callout. What it
// shows comes from the cell and the kernel's result for it; a build
// without a kernel shows the expected output, marked as not verified.
func (r *renderer) cell(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	c := node.(*page.CellNode).Cell
	var res *snippets.CellResult
	if r.p.results != nil {
		res = r.p.results.Result(c)
	}
	skip := c.Attrs.Skip
	if res != nil && res.Status == snippets.StatusSkip {
		skip = res.Skip
	}
	id := r.id("cell-" + c.ID())
	hidden := 0
	for _, l := range c.Lines {
		if l.Hidden {
			hidden++
		}
	}
	w.WriteString(`<div class="cell`)
	if skip != "" {
		w.WriteString(` skipped`)
	}
	fmt.Fprintf(w, `" id="%s"`, html.EscapeString(id))
	if r.p.programs[c.ID()] != "" {
		fmt.Fprintf(w, ` data-program="%s"`, html.EscapeString(programsKey(r.p)))
	}
	w.WriteString(liveCellAttrs(r, c, skip))
	w.WriteString(">\n")
	if hidden > 0 {
		toggle := html.EscapeString(id + "-hidden")
		fmt.Fprintf(w, `<input type="checkbox" class="show-hidden" id="%s"><label for="%s" class="show-hidden-label"><span class="when-closed">Show %s of setup</span><span class="when-open">Hide the %s of setup</span></label>`,
			toggle, toggle, plural(hidden, "hidden line", "hidden lines"), plural(hidden, "line", "lines"))
		w.WriteString("\n")
	}
	code := make([]string, len(c.Lines))
	for i, l := range c.Lines {
		code[i] = l.Text
	}
	lines := highlightLines("go", strings.Join(code, "\n"))
	fmt.Fprintf(w, `<pre class="code" tabindex="0"%s><code class="language-go">`, wide(strings.Join(code, "\n")))
	for i, l := range lines {
		if i < len(c.Lines) && c.Lines[i].Hidden {
			w.WriteString(`<span class="hl">`)
			w.WriteString(l)
			w.WriteString("\n</span>")
			continue
		}
		w.WriteString(l)
		if i < len(lines)-1 {
			w.WriteString("\n")
		}
	}
	w.WriteString("</code></pre>\n")
	failure, what := "", "error"
	if res != nil {
		switch {
		case c.Attrs.Panics != "":
			failure, what = res.Panic, "panic"
		case c.Attrs.Error != "":
			failure = res.Error
		}
	}
	switch {
	case skip != "":
		fmt.Fprintf(w, `<p class="cell-skip">Not run: %s</p>`+"\n", html.EscapeString(skip))
	case failure != "":
		fmt.Fprintf(w, `<div class="callout callout-fails" role="note"><p class="callout-title">Why this fails <span class="verified">✓ verified %s</span></p><pre class="output" tabindex="0"%s><code>%s</code></pre></div>`+"\n",
			what, wide(failure), html.EscapeString(failure))
	case res == nil:
		output(w, "Expected output", `<span class="unverified">not verified in this build</span>`, c.Expected())
	default:
		output(w, "Output", `<span class="verified">✓ verified</span>`, res.Output)
	}
	w.WriteString(r.cellMeta(c))
	w.WriteString("\n")
	w.WriteString("</div>\n")
	return ast.WalkSkipChildren, nil
}

// output writes a cell's output under its label; a cell that prints
// nothing gets the label alone, not an empty box.
func output(w util.BufWriter, label, mark, text string) {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		fmt.Fprintf(w, `<div class="output-wrap empty"><p class="output-label">%s: nothing %s</p></div>`+"\n", label, mark)
		return
	}
	fmt.Fprintf(w, `<div class="output-wrap"><p class="output-label">%s %s</p><pre class="output" tabindex="0"%s><code>%s</code></pre></div>`+"\n",
		label, mark, wide(text), html.EscapeString(text))
}
