package snippets

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
)

// edit replaces the bytes [start, end) of a snippet's source with text, in
// the code the interpreter gets. Edits never add or remove a line, so that
// the interpreter's line numbers still map to the page.
type edit struct {
	start, end int
	text       string
}

// rewrite edits the interpreter's copy of the session's cells, where yaegi
// v0.16.1 would run correct Go wrongly, into Go that means the same and
// that it runs as Go does:
//
//   - In a multiple assignment or declaration such as "best, name = st,
//     st.String()", yaegi assigns a function call, composite literal or
//     channel receive straight to its variable and then skips the whole
//     statement's own assignment, so the other variables keep their old
//     values. Each such value is put in parentheses, which turns that
//     shortcut off.
//   - A variable declared at the top level of a snippet without a type,
//     from an expression that indexes a value ("first :=
//     r.Trace.Issues[0]"), fails with "constant definition loop" when the
//     value comes from compiled code: yaegi cannot infer the type of a
//     session variable from it. The declaration is given the type that
//     go/types found ("var first sim.Issue; first = r.Trace.Issues[0]").
//   - A value of a type the session declares loses its methods when it
//     leaves the interpreter in a panic, so that the kernel would print
//     a panic with a snippet's own error type as its fields ("{3}") where
//     Go prints its Error() (or String()). Each panic statement notes
//     what Go would print, in the session's variable worker.PanicText,
//     just before it panics ("" for a value Go prints itself): "panic(x)"
//     becomes "func() { _wbv := x; _wbPanicText = _wbv.Error();
//     panic(_wbv) }()", which panics with the same value.
//   - yaegi says only which function a runtime panic came from. Each
//     statement first notes its page line in the session's variable
//     worker.PanicLine ("_wbPanicLine = 12; xs[i] = 0"), so that the panic
//     is reported at the line it happened on.
//
// ck is the session's type-checked program. The caller regenerates the
// session's chunks afterwards.
func (pl *plan) rewrite(s *session, ck *checked) {
	if ck.info == nil {
		return
	}
	// The statements at the top level of the session: items that start a
	// statement and open no block (blocks run inside a function literal).
	top := map[page.Pos]bool{}
	if !s.program {
		for _, u := range s.units {
			if u.code == nil {
				continue
			}
			for _, it := range u.code.items {
				if it.kind == stmtItem && !it.block {
					top[u.code.src.posAt(it.tok)] = true
				}
			}
		}
	}
	add := func(from, to token.Pos, text string) {
		src, start, ok := pl.offset(from)
		if !ok {
			return
		}
		end := start
		if to.IsValid() {
			if _, end, ok = pl.offset(to); !ok {
				return
			}
		}
		src.edits = append(src.edits, edit{start, end, text})
	}
	parenthesize := func(values []ast.Expr) {
		for _, v := range values {
			switch v := v.(type) {
			case *ast.CallExpr, *ast.CompositeLit:
			case *ast.UnaryExpr:
				if v.Op != token.ARROW {
					continue
				}
			default:
				continue
			}
			add(v.Pos(), token.NoPos, "(")
			add(v.End(), token.NoPos, ")")
		}
	}
	// Each statement notes its page line before it runs, so that a panic
	// is reported at its line (first, so that the note goes before any
	// other edit at the statement's start).
	// Not in a whole program: yaegi runs its main when it reads it, and
	// declaring the variable first would make it run twice.
	for _, f := range ck.files {
		if s.program {
			break
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var list []ast.Stmt
			switch n := n.(type) {
			case *ast.BlockStmt:
				list = n.List
			case *ast.CaseClause:
				list = n.Body
			case *ast.CommClause:
				list = n.Body
			}
			line := 0
			for _, st := range list {
				switch st.(type) {
				case *ast.EmptyStmt, *ast.CaseClause, *ast.CommClause:
					continue // a switch's or select's clauses: their bodies are lists
				}
				// One note a line, before a statement that starts it
				// (one after another on its line has its line noted).
				src, off, ok := pl.offset(st.Pos())
				if !ok {
					continue
				}
				p, _ := pl.pos(st.Pos())
				if p.Line == line || strings.TrimLeft(src.text[src.lines[src.lineOf(off)]:off], " \t") != "" {
					continue
				}
				line = p.Line
				add(st.Pos(), token.NoPos, worker.PanicLine+" = "+strconv.Itoa(p.Line)+"; ")
			}
			return true
		})
	}
	isTop := func(n ast.Node) bool {
		p, ok := pl.pos(n.Pos())
		return ok && top[p]
	}
	for _, f := range ck.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) > 1 && len(n.Lhs) == len(n.Rhs) {
					parenthesize(n.Rhs)
				}
				if n.Tok == token.DEFINE && isTop(n) && indexes(ck.info, n.Rhs) {
					pl.typeDefine(ck, n, add)
				}
			case *ast.GenDecl:
				for _, sp := range n.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok && n.Tok == token.VAR && len(vs.Names) > 1 && len(vs.Names) == len(vs.Values) {
						parenthesize(vs.Values)
					}
				}
			case *ast.ExprStmt:
				if call, ok := n.X.(*ast.CallExpr); ok && isBuiltin(ck.info, call.Fun, "panic") && len(call.Args) == 1 {
					notePanic(ck.info, call, add)
				}
			case *ast.DeclStmt:
				if gd, ok := n.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR && isTop(n) {
					for _, sp := range gd.Specs {
						if vs, ok := sp.(*ast.ValueSpec); ok && vs.Type == nil && indexes(ck.info, vs.Values) {
							pl.typeVar(ck, vs, add)
						}
					}
				}
			}
			return true
		})
	}
	for _, u := range s.units {
		if u.code != nil {
			sort.SliceStable(u.code.src.edits, func(i, j int) bool {
				return u.code.src.edits[i].start < u.code.src.edits[j].start
			})
		}
	}
}

