// Package source finds the source of the warpbook module that the running
// executable was built from, for what warpbook builds with the Go
// toolchain from its own packages: the native programs of -native (with
// the engine) and the browser kernel.
//
// The directory comes from the executable itself (the path the compiler
// recorded for this package's file), never from the go command's view of
// the working directory: warpbook is run inside books that come from pull
// requests, and a book with a go.mod naming the warpbook module and an
// engine/ of its own must not be what gets compiled and run. Its engine
// is checked too: [Fingerprint] of the directory's engine/ must be the one
// the executable was generated with.
package source

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
)

// Module is the module path of warpbook.
const Module = "github.com/warpbook/warpbook"

// self is this file's path inside the module.
const self = "internal/source/source.go"

// Dir returns the root directory of the warpbook module the running
// executable was built from: the module it was compiled in, or its copy in
// the module cache (go install ...@version). It fails when the executable
// does not record the path (built with -trimpath) or the source is no
// longer there, or is no longer warpbook's.
func Dir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", errors.New("this warpbook does not record where its source is (it was built with -trimpath): build it without -trimpath, in a clone of " + Module)
	}
	suffix := filepath.FromSlash(self)
	if !strings.HasSuffix(file, string(filepath.Separator)+suffix) {
		return "", fmt.Errorf("this warpbook's source file %s is not at %s in a module", file, self)
	}
	dir := strings.TrimSuffix(file, string(filepath.Separator)+suffix)
	gomod, err := readSmall(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("the source this warpbook was built from: %w", err)
	}
	if !bytes.HasPrefix(gomod, []byte("module "+Module+"\n")) {
		return "", fmt.Errorf("%s is no longer the module %s this warpbook was built from", dir, Module)
	}
	return dir, nil
}

// readSmall reads a regular file of at most 1 MiB, as the commands read
// every file: without blocking on a named pipe.
func readSmall(p string) ([]byte, error) {
	return page.ReadFile(nil, p, 1<<20, "a source file")
}

// Fingerprint hashes the engine's source under root/engine: the path, size
// and contents of every file but tests (_test.go), test data and hidden
// directories (a name that starts with "." or "_"), in path order. Every
// file counts, not only Go files, since the go command also builds the
// assembly and links the object files (.syso) it finds beside them. The
// packages with import paths in exclude are left out (see
// snippets/internal/symgen).
func Fingerprint(root string, exclude []string) (string, error) {
	h := sha256.New()
	engine := filepath.Join(root, "engine")
	var names []string
	err := filepath.WalkDir(engine, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != engine && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if d.IsDir() || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		if !slices.Contains(exclude, Module+"/"+filepath.ToSlash(rel)) {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("fingerprint the engine: %w", err)
	}
	slices.Sort(names)
	for _, n := range names {
		b, err := readSmall(n)
		if err != nil {
			return "", fmt.Errorf("fingerprint the engine: %w", err)
		}
		rel, _ := filepath.Rel(root, n)
		fmt.Fprintf(h, "%s\x00%d\x00", filepath.ToSlash(rel), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
