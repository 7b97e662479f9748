package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/warpbook/warpbook/site/figure"
	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// The live book: a chapter's cells run and can be edited in the reader's
// browser, in the browser kernel (package live). The build writes, for
// each page with a runnable cell or a figure, assets/pages/<page>.js (the
// page's Markdown and its figures' YAML, which the kernel runs and draws),
// and assets/kernel.js once; assets/live.js loads both only when the
// reader first presses Run. Without a kernel the pages carry the reason,
// and the script adds no Run button.

// liveData is what a page's script needs to run its cells.
type liveData struct {
	Source string // URL of the page's source script
	Path   string // the page's path as diagnostics name it
	Kernel string // URL of the kernel script; "" when the build has none
	Off    string // why cells cannot run, when Kernel is ""
}

// livePage is the content of a page's source script.
type livePage struct {
	Path    string            `json:"path"`
	Source  string            `json:"source"`
	Facts   *snippets.Facts   `json:"facts,omitempty"`
	Figures map[string]string `json:"figures,omitempty"`
	// Packages are the book's packages the page's cells import.
	Packages *snippets.PackagesData `json:"packages,omitempty"`
}

// liveSource returns the output path of page p's source script.
func liveSource(p *htmlPage) string {
	return "assets/pages/" + strings.TrimSuffix(p.out, ".html") + ".js"
}

// isLive reports whether page p has something the browser kernel runs.
func isLive(p *htmlPage) bool {
	if p.snip == nil {
		return false
	}
	return len(p.snip.Cells) > 0 || len(liveFigures(p)) > 0
}

// liveFigures returns the YAML of each figure of page p by its id, the
// one numberFloats gave it, which its controls name too.
func liveFigures(p *htmlPage) map[string]string {
	figs := map[string]string{}
	for n, f := range p.floats {
		if fc, ok := n.(*ast.FencedCodeBlock); ok {
			figs[f.id] = string(fc.Lines().Value(p.src()))
		}
	}
	return figs
}

// live builds (or finds) the browser kernel when a page needs it and
// writes each live page's scripts: its source, and its cells as programs
// of their own. A kernel that cannot be built is a warning, said once:
// the site is then built without Run.
func (b *build) live() error {
	var pages []*htmlPage
	for _, p := range b.pages {
		if isLive(p) {
			pages = append(pages, p)
		}
	}
	if len(pages) == 0 {
		return nil
	}
	switch {
	case b.opts.Live == nil:
		b.liveOff = "this site was built without the browser kernel"
	default:
		k, err := b.opts.Live(b.ctx)
		if err != nil {
			b.liveOff = "the browser kernel could not be built: " + err.Error()
			b.warnf("readers cannot run the snippets in this build: %v", err)
		} else {
			b.kernel = k
			b.put(kernelAsset(k), k.Script)
		}
	}
	parallel(pages, func(p *htmlPage) {
		// The page's one compile: its facts, with which its first run
		// skips the type check (the kernel's copy differs only in the
		// front matter's lines, which no generated program holds:
		// TestLiveText), and its cells' programs.
		cp := snippets.Compile(p.snip, b.pkgs)
		lp := livePage{Path: b.repoPath(p.path), Source: liveText(p.snip), Figures: liveFigures(p)}
		if b.kernel != nil {
			lp.Facts = cp.Facts
		}
		if b.pkgs.Imported(p.snip) {
			lp.Packages = b.pkgs.Data()
		}
		var progs []byte
		if len(p.snip.Diagnostics) == 0 && len(p.snip.Cells) > 0 {
			progs = b.programs(p, cp)
		}
		// A page's script is JSON of strings and facts: it cannot fail to
		// encode.
		data, _ := json.Marshal(lp)
		b.put(liveSource(p), []byte("warpbookLivePage("+string(data)+");\n"))
		if progs != nil {
			b.put("assets/programs/"+programsKey(p)+".js", progs)
		}
	})
	return nil
}

// kernelAsset is where the site keeps the kernel script: a name that
// changes with its content, so that a server may let browsers keep it
// (warpbook serve does) and reuse it on every page.
func kernelAsset(k *live.Kernel) string {
	return "assets/kernel-" + k.Key[:16] + ".js"
}

// liveFor returns what the page being rendered needs to run its cells, nil
// for a page with nothing to run (and on the print page).
func (r *renderer) liveFor() *liveData {
	b := r.b
	if r.print || !isLive(r.p) {
		return nil
	}
	d := &liveData{Source: r.href(liveSource(r.p), ""), Path: b.repoPath(r.p.path), Off: b.liveOff}
	if b.kernel != nil {
		d.Kernel, d.Off = r.href(kernelAsset(b.kernel), ""), ""
	}
	return d
}

