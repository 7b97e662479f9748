// Command gensymbols regenerates package snippets/symbols. It runs from
// "go generate ./snippets/..." in the snippets/symbols directory:
//
//	go run ../internal/cmd/gensymbols
//
// It writes the yaegi symbol tables of the engine and of the allowed
// standard library packages, their type information (types.bin) and
// manifest.gen.go, and removes generated files that are no longer needed.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/warpbook/warpbook/internal/atomicfile"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/snippets/internal/symgen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gensymbols:", err)
		os.Exit(1)
	}
}

func run() error {
	exclude := flag.String("exclude", "", "comma-separated engine import paths to leave out (while one does not compile)")
	flag.Parse()
	var ex []string
	if *exclude != "" {
		ex = strings.Split(*exclude, ",")
	}
	out, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := moduleRoot(out)
	if err != nil {
		return err
	}
	files, err := symgen.Generate(root, ex...)
	if err != nil {
		return err
	}
	old, err := symgen.Existing(out)
	if err != nil {
		return err
	}
	for name := range old {
		if _, ok := files[name]; !ok {
			if err := os.Remove(filepath.Join(out, name)); err != nil {
				return err
			}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(files)) {
		if bytes.Equal(old[n], files[n]) {
			continue
		}
		if err := atomicfile.Write(filepath.Join(out, n), files[n], 0o644); err != nil {
			return err
		}
	}
	return nil
}

func moduleRoot(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			if !strings.HasPrefix(string(b), "module "+symgen.Module+"\n") {
				return "", fmt.Errorf("%s/go.mod is not module %s", d, symgen.Module)
			}
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
	}
}
