package snippets

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
	"github.com/warpbook/warpbook/snippets/symbols"
)

// ErrInterpreter is wrapped by diagnostics about Go that the interpreter
// (yaegi v0.16.1, Go 1.21-era semantics) would run differently from Go, or
// not at all.
var ErrInterpreter = errors.New("not supported by the interpreter")

// helperFile is the name the type checker gives worker.HelperStub.
const helperFile = "wb_helper.go"

// goVersion is the language version snippets are checked and compiled at.
const goVersion = "go1.26"

// checked is a type-checked session.
type checked struct {
	pkg   *types.Package // the checked package, for the scopes of messages
	files []*ast.File
	info  *types.Info
	errs  []posError // type, parse and sandbox errors, in the page
	other []string   // errors outside the page (in the scaffolding)
}

// posError is an error at a Markdown position.
type posError struct {
	pos page.Pos
	msg string
	err error
}

// typeCheck parses and type-checks one generated program.
func (pl *plan) typeCheck(mainGo string, withHelper bool) *checked {
	pl.typeChecks++
	ck := &checked{info: &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Implicits:  map[ast.Node]types.Object{},
		Instances:  map[*ast.Ident]types.Instance{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}}
	add := func(p token.Position, msg string, err error) {
		if p.Filename != pageFile {
			ck.other = append(ck.other, fmt.Sprintf("%s: %s", p, msg))
			return
		}
		ck.errs = append(ck.errs, posError{page.Pos{File: pl.page.Path, Line: p.Line, Col: p.Column}, msg, err})
	}
	srcs := []string{mainGo}
	if withHelper {
		srcs = append(srcs, worker.HelperStub)
	}
	for i, src := range srcs {
		name := scaffoldFile
		if i > 0 {
			name = helperFile
		}
		f, err := parser.ParseFile(pl.fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			var list scanner.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					add(e.Pos, e.Msg, e)
				}
			} else {
				ck.other = append(ck.other, err.Error())
			}
			return ck
		}
		ck.files = append(ck.files, f)
	}
	imp, err := newImporter(pl.pkgs, ck.files...)
	if err != nil {
		ck.other = append(ck.other, err.Error())
		return ck
	}
	conf := types.Config{
		Importer:  imp,
		GoVersion: goVersion,
		Error: func(err error) {
			te, ok := err.(types.Error)
			if !ok {
				ck.other = append(ck.other, err.Error())
				return
			}
			if te.Soft && strings.HasPrefix(te.Msg, "could not import") {
				return
			}
			add(pl.fset.Position(te.Pos), te.Msg, err)
		},
	}
	ck.pkg, _ = conf.Check("main", pl.fset, ck.files, ck.info)
	// go/types accepts a function without a body (its body may be in
	// assembly); the go command builds none here, and refuses it.
	for _, f := range ck.files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
				add(pl.fset.Position(fd.Name.Pos()), "missing function body", nil)
			}
		}
	}
	// Sandbox: forbidden imports are reported once, at the import, and the
	// errors they cause ("undefined: exec.Command") are dropped.
	var kept []posError
	for _, e := range ck.errs {
		drop := false
		for p, fake := range imp.fake {
			if strings.Contains(e.msg, fake.Name()+".") || strings.Contains(e.msg, `"`+p+`"`) {
				drop = true
			}
		}
		if !drop {
			kept = append(kept, e)
		}
	}
	ck.errs = kept
	for _, f := range ck.files {
		for _, is := range f.Imports {
			p := strings.Trim(is.Path.Value, `"`)
			if _, ok := imp.fake[p]; ok {
				add(pl.fset.Position(is.Path.Pos()), imp.forbidden(p), ErrForbidden)
			}
		}
	}
	pl.lint(ck)
	sort.SliceStable(ck.errs, func(i, j int) bool {
		a, b := ck.errs[i].pos, ck.errs[j].pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return ck
}

// importer serves the generated type data of the allowed packages, and
// the book's packages (see [Packages]) type-checked from source against
// them; any other import gets an empty stand-in package, so that the only
// error is the one the sandbox reports at the import.
type importer struct {
	pkgs map[string]*types.Package // the program's imports, from symbols.TypesOf
	book *Packages
	own  map[string]*types.Package // the book's packages, checked when first imported
	fake map[string]*types.Package
}

// newImporter returns an importer for what files import, with the book's
// packages book (nil: none).
func newImporter(book *Packages, files ...*ast.File) (*importer, error) {
	var paths []string
	imported := false
	for _, f := range files {
		for _, is := range f.Imports {
			if p, err := strconv.Unquote(is.Path.Value); err == nil {
				paths = append(paths, p)
				imported = imported || book.inModule(p)
			}
		}
	}
	if imported {
		paths = append(paths, book.needs...)
	}
	pkgs, err := symbols.TypesOf(paths)
	if err != nil {
		return nil, err
	}
	return &importer{pkgs: pkgs, book: book, fake: map[string]*types.Package{}}, nil
}

func (im *importer) Import(p string) (*types.Package, error) {
	if _, ok := symbols.Allowed(p); ok {
		if pkg := im.pkgs[p]; pkg != nil {
			return pkg, nil
		}
	}
	if im.book.inModule(p) && im.book.refusal(p) == "" {
		if im.own == nil {
			im.own = im.book.typesFor(im.pkgs)
		}
		if pkg := im.own[p]; pkg != nil {
			return pkg, nil
		}
	}
	if pkg := im.fake[p]; pkg != nil {
		return pkg, nil
	}
	pkg := types.NewPackage(p, path.Base(p))
	pkg.MarkComplete()
	im.fake[p] = pkg
	return pkg, nil
}

// forbidden says why a snippet may not import p.
func (im *importer) forbidden(p string) string {
	if im.book.inModule(p) {
		return im.book.refusal(p)
	}
	msg := forbiddenImport(p)
	if !strings.Contains(p, ".") || strings.HasPrefix(p, modulePath+"/engine/") {
		return msg
	}
	return msg + "; a book's own packages may be listed in book.yaml's " + PackagesKey + ": (see docs/writing.md)"
}

// forbiddenImport says why a snippet may not import p.
func forbiddenImport(p string) string {
	switch p {
	case "slices", "maps", "cmp", "iter":
		return fmt.Sprintf("the interpreter cannot run the generic package %q; use sort.Ints, sort.Slice, sort.Strings or a loop", p)
	case "os/exec", "syscall", "unsafe", "reflect", "runtime", "os/signal", "plugin":
		return fmt.Sprintf("snippets may not import %q: the sandbox forbids it (snippets may import the engine and %s)", p, stdList())
	}
	switch {
	case p == "net" || strings.HasPrefix(p, "net/"):
		return fmt.Sprintf("snippets may not import %q: the sandbox forbids network access", p)
	case p == "os" || strings.HasPrefix(p, "os/") || p == "io/ioutil" || p == "io/fs" || p == "path/filepath":
		return fmt.Sprintf("snippets may not import %q: the sandbox forbids file and environment access", p)
	case strings.HasPrefix(p, "runtime/"):
		return fmt.Sprintf("snippets may not import %q: the sandbox forbids it", p)
	case strings.HasPrefix(p, "github.com/warpbook/warpbook/engine/"):
		return fmt.Sprintf("snippets may not import %q: of the engine they may import %s", p, strings.Join(symbols.Engine(), ", "))
	}
	return fmt.Sprintf("snippets may not import %q (they may import the engine and %s)", p, stdList())
}

func stdList() string {
	return strings.Join(symbols.Std(), ", ")
}
