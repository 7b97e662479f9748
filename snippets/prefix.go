package snippets

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/warpbook/warpbook/snippets/page"
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
//   - a later mention of a name the scaffolding uses ("_wbDone", "any",
//     which a later declaration could shadow), or later code that the
//     kernel refuses before the type check: the whole session, prefix
//     included, may then not run;
//   - later code that does not parse: the whole page then checks the
//     cells above it on their own (checkAbove), which is a longer prefix;
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
func (k *Kernel) cut(p *page.Page) int {
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

// upTo returns page p cut after its first n cells and the checked values
// that come before the next one.
func upTo(p *page.Page, n int) *page.Page {
	q := *p
	q.Cells = p.Cells[:n:n]
	m := 0
	for m < len(p.Checks) && p.Checks[m].After <= n {
		m++
	}
	q.Checks = p.Checks[:m:m]
	return &q
}

// compileUpTo compiles p for a run that needs its first n cells: the plan
// of that prefix when it is exact (see prefixPlan), with whole, the page's
// plan not compiled yet; else the whole page's plan and its page-level
// problems.
func compileUpTo(p *page.Page, n int, timeout time.Duration, fs *facts, pkgs *Packages) (pl, whole *plan, d page.Diagnostics) {
	whole = newPlan(p, timeout)
	whole.facts = fs
	whole.pkgs = pkgs
	if whole.known() {
		// Facts make the whole page cheaper than any prefix.
		return whole, nil, whole.compile()
	}
	if pl = prefixPlan(whole, n, timeout); pl != nil {
		return pl, whole, nil
	}
	return whole, nil, whole.compile()
}

// prefixPlan returns the compiled plan of the first n cells of whole's
// page (whole not compiled), or nil when it could differ from the whole
// page's: when n covers the page, when the cells below could change the
// prefix (see [plan.separable]) or when the prefix has any diagnostic.
func prefixPlan(whole *plan, n int, timeout time.Duration) *plan {
	if n >= len(whole.page.Cells) || !whole.separable(n) {
		return nil
	}
	pl := newPlan(upTo(whole.page, n), timeout)
	pl.pkgs = whole.pkgs
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
	seen := map[string]bool{} // the names the prefix mentions
	for _, s := range pl.sessions {
		if len(s.units) == 0 || s.program || s.id != 0 && s.units[0].cell.Index < n {
			continue // a program, or a fresh cell above the cut
		}
		f, err := parser.ParseFile(fset, scaffoldFile, s.mainGo, parser.SkipObjectResolution)
		if err != nil {
			return false
		}
		later := func(p token.Pos) bool {
			tp := fset.Position(p)
			return tp.Filename == pageFile && tp.Line >= from
		}
		// What later cells declare at the top level or as labels; and
		// whether they mention a name of the scaffolding: those of the
		// helper and of its calls all start with _wb, and "any" is the
		// type of a checked value (TestScaffoldingNames).
		var top []string
		bad := false
		ast.Inspect(f, func(node ast.Node) bool {
			switch x := node.(type) {
			case *ast.Ident:
				switch {
				case !later(x.Pos()):
					seen[x.Name] = seen[x.Name] || s.id == 0
				case x.Name == "any" || strings.HasPrefix(x.Name, "_wb"):
					bad = true
				}
			case *ast.LabeledStmt:
				if later(x.Pos()) {
					top = append(top, x.Label.Name)
				}
			}
			return true
		})
		if bad {
			return false
		}
		for _, d := range f.Decls {
			names, ok := topNames(d, later)
			if !ok {
				return false
			}
			top = append(top, names...)
		}
		for _, name := range top {
			if s.id == 0 && seen[name] {
				return false
			}
		}
	}
	return true
}

// topNames returns the names the later parts of a top-level declaration
// declare (the generated program gathers every cell's imports in one
// place, so each spec has its own position), a method's receiver type with
// them; ok is false for a later dot import or a receiver it cannot read.
func topNames(d ast.Decl, later func(token.Pos) bool) (names []string, ok bool) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if !later(d.Name.Pos()) {
			return nil, true
		}
		names = append(names, d.Name.Name)
		if d.Recv != nil && len(d.Recv.List) == 1 {
			t := d.Recv.List[0].Type
			if x, ok := t.(*ast.StarExpr); ok {
				t = x.X
			}
			switch x := t.(type) {
			case *ast.IndexExpr:
				t = x.X
			case *ast.IndexListExpr:
				t = x.X
			}
			id, ok := t.(*ast.Ident)
			if !ok {
				return nil, false
			}
			names = append(names, id.Name)
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
