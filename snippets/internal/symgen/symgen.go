// Package symgen generates package snippets/symbols: the yaegi symbol
// tables (through yaegi's extract package) and the type information (gc
// export data) of every package a snippet may import: the engine packages
// and an allow-list of the standard library. One list drives both, so the
// type checker and the interpreter always see the same packages.
//
// yaegi extract writes each table as an init function that fills a
// package-level map; symgen turns it into an array of entries (static
// data), and manifest.gen.go lists those arrays, so that nothing is built
// at start-up and an interpreter is given only the tables it needs (see
// symbols.Symbols).
package symgen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/traefik/yaegi/extract"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"

	"github.com/warpbook/warpbook/internal/source"
)

// Module is the module path of warpbook.
const Module = "github.com/warpbook/warpbook"

// Std lists the standard library packages snippets may import. Names, when
// not nil, restricts a package to those exported names (os: only the
// standard streams, which the kernel captures).
var Std = []struct {
	Path  string
	Names []string
}{
	{Path: "bufio"},
	{Path: "bytes"},
	{Path: "container/heap"},
	{Path: "container/list"},
	{Path: "errors"},
	{Path: "fmt"},
	{Path: "io"},
	{Path: "math"},
	{Path: "math/bits"},
	{Path: "math/rand"},
	{Path: "os", Names: []string{"File", "Stderr", "Stdout"}},
	{Path: "sort"},
	{Path: "strconv"},
	{Path: "strings"},
	{Path: "sync"},
	{Path: "text/tabwriter"},
	{Path: "time"},
	{Path: "unicode"},
	{Path: "unicode/utf8"},
}

// EnginePattern selects the engine packages.
const EnginePattern = Module + "/engine/..."

// NotForSnippets lists the engine packages snippets may not import: no
// page imports them, and the practice page's module (site/problems), which
// does, is built without the snippets' tables. Every package in the tables
// is linked into the browser kernel with its whole API; these three cost
// it 13 KB gzipped, which its 4 MB budget does not have. A page that
// needs one takes it off this list, and site/live's TestKernelBudget says
// whether the kernel still fits.
var NotForSnippets = []string{Module + "/engine/cdna", Module + "/engine/latency", Module + "/engine/roofline"}

// Files is the generated package: file name → contents.
type Files map[string][]byte

// Generate generates the files of snippets/symbols for the module rooted at
// dir. The working directory must be inside that module: yaegi's extractor
// resolves import paths from it.
//
// exclude, when not empty, leaves out the engine packages with those import
// paths: a stop-gap while one does not compile. The staleness test never
// excludes anything.
func Generate(dir string, exclude ...string) (Files, error) {
	engine, err := enginePackages(dir)
	if err != nil {
		return nil, err
	}
	engine = slices.DeleteFunc(engine, func(p string) bool { return slices.Contains(exclude, p) })
	files := Files{}
	var all []string
	for _, s := range Std {
		all = append(all, s.Path)
	}
	all = append(all, engine...)

	// Symbol tables, through yaegi extract (it loads each package itself).
	var mu sync.Mutex
	keys := map[string]string{} // import path → the table's key
	var wg sync.WaitGroup
	errs := make([]error, len(all))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			e := extract.Extractor{Dest: "symbols"}
			if i < len(Std) && Std[i].Names != nil {
				for _, n := range Std[i].Names {
					e.Include = append(e.Include, "^"+n+"$")
				}
			}
			var b bytes.Buffer
			if _, err := e.Extract(p, "", &b); err != nil {
				errs[i] = fmt.Errorf("yaegi extract %s: %w", p, err)
				return
			}
			src, key, err := tableArray(b.Bytes(), tableName(p))
			if err != nil {
				errs[i] = fmt.Errorf("yaegi extract %s: %w", p, err)
				return
			}
			mu.Lock()
			files[symbolFile(p)] = src
			keys[p] = key
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}

	// Type information for the type checker.
	data, wrappers, err := exportData(dir, all)
	if err != nil {
		return nil, err
	}
	files["types.bin"] = data

	fp, err := source.Fingerprint(dir, exclude)
	if err != nil {
		return nil, err
	}
	if files["manifest.gen.go"], err = manifest(engine, fp, keys, wrappers); err != nil {
		return nil, err
	}
	return files, nil
}

