package snippets

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
)

// A standalone asks [plan.write] for the program a reader runs on its own
// (see [Compiled.Program]) instead of the kernel's.
type standalone struct {
	upTo   *unit              // the cell the program ends with
	file   string             // the page, as the comments name it
	drop   map[string]bool    // imports (name + " " + quoted path) only later cells use
	unused map[*unit][]string // variables a cell declares that only later cells use
	spans  map[*unit][2]int   // where each cell's code is in the body
	body   int                // where the body starts in the program
	fset   *token.FileSet
	pkgs   *Packages // the book's packages the page may import
}

// label names a cell in the program's comments.
func (a *standalone) label(c *page.Cell) string {
	return fmt.Sprintf("Cell %s (%s:%d)", c.ID(), a.file, c.Pos.Line)
}

func (a *standalone) begin(u *unit, body *strings.Builder) {
	if a.spans == nil {
		a.spans = map[*unit][2]int{}
	}
	a.spans[u] = [2]int{body.Len(), 0}
}

func (a *standalone) end(u *unit, body *strings.Builder) {
	s := a.spans[u]
	a.spans[u] = [2]int{s[0], body.Len()}
}

// assemble writes the whole program.
func (a *standalone) assemble(b *strings.Builder, s *session, imports, decls, body string, depth int) {
	c := a.upTo.cell
	hide := a.upTo != s.units[0]
	fmt.Fprintf(b, "// %s as a program of its own, made by warpbook.\n", a.label(c))
	if hide {
		b.WriteString("// The cells above it on the page run first, with their output hidden.\n")
	}
	fmt.Fprintf(b, "// Run it inside the module %s (a clone of its repository): go run FILE.go\n", modulePath)
	b.WriteString("package main\n\n")
	// One import block: the standard library, then the rest.
	var std, other []string
	specs := strings.Split(strings.TrimSpace(imports), "\n")
	if hide {
		specs = append(specs, `import "os"`)
	}
	seen := map[string]bool{}
	for _, l := range specs {
		sp := strings.TrimPrefix(l, "import ")
		if sp == "" || seen[sp] {
			continue
		}
		seen[sp] = true
		if strings.Contains(sp, ".") {
			other = append(other, sp)
		} else {
			std = append(std, sp)
		}
	}
	if len(std)+len(other) > 0 {
		b.WriteString("import (\n")
		for _, sp := range std {
			b.WriteString(sp + "\n")
		}
		if len(std) > 0 && len(other) > 0 {
			b.WriteString("\n")
		}
		for _, sp := range other {
			b.WriteString(sp + "\n")
		}
		b.WriteString(")\n")
	}
	b.WriteString("\n")
	b.WriteString(decls)
	b.WriteString("\nfunc main() {\n")
	if hide {
		b.WriteString("showOutput := hideOutput()\n\n")
	}
	a.body = b.Len()
	b.WriteString(body)
	b.WriteString(strings.Repeat("}\n", depth))
	b.WriteString("}\n")
	if hide {
		b.WriteString(`
// hideOutput sends what the program prints to nowhere until the function
// it returns is called.
func hideOutput() (show func()) {
	stdout := os.Stdout
	os.Stdout, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	return func() { os.Stdout = stdout }
}
`)
	}
}

// quieten type-checks a program and records the variables that only later
// cells would use and the imports that only they would need; it reports
// whether it found any, so that the program is written again, or the first
// other problem, which the page's own check would have reported.
func (a *standalone) quieten(src string) (found bool, problem string) {
	a.fset = token.NewFileSet()
	f, err := parser.ParseFile(a.fset, "main.go", src, parser.SkipObjectResolution)
	if err != nil {
		return false, err.Error()
	}
	imp, err := newImporter(a.pkgs, f)
	if err != nil {
		return false, err.Error()
	}
	conf := types.Config{
		Importer:  imp,
		GoVersion: goVersion,
		Error: func(err error) {
			var te types.Error
			if !errors.As(err, &te) {
				return
			}
			off := a.fset.Position(te.Pos).Offset
			known := false
			defer func() {
				if !known && problem == "" && !te.Soft {
					problem = fmt.Sprintf("%s: %s", a.fset.Position(te.Pos), te.Msg)
				}
			}()
			switch {
			case strings.HasPrefix(te.Msg, "declared and not used: "):
				name := strings.TrimPrefix(te.Msg, "declared and not used: ")
				for u, sp := range a.spans {
					if a.body+sp[0] <= off && off < a.body+sp[1] {
						a.unused[u] = append(a.unused[u], name)
						found, known = true, true
					}
				}
			case strings.Contains(te.Msg, "imported and not used") || strings.Contains(te.Msg, "imported as"):
				for _, is := range f.Imports {
					if is.Pos() <= te.Pos && te.Pos < is.End() {
						name := ""
						if is.Name != nil {
							name = is.Name.Name
						}
						a.drop[name+" "+is.Path.Value] = true
						found, known = true, true
					}
				}
			}
		},
	}
	_, _ = conf.Check("main", a.fset, []*ast.File{f}, nil)
	return found, problem
}

// declared returns the names that the top-level statements of stmts
// declare in their block; ok is false when they do not parse.
func declared(stmts string) (names []string, ok bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+stmts+"\n}\n", parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	add := func(id *ast.Ident) {
		if id.Name != "_" {
			names = append(names, id.Name)
		}
	}
	for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, e := range st.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						add(id)
					}
				}
			}
		case *ast.DeclStmt:
			for _, sp := range st.Decl.(*ast.GenDecl).Specs {
				switch sp := sp.(type) {
				case *ast.ValueSpec:
					for _, id := range sp.Names {
						add(id)
					}
				case *ast.TypeSpec:
					add(sp.Name)
				}
			}
		}
	}
	return names, true
}

// overlaps reports whether any of names is in set.
func overlaps(set map[string]bool, names []string) bool {
	for _, n := range names {
		if set[n] {
			return true
		}
	}
	return false
}
