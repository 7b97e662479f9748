// Package symbols holds what snippets may import: the yaegi symbol tables
// and the type information of the engine packages and of an allow-list of
// the standard library. Nothing is built at start-up: each table is built
// when an interpreter is first given its package ([Symbols]), and type
// information is decoded for the packages a program imports ([TypesOf]).
// Everything but this file is generated; regenerate after any change to
// the engine with
//
//	go generate ./snippets/...
//
// TestStale fails, naming that command, when the generated files no longer
// match the engine.
package symbols

//go:generate go run ../internal/cmd/gensymbols

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
)

//go:embed types.bin
var typesBin []byte

// allowedPackage is a package snippets may import, as manifest.gen.go
// lists it.
type allowedPackage struct {
	path  string
	names []string // the only names snippets may use; nil: all
	// key is the table's key in the shape interp.Use takes,
	// "importpath/pkgname".
	key string
	// table is the package's yaegi symbol table (a generated file).
	table []entry
	// wrappers are the other allowed packages whose interface types the
	// package's API reaches: their tables hold the wrapper types yaegi
	// needs to pass an interpreted value as one of those interfaces.
	wrappers []string

	// once builds syms from table the first time the package is asked
	// for; the table is then shared by every interpreter, read-only
	// (interp.Use copies it). This is the package's only mutable state.
	once sync.Once
	syms map[string]reflect.Value
}

func (p *allowedPackage) symbols() map[string]reflect.Value {
	p.once.Do(func() {
		p.syms = make(map[string]reflect.Value, len(p.table))
		for _, e := range p.table {
			p.syms[e.name] = e.value()
		}
	})
	return p.syms
}

// entry is one symbol of a generated table, as static data; value gives
// what yaegi extract's reflect.ValueOf call would.
type entry struct {
	name string
	// v is the symbol: a function, a typed constant, a typed nil pointer
	// to a type (a type), a pointer to a variable (with elem), or the
	// literal of an untyped constant (with tok).
	v    any
	tok  token.Token // an untyped constant's kind; 0 for others
	elem bool        // v points to a variable
}

func (e *entry) value() reflect.Value {
	switch {
	case e.tok != 0:
		return reflect.ValueOf(constant.MakeFromLiteral(e.v.(string), e.tok, 0))
	case e.elem:
		return reflect.ValueOf(e.v).Elem()
	}
	return reflect.ValueOf(e.v)
}

// lookup returns the allowed package with import path path, or nil.
func lookup(path string) *allowedPackage {
	for _, list := range [][]allowedPackage{stdPackages, enginePackages} {
		for i := range list {
			if list[i].path == path {
				return &list[i]
			}
		}
	}
	return nil
}

// Symbols returns the yaegi symbol tables, keyed "importpath/pkgname" in
// the shape interp.Use takes, of the allowed packages among paths and of
// the allowed packages whose interfaces their APIs reach (an interpreter
// needs those tables' wrapper types to pass its values to these APIs,
// though the program does not import them). Paths that are not allowed
// are left out: nothing else has a table. A table is built the first time
// it is asked for and shared afterwards; callers must not modify it.
func Symbols(paths ...string) map[string]map[string]reflect.Value {
	out := map[string]map[string]reflect.Value{}
	for _, path := range paths {
		p := lookup(path)
		if p == nil {
			continue
		}
		out[p.key] = p.symbols()
		for _, w := range p.wrappers {
			if q := lookup(w); q != nil {
				out[q.key] = q.symbols()
			}
		}
	}
	return out
}

// Engine returns the import paths of the engine packages snippets may
// import, sorted.
func Engine() []string { return paths(enginePackages) }

// Std returns the import paths of the standard library packages snippets
// may import.
func Std() []string { return paths(stdPackages) }

func paths(list []allowedPackage) []string {
	out := make([]string, len(list))
	for i := range list {
		out[i] = list[i].path
	}
	return out
}

// Allowed reports whether snippets may import path, and, when only some of
// its names may be used (os: only the standard streams), which.
func Allowed(path string) (names []string, ok bool) {
	if p := lookup(path); p != nil {
		return p.names, true
	}
	return nil, false
}

// AllowedMethods returns the methods snippets may call on the types of a
// package whose names are restricted (see [Allowed]): from os, a *os.File
// (the standard streams) may be written to and nothing else, so that
// Chmod, Chown, Truncate, Close or Fd on a stream are errors. It returns
// nil for a package whose names are not restricted.
func AllowedMethods(path string) []string {
	if path == "os" {
		return []string{"Write", "WriteString"}
	}
	return nil
}

// Types returns the type information of every allowed package, by import
// path (see [TypesOf]). The packages are complete and shared: callers must
// not modify them.
func Types() (map[string]*types.Package, error) {
	return TypesOf(append(Std(), Engine()...))
}

// typeSets is how many sets of packages TypesOf keeps decoded.
const typeSets = 8

var (
	blobsOnce sync.Once
	blobs     map[string][]byte // each package's export data, by path
	order     []string          // the paths, as the data lists them
	blobsErr  error
	setsMu    sync.Mutex
	sets      []*typeSet // the most recently used last
)

type typeSet struct {
	key  string
	pkgs map[string]*types.Package
	err  error
}

// TypesOf returns the type information of the allowed packages among
// paths, decoded for this set of paths alone: a program that imports a few
// packages pays for those (the browser kernel decodes, for each page, what
// it imports, not the whole allow-list). The packages of one set share
// their identities, as Types' do, but not with those of another set; the
// last few sets are kept. Paths that are not allowed are left out.
func TypesOf(paths []string) (map[string]*types.Package, error) {
	blobsOnce.Do(func() {
		blobs = map[string][]byte{}
		data := typesBin
		for len(data) > 0 {
			var p, blob []byte
			if p, data, blobsErr = chunk(data); blobsErr != nil {
				return
			}
			if blob, data, blobsErr = chunk(data); blobsErr != nil {
				return
			}
			blobs[string(p)] = blob
			order = append(order, string(p))
		}
	})
	if blobsErr != nil {
		return nil, blobsErr
	}
	want := map[string]bool{}
	for _, p := range paths {
		if _, ok := blobs[p]; ok {
			want[p] = true
		}
	}
	var ps []string
	for _, p := range order {
		if want[p] {
			ps = append(ps, p)
		}
	}
	key := strings.Join(ps, "\n")
	setsMu.Lock()
	defer setsMu.Unlock()
	for i, s := range sets {
		if s.key == key {
			sets = append(append(sets[:i:i], sets[i+1:]...), s)
			return s.pkgs, s.err
		}
	}
	s := &typeSet{key: key, pkgs: map[string]*types.Package{}}
	fset := token.NewFileSet()
	imports := map[string]*types.Package{}
	for _, p := range ps {
		pkg, err := gcexportdata.Read(bytes.NewReader(blobs[p]), fset, imports, p)
		if err != nil {
			s.pkgs, s.err = nil, fmt.Errorf("symbols: type data of %s: %w", p, err)
			break
		}
		s.pkgs[p] = pkg
	}
	sets = append(sets, s)
	if len(sets) > typeSets {
		sets = sets[1:]
	}
	return s.pkgs, s.err
}

func chunk(data []byte) (c, rest []byte, err error) {
	if len(data) < 4 {
		return nil, nil, fmt.Errorf("symbols: truncated type data")
	}
	n := int(data[0])<<24 | int(data[1])<<16 | int(data[2])<<8 | int(data[3])
	if len(data) < 4+n {
		return nil, nil, fmt.Errorf("symbols: truncated type data")
	}
	return data[4 : 4+n], data[4+n:], nil
}