// tableArray rewrites a file yaegi extract wrote, which fills the
// package-level Symbols map in an init function, one reflect.ValueOf call
// an entry, into a package-level array of entries named name (see
// symbols.entry): static data the linker lays out, with no code to run at
// start-up or to build the table, and a fraction of the size of the
// calls. It returns the new file and the table's key
// ("importpath/pkgname").
func tableArray(src []byte, name string) ([]byte, string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, "", fmt.Errorf("parse extracted table: %w", err)
	}
	var key string
	var entries bytes.Buffer
	var rest []ast.Decl
	var init *ast.FuncDecl
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "init" || fd.Recv != nil {
			rest = append(rest, d)
			continue
		}
		if key != "" || len(fd.Body.List) != 1 {
			return nil, "", fmt.Errorf("expected one init function filling one table")
		}
		init = fd
		as, ok := fd.Body.List[0].(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return nil, "", fmt.Errorf("expected the init function to assign one table")
		}
		idx, ok := as.Lhs[0].(*ast.IndexExpr)
		lit, ok2 := as.Rhs[0].(*ast.CompositeLit)
		if !ok || !ok2 {
			return nil, "", fmt.Errorf("expected Symbols[key] = map[string]reflect.Value{...}")
		}
		kl, ok := idx.Index.(*ast.BasicLit)
		if !ok {
			return nil, "", fmt.Errorf("expected a table key")
		}
		if key, err = strconv.Unquote(kl.Value); err != nil {
			return nil, "", fmt.Errorf("table key %s: %w", kl.Value, err)
		}
		for _, e := range lit.Elts {
			kv, ok := e.(*ast.KeyValueExpr)
			if !ok {
				return nil, "", fmt.Errorf("expected key: value in the table")
			}
			line, err := entry(fset, kv)
			if err != nil {
				return nil, "", err
			}
			entries.WriteString(line)
		}
	}
	if key == "" {
		return nil, "", fmt.Errorf("no init function filling a table")
	}
	f.Decls = rest
	var comments []*ast.CommentGroup // without those of the init function
	for _, c := range f.Comments {
		if c.Pos() < init.Pos() || c.End() > init.End() {
			comments = append(comments, c)
		}
	}
	f.Comments = comments
	var b bytes.Buffer
	if err := format.Node(&b, fset, f); err != nil {
		return nil, "", fmt.Errorf("print rewritten table: %w", err)
	}
	fmt.Fprintf(&b, "\n// %s is the symbol table of %s (see Symbols).\nvar %s = []entry{\n%s}\n", name, path.Dir(key), name, entries.String())
	// The calls are gone: drop the imports that only they used.
	out, err := parser.ParseFile(fset, "", b.Bytes(), parser.ParseComments)
	if err != nil {
		return nil, "", fmt.Errorf("parse rewritten table: %w", err)
	}
	for _, imp := range []string{"go/constant", "reflect"} {
		if !astutil.UsesImport(out, imp) {
			astutil.DeleteImport(fset, out, imp)
		}
	}
	b.Reset()
	if err := format.Node(&b, fset, out); err != nil {
		return nil, "", fmt.Errorf("print rewritten table: %w", err)
	}
	head, body, _ := bytes.Cut(b.Bytes(), []byte("\n"))
	head = bytes.Replace(head, []byte(". DO NOT EDIT."), []byte(", rewritten by snippets/internal/symgen. DO NOT EDIT."), 1)
	return append(append(head, '\n'), body...), key, nil
}

