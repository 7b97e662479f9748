package site

import (
	"fmt"
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"

	"github.com/warpbook/warpbook/snippets"
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
	c := node.(*snippets.CellNode).Cell
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
	fmt.Fprintf(w, `" id="%s"%s>`+"\n", html.EscapeString(id), liveCellAttrs(r, c, skip))
	if hidden > 0 {
		toggle := id + "-hidden"
		fmt.Fprintf(w, `<input type="checkbox" class="show-hidden" id="%s"><label for="%s" class="show-hidden-label">Show %s of setup</label>`,
			toggle, toggle, plural(hidden, "hidden line", "hidden lines"))
		w.WriteString("\n")
	}
	code := make([]string, len(c.Lines))
	for i, l := range c.Lines {
		code[i] = l.Text
	}
	lines := highlightLines("go", strings.Join(code, "\n"))
	w.WriteString(`<pre class="code" tabindex="0"><code class="language-go">`)
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
	by := ""
	if res != nil {
		by = r.p.verified
	}
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
		fmt.Fprintf(w, `<div class="callout callout-fails" role="note"><p class="callout-title">Why this fails <span class="verified" title="%s">✓ verified %s</span></p><pre class="output" tabindex="0"><code>%s</code></pre></div>`+"\n",
			html.EscapeString(by), what, html.EscapeString(failure))
	case res == nil:
		fmt.Fprintf(w, `<div class="output-wrap"><p class="output-label">Expected output <span class="unverified">not verified in this build</span></p><pre class="output" tabindex="0"><code>%s</code></pre></div>`+"\n",
			html.EscapeString(strings.TrimRight(c.Expected(), "\n")))
	default:
		fmt.Fprintf(w, `<div class="output-wrap"><p class="output-label">Output <span class="verified" title="%s">✓ verified</span></p><pre class="output" tabindex="0"><code>%s</code></pre></div>`+"\n",
			html.EscapeString(by), html.EscapeString(strings.TrimRight(res.Output, "\n")))
	}
	if by != "" && skip == "" {
		fmt.Fprintf(w, `<p class="verified-by">Verified by %s</p>`+"\n", html.EscapeString(by))
	}
	w.WriteString("</div>\n")
	return ast.WalkSkipChildren, nil
}
