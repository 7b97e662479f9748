package snippets

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/warpbook/warpbook/internal/atomicfile"
	"github.com/warpbook/warpbook/snippets/page"
)

// Updatable reports whether -update can fix a cell result: it failed only
// because its output differs from its output block (or it has none). A
// cell that panicked unexpectedly, did not compile or whose panics= or
// error= does not match is never "fixed" by rewriting its output.
func Updatable(cr *CellResult) bool {
	if cr == nil || cr.Status != StatusFail || len(cr.Diagnostics) == 0 {
		return false
	}
	for _, d := range cr.Diagnostics {
		if !errors.Is(d, ErrOutput) {
			return false
		}
	}
	return true
}

// Update returns the page's source with the output block of every
// updatable cell rewritten to what the cell printed (an output block is
// inserted after a cell that has none), and the resources and sass blocks
// of every CUDA cell whose only failure is that they differ from its
// compile rewritten to what the compiler gives. Every other byte is kept.
// It returns the ids of the cells it rewrote; with none, src is the
// page's own source.
func Update(r *PageResult) (src []byte, ids []string, err error) {
	v := page.Verified{Outputs: map[string]string{}, Resources: map[string]string{}, SASS: map[int]string{}}
	for _, cr := range r.Cells {
		if Updatable(cr) {
			v.Outputs[cr.ID] = normalize(cr.Output, false)
			ids = append(ids, cr.ID)
		}
	}
	for i, cr := range r.CUDA {
		if !cudaUpdatable(cr) {
			continue
		}
		v.Resources[cr.ID] = cr.Resources
		for _, s := range r.Page.CUDA[i].SASS {
			if text, ok := cr.SASS[s.Index]; ok {
				v.SASS[s.Index] = text
			}
		}
		ids = append(ids, cr.ID)
	}
	if len(ids) == 0 {
		return r.Page.Source, nil, nil
	}
	if src, err = r.Page.WithVerified(v); err != nil {
		return r.Page.Source, nil, err
	}
	return src, ids, nil
}

// ErrChanged is wrapped by the error of [UpdateFile] when the page's file
// no longer holds what was run: it was edited while the snippets ran.
var ErrChanged = errors.New("changed while its snippets ran")

// UpdateFile rewrites the page's file on disk when Update changes it, and
// returns the ids of the cells it rewrote. The write is atomic (a
// temporary file renamed over the page, keeping its permissions), goes
// through a symbolic link to the file it names, and happens only if the
// file still holds the source that was run; otherwise nothing is written
// and the error wraps [ErrChanged].
func UpdateFile(r *PageResult) ([]string, error) {
	src, ids, err := Update(r)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	path, err := filepath.EvalSymlinks(r.Page.Path)
	if err != nil {
		return nil, fmt.Errorf("update %s: %w", r.Page.Path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("update %s: %w", r.Page.Path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("update %s: not a regular file", r.Page.Path)
	}
	now, err := page.ReadFile(nil, path, page.MaxPageBytes, "a page")
	if err != nil {
		return nil, fmt.Errorf("update %s: %w", r.Page.Path, err)
	}
	if !bytes.Equal(now, r.Page.Source) {
		return nil, fmt.Errorf("update %s: the page %w; run again to update it", r.Page.Path, ErrChanged)
	}
	if err := atomicfile.Write(path, src, fi.Mode().Perm()); err != nil {
		return nil, fmt.Errorf("update %s: %w", r.Page.Path, err)
	}
	return ids, nil
}