// entry turns one entry of an extracted table into one of symbols.entry:
// "N": reflect.ValueOf(X) gives {"N", X, 0, false};
// reflect.ValueOf(&V).Elem() (a variable) gives {"N", &V, 0, true};
// reflect.ValueOf(constant.MakeFromLiteral(L, token.K, 0)) (an untyped
// constant) gives {"N", L, token.K, false}.
func entry(fset *token.FileSet, kv *ast.KeyValueExpr) (string, error) {
	src := func(n ast.Node) string {
		var b bytes.Buffer
		_ = format.Node(&b, fset, n)
		return b.String()
	}
	bad := func() (string, error) {
		return "", fmt.Errorf("%s: unexpected table entry %s", fset.Position(kv.Pos()), src(kv))
	}
	k, ok := kv.Key.(*ast.BasicLit)
	if !ok || k.Kind != token.STRING {
		return bad()
	}
	call := func(e ast.Expr, pkg, fn string, args int) []ast.Expr {
		c, ok := e.(*ast.CallExpr)
		if !ok || len(c.Args) != args {
			return nil
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != fn {
			return nil
		}
		if x, ok := sel.X.(*ast.Ident); pkg != "" && (!ok || x.Name != pkg) {
			return nil
		}
		return c.Args
	}
	v := kv.Value
	elem := false
	if c, ok := v.(*ast.CallExpr); ok && len(c.Args) == 0 {
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Elem" {
			v, elem = sel.X, true
		}
	}
	args := call(v, "reflect", "ValueOf", 1)
	if args == nil {
		return bad()
	}
	x := args[0]
	if elem {
		if u, ok := x.(*ast.UnaryExpr); !ok || u.Op != token.AND {
			return bad()
		}
		return fmt.Sprintf("\t{%s, %s, 0, true},\n", k.Value, src(x)), nil
	}
	if lit := call(x, "constant", "MakeFromLiteral", 3); lit != nil {
		l, ok := lit[0].(*ast.BasicLit)
		tok, ok2 := lit[1].(*ast.SelectorExpr)
		z, ok3 := lit[2].(*ast.BasicLit)
		if !ok || !ok2 || !ok3 || z.Value != "0" {
			return bad()
		}
		return fmt.Sprintf("\t{%s, %s, %s, false},\n", k.Value, l.Value, src(tok)), nil
	}
	return fmt.Sprintf("\t{%s, %s, 0, false},\n", k.Value, src(x)), nil
}

