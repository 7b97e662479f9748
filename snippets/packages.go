package snippets

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
	"github.com/warpbook/warpbook/snippets/symbols"
)

// PackagesKey is the key of book.yaml that lists the book's own Go
// packages its snippets may import.
const PackagesKey = "packages"

// Limits on a book's packages: the bytes of one Go file, and of all the
// files of every package loaded.
const (
	MaxPackageFileBytes = 1 << 20
	MaxPackagesBytes    = 8 << 20
)

// Packages are the Go packages of a book's own module that its snippets
// may import, as book.yaml's packages: lists them by import path: the
// module is the one whose go.mod encloses the book, and each listed path
// is resolved to its directory from go.mod's module line (no network, no
// go command). Only the book's own module is supported yet: a path of
// another module is an error.
//
// A listed package, and every package of the module it imports, is read
// from source (its .go files but _test.go ones) and checked as a cell is:
// its imports must be allowed to snippets (the engine, the reviewed part
// of the standard library, other packages of the book's module, which are
// checked alike), its uses of restricted names (from os, the standard
// streams only) must be allowed, and it may hold no line or //go:
// directive and no file built only on some platforms. A package that
// fails is refused at every cell that imports it, with the chain of
// imports that brought the problem in. The interpreter interprets the
// packages from source, -native builds them with the program, and the
// browser kernel is given their sources with the page.
//
// A Packages is read-only once loaded and safe for concurrent use.
type Packages struct {
	// Module is the module path of the book's module.
	Module string
	// Dir is the module's root directory, as the book's directory was
	// given (relative stays relative).
	Dir    string
	listed map[string]page.Pos     // the listed import paths, and where book.yaml lists them
	pkgs   map[string]*bookPackage // every package loaded, by import path
	order  []string                // pkgs' paths, each after what it imports
	hash   string                  // of the module path and every file's name and source
	fset   *token.FileSet          // the packages' files
	needs  []string                // the allowed (engine and std) packages they import, sorted
}

// bookPackage is one package of the book's module, read from source.
type bookPackage struct {
	path  string // import path
	rel   string // slash path in the module
	name  string // package name
	files []*bookFile
	// imports are the packages its files import, in file order, with
	// where.
	imports []bookImport
	// refused says why snippets may not import it ("" when they may): a
	// chain of imports ending in the problem, as messages print it.
	refused string
}

type bookFile struct {
	name string // base name
	disp string // path as messages print it
	src  []byte
	ast  *ast.File
}

type bookImport struct {
	path string
	pos  token.Position
}

// short returns an import path of the module as messages print it: in
// the module, relative to its root.
func (ps *Packages) short(p string) string {
	if p == ps.Module {
		return path.Base(p)
	}
	return strings.TrimPrefix(p, ps.Module+"/")
}

// inModule reports whether p is an import path of the book's module.
func (ps *Packages) inModule(p string) bool {
	return ps != nil && (p == ps.Module || strings.HasPrefix(p, ps.Module+"/"))
}

// Hash returns a hash of the module path and of every loaded file's path
// and source: a result that depends on the packages depends on it.
func (ps *Packages) Hash() string {
	if ps == nil {
		return ""
	}
	return ps.hash
}

// Sources returns the source files of every loaded package, by their path
// in a GOPATH tree ("src/IMPORT/PATH/file.go"), as the interpreter reads
// them.
func (ps *Packages) Sources() map[string]string {
	if ps == nil || len(ps.pkgs) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, p := range ps.pkgs {
		for _, f := range p.files {
			out["src/"+p.path+"/"+f.name] = string(f.src)
		}
	}
	return out
}

