package snippets

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/warpbook/warpbook/internal/atomicfile"
	"os"
	"path/filepath"
	"sort"
	"strings"
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
// inserted after a cell that has none). Every other byte is kept. It
// returns the ids of the cells it rewrote; with none, src is the page's
// own source.
func Update(r *PageResult) (src []byte, ids []string, err error) {
	p := r.Page
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	for _, cr := range r.Cells {
		if !Updatable(cr) {
			continue
		}
		c := p.Cell(cr.ID)
		body := normalize(cr.Output, false)
		nl := "\n"
		openLine := c.Pos.Line
		if c.Output != nil {
			openLine = c.OutputPos.Line
		}
		if bytes.HasSuffix(p.Source[p.lineStart(openLine):p.lineStart(openLine+1)], []byte("\r\n")) {
			nl = "\r\n"
		}
		prefix := string(p.Source[p.lineStart(openLine) : p.lineStart(openLine)+c.Pos.Col-1])
		if c.Output != nil {
			prefix = string(p.Source[p.lineStart(openLine) : p.lineStart(openLine)+c.OutputPos.Col-1])
		}
		fence := "```"
		if c.Output != nil {
			fence = p.fenceAt(c.Output.Pos())
		}
		var b strings.Builder
		if body != "" {
			lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
			if i := writePrefixed(&b, lines, prefix, nl, fence); i >= 0 {
				return p.Source, nil, fmt.Errorf("%s: %s: cannot update: the output has a line that would close its output block: %q", c.Pos, c.ID(), strings.TrimSpace(lines[i]))
			}
		}
		if c.Output != nil {
			closing, ok := p.closingFence(c.Output)
			if !ok {
				return p.Source, nil, fmt.Errorf("%s: %s: cannot update: the output block is never closed", c.OutputPos, c.ID())
			}
			edits = append(edits, edit{p.lineStart(c.OutputPos.Line + 1), p.lineStart(closing), b.String()})
		} else {
			closing, ok := p.closingFence(c.Code)
			if !ok {
				return p.Source, nil, fmt.Errorf("%s: %s: cannot update: the snippet is never closed", c.Pos, c.ID())
			}
			at := p.lineStart(closing + 1)
			text := prefix + "```output" + nl + b.String() + prefix + "```" + nl
			if at == len(p.Source) && !bytes.HasSuffix(p.Source, []byte("\n")) {
				text = nl + text
			}
			edits = append(edits, edit{at, at, text})
		}
		ids = append(ids, c.ID())
	}
	if len(edits) == 0 {
		return p.Source, nil, nil
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := append([]byte(nil), p.Source...)
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out, ids, nil
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
	now, err := ReadFile(nil, path, MaxPageBytes, "a page")
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
