package site

import (
	"fmt"
	"html"
	"strings"

	"github.com/warpbook/warpbook/snippets"
	"github.com/yuin/goldmark/util"
)

// A cellView is what the site shows for one runnable snippet: its code, which
// lines are hidden setup, and what running it verified. The kernel fills
// it in; the site never runs code.
type cellView struct {
	ID     string
	Lang   string   // language of the code, "go"
	Lines  []string // the code, one line each
	Hidden []bool   // Hidden[i]: line i is hidden setup, shown on request
	Status string   // "pass", "fail", "skip", or "unverified" in a build without a kernel
	// Stdout is the output the run printed, equal to the expected output
	// when Status is "pass".
	Stdout string
	// Failure is the verified panic or error message of a snippet that is
	// expected to fail; Panics says which one it is.
	Failure string
	Panics  bool
	// Skip is the reason a skipped snippet gives.
	Skip string
	// VerifiedBy says what verified the output: tool, engine and Go
	// versions.
	VerifiedBy string
}

// cellResults maps each cell of a page to what is shown for it.
type cellResults map[*snippets.Cell]*cellView

// cell writes a runnable snippet: hidden setup lines collapsed behind a
// toggle that works without JavaScript, then its output marked as
// verified, or the verified failure as a "why this fails" callout.
func (r *renderer) cell(w util.BufWriter, c *cellView) {
	id := r.id("cell-" + c.ID)
	if c.ID == "" {
		id = ""
	}
	hidden := 0
	for _, h := range c.Hidden {
		if h {
			hidden++
		}
	}
	w.WriteString(`<div class="cell`)
	if c.Status == "skip" {
		w.WriteString(` skipped`)
	}
	w.WriteString(`"`)
	if id != "" {
		fmt.Fprintf(w, ` id="%s"`, html.EscapeString(id))
	}
	w.WriteString(">\n")
	if hidden > 0 && id != "" {
		toggle := id + "-hidden"
		fmt.Fprintf(w, `<input type="checkbox" class="show-hidden" id="%s"><label for="%s" class="show-hidden-label">Show %s of setup</label>`,
			toggle, toggle, plural(hidden, "hidden line", "hidden lines"))
		w.WriteString("\n")
	}
	lines := highlightLines(c.Lang, strings.Join(c.Lines, "\n"))
	w.WriteString(`<pre class="code" tabindex="0"><code class="language-go">`)
	for i, l := range lines {
		if i < len(c.Hidden) && c.Hidden[i] {
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
	switch {
	case c.Status == "skip":
		fmt.Fprintf(w, `<p class="cell-skip">Not run: %s</p>`+"\n", html.EscapeString(c.Skip))
	case c.Failure != "":
		what := "error"
		if c.Panics {
			what = "panic"
		}
		fmt.Fprintf(w, `<div class="callout callout-fails" role="note"><p class="callout-title">Why this fails <span class="verified" title="%s">✓ verified %s</span></p><pre class="output" tabindex="0"><code>%s</code></pre></div>`+"\n",
			html.EscapeString(c.VerifiedBy), what, html.EscapeString(c.Failure))
	case c.Status == "unverified":
		fmt.Fprintf(w, `<div class="output-wrap"><p class="output-label">Expected output <span class="unverified">not verified in this build</span></p><pre class="output" tabindex="0"><code>%s</code></pre></div>`+"\n",
			html.EscapeString(strings.TrimRight(c.Stdout, "\n")))
	default:
		fmt.Fprintf(w, `<div class="output-wrap"><p class="output-label">Output <span class="verified" title="%s">✓ verified</span></p><pre class="output" tabindex="0"><code>%s</code></pre></div>`+"\n",
			html.EscapeString(c.VerifiedBy), html.EscapeString(strings.TrimRight(c.Stdout, "\n")))
	}
	if c.VerifiedBy != "" && c.Status != "skip" {
		fmt.Fprintf(w, `<p class="verified-by">Verified by %s</p>`+"\n", html.EscapeString(c.VerifiedBy))
	}
	w.WriteString("</div>\n")
}