// loadPackages loads the listed packages of module mod from fsys, the
// module's root directory, shown as disp in messages.
func loadPackages(fsys fs.FS, mod, disp string, listed map[string]page.Pos) (*Packages, page.Diagnostics) {
	ps := &Packages{Module: mod, Dir: disp, listed: listed, pkgs: map[string]*bookPackage{}, fset: token.NewFileSet()}
	l := &loader{ps: ps, fsys: fsys, state: map[string]int{}}
	var ds page.Diagnostics
	for _, p := range slices.Sorted(maps.Keys(listed)) {
		pos := listed[p]
		switch {
		case !fs.ValidPath(p):
			ds = append(ds, &page.Diagnostic{Pos: pos, Msg: fmt.Sprintf("packages: %q is not a valid import path", p)})
		case allowed(p):
			ds = append(ds, &page.Diagnostic{Pos: pos, Msg: fmt.Sprintf("packages: snippets may import %s without listing it", p)})
		case !ps.inModule(p):
			ds = append(ds, &page.Diagnostic{Pos: pos, Msg: fmt.Sprintf("packages: %s is not a package of the book's module %s (only the book's own module's packages can be listed yet)", p, mod)})
		default:
			if msg := l.load(p); msg != "" {
				ds = append(ds, &page.Diagnostic{Pos: pos, Msg: "packages: " + msg})
			}
		}
	}
	if len(ds) > 0 {
		return nil, ds
	}
	l.check()
	h := sha256.New()
	io.WriteString(h, mod)
	for _, p := range slices.Sorted(maps.Keys(ps.pkgs)) {
		for _, f := range ps.pkgs[p].files {
			fmt.Fprintf(h, "\x00%s/%s\x00%d\x00", p, f.name, len(f.src))
			h.Write(f.src)
		}
	}
	ps.hash = hex.EncodeToString(h.Sum(nil))
	return ps, nil
}

// loader reads a module's packages.
type loader struct {
	ps    *Packages
	fsys  fs.FS          // the module's root directory
	state map[string]int // 1: loading, 2: loaded
	total int64
}

// load reads package p and what it imports of the module. It returns why
// p cannot be read at all (it does not exist, has no Go files); problems
// in its files refuse it instead.
func (l *loader) load(p string) string {
	switch l.state[p] {
	case 1, 2:
		return ""
	}
	l.state[p] = 1
	defer func() { l.state[p] = 2 }()
	rel := cmp.Or(strings.TrimPrefix(strings.TrimPrefix(p, l.ps.Module), "/"), ".")
	ents, err := fs.ReadDir(l.fsys, rel)
	if err != nil {
		return fmt.Sprintf("%s: no such package in %s (looked in %s)", p, l.ps.Module, filepath.Join(l.ps.Dir, filepath.FromSlash(rel)))
	}
	bp := &bookPackage{path: p, rel: rel}
	l.ps.pkgs[p] = bp
	refuse := func(pos string, format string, args ...any) {
		if bp.refused == "" {
			bp.refused = pos + ": " + fmt.Sprintf(format, args...)
		}
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		disp := filepath.Join(l.ps.Dir, filepath.FromSlash(rel), name)
		if !e.Type().IsRegular() {
			refuse(disp, "not a regular file (a link or a device): a package's files must be files of the module")
			continue
		}
		src, err := l.read(path.Join(rel, name))
		if err != nil {
			refuse(disp, "%v", err)
			continue
		}
		if !everywhere(name) {
			refuse(disp, "the file is built only on some platforms; a package snippets import must build alike everywhere")
			continue
		}
		f, err := parser.ParseFile(l.ps.fset, disp, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			var list scanner.ErrorList
			if errors.As(err, &list) && len(list) > 0 {
				refuse(list[0].Pos.String(), "%s", list[0].Msg)
			} else {
				refuse(disp, "%v", err)
			}
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if msg := directive(c.Text); msg != "" {
					refuse(l.ps.fset.Position(c.Pos()).String(), "%s", strings.Replace(msg, "in snippets", "in packages snippets import", 1))
				}
			}
		}
		if bp.name == "" {
			bp.name = f.Name.Name
		} else if bp.name != f.Name.Name {
			refuse(l.ps.fset.Position(f.Name.Pos()).String(), "package %s, but other files of %s are package %s", f.Name.Name, l.ps.short(p), bp.name)
		}
		bp.files = append(bp.files, &bookFile{name: name, disp: disp, src: src, ast: f})
		for _, is := range f.Imports {
			ip, _ := strconv.Unquote(is.Path.Value)
			bp.imports = append(bp.imports, bookImport{ip, l.ps.fset.Position(is.Path.Pos())})
		}
	}
	if len(bp.files) == 0 && bp.refused == "" {
		delete(l.ps.pkgs, p)
		return fmt.Sprintf("%s has no Go files (in %s)", p, filepath.Join(l.ps.Dir, filepath.FromSlash(rel)))
	}
	if bp.name == "main" {
		refuse(l.ps.fset.Position(bp.files[0].ast.Name.Pos()).String(), "%s is a command (package main), which cannot be imported", l.ps.short(p))
	}
	// Imports: allowed ones, the module's (loaded and checked alike), and
	// nothing else.
	for _, im := range bp.imports {
		imp := func(format string, args ...any) {
			if bp.refused == "" {
				bp.refused = im.pos.String() + " imports " + fmt.Sprintf(format, args...)
			}
		}
		switch {
		case allowed(im.path):
		case l.ps.inModule(im.path):
			if l.state[im.path] == 1 {
				imp("%s: an import cycle", l.ps.short(im.path))
				continue
			}
			if msg := l.load(im.path); msg != "" {
				imp("%s", msg)
				continue
			}
			if dep := l.ps.pkgs[im.path]; dep != nil && dep.refused != "" && bp.refused == "" {
				bp.refused = l.ps.short(p) + " imports " + l.ps.short(im.path) + ", " + dep.refused
			}
		default:
			imp("%s, which snippets may not use", im.path)
		}
	}
	if bp.refused == "" {
		l.ps.order = append(l.ps.order, p)
	}
	return ""
}

