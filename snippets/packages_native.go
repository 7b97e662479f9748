//go:build !js

package snippets

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"

	"github.com/warpbook/warpbook/snippets/page"
)

// The book's packages as the commands read them from disk, and as -native
// builds them: a file of its own, so that x/mod, which only these need,
// stays out of the browser kernel (which is sent the packages' sources,
// see [PackagesFromData]).

// ReadPackages reads book.yaml's packages: in the book directory dir (an
// operating-system path) and loads them. It returns nil and no
// diagnostics for a book without book.yaml or without the key. Problems
// with the list itself (no go.mod, a path outside the module, a package
// that does not exist) are diagnostics at book.yaml's line; problems
// inside a package are not: they refuse the package at each cell that
// imports it (see [Packages]).
func ReadPackages(dir string) (*Packages, page.Diagnostics) {
	file := filepath.Join(dir, "book.yaml")
	data, err := page.ReadFile(nil, file, page.MaxYAMLBytes, "a YAML document")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		var d *page.Diagnostic
		if errors.As(err, &d) {
			return nil, page.Diagnostics{d}
		}
		return nil, page.Diagnostics{{Pos: page.Pos{File: file}, Msg: err.Error(), Err: err}}
	}
	var doc map[string]any
	keys, err := page.DecodeYAML(file, 1, data, &doc)
	if err != nil {
		// The site reports book.yaml's syntax.
		return nil, nil
	}
	v, ok := doc[PackagesKey]
	if !ok || v == nil {
		return nil, nil
	}
	at := keys[PackagesKey]
	list, ok := v.([]any)
	if !ok {
		return nil, page.Diagnostics{{Pos: at, Msg: "book.yaml's packages: must be a list of import paths"}}
	}
	listed := map[string]page.Pos{}
	var ds page.Diagnostics
	for i, e := range list {
		pos := at
		if p, ok := keys[fmt.Sprintf("%s[%d]", PackagesKey, i)]; ok {
			pos = p
		}
		s, ok := e.(string)
		if !ok {
			ds = append(ds, &page.Diagnostic{Pos: pos, Msg: fmt.Sprintf("book.yaml's packages: item %d is not an import path", i+1)})
			continue
		}
		listed[s] = pos
	}
	if len(ds) > 0 {
		return nil, ds
	}
	ps, ds := LoadPackages(dir, listed)
	return ps, ds
}

// LoadPackages loads the listed packages (import paths, with where they
// are listed) of the module whose go.mod encloses dir, the book's
// directory.
func LoadPackages(dir string, listed map[string]page.Pos) (*Packages, page.Diagnostics) {
	if len(listed) == 0 {
		return nil, nil
	}
	first := func() page.Pos {
		var ps []page.Pos
		for _, p := range listed {
			ps = append(ps, p)
		}
		sort.Slice(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
		return ps[0]
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, page.Diagnostics{{Pos: first(), Msg: err.Error(), Err: err}}
	}
	root := abs
	for {
		if fi, err := os.Stat(filepath.Join(root, "go.mod")); err == nil && fi.Mode().IsRegular() {
			break
		}
		up := filepath.Dir(root)
		if up == root {
			return nil, page.Diagnostics{{Pos: first(), Msg: "book.yaml lists packages, but no go.mod encloses the book: its packages must be packages of the module the book is in"}}
		}
		root = up
	}
	disp := root
	if !filepath.IsAbs(dir) {
		if wd, err := os.Getwd(); err == nil {
			if r, err := filepath.Rel(wd, root); err == nil {
				disp = r
			}
		}
	}
	gomod, err := readGoMod(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, page.Diagnostics{{Pos: first(), Msg: err.Error(), Err: err}}
	}
	mod := modfile.ModulePath(gomod)
	if mod == "" {
		return nil, page.Diagnostics{{Pos: first(), Msg: fmt.Sprintf("%s has no module line", filepath.Join(disp, "go.mod"))}}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, page.Diagnostics{{Pos: first(), Msg: err.Error(), Err: err}}
	}
	defer r.Close()
	var ds page.Diagnostics
	for _, p := range slices.Sorted(maps.Keys(listed)) {
		if err := module.CheckImportPath(p); err != nil {
			ds = append(ds, &page.Diagnostic{Pos: listed[p], Msg: fmt.Sprintf("packages: %q is not a valid import path: %v", p, err)})
		}
	}
	if len(ds) > 0 {
		return nil, ds
	}
	return loadPackages(r.FS(), mod, disp, listed)
}

// addBookPackages adds to the overlay the book's packages (see
// [Packages]) the pages of runs import, as they were checked: a package
// of this module replaces its files in the module; the packages of
// another module become a module of their own, in dir, which the
// overlay's go.mod requires and replaces with that directory.
func addBookPackages(root, dir string, overlay map[string]string, runs []*pageRun) error {
	byModule := map[string]*Packages{}
	for _, pr := range runs {
		ps := pr.pl.pkgs
		if ps == nil || len(ps.pkgs) == 0 {
			continue
		}
		if other := byModule[ps.Module]; other != nil && other.Hash() != ps.Hash() {
			return fmt.Errorf("two books with different copies of module %s in one run", ps.Module)
		}
		byModule[ps.Module] = ps
	}
	if len(byModule) == 0 {
		return nil
	}
	gomod, err := readGoMod(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	mf, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		return err
	}
	changed := false
	for i, m := range slices.Sorted(maps.Keys(byModule)) {
		ps := byModule[m]
		base := root
		if m != modulePath {
			base = filepath.Join(dir, fmt.Sprintf("mod%d", i))
			if err := os.MkdirAll(base, 0o700); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(base, "go.mod"), []byte("module "+m+"\n\ngo "+strings.TrimPrefix(goVersion, "go")+"\n"), 0o600); err != nil {
				return err
			}
			if err := errors.Join(mf.AddRequire(m, "v0.0.0"), mf.AddReplace(m, "", base, "")); err != nil {
				return err
			}
			changed = true
		}
		for _, p := range ps.order {
			bp := ps.pkgs[p]
			for _, f := range bp.files {
				name := filepath.Join(base, filepath.FromSlash(bp.rel), f.name)
				if m != modulePath {
					if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
						return err
					}
					if err := os.WriteFile(name, f.src, 0o600); err != nil {
						return err
					}
					continue
				}
				// This module's own package: the checked bytes replace
				// the module's file.
				cp := filepath.Join(dir, fmt.Sprintf("own%d_%s", len(overlay), f.name))
				if err := os.WriteFile(cp, f.src, 0o600); err != nil {
					return err
				}
				overlay[name] = cp
			}
		}
	}
	if changed {
		b, err := mf.Format()
		if err != nil {
			return err
		}
		name := filepath.Join(dir, "go.mod")
		if err := os.WriteFile(name, b, 0o600); err != nil {
			return err
		}
		overlay[filepath.Join(root, "go.mod")] = name
	}
	return nil
}

// maxGoMod is the largest go.mod read: a module file of the book's own is
// a few hundred bytes.
const maxGoMod = 1 << 20

// readGoMod reads a go.mod as pages are read (page.ReadFile): a regular
// file of at most maxGoMod bytes, opened without blocking, so that a
// go.mod that is a named pipe, a device or a link to a huge file is an
// error, not a hang.
func readGoMod(file string) ([]byte, error) {
	return page.ReadFile(nil, file, maxGoMod, "a go.mod file")
}
