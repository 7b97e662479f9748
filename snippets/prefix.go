package snippets

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"time"

	"github.com/warpbook/warpbook/snippets/internal/worker"
)

// A run that selects only the top of a page (the browser kernel's Run of
// one cell, "warpbook test -run ID") needs the cells up to the last one it
// selects and the checked values before the next cell: the plan of that
// prefix of the page. Type-checking it costs a fraction of the whole page,
// and its units are the whole plan's first units, with the same chunks,
// diagnostics and cache keys, unless the cells below change what the
// prefix means. They can, in ways the prefix alone cannot see:
//
//   - a name the prefix uses and a later cell declares at the top level
//     ("declared further down" in the whole page; undefined, or the
//     universe's name, in the prefix), or declares again (the whole page
//     reports the other declaration in the prefix too);
//   - a method a later cell declares on a type of the prefix, which
//     changes its method set (the lint of fmt and String methods);
//   - a later label with the name of one of the prefix (labels belong to
//     the function, which spans the session);
//   - a later declaration of a name the scaffolding calls ("_wbDone",
//     "any"), or later code that does not parse or that the kernel
//     refuses before the type check: the whole session, prefix included,
//     then does not run;
//   - a later dot import, which declares names no one can list here.
//
// Other differences show in the prefix itself as a diagnostic (a variable
// or import that only later cells use is "declared and not used" in the
// prefix). So a prefix plan is used only when it has no diagnostic at all
// and the cells below it declare nothing of the above ([plan.separable]);
// otherwise the run compiles the whole page. TestPrefixBook compares the
// two over every cell of the book, and the prefix-*.txtar cases each
// difference.

// cut returns how many of p's cells a run needs: those up to the last
// cell, or the cells before the last checked value, the filter selects.
func (k *Kernel) cut(p *Page) int {
	if k.Filter == nil {
		return len(p.Cells)
	}
	n := 0
	for _, c := range p.Cells {
		if k.selected(c.ID()) {
			n = c.Index + 1
		}
	}
	for _, ch := range p.Checks {
		if k.selected(ch.ID()) {
			n = max(n, ch.After)
		}
	}
	return n
}

// upTo returns the page cut after its first n cells and the checked values
// that come before the next one.
func (p *Page) upTo(n int) *Page {
	q := *p
	q.Cells = p.Cells[:n:n]
	m := 0
	for m < len(p.Checks) && p.Checks[m].After <= n {
		m++
	}
	q.Checks = p.Checks[:m:m]
	return &q
}

// prefixPlan returns the compiled plan of the first n cells of whole's
// page (whole not compiled), or nil when it could differ from the whole
// page's: when n covers the page, when the cells below could change the
// prefix (see [plan.separable]) or when the prefix has any diagnostic.
func prefixPlan(whole *plan, n int, timeout time.Duration) *plan {
	if n >= len(whole.page.Cells) || !whole.separable(n) {
		return nil
	}
	pl := newPlan(whole.page.upTo(n), timeout)
	if len(pl.compile()) > 0 {
		return nil
	}
	for _, u := range pl.units {
		if len(u.diags) > 0 {
			return nil
		}
	}
	return pl
}