// allowed reports whether snippets may import p without a book listing
// it: the engine and the reviewed part of the standard library.
func allowed(p string) bool {
	_, ok := symbols.Allowed(p)
	return ok
}

// read reads a module file within the limits.
func (l *loader) read(name string) ([]byte, error) {
	f, err := l.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxPackageFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxPackageFileBytes {
		return nil, fmt.Errorf("larger than %d bytes, the limit on a file of a package snippets import", MaxPackageFileBytes)
	}
	l.total += int64(len(b))
	if l.total > MaxPackagesBytes {
		return nil, fmt.Errorf("the book's packages are larger than %d bytes, the limit", MaxPackagesBytes)
	}
	return b, nil
}

// everywhere reports whether a file is built on every platform: its name
// names no operating system or architecture, as go/build reads names
// (name_GOOS.go, name_GOARCH.go, name_GOOS_GOARCH.go, each also before
// _test). Build constraints in its text are directives, refused anyway.
func everywhere(name string) bool {
	parts := strings.Split(strings.TrimSuffix(name, ".go"), "_")
	if n := len(parts); n > 0 && parts[n-1] == "test" {
		parts = parts[:n-1]
	}
	if len(parts) < 2 {
		return true
	}
	last := parts[len(parts)-1]
	return !knownOS[last] && !knownArch[last]
}

// knownOS and knownArch are go/build's lists of the operating systems and
// architectures a file name may name (Go 1.26's syslist.go).
var (
	knownOS = map[string]bool{"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true, "hurd": true, "illumos": true, "ios": true, "js": true,
		"linux": true, "nacl": true, "netbsd": true, "openbsd": true, "plan9": true, "solaris": true, "wasip1": true, "windows": true, "zos": true}
	knownArch = map[string]bool{"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true, "arm64": true, "arm64be": true, "loong64": true,
		"mips": true, "mipsle": true, "mips64": true, "mips64le": true, "mips64p32": true, "mips64p32le": true, "ppc": true, "ppc64": true, "ppc64le": true,
		"riscv": true, "riscv64": true, "s390": true, "s390x": true, "sparc": true, "sparc64": true, "wasm": true}
)