// tableName names the array that holds an import path's table:
// "fmt" → "stdFmt", ".../engine/occupancy" → "engineOccupancy", after its
// file (see symbolFile).
func tableName(p string) string {
	parts := strings.Split(strings.TrimSuffix(symbolFile(p), ".go"), "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// wrapperPackages lists, for each package in paths, the others among
// paths that declare an interface type reachable from its API (the
// exported names, or, for a package restricted to some names, those),
// through the types of values, fields, parameters and results and the
// methods of named types, whatever package those are from. An interpreted
// value passed where such an interface is expected is wrapped in the type
// the interface's own package table holds ("_Writer" for io.Writer), so
// an interpreter that is given a package's table must also be given
// these, though the program never imports them.
func wrapperPackages(pkgs map[string]*types.Package, paths []string) map[string][]string {
	allowed := map[string]bool{}
	for _, p := range paths {
		allowed[p] = true
	}
	out := map[string][]string{}
	for _, p := range paths {
		pkg := pkgs[p]
		if pkg == nil {
			continue
		}
		names := pkg.Scope().Names()
		for _, s := range Std {
			if s.Path == p && s.Names != nil {
				names = s.Names
			}
		}
		found := map[string]bool{}
		visit := walkTypes(func(t types.Type) {
			if n, ok := t.(*types.Named); ok {
				if _, ok := n.Underlying().(*types.Interface); ok && n.Obj().Pkg() != nil {
					if q := n.Obj().Pkg().Path(); allowed[q] && q != p {
						found[q] = true
					}
				}
			}
		})
		for _, n := range names {
			if o := pkg.Scope().Lookup(n); o != nil && o.Exported() {
				visit(o.Type())
			}
		}
		out[p] = slices.Sorted(maps.Keys(found))
	}
	return out
}

// walkTypes returns a function that calls f once for every type reachable
// from the types it is given: through aliases, the elements of pointers,
// slices, arrays, channels and maps, signatures' parameters and results,
// struct fields (unexported ones too), interfaces' methods and embedded
// types, and named types' methods (unexported ones too), underlying types,
// origins and type arguments.
func walkTypes(f func(types.Type)) func(types.Type) {
	seen := map[types.Type]bool{}
	var visit func(t types.Type)
	visit = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		f(t)
		switch t := t.(type) {
		case *types.Alias:
			visit(types.Unalias(t))
		case *types.Named:
			if t.Origin() != t {
				visit(t.Origin())
			}
			if args := t.TypeArgs(); args != nil {
				for i := 0; i < args.Len(); i++ {
					visit(args.At(i))
				}
			}
			for i := 0; i < t.NumMethods(); i++ {
				visit(t.Method(i).Type())
			}
			visit(t.Underlying())
		case *types.Pointer, *types.Slice, *types.Array, *types.Chan:
			visit(t.(interface{ Elem() types.Type }).Elem())
		case *types.Map:
			visit(t.Key())
			visit(t.Elem())
		case *types.Signature:
			visit(t.Params())
			visit(t.Results())
		case *types.Tuple:
			for i := 0; i < t.Len(); i++ {
				visit(t.At(i).Type())
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				visit(t.Field(i).Type())
			}
		case *types.Interface:
			for i := 0; i < t.NumMethods(); i++ {
				visit(t.Method(i).Type())
			}
			for i := 0; i < t.NumEmbeddeds(); i++ {
				visit(t.EmbeddedType(i))
			}
		}
	}
	return visit
}

// symbolFile names the generated symbol file of an import path:
// "fmt" → "std_fmt.go", ".../engine/occupancy" → "engine_occupancy.go".
func symbolFile(p string) string {
	prefix := "std_"
	if rest, ok := strings.CutPrefix(p, Module+"/engine/"); ok {
		prefix, p = "engine_", rest
	}
	return prefix + strings.NewReplacer("/", "_", ".", "_").Replace(p) + ".go"
}

// enginePackages lists the engine packages snippets may import (not
// internal, not main, not in NotForSnippets), sorted.
func enginePackages(dir string) ([]string, error) {
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: dir}
	pkgs, err := packages.Load(cfg, EnginePattern)
	if err != nil {
		return nil, fmt.Errorf("list engine packages: %w", err)
	}
	var paths []string
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("engine package %s: %v", p.PkgPath, p.Errors[0])
		}
		if p.Name == "main" || strings.Contains(p.PkgPath, "/internal/") || strings.HasSuffix(p.PkgPath, "/internal") {
			continue
		}
		if len(p.GoFiles) == 0 || slices.Contains(NotForSnippets, p.PkgPath) {
			continue
		}
		paths = append(paths, p.PkgPath)
	}
	sort.Strings(paths)
	return paths, nil
}

