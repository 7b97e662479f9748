// Package symbols holds what snippets may import: the yaegi symbol tables
// and the type information of the engine packages and of an allow-list of
// the standard library. Everything but this file is generated; regenerate
// after any change to the engine with
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
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
)

// Symbols maps "importpath/pkgname" to each symbol's value, in the shape
// yaegi's interp.Use takes. It is the one package-level table the generated
// files fill in their init functions.
var Symbols = map[string]map[string]reflect.Value{}

//go:embed types.bin
var typesBin []byte

type stdPackage struct {
	path  string
	names []string
}

// Engine returns the import paths of the engine packages snippets may
// import, sorted.
func Engine() []string { return append([]string(nil), enginePackages...) }

// Std returns the import paths of the standard library packages snippets
// may import.
func Std() []string {
	paths := make([]string, len(stdPackages))
	for i, p := range stdPackages {
		paths[i] = p.path
	}
	return paths
}

// Allowed reports whether snippets may import path, and, when only some of
// its names may be used (os: only the standard streams), which.
func Allowed(path string) (names []string, ok bool) {
	for _, p := range stdPackages {
		if p.path == path {
			return p.names, true
		}
	}
	for _, p := range enginePackages {
		if p == path {
			return nil, true
		}
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
