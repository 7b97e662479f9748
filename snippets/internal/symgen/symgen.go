// Package symgen generates package snippets/symbols: the yaegi symbol
// tables (through yaegi's extract package) and the type information (gc
// export data) of every package a snippet may import: the engine packages
// and an allow-list of the standard library. One list drives both, so the
// type checker and the interpreter always see the same packages.
package symgen

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/traefik/yaegi/extract"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
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
			mu.Lock()
			files[symbolFile(p)] = b.Bytes()
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
	data, err := exportData(dir, all)
	if err != nil {
		return nil, err
	}
	files["types.bin"] = data

	fp, err := fingerprint(dir, exclude)
	if err != nil {
		return nil, err
	}
	files["manifest.gen.go"] = manifest(engine, fp)
	return files, nil
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

// enginePackages lists the importable engine packages (not internal, not
// main), sorted.
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
		if len(p.GoFiles) == 0 {
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
// and writes their export data as one blob: for each package, its path and
// its gcexportdata.
func exportData(dir string, paths []string) ([]byte, error) {
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
		return nil, fmt.Errorf("load packages: %w", err)
	}
	byPath := map[string]*packages.Package{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("package %s: %v", p.PkgPath, p.Errors[0])
		}
		byPath[p.PkgPath] = p
	}
	var out bytes.Buffer
	for _, p := range paths {
		pkg := byPath[p]
		if pkg == nil {
			return nil, fmt.Errorf("package %s not loaded", p)
		}
		var b bytes.Buffer
		if err := gcexportdata.Write(&b, pkg.Fset, pkg.Types); err != nil {
			return nil, fmt.Errorf("export data of %s: %w", p, err)
		}
		writeChunk(&out, []byte(p))
		writeChunk(&out, b.Bytes())
	}
	return out.Bytes(), nil
}

func writeChunk(w *bytes.Buffer, b []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(b)))
	w.Write(n[:])
	w.Write(b)
}

// fingerprint hashes every non-test Go file under engine/ (path and
// contents), but those of excluded packages.
func fingerprint(dir string, exclude []string) (string, error) {
	h := sha256.New()
	root := filepath.Join(dir, "engine")
	var names []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			rel, _ := filepath.Rel(dir, filepath.Dir(p))
			if !slices.Contains(exclude, path.Join(Module, filepath.ToSlash(rel))) {
				names = append(names, p)
			}
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("fingerprint engine: %w", err)
	}
	sort.Strings(names)
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return "", err
		}
		rel, _ := filepath.Rel(dir, n)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

func manifest(engine []string, fp string) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated by snippets/internal/cmd/gensymbols. DO NOT EDIT.\n\npackage symbols\n\n")
	fmt.Fprintf(&b, "// GoVersion is the Go release the standard library symbols were\n// extracted from.\nconst GoVersion = %q\n\n", goRelease())
	fmt.Fprintf(&b, "// EngineFingerprint is a hash of the engine's source when the symbols\n// were generated.\nconst EngineFingerprint = %q\n\n", fp)
	b.WriteString("var enginePackages = []string{\n")
	for _, p := range engine {
		fmt.Fprintf(&b, "\t%q,\n", p)
	}
	b.WriteString("}\n\nvar stdPackages = []stdPackage{\n")
	for _, s := range Std {
		if s.Names == nil {
			fmt.Fprintf(&b, "\t{%q, nil},\n", s.Path)
			continue
		}
		q := make([]string, len(s.Names))
		for i, n := range s.Names {
			q[i] = fmt.Sprintf("%q", n)
		}
		fmt.Fprintf(&b, "\t{%q, []string{%s}},\n", s.Path, strings.Join(q, ", "))
	}
	b.WriteString("}\n")
	return b.Bytes()
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