// check type-checks every loaded package that is not refused yet, in
// import order, and refuses those with type errors or uses of names
// snippets may not use. It records the allowed packages they need.
func (l *loader) check() {
	ps := l.ps
	needs := map[string]bool{}
	for _, p := range ps.order {
		for _, im := range ps.pkgs[p].imports {
			if allowed(im.path) {
				needs[im.path] = true
			}
		}
	}
	ps.needs = slices.Sorted(maps.Keys(needs))
	std, err := symbols.TypesOf(ps.needs)
	if err != nil {
		for _, p := range ps.order {
			ps.pkgs[p].refused = err.Error()
		}
		return
	}
	checked := map[string]*types.Package{}
	var ok []string
	for _, p := range ps.order {
		bp := ps.pkgs[p]
		for _, im := range bp.imports {
			if dep := ps.pkgs[im.path]; dep != nil && dep.refused != "" {
				bp.refused = ps.short(p) + " imports " + ps.short(im.path) + ", " + dep.refused
				break
			}
		}
		if bp.refused != "" {
			continue
		}
		info := &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
		}
		pkg, msg := ps.checkOne(bp, std, checked, info)
		if msg == "" {
			msg = ps.sandbox(bp, info)
		}
		if msg == "" {
			msg = ps.lint(bp, info)
		}
		if msg != "" {
			bp.refused = msg
			continue
		}
		checked[p] = pkg
		ok = append(ok, p)
	}
	ps.order = ok
}

// checkOne type-checks bp with the allowed packages std and the book's
// packages checked, and returns its package, or its first error.
func (ps *Packages) checkOne(bp *bookPackage, std, checked map[string]*types.Package, info *types.Info) (*types.Package, string) {
	var first string
	conf := types.Config{
		GoVersion: goVersion,
		Importer: importerFunc(func(p string) (*types.Package, error) {
			if pkg := checked[p]; pkg != nil {
				return pkg, nil
			}
			if pkg := std[p]; pkg != nil {
				return pkg, nil
			}
			return nil, fmt.Errorf("%s is not available", p)
		}),
		Error: func(err error) {
			if first == "" {
				if te, ok := err.(types.Error); ok {
					first = fmt.Sprintf("%s: %s", te.Fset.Position(te.Pos), te.Msg)
				} else {
					first = err.Error()
				}
			}
		},
	}
	files := make([]*ast.File, len(bp.files))
	for i, f := range bp.files {
		files[i] = f.ast
		for _, d := range f.ast.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil && first == "" {
				first = fmt.Sprintf("%s: missing function body", ps.fset.Position(fd.Name.Pos()))
			}
		}
	}
	pkg, _ := conf.Check(bp.path, ps.fset, files, info)
	return pkg, first
}

// sandbox returns why bp's code may not run in the sandbox ("" when it
// may): a use of a name, or a call of a method, that snippets may not use.
func (ps *Packages) sandbox(bp *bookPackage, info *types.Info) string {
	var bad []string
	for id, obj := range info.Uses {
		if obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
			continue
		}
		names, ok := symbols.Allowed(obj.Pkg().Path())
		if ok && names != nil && !slices.Contains(names, obj.Name()) {
			bad = append(bad, fmt.Sprintf("%s: uses %s.%s, which snippets may not use", ps.fset.Position(id.Pos()), obj.Pkg().Path(), obj.Name()))
		}
	}
	for sel, s := range info.Selections {
		obj := s.Obj()
		if obj.Pkg() == nil {
			continue
		}
		methods := symbols.AllowedMethods(obj.Pkg().Path())
		if _, ok := obj.(*types.Func); ok && methods != nil && !slices.Contains(methods, obj.Name()) {
			bad = append(bad, fmt.Sprintf("%s: calls the %s method of %s, which snippets may not use", ps.fset.Position(sel.Sel.Pos()), obj.Name(), types.TypeString(s.Recv(), nil)))
		}
	}
	if len(bad) == 0 {
		return ""
	}
	sort.Strings(bad)
	return bad[0]
}

// lint returns the first Go of bp that the interpreter cannot run or runs
// differently (see lintGo), or "".
func (ps *Packages) lint(bp *bookPackage, info *types.Info) string {
	var bad []string
	interp := func(p token.Pos, format string, args ...any) {
		bad = append(bad, fmt.Sprintf("%s: the interpreter %s", ps.fset.Position(p), fmt.Sprintf(format, args...)))
	}
	for _, f := range bp.files {
		ast.Inspect(f.ast, func(n ast.Node) bool {
			lintGo(info, n, interp)
			return true
		})
	}
	if len(bad) == 0 {
		return ""
	}
	return bad[0]
}

