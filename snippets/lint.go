package snippets

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
	"github.com/warpbook/warpbook/snippets/symbols"
)

// lint adds to ck the sandbox's restricted names and the Go constructs the
// interpreter (yaegi v0.16.1) cannot run or runs differently, each with the
// rewrite that works in both.
func (pl *plan) lint(ck *checked) {
	if ck.info == nil {
		return
	}
	inPage := func(p token.Pos) bool { _, ok := pl.pos(p); return ok }
	report := func(p token.Pos, err error, format string, args ...any) {
		pos, ok := pl.pos(p)
		if !ok {
			// Not at a page position: nothing of the session runs.
			ck.other = append(ck.other, fmt.Sprintf("%s: %s", pos, fmt.Sprintf(format, args...)))
			return
		}
		ck.errs = append(ck.errs, posError{pos, fmt.Sprintf(format, args...), err})
	}
	interp := func(p token.Pos, format string, args ...any) {
		report(p, ErrInterpreter, "the interpreter "+format, args...)
	}
	// snippetType reports whether t (or what it points to) is a named type
	// declared in a snippet.
	snippetType := func(t types.Type) (*types.Named, bool) {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" {
			return nil, false
		}
		return n, true
	}
	hasMethod := func(t types.Type, names ...string) string {
		for _, name := range names {
			for _, tt := range []types.Type{t, types.NewPointer(t)} {
				ms := types.NewMethodSet(tt)
				for i := 0; i < ms.Len(); i++ {
					if ms.At(i).Obj().Name() == name {
						return name
					}
				}
			}
		}
		return ""
	}
	// The sandbox: from os only the standard streams, and of their methods
	// only Write and WriteString. This looks at every identifier of the
	// snippets' file, whatever position it claims, and at every selection
	// (a method reached through an embedded field or a method expression
	// included); the scaffolding's own file is the only one left out.
	for id, obj := range ck.info.Uses {
		if pl.scaffolding(id.Pos()) || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
			continue
		}
		if pl.helperObj(obj) {
			report(id.Pos(), ErrForbidden, "%s belongs to the kernel's scaffolding; snippets may not use it", obj.Name())
			continue
		}
		names, ok := symbols.Allowed(obj.Pkg().Path())
		if ok && names != nil && !slices.Contains(names, obj.Name()) {
			report(id.Pos(), ErrForbidden, "%s.%s is not allowed in snippets (from %s they may use only %s)",
				obj.Pkg().Name(), obj.Name(), obj.Pkg().Path(), strings.Join(names, ", "))
		}
	}
	for sel, s := range ck.info.Selections {
		obj := s.Obj()
		if pl.scaffolding(sel.Pos()) || obj.Pkg() == nil {
			continue
		}
		methods := symbols.AllowedMethods(obj.Pkg().Path())
		if _, ok := obj.(*types.Func); ok && methods != nil && !slices.Contains(methods, obj.Name()) {
			report(sel.Sel.Pos(), ErrForbidden, "the %s method of %s is not allowed in snippets (they may only call %s)",
				obj.Name(), types.TypeString(s.Recv(), snippetQualifier), strings.Join(methods, " and "))
		}
	}
	for id, obj := range ck.info.Uses {
		if !inPage(id.Pos()) || obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
			continue
		}
		if fn, ok := obj.(*types.Func); ok && obj.Pkg().Path() != "main" {
			if sig := fn.Type().(*types.Signature); sig.TypeParams().Len() > 0 {
				interp(id.Pos(), "cannot call the generic function %s.%s; write the loop or use a non-generic function", obj.Pkg().Name(), obj.Name())
			}
		}
		if tn, ok := obj.(*types.TypeName); ok && obj.Pkg().Path() != "main" {
			if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
				interp(id.Pos(), "cannot use the generic type %s.%s", obj.Pkg().Name(), obj.Name())
			}
		}
	}
	for _, f := range ck.files {
		var cells *ast.BlockStmt
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "_wbCells" {
				cells = fd.Body
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			if !inPage(n.Pos()) {
				return true
			}
			lintGo(ck.info, n, interp)
			switch n := n.(type) {
			case *ast.CallExpr:
				fn := calledFunc(ck.info, n)
				if fn == nil || fn.Pkg() == nil {
					break
				}
				switch fn.Pkg().Path() + "." + fn.Name() {
				case "errors.As":
					if len(n.Args) == 2 {
						if t := ck.info.Types[n.Args[1]].Type; t != nil {
							if p, ok := t.(*types.Pointer); ok {
								if _, ok := snippetType(p.Elem()); ok {
									interp(n.Pos(), "does not match snippet-declared error types in errors.As; use a type assertion or a type switch")
								}
							}
						}
					}
				case "fmt.Printf", "fmt.Sprintf", "fmt.Fprintf", "fmt.Errorf",
					"fmt.Print", "fmt.Sprint", "fmt.Fprint", "fmt.Println", "fmt.Sprintln", "fmt.Fprintln":
					args := n.Args
					if strings.HasPrefix(fn.Name(), "F") {
						if len(args) == 0 {
							break
						}
						args = args[1:]
					}
					verbs := map[int]rune{}
					if strings.HasSuffix(fn.Name(), "f") && len(args) > 0 {
						if tv := ck.info.Types[args[0]]; tv.Value != nil && tv.Value.Kind() == constant.String {
							for i, v := range formatVerbs(constant.StringVal(tv.Value)) {
								verbs[i] = v
							}
						}
						args = args[1:]
					}
					for i, a := range args {
						t := ck.info.Types[a].Type
						if t == nil {
							continue
						}
						named, ok := snippetType(t)
						if !ok {
							continue
						}
						if verbs[i] == 'T' {
							interp(a.Pos(), "prints %%T of snippet-declared types differently (e.g. struct { ... } instead of main.%s); print the type name as text", named.Obj().Name())
							continue
						}
						if m := hasMethod(named, "Error", "String"); m != "" && verbs[i] != 'd' {
							interp(a.Pos(), "does not call the %s method of snippet-declared types when fmt prints them; call %s() yourself", m, m)
						}
					}
				}
			}
			return true
		})
		if cells != nil {
			ast.Inspect(cells, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.DeferStmt:
					if inPage(n.Pos()) {
						interp(n.Pos(), "runs a defer at the top level of a snippet at a different time than Go; put the code in a function")
					}
				}
				return true
			})
		}
	}
}