// isBuiltin reports whether fun names the built-in function name.
func isBuiltin(info *types.Info, fun ast.Expr, name string) bool {
	id, ok := ast.Unparen(fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// notePanic rewrites the panic statement call so that it notes, before it
// panics, what Go prints for its value (see rewrite): the value's Error()
// or String() when it is of a type the session declares with one, else
// "" (Go's own formatting of the value, which the kernel does too).
func notePanic(info *types.Info, call *ast.CallExpr, add func(from, to token.Pos, text string)) {
	method := ""
	if t := info.TypeOf(call.Args[0]); t != nil && declaredInSession(t) {
		ms := types.NewMethodSet(t)
		for _, m := range []string{"Error", "String"} {
			sel := ms.Lookup(nil, m)
			if sel == nil {
				continue
			}
			if sig, ok := sel.Type().(*types.Signature); ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 &&
				types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
				method = m
				break
			}
		}
	}
	if method == "" {
		add(call.Pos(), token.NoPos, "func() { "+worker.PanicText+" = \"\"; ")
		add(call.End(), token.NoPos, " }()")
		return
	}
	add(call.Pos(), call.Lparen+1, "func() { _wbv := ")
	add(call.Rparen, call.Rparen+1, "; "+worker.PanicText+" = _wbv."+method+"(); panic(_wbv) }()")
}

// declaredInSession reports whether t is a named type the session
// declares, or a pointer to one: a type the interpreter makes, whose
// methods its values lose outside it.
func declaredInSession(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main"
}

// typeDefine turns "a, b := x" into "var a A; var b B; a, b = x" (for the
// variables it declares, not those it reuses).
func (pl *plan) typeDefine(ck *checked, n *ast.AssignStmt, add func(from, to token.Pos, text string)) {
	var decls strings.Builder
	for _, l := range n.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return
		}
		v, ok := ck.info.Defs[id].(*types.Var)
		if !ok {
			continue // "_", or a variable declared above and reused
		}
		t, ok := pl.typeName(ck, v.Type(), n.Pos())
		if !ok {
			return
		}
		decls.WriteString("var " + id.Name + " " + t + "; ")
	}
	add(n.Pos(), token.NoPos, decls.String())
	add(n.TokPos, n.TokPos+token.Pos(len(":=")), "=")
}