type importerFunc func(string) (*types.Package, error)

func (f importerFunc) Import(p string) (*types.Package, error) { return f(p) }

// typesFor type-checks the loaded packages against std, a set of allowed
// packages from symbols.TypesOf that includes every package they need,
// so that they share its identities. It returns them by import path.
func (ps *Packages) typesFor(std map[string]*types.Package) map[string]*types.Package {
	checked := map[string]*types.Package{}
	for _, p := range ps.order {
		bp := ps.pkgs[p]
		info := &types.Info{}
		pkg, msg := ps.checkOne(bp, std, checked, info)
		if msg != "" {
			continue
		}
		checked[p] = pkg
	}
	return checked
}

// refusal returns why a cell may not import p, a package of the book's
// module, or "" when it may.
func (ps *Packages) refusal(p string) string {
	if _, ok := ps.listed[p]; !ok {
		return fmt.Sprintf("snippets may not import %s: book.yaml's %s: does not list it", p, PackagesKey)
	}
	bp := ps.pkgs[p]
	if bp == nil {
		return fmt.Sprintf("snippets may not import %s: it was not loaded", p)
	}
	if bp.refused != "" {
		return fmt.Sprintf("import of %s refused: %s", p, bp.refused)
	}
	return ""
}

// importsBook reports whether src, a generated program, imports one of the
// loaded packages.
func (ps *Packages) importsBook(src string) bool {
	if ps == nil || len(ps.pkgs) == 0 {
		return false
	}
	f, _ := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if f == nil {
		return false
	}
	for _, is := range f.Imports {
		if p, err := strconv.Unquote(is.Path.Value); err == nil && ps.pkgs[p] != nil {
			return true
		}
	}
	return false
}

// PackagesData is what the browser kernel is sent of a book's packages
// (see [Packages]): the module, the listed import paths and every loaded
// file, from which [PackagesFromData] loads the same packages.
type PackagesData struct {
	Module string   `json:"module"`
	Dir    string   `json:"dir"`
	Listed []string `json:"listed"`
	// Files holds each loaded file's source by its slash path in the
	// module.
	Files map[string]string `json:"files"`
}

// Data returns what [PackagesFromData] needs to load ps again.
func (ps *Packages) Data() *PackagesData {
	if ps == nil {
		return nil
	}
	d := &PackagesData{Module: ps.Module, Dir: filepath.ToSlash(ps.Dir), Listed: slices.Sorted(maps.Keys(ps.listed)), Files: map[string]string{}}
	for _, p := range ps.pkgs {
		for _, f := range p.files {
			d.Files[path.Join(p.rel, f.name)] = string(f.src)
		}
	}
	return d
}

// PackagesFromData loads the packages d holds, as [ReadPackages] loaded
// them from the book's module: with the same checks, from the same files.
func PackagesFromData(d *PackagesData) (*Packages, page.Diagnostics) {
	if d == nil || len(d.Listed) == 0 {
		return nil, nil
	}
	for name := range d.Files {
		if !fs.ValidPath(name) || name == "." {
			return nil, page.Diagnostics{{Msg: fmt.Sprintf("packages: %q is not a file path of the module", name)}}
		}
	}
	fsys := worker.MemFS(d.Files)
	listed := map[string]page.Pos{}
	for _, p := range d.Listed {
		listed[p] = page.Pos{File: "book.yaml"}
	}
	return loadPackages(fsys, d.Module, filepath.FromSlash(d.Dir), listed)
}

// Imported reports whether page p's cells may import one of the packages
// (a string in a cell is one's import path).
func (ps *Packages) Imported(p *page.Page) bool {
	if ps == nil {
		return false
	}
	for _, c := range p.Cells {
		for _, t := range newSnippetSource(c).toks {
			if t.tok != token.STRING {
				continue
			}
			if q, err := strconv.Unquote(t.lit); err == nil && ps.pkgs[q] != nil {
				return true
			}
		}
	}
	return false
}