// lintGo reports, of node n, the Go the interpreter cannot run or runs
// differently and that needs no more than the type information: range
// over an integer or a function, loop variables a closure or & captures,
// the built-ins min, max and clear. A cell's code and the book's packages
// are linted alike.
func lintGo(info *types.Info, n ast.Node, interp func(token.Pos, string, ...any)) {
	ck := &checked{info: info}
	switch n := n.(type) {
	case *ast.RangeStmt:
		if tv, ok := info.Types[n.X]; ok && tv.Type != nil {
			switch u := tv.Type.Underlying().(type) {
			case *types.Basic:
				if u.Info()&types.IsInteger != 0 {
					interp(n.Pos(), "does not support range over an integer (Go 1.22); use a three-clause loop: for i := 0; i < n; i++")
				}
			case *types.Signature:
				interp(n.Pos(), "does not support range over a function (Go 1.23); call the function with a yield func")
			}
		}
		lintLoopVars(ck, n.Body, rangeVars(info, n), interp)
	case *ast.ForStmt:
		if as, ok := n.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			var vars []types.Object
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && info.Defs[id] != nil {
					vars = append(vars, info.Defs[id])
				}
			}
			lintLoopVars(ck, n.Body, vars, interp)
		}
	case *ast.Ident:
		if b, ok := info.Uses[n].(*types.Builtin); ok {
			switch b.Name() {
			case "min", "max":
				interp(n.Pos(), "does not support the built-in %s (Go 1.21); compare with an if (or use math.M%s for floats)", b.Name(), b.Name()[1:])
			case "clear":
				interp(n.Pos(), "does not support the built-in clear (Go 1.21); delete the keys of a map in a loop, or assign zero values in a loop")
			}
		}
	}
}

// lintLoopVars reports closures in a loop body that capture a loop
// variable, and loop variables whose address is taken: Go 1.22 gives each
// iteration its own variable, the interpreter shares one.
func lintLoopVars(ck *checked, body *ast.BlockStmt, vars []types.Object, interp func(token.Pos, string, ...any)) {
	if len(vars) == 0 || body == nil {
		return
	}
	isVar := func(id *ast.Ident) bool {
		return slices.Contains(vars, ck.info.Uses[id])
	}
	reported := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(n.Body, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok && isVar(id) && !reported[ck.info.Uses[id]] {
					reported[ck.info.Uses[id]] = true
					interp(id.Pos(), "shares one %s across all iterations of the loop (Go before 1.22), so this closure sees its last value; copy it first: %s := %s", id.Name, id.Name, id.Name)
				}
				return true
			})
			return false
		case *ast.UnaryExpr:
			if id, ok := n.X.(*ast.Ident); ok && n.Op == token.AND && isVar(id) && !reported[ck.info.Uses[id]] {
				reported[ck.info.Uses[id]] = true
				interp(id.Pos(), "shares one %s across all iterations of the loop (Go before 1.22), so &%s is the same pointer every time; copy it first: %s := %s", id.Name, id.Name, id.Name, id.Name)
			}
		}
		return true
	})
}

