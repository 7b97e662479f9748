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

var (
	typesOnce sync.Once
	typesPkgs map[string]*types.Package
	typesErr  error
)

// Types returns the type information of every allowed package, by import
// path, decoded once from the generated export data. The packages are
// complete and shared: callers must not modify them.
func Types() (map[string]*types.Package, error) {
	typesOnce.Do(func() {
		typesPkgs, typesErr = decode(typesBin)
	})
	return typesPkgs, typesErr
}

func decode(data []byte) (map[string]*types.Package, error) {
	fset := token.NewFileSet()
	imports := map[string]*types.Package{}
	out := map[string]*types.Package{}
	for len(data) > 0 {
		var p, blob []byte
		var err error
		if p, data, err = chunk(data); err != nil {
			return nil, err
		}
		if blob, data, err = chunk(data); err != nil {
			return nil, err
		}
		pkg, err := gcexportdata.Read(bytes.NewReader(blob), fset, imports, string(p))
		if err != nil {
			return nil, fmt.Errorf("symbols: type data of %s: %w", p, err)
		}
		out[string(p)] = pkg
	}
	return out, nil
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
