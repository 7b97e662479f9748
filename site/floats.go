package site

import (
	"fmt"
	"html"
	"strings"
	"sync"

	"github.com/warpbook/warpbook/snippets/page"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// A numbered is a numbered figure or table: what a reference to it links to
// and says.
type numbered struct {
	id    string // its HTML id: fig-..., tbl-..., or figure-N and table-N without one
	label string // "Figure 5.2", "Table 1"
	page  *htmlPage
}

// numberFloats numbers the figures and the captioned tables of every page,
// in order, after the chapter's number ("Figure 5.2" in chapter 5,
// "Figure 2" on a page without a number), and records the ids that
// references (@fig-ID, @tbl-ID) may name, which are the book's own: one id
// names one thing in the whole book.
func (b *build) numberFloats() error {
	// Finding the floats walks every page: that runs on all CPUs, the
	// numbering in page order.
	found := make(map[*htmlPage][]ast.Node, len(b.pages))
	var mu sync.Mutex
	parallel(b.pages, func(p *htmlPage) {
		if p.doc() == nil {
			return
		}
		var floats []ast.Node
		ast.Walk(p.doc(), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			switch n := n.(type) {
			case *ast.FencedCodeBlock:
				if string(n.Language(p.src())) == "figure" {
					floats = append(floats, n)
				}
				return ast.WalkSkipChildren, nil
			case *page.Caption:
				floats = append(floats, n)
			}
			return ast.WalkContinue, nil
		})
		mu.Lock()
		found[p] = floats
		mu.Unlock()
	})
	b.numbered = map[string]*numbered{}
	for _, p := range b.pages {
		prefix := strings.TrimSuffix(p.number, ".")
		if prefix != "" {
			prefix += "."
		}
		figs, tables := 0, 0
		add := func(n ast.Node, id, what string, count int, off int) {
			f := &numbered{id: id, label: fmt.Sprintf("%s %s%d", what, prefix, count), page: p}
			if p.floats == nil {
				p.floats = map[ast.Node]*numbered{}
			}
			p.floats[n] = f
			if !strings.HasPrefix(id, "fig-") && !strings.HasPrefix(id, "tbl-") {
				return
			}
			if other := b.numbered[id]; other != nil {
				b.addErrs(&page.Diagnostic{Pos: p.snip.Pos(off), Msg: fmt.Sprintf("%s is also the id of %s of %s", id, other.label, other.page.path)})
				return
			}
			b.numbered[id] = f
		}
		for _, n := range found[p] {
			switch n := n.(type) {
			case *ast.FencedCodeBlock:
				figs++
				id, ok := b.figureID(p, n)
				switch {
				case !ok:
				case id == "":
					add(n, fmt.Sprintf("figure-%d", figs), "Figure", figs, 0)
				default:
					add(n, id, "Figure", figs, n.Info.Segment.Start) // the fence's info string: id= is there
				}
			case *page.Caption:
				tables++
				id := n.ID
				if id == "" {
					id = fmt.Sprintf("table-%d", tables)
				}
				add(n, id, "Table", tables, n.Pos())
			}
		}
	}
	return nil
}

// figureID reads the id= of a figure block's info string ("figure
// id=fig-cliffs"), the one attribute a figure's info string may have.
func (b *build) figureID(p *htmlPage, n *ast.FencedCodeBlock) (string, bool) {
	if n.Info == nil {
		return "", true
	}
	info := string(n.Info.Segment.Value(p.src()))
	fields := strings.Fields(info)[1:]
	id := ""
	for _, f := range fields {
		v, ok := strings.CutPrefix(f, "id=")
		switch {
		case !ok:
			b.addErrs(&page.Diagnostic{Pos: p.snip.Pos(n.Info.Segment.Start), Msg: fmt.Sprintf("figure: unknown attribute %q: a figure's info string takes only id=fig-NAME", f)})
			return "", false
		case !strings.HasPrefix(v, "fig-") || !page.ValidSlug(strings.ToLower(v)) || strings.ContainsAny(v, "_"):
			b.addErrs(&page.Diagnostic{Pos: p.snip.Pos(n.Info.Segment.Start), Msg: fmt.Sprintf("figure: id %q: want fig- and letters, digits and hyphens (fig-cliffs)", v)})
			return "", false
		}
		id = v
	}
	return id, true
}

// caption writes a table's caption, numbered, after the table.
func (r *renderer) caption(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	f := r.p.floats[node]
	if entering {
		if f == nil {
			w.WriteString(`<p class="table-caption">`)
		} else {
			fmt.Fprintf(w, `<p class="table-caption" id="%s"><span class="float-label">%s:</span> `, html.EscapeString(r.id(f.id)), html.EscapeString(f.label))
		}
	} else {
		w.WriteString("</p>\n")
	}
	return ast.WalkContinue, nil
}

// ref writes a reference to a figure or table as its label, linked.
func (r *renderer) ref(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*page.Ref)
	f := r.b.numbered[n.Target]
	if f == nil {
		msg := fmt.Sprintf("@%s: no figure or table of the book has this id", n.Target)
		ids := map[string]bool{}
		for id := range r.b.numbered {
			ids[id] = true
		}
		if near := nearestID(n.Target, ids); near != "" {
			msg += fmt.Sprintf(" (did you mean @%s?)", near)
		}
		r.errorf(n.Pos(), "%s", msg)
		w.WriteString("@" + html.EscapeString(n.Target))
		return ast.WalkContinue, nil
	}
	href := fragment(r.id(f.id))
	switch {
	case r.print && r.b.inPrint[f.page]:
		href = fragment(printID(f.page, f.id))
	case f.page != r.p:
		href = r.href(f.page.out, f.id)
	}
	fmt.Fprintf(w, `<a class="xref" href="%s">%s</a>`, href, html.EscapeString(f.label))
	return ast.WalkContinue, nil
}