func rangeVars(info *types.Info, n *ast.RangeStmt) []types.Object {
	if n.Tok != token.DEFINE {
		return nil
	}
	var vars []types.Object
	for _, e := range []ast.Expr{n.Key, n.Value} {
		if id, ok := e.(*ast.Ident); ok && info.Defs[id] != nil {
			vars = append(vars, info.Defs[id])
		}
	}
	return vars
}

// calledFunc returns the package-level function a call calls, or nil.
func calledFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := call.Fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	}
	if id == nil {
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	return fn
}

// formatVerbs returns the verb of each operand of a printf format, by
// operand index (explicit argument indexes are not followed).
func formatVerbs(format string) []rune {
	var verbs []rune
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[i]) >= 0 {
			if format[i] == '*' {
				verbs = append(verbs, '*')
			}
			i++
		}
		if i >= len(format) || format[i] == '%' {
			continue
		}
		verbs = append(verbs, rune(format[i]))
	}
	return verbs
}

// lintRedeclared reports a variable that a cell uses and then redeclares
// with := or var: Go reads the earlier variable until the new one is
// declared, but the interpreter keeps one global per name for the whole
// cell, so the earlier uses see the new one.
func (pl *plan) lintRedeclared(s *session, ck *checked) []posError {
	if ck.info == nil || s.program {
		return nil
	}
	type decl struct {
		obj types.Object
		pos page.Pos
	}
	byUnit := map[*unit][]decl{}
	for id, obj := range ck.info.Defs {
		if obj == nil {
			continue
		}
		if _, ok := obj.(*types.Var); !ok || obj.Parent() == nil || obj.Parent() == obj.Pkg().Scope() {
			continue
		}
		pos, ok := pl.pos(id.Pos())
		if !ok {
			continue
		}
		_, u := pl.unitAt(s, pos)
		if u.cell == nil || !u.covers(pos) {
			continue
		}
		byUnit[u] = append(byUnit[u], decl{obj, pos})
	}
	var errs []posError
	for id, obj := range ck.info.Uses {
		if _, ok := obj.(*types.Var); !ok {
			continue
		}
		pos, ok := pl.pos(id.Pos())
		if !ok {
			continue
		}
		_, u := pl.unitAt(s, pos)
		for _, d := range byUnit[u] {
			if d.obj != obj && d.obj.Name() == obj.Name() && before(pos, d.pos) && !u.covers(pl.objPos(obj)) {
				errs = append(errs, posError{pos, fmt.Sprintf("the interpreter would read the %s declared further down this snippet (line %d), not the one from above; give the new variable another name", obj.Name(), d.pos.Line), ErrInterpreter})
				break
			}
		}
	}
	return errs
}

// pos returns the Markdown position of p in a generated program, and
// whether it is in the page (not in the scaffolding around the snippets).
func (pl *plan) pos(p token.Pos) (page.Pos, bool) {
	tp := pl.fset.Position(p)
	if tp.Filename != pageFile {
		return page.Pos{File: tp.Filename, Line: tp.Line, Col: tp.Column}, false
	}
	return page.Pos{File: pl.page.Path, Line: tp.Line, Col: tp.Column}, true
}

// snippetQualifier writes the snippets' own types without a package name.
func snippetQualifier(p *types.Package) string {
	if p.Path() == "main" {
		return ""
	}
	return p.Name()
}

// scaffolding reports whether p is in the kernel's own code: worker.HelperGo, or
// the scaffolding of the main file. The sandbox checks everything else.
func (pl *plan) scaffolding(p token.Pos) bool {
	f := pl.fset.Position(p).Filename
	return f == helperFile || f == scaffoldFile
}

// helperObj reports whether obj is declared by the scaffolding.
func (pl *plan) helperObj(obj types.Object) bool {
	return obj.Pkg() != nil && obj.Pkg().Path() == "main" && obj.Parent() == obj.Pkg().Scope() && pl.scaffolding(obj.Pos())
}