// separable reports whether the cells from n on (pl not compiled) declare
// nothing that could change how the cells above them type-check, lint and
// rewrite, and all parse and pass the kernel's checks before the type
// check.
func (pl *plan) separable(n int) bool {
	from := pl.page.Cells[n].Pos.Line
	for _, cc := range pl.codes[n:] {
		if cc != nil && len(cc.src.problems) > 0 {
			return false
		}
	}
	fset := token.NewFileSet()
	// Names the prefix or the scaffolding mention; the helper's are all
	// package-level.
	seen := map[string]bool{}
	helper, err := parser.ParseFile(fset, helperFile, worker.HelperStub, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	ast.Inspect(helper, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			seen[id.Name] = true
		}
		return true
	})
	for _, s := range pl.sessions {
		if len(s.units) == 0 {
			continue
		}
		if first := s.units[0]; first.cell != nil && first.cell.Index < n && s.id != 0 {
			continue // a fresh cell or a program above the cut: wholly in the prefix
		}
		f, err := parser.ParseFile(fset, scaffoldFile, s.mainGo, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		if s.program {
			continue // a later program: nothing of it reaches the prefix
		}
		at := func(p token.Pos) (page, later bool) {
			tp := fset.Position(p)
			return tp.Filename == pageFile, tp.Filename == pageFile && tp.Line >= from
		}
		scaffolding := map[string]bool{} // what the scaffolding calls
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				page, later := at(id.Pos())
				if !page {
					scaffolding[id.Name] = true
				}
				if !later && s.id == 0 {
					seen[id.Name] = true
				}
			}
			return true
		})
		var top []string // what later cells declare at the top level, and their labels
		for _, d := range f.Decls {
			names, ok := topNames(d, func(p token.Pos) bool { _, later := at(p); return later })
			if !ok {
				return false
			}
			top = append(top, names...)
		}
		bad := false
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil || bad {
				return false
			}
			if _, later := at(n.Pos()); !later {
				return true
			}
			for _, id := range declares(n) {
				if scaffolding[id.Name] {
					bad = true
				}
			}
			if l, ok := n.(*ast.LabeledStmt); ok {
				top = append(top, l.Label.Name)
			}
			return true
		})
		if bad {
			return false
		}
		if s.id == 0 {
			for _, name := range top {
				if seen[name] {
					return false
				}
			}
		}
	}
	return true
}

// topNames returns the names the later parts of a top-level declaration
// declare (the generated program gathers every cell's imports in one
// place, so each spec has its own position), a method's receiver type with
// them; ok is false for a later dot import.
func topNames(d ast.Decl, later func(token.Pos) bool) (names []string, ok bool) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if !later(d.Name.Pos()) {
			return nil, true
		}
		names = append(names, d.Name.Name)
		if d.Recv != nil {
			for _, f := range d.Recv.List {
				t := f.Type
				for {
					switch x := t.(type) {
					case *ast.StarExpr:
						t = x.X
						continue
					case *ast.IndexExpr:
						t = x.X
						continue
					case *ast.IndexListExpr:
						t = x.X
						continue
					case *ast.ParenExpr:
						t = x.X
						continue
					}
					break
				}
				if id, ok := t.(*ast.Ident); ok {
					names = append(names, id.Name)
				}
			}
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			if !later(sp.Pos()) {
				continue
			}
			switch sp := sp.(type) {
			case *ast.ImportSpec:
				if sp.Name != nil {
					if sp.Name.Name == "." {
						return nil, false
					}
					names = append(names, sp.Name.Name)
					continue
				}
				// The name the type checker gives it: every package the
				// sandbox allows is named after its path's last element
				// (TestAllowedPackageNames), as are the stand-ins of the
				// others.
				p, err := strconv.Unquote(sp.Path.Value)
				if err != nil {
					return nil, false
				}
				names = append(names, path.Base(p))
			case *ast.TypeSpec:
				names = append(names, sp.Name.Name)
			case *ast.ValueSpec:
				for _, id := range sp.Names {
					names = append(names, id.Name)
				}
			}
		}
	}
	return names, true
}

// declares returns the identifiers node n declares itself (not those of
// the nodes inside it).
func declares(n ast.Node) []*ast.Ident {
	var ids []*ast.Ident
	idents := func(es ...ast.Expr) {
		for _, e := range es {
			if id, ok := e.(*ast.Ident); ok {
				ids = append(ids, id)
			}
		}
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok == token.DEFINE {
			idents(n.Lhs...)
		}
	case *ast.RangeStmt:
		if n.Tok == token.DEFINE {
			idents(n.Key, n.Value)
		}
	case *ast.ValueSpec:
		ids = append(ids, n.Names...)
	case *ast.TypeSpec:
		ids = append(ids, n.Name)
	case *ast.FuncDecl:
		ids = append(ids, n.Name)
	case *ast.Field:
		ids = append(ids, n.Names...)
	case *ast.LabeledStmt:
		ids = append(ids, n.Label)
	case *ast.ImportSpec:
		if n.Name != nil {
			ids = append(ids, n.Name)
		}
	}
	return ids
}
