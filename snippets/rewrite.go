package snippets

import (
	"go/ast"
	"go/token"
	"sort"
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
// that it runs as Go does: in a multiple assignment or declaration such as
// "best, name = st, st.String()", yaegi assigns a function call, composite
// literal or channel receive straight to its variable and then skips the
// whole statement's own assignment, so the other variables keep their old
// values. Each such value is put in parentheses, which turns that shortcut
// off.
//
// ck is the session's type-checked program. The caller regenerates the
// session's chunks afterwards.
func (pl *plan) rewrite(s *session, ck *checked) {
	if ck.info == nil {
		return
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
	for _, f := range ck.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) > 1 && len(n.Lhs) == len(n.Rhs) {
					parenthesize(n.Rhs)
				}
			case *ast.GenDecl:
				for _, sp := range n.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok && n.Tok == token.VAR && len(vs.Names) > 1 && len(vs.Names) == len(vs.Values) {
						parenthesize(vs.Values)
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