// objPos returns the Markdown position of obj's declaration.
func (pl *plan) objPos(obj types.Object) page.Pos {
	p, _ := pl.pos(obj.Pos())
	return p
}

func before(a, b page.Pos) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Col < b.Col)
}

// covers reports whether p is inside the unit's code.
func (u *unit) covers(p page.Pos) bool {
	if p.File != u.pos().File {
		return false
	}
	first, last := u.lines()
	return p.Line >= first && p.Line <= last
}

// lintLater reports a use of a package-level declaration from a cell below:
// Go does not mind the order, the session (top to bottom) does.
func (pl *plan) lintLater(s *session, ck *checked) []posError {
	if ck.info == nil || s.program {
		return nil
	}
	var errs []posError
	for id, obj := range ck.info.Uses {
		if obj.Pkg() == nil || obj.Pkg().Path() != "main" || obj.Parent() != obj.Pkg().Scope() {
			continue
		}
		use, ok := pl.pos(id.Pos())
		if !ok {
			continue
		}
		decl := pl.objPos(obj)
		ui, u := pl.unitAt(s, use)
		di, d := pl.unitAt(s, decl)
		if di > ui && u.covers(use) && d.covers(decl) {
			errs = append(errs, posError{use, fmt.Sprintf("%s is declared further down (%s, line %d); the session runs top to bottom, so move the declaration up", obj.Name(), d.id(), decl.Line), nil})
		}
	}
	return errs
}

// explainUndefined adds what an author needs to the type checker's
// "undefined: NAME" errors: where NAME is declared when that is in a cell
// further down (the session runs top to bottom), else the name in scope
// there nearest to it; and for "undefined: pkg.Name", the package's
// exported name nearest to it.
func (pl *plan) explainUndefined(s *session, ck *checked) {
	if ck.pkg == nil || s.program {
		return
	}
	for i := range ck.errs {
		e := &ck.errs[i]
		var te types.Error
		if !errors.As(e.err, &te) {
			continue
		}
		name, ok := strings.CutPrefix(te.Msg, "undefined: ")
		if !ok || strings.ContainsAny(name, " ") {
			continue
		}
		if qual, sel, ok := strings.Cut(name, "."); ok {
			if near := nearestExported(ck.pkg, qual, sel); near != "" {
				e.msg += fmt.Sprintf(" (did you mean %s.%s?)", qual, near)
			}
			continue
		}
		if later := pl.laterDecl(s, ck, name, e.pos); later != "" {
			e.msg += later
			continue
		}
		if near := nearestInScope(ck.pkg, te.Pos, name); near != "" {
			e.msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
	}
}

// laterDecl returns ", defined in a later cell, ID, at FILE:LINE" when
// name is declared in a unit of s below the one at use, else "".
func (pl *plan) laterDecl(s *session, ck *checked, name string, use page.Pos) string {
	ui, _ := pl.unitAt(s, use)
	var best page.Pos
	var bestID string
	for id, obj := range ck.info.Defs {
		if obj == nil || id.Name != name {
			continue
		}
		decl, ok := pl.pos(id.Pos())
		if !ok {
			continue
		}
		di, d := pl.unitAt(s, decl)
		if di > ui && d.covers(decl) && (bestID == "" || before(decl, best)) {
			best, bestID = decl, d.id()
		}
	}
	if bestID == "" {
		return ""
	}
	return fmt.Sprintf(": it is defined in a later cell (%s), at %s:%d; cells run top to bottom, so move it up", bestID, best.File, best.Line)
}

// nearestInScope returns the name visible at pos nearest to name.
func nearestInScope(pkg *types.Package, pos token.Pos, name string) string {
	inner := pkg.Scope().Innermost(pos)
	if inner == nil {
		inner = pkg.Scope()
	}
	var names []string
	for sc := inner; sc != nil; sc = sc.Parent() {
		for _, n := range sc.Names() {
			if _, obj := inner.LookupParent(n, pos); obj != nil && !strings.HasPrefix(n, "wb") && !strings.HasPrefix(n, "_") {
				names = append(names, n)
			}
		}
	}
	return page.Nearest(name, names)
}

// nearestExported returns the exported name of the package imported as
// qual nearest to sel.
func nearestExported(pkg *types.Package, qual, sel string) string {
	for _, imp := range pkg.Imports() {
		if imp.Name() != qual {
			continue
		}
		var names []string
		for _, n := range imp.Scope().Names() {
			if token.IsExported(n) {
				names = append(names, n)
			}
		}
		return page.Nearest(sel, names)
	}
	return ""
}
