package site

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"path/filepath"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"

	"github.com/warpbook/warpbook/internal/cachefile"
	"github.com/warpbook/warpbook/site/figure"
	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// maxFigureBytes bounds a drawn figure in the cache: its SVG and its
// table of numbers, in JSON.
const maxFigureBytes = 32 << 20

// figID stands for a figure's id in its drawing until the page that shows
// it is known.
const figID = "wbfigid"

// Figures draws figure blocks from the engine (see package figure), each
// once: within a run by content, and between runs through a cache
// directory keyed by the tool and the block's YAML, so that a build or a
// test of an unchanged book simulates nothing. The site publishes a
// figure's SVG as it is, so the cache's entries are read through package
// cachefile: only those this user's warpbook wrote. A Figures is safe for
// concurrent use; its zero value caches within a run only.
type Figures struct {
	// CacheDir holds drawn figures between runs; "" keeps none.
	CacheDir string

	mu    sync.Mutex
	drawn map[string]*drawn
}

// drawn is a drawn figure, or why it could not be drawn, as the cache
// keeps it.
type drawn struct {
	Fig *figure.Figure `json:"fig,omitempty"`
	Err *figure.Error  `json:"err,omitempty"`
}

// draw draws a figure's YAML, with figID for its id.
func (fs *Figures) draw(spec []byte) (*figure.Figure, error) {
	v := (&snippets.Kernel{}).Verifier()
	h := sha256.New()
	for _, s := range []string{v.Tool, v.Engine, v.Go, string(spec)} {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	key := hex.EncodeToString(h.Sum(nil))
	fs.mu.Lock()
	if fs.drawn == nil {
		fs.drawn = map[string]*drawn{}
	}
	d := fs.drawn[key]
	fs.mu.Unlock()
	var file string
	if d == nil && fs.CacheDir != "" {
		file = filepath.Join(fs.CacheDir, "figures", key[:2], key+".json")
		if b, err := cachefile.Read(file, maxFigureBytes); err == nil {
			var c drawn
			if json.Unmarshal(b, &c) == nil && (c.Fig != nil || c.Err != nil) {
				d = &c
			}
		}
	}
	if d == nil {
		f, err := figure.Draw(spec, figID)
		d = &drawn{Fig: f}
		if err != nil {
			var fe *figure.Error
			if !errors.As(err, &fe) {
				fe = &figure.Error{Msg: err.Error()}
			}
			d = &drawn{Err: fe}
		}
		if file != "" {
			if b, err := json.Marshal(d); err == nil {
				// The cache is an optimisation: a failure to write it
				// costs the next run the drawing.
				_ = cachefile.Write(file, b)
			}
		}
	}
	fs.mu.Lock()
	if other := fs.drawn[key]; other != nil {
		d = other
	}
	fs.drawn[key] = d
	fs.mu.Unlock()
	if d.Err != nil {
		return nil, d.Err
	}
	return d.Fig, nil
}

// Check draws every figure block of p and returns what is wrong with
// them, at their positions in the page: what build reports, for warpbook
// test to report too.
func (fs *Figures) Check(p *page.Page) page.Diagnostics {
	var ds page.Diagnostics
	_ = ast.Walk(p.Doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if f, ok := n.(*ast.FencedCodeBlock); ok && entering {
			if string(f.Language(p.Source)) == "figure" {
				if _, err := fs.draw(f.Lines().Value(p.Source)); err != nil {
					ds = append(ds, figureDiagnostic(p, f, err))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return ds
}

// figureDiagnostic places a figure's error on its page: at the line and
// column in the block that the figure names, else at the block.
func figureDiagnostic(p *page.Page, n *ast.FencedCodeBlock, err error) *page.Diagnostic {
	off := n.Pos()
	if off < 0 {
		off = lineStart(n)
	}
	msg := err.Error()
	var fe *figure.Error
	if errors.As(err, &fe) {
		msg = "figure: " + fe.Msg
		if fe.Line > 0 && n.Lines().Len() >= fe.Line {
			l := n.Lines().At(fe.Line - 1)
			off = l.Start + min(max(fe.Col-1, 0), l.Len())
		}
	}
	return &page.Diagnostic{Pos: p.Pos(off), Msg: msg}
}

// figure draws a figure block from the engine as inline SVG with its
// caption, its alt text and a table of its numbers.
func (r *renderer) figure(w util.BufWriter, n *ast.FencedCodeBlock) {
	fl := r.p.floats[n]
	if fl == nil {
		return // its info string is wrong, and reported
	}
	id := r.id(fl.id)
	f, err := r.b.figures.draw(n.Lines().Value(r.p.src()))
	if err != nil {
		r.errs = append(r.errs, figureDiagnostic(r.p.snip, n, err))
		return
	}
	eid := html.EscapeString(id)
	fmt.Fprintf(w, `<figure class="figure" aria-labelledby="%s-caption">`+"\n", eid)
	w.WriteString(strings.ReplaceAll(f.SVG, figID, eid))
	fmt.Fprintf(w, "\n<figcaption id=\"%s-caption\"><span class=\"float-label\">%s:</span> %s</figcaption>\n", eid, html.EscapeString(fl.label), html.EscapeString(f.Caption))
	if f.Data != "" {
		w.WriteString(`<details class="fig-data"><summary>The numbers behind this figure</summary>` + "\n")
		w.WriteString(strings.ReplaceAll(f.Data, figID, eid))
		w.WriteString("\n</details>\n")
	}
	w.WriteString(r.figureControls(n, id))
	w.WriteString("</figure>\n")
}