// exportData type-checks the packages from source, with file names made
// relative (GOROOT/src/fmt/print.go → fmt/print.go, module files → import
// path) so that the output does not depend on where things are installed,
// and writes their export data, without the unexported fields of their
// structs (see trimUnexportedFields), as one blob: for each package, its
// path and its gcexportdata. It also returns each package's wrapper
// packages (see wrapperPackages), found before the fields are dropped.
func exportData(dir string, paths []string) ([]byte, map[string][]string, error) {
	goroot := filepath.Join(runtime.GOROOT(), "src") + string(filepath.Separator)
	modroot, _ := filepath.Abs(dir)
	modroot += string(filepath.Separator)
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedTypes | packages.NeedDeps | packages.NeedImports |
			packages.NeedSyntax | packages.NeedTypesInfo,
		Dir: dir,
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			name := filepath.ToSlash(filename)
			if rest, ok := strings.CutPrefix(filename, goroot); ok {
				name = filepath.ToSlash(rest)
			} else if rest, ok := strings.CutPrefix(filename, modroot); ok {
				name = path.Join(Module, filepath.ToSlash(rest))
			}
			return parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		},
	}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, nil, fmt.Errorf("load packages: %w", err)
	}
	byPath := map[string]*packages.Package{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, nil, fmt.Errorf("package %s: %v", p.PkgPath, p.Errors[0])
		}
		byPath[p.PkgPath] = p
	}
	var out bytes.Buffer
	typed := map[string]*types.Package{}
	for _, p := range paths {
		pkg := byPath[p]
		if pkg == nil {
			return nil, nil, fmt.Errorf("package %s not loaded", p)
		}
		typed[p] = pkg.Types
	}
	wrappers := wrapperPackages(typed, paths)
	trimUnexportedFields(typed, paths)
	for _, p := range paths {
		pkg := byPath[p]
		var b bytes.Buffer
		if err := gcexportdata.Write(&b, pkg.Fset, pkg.Types); err != nil {
			return nil, nil, fmt.Errorf("export data of %s: %w", p, err)
		}
		writeChunk(&out, []byte(p))
		writeChunk(&out, b.Bytes())
	}
	return out.Bytes(), wrappers, nil
}

// trimUnexportedFields drops the unexported fields of every struct type
// named in the API of the packages in paths (and in the types that API
// reaches, whatever their package), before their export data is written.
// A snippet cannot name those fields, and they drag in the package's
// internals: os.File's alone brought internal/poll and syscall into the
// type data, 20 KB of the browser kernel's 92 KB types.bin. What the type
// checker can tell from outside the package stays as it was: exported
// and embedded fields (which promote methods and fields), every method,
// exported or not (an interface with unexported methods is still
// satisfied), and whether the type is comparable: a struct that lost
// fields gets one blank field, of type [0]func() where the original was
// not comparable and struct{} where it was, so that a positional literal
// is still refused. Generic types are left as they are.
func trimUnexportedFields(pkgs map[string]*types.Package, paths []string) {
	var named []*types.Named
	visit := walkTypes(func(t types.Type) {
		if n, ok := t.(*types.Named); ok && n.Origin() == n && n.TypeParams().Len() == 0 {
			if _, ok := n.Underlying().(*types.Struct); ok {
				named = append(named, n)
			}
		}
	})
	for _, p := range paths {
		sc := pkgs[p].Scope()
		for _, n := range sc.Names() {
			if o := sc.Lookup(n); o.Exported() {
				visit(o.Type())
			}
		}
	}
	// Decide every type's comparability before any of them changes: it
	// depends on the fields of the types it contains.
	comparable := make([]bool, len(named))
	for i, t := range named {
		comparable[i] = types.Comparable(t)
	}
	for i, t := range named {
		st := t.Underlying().(*types.Struct)
		var fields []*types.Var
		var tags []string
		for j := 0; j < st.NumFields(); j++ {
			if f := st.Field(j); f.Exported() || f.Embedded() {
				fields = append(fields, f)
				tags = append(tags, st.Tag(j))
			}
		}
		if len(fields) == st.NumFields() {
			continue
		}
		var blank types.Type = types.NewStruct(nil, nil)
		if !comparable[i] {
			blank = types.NewArray(types.NewSignatureType(nil, nil, nil, nil, nil, false), 0)
		}
		fields = append(fields, types.NewField(token.NoPos, t.Obj().Pkg(), "_", blank, false))
		tags = append(tags, "")
		t.SetUnderlying(types.NewStruct(fields, tags))
	}
}

func writeChunk(w *bytes.Buffer, b []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(b)))
	w.Write(n[:])
	w.Write(b)
}