// liveCellAttrs returns the attributes by which the page's script finds a
// runnable cell: its id and what the book says it does.
func liveCellAttrs(r *renderer, c *page.Cell, skip string) string {
	if r.print {
		return ""
	}
	s := fmt.Sprintf(` data-cell="%s"`, html.EscapeString(c.ID()))
	switch {
	case skip != "":
		s += ` data-expect="skip"`
	case c.Attrs.Panics != "":
		s += ` data-expect="panic"`
	case c.Attrs.Error != "":
		s += ` data-expect="error"`
	}
	return s
}

// figureControls returns the form of a figure's inputs, which live.js
// shows and answers by redrawing the figure in the browser kernel; the
// built drawing is what a page without JavaScript (or without a kernel)
// shows.
func (r *renderer) figureControls(n *ast.FencedCodeBlock, id string) string {
	if r.print {
		return ""
	}
	cs := figure.Controls(n.Lines().Value(r.p.src()))
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	// novalidate: the figure package checks the values, and says what is
	// wrong; the browser would refuse a block size off its step silently.
	fmt.Fprintf(&b, `<form class="fig-controls" data-figure="%s" aria-label="Inputs of this figure" novalidate hidden>`+"\n", html.EscapeString(id))
	for _, c := range cs {
		cid := html.EscapeString(id + "-in-" + c.Key)
		fmt.Fprintf(&b, `<label for="%s">%s</label> `, cid, html.EscapeString(c.Label))
		attrs := fmt.Sprintf(` id="%s" name="%s" data-template="%s" data-value="%s"`, cid, html.EscapeString(c.Key), html.EscapeString(c.Template), html.EscapeString(c.Value))
		if c.LimitBy != "" {
			// The most the number takes for each choice of the control
			// that bounds it: live.js clamps it when that choice changes.
			limits, _ := json.Marshal(c.Limits)
			attrs += fmt.Sprintf(` data-limit-by="%s" data-limits="%s"`, html.EscapeString(c.LimitBy), html.EscapeString(string(limits)))
		}
		switch c.Kind {
		case "select":
			fmt.Fprintf(&b, `<select%s>`, attrs)
			for i, o := range c.Options {
				sel := ""
				if o == c.Value {
					sel = " selected"
				}
				if i < len(c.OptionLabels) && c.OptionLabels[i] != o {
					fmt.Fprintf(&b, `<option value="%s"%s>%s</option>`, html.EscapeString(o), sel, html.EscapeString(c.OptionLabels[i]))
					continue
				}
				fmt.Fprintf(&b, `<option%s>%s</option>`, sel, html.EscapeString(o))
			}
			b.WriteString("</select>\n")
		case "number":
			fmt.Fprintf(&b, `<input type="number"%s value="%s" min="%d" max="%d" step="%d">`+"\n", attrs, html.EscapeString(c.Value), c.Min, c.Max, c.Step)
		default:
			fmt.Fprintf(&b, `<input type="text"%s value="%s" size="12">`+"\n", attrs, html.EscapeString(c.Value))
		}
	}
	b.WriteString(`<button type="submit">Redraw</button> <button type="reset">Reset</button> <output class="fig-status" aria-live="polite"></output>` + "\n</form>\n")
	return b.String()
}

// liveCheckAttrs returns the attribute by which the page's script finds a
// checked value.
func liveCheckAttrs(r *renderer, ch *page.Check) string {
	if r.print {
		return ""
	}
	return fmt.Sprintf(` data-check="%s"`, ch.ID())
}

// liveText is a page's Markdown as the browser kernel gets it: the
// source with the lines of its front matter left empty. The kernel reads
// nothing of the front matter (a page's title, tags and byline are the
// site's; the number lint, which reads prose_numbers, runs at build), and
// decoding it was a noticeable part of a page's first Run in the browser;
// the lines stay, so that every position the kernel reports is the book's.
// A page with parse problems is sent as it is, for the kernel to report
// them as warpbook test does.
func liveText(sp *page.Page) string {
	if sp == nil {
		return ""
	}
	fm := sp.FrontMatter
	if fm == nil || len(sp.Diagnostics) > 0 {
		return string(sp.Source)
	}
	first, n := fm.Line, bytes.Count(fm.Raw, []byte("\n"))
	var b strings.Builder
	b.Grow(len(sp.Source))
	for i, line := range bytes.SplitAfter(sp.Source, []byte("\n")) {
		if l := i + 1; l >= first && l < first+n {
			line = line[len(bytes.TrimRight(line, "\r\n")):]
		}
		b.Write(line)
	}
	return b.String()
}