// typeVar turns "var a, b = x" into "var a, b T = x" when a and b have the
// same type T.
func (pl *plan) typeVar(ck *checked, vs *ast.ValueSpec, add func(from, to token.Pos, text string)) {
	var t types.Type
	for _, id := range vs.Names {
		obj := ck.info.Defs[id]
		if obj == nil || t != nil && !types.Identical(t, obj.Type()) {
			return
		}
		t = obj.Type()
	}
	if name, ok := pl.typeName(ck, t, vs.Pos()); ok {
		add(vs.Names[len(vs.Names)-1].End(), token.NoPos, " "+name)
	}
}

// typeName writes t as a snippet at position at can: snippet-declared
// types by their name, others qualified by the name of an import above
// at. It fails for types that have no such name (unexported, local,
// anonymous, or from a package not imported yet).
func (pl *plan) typeName(ck *checked, t types.Type, at token.Pos) (string, bool) {
	atPos, _ := pl.pos(at)
	names := map[*types.Package]*types.PkgName{}
	for _, obj := range ck.info.Defs {
		pl.importName(obj, atPos, names)
	}
	for _, obj := range ck.info.Implicits {
		pl.importName(obj, atPos, names)
	}
	var nameable func(t types.Type) bool
	nameable = func(t types.Type) bool {
		switch t := types.Unalias(t).(type) {
		case *types.Basic:
			return t.Info()&types.IsUntyped == 0
		case *types.Named:
			obj := t.Obj()
			switch {
			case t.TypeArgs().Len() > 0:
				return false
			case obj.Pkg() == nil:
				return true // error
			case obj.Pkg().Path() == "main":
				return obj.Parent() == obj.Pkg().Scope() // not declared in a block
			}
			return obj.Exported() && names[obj.Pkg()] != nil
		case *types.Pointer:
			return nameable(t.Elem())
		case *types.Slice:
			return nameable(t.Elem())
		case *types.Array:
			return nameable(t.Elem())
		case *types.Chan:
			return nameable(t.Elem())
		case *types.Map:
			return nameable(t.Key()) && nameable(t.Elem())
		}
		return false // function, struct and interface literals
	}
	if !nameable(t) {
		return "", false
	}
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == "main" {
			return ""
		}
		return names[p].Name()
	}), true
}

// importName records in names the import that makes obj's package visible
// to a statement at Markdown position at, if obj is an import above it
// (imports run top to bottom, like the rest of the session). Of several,
// the last one above at counts.
func (pl *plan) importName(obj types.Object, at page.Pos, names map[*types.Package]*types.PkgName) {
	pn, ok := obj.(*types.PkgName)
	if !ok || pn.Name() == "." || pn.Name() == "_" {
		return
	}
	p, ok := pl.pos(pn.Pos())
	if !ok || !before(p, at) {
		return
	}
	if prev := names[pn.Imported()]; prev != nil {
		if pp, _ := pl.pos(prev.Pos()); before(p, pp) {
			return
		}
	}
	names[pn.Imported()] = pn
}

// indexes reports whether any of exprs indexes a slice, array, string or
// map (outside function literals, which run in their own scope).
func indexes(info *types.Info, exprs []ast.Expr) bool {
	found := false
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.IndexExpr:
				if t := info.Types[n.X].Type; t != nil {
					switch t.Underlying().(type) {
					case *types.Slice, *types.Array, *types.Map, *types.Pointer, *types.Basic:
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}

// offset returns the snippet source and the byte offset in it of a
// position in a generated program.
func (pl *plan) offset(tp token.Pos) (*snippetSource, int, bool) {
	p, ok := pl.pos(tp)
	if !ok {
		return nil, 0, false
	}
	for _, cc := range pl.codes {
		if cc == nil {
			continue
		}
		for l, line := range cc.cell.Lines {
			if line.Pos.Line != p.Line {
				continue
			}
			off := cc.src.lines[l] + p.Col - line.Pos.Col
			if off < cc.src.lines[l] || off > cc.src.lines[l]+len(line.Text) {
				return nil, 0, false
			}
			return cc.src, off, true
		}
	}
	return nil, 0, false
}