func manifest(engine []string, fp string, keys map[string]string, wrappers map[string][]string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by snippets/internal/cmd/gensymbols. DO NOT EDIT.\n\npackage symbols\n\n")
	fmt.Fprintf(&b, "// GoVersion is the Go release the standard library symbols were\n// extracted from.\nconst GoVersion = %q\n\n", goRelease())
	fmt.Fprintf(&b, "// EngineFingerprint is a hash of the engine's source when the symbols\n// were generated.\nconst EngineFingerprint = %q\n\n", fp)
	entry := func(p string, names []string) {
		fmt.Fprintf(&b, "\t{path: %q", p)
		if names != nil {
			fmt.Fprintf(&b, ", names: %s", stringsLit(names))
		}
		fmt.Fprintf(&b, ", key: %q, table: %s", keys[p], tableName(p))
		if w := wrappers[p]; len(w) > 0 {
			fmt.Fprintf(&b, ", wrappers: %s", stringsLit(w))
		}
		b.WriteString("},\n")
	}
	b.WriteString("var enginePackages = []allowedPackage{\n")
	for _, p := range engine {
		entry(p, nil)
	}
	b.WriteString("}\n\nvar stdPackages = []allowedPackage{\n")
	for _, s := range Std {
		entry(s.Path, s.Names)
	}
	b.WriteString("}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return out, nil
}

func stringsLit(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// goRelease is the running Go version without any suffix after a space
// ("go1.26.8").
func goRelease() string {
	v, _, _ := strings.Cut(runtime.Version(), " ")
	return v
}

// ReadExportData splits a types.bin blob into import path → export data.
func ReadExportData(data []byte) (paths []string, blobs map[string][]byte, err error) {
	blobs = map[string][]byte{}
	for len(data) > 0 {
		var p, b []byte
		if p, data, err = readChunk(data); err != nil {
			return nil, nil, err
		}
		if b, data, err = readChunk(data); err != nil {
			return nil, nil, err
		}
		paths = append(paths, string(p))
		blobs[string(p)] = b
	}
	return paths, blobs, nil
}

func readChunk(data []byte) (chunk, rest []byte, err error) {
	if len(data) < 4 {
		return nil, nil, fmt.Errorf("truncated type data")
	}
	n := int(binary.BigEndian.Uint32(data))
	if len(data) < 4+n {
		return nil, nil, fmt.Errorf("truncated type data")
	}
	return data[4 : 4+n], data[4+n:], nil
}

// API describes the exported API of the packages in a types.bin blob, one
// object per line, for comparing two blobs regardless of positions.
func API(data []byte, include func(path string) bool) (string, error) {
	paths, blobs, err := ReadExportData(data)
	if err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	imports := map[string]*types.Package{}
	var b strings.Builder
	for _, p := range paths {
		pkg, err := gcexportdata.Read(bytes.NewReader(blobs[p]), fset, imports, p)
		if err != nil {
			return "", fmt.Errorf("read type data of %s: %w", p, err)
		}
		if !include(p) {
			continue
		}
		sc := pkg.Scope()
		for _, n := range sc.Names() {
			o := sc.Lookup(n)
			if !o.Exported() {
				continue
			}
			fmt.Fprintf(&b, "%s: %s\n", p, types.ObjectString(o, nil))
			if tn, ok := o.(*types.TypeName); ok {
				if named, ok := tn.Type().(*types.Named); ok {
					for i := 0; i < named.NumMethods(); i++ {
						fmt.Fprintf(&b, "%s: %s\n", p, types.ObjectString(named.Method(i), nil))
					}
				}
			}
		}
	}
	return b.String(), nil
}

// IsGenerated reports whether name is a file Generate writes.
func IsGenerated(name string) bool {
	return name == "types.bin" || name == "manifest.gen.go" ||
		(strings.HasSuffix(name, ".go") && (strings.HasPrefix(name, "std_") || strings.HasPrefix(name, "engine_")))
}

// Existing reads the generated files present in dir.
func Existing(dir string) (Files, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := Files{}
	for _, e := range ents {
		if e.IsDir() || !IsGenerated(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = b
	}
	return files, nil
}
