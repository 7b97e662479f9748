// Package newbook writes the start of a book in a repository of its own:
// a chapter with snippets, a checked value and an interview question, the
// book's settings and table of contents, and a GitHub Actions workflow
// that tests the book and publishes its site to GitHub Pages. It is what
// warpbook init writes.
package newbook

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

//go:embed all:template
var template embed.FS

// Options say what the workflow installs.
type Options struct {
	// Install is the go install argument that installs warpbook in the
	// workflow, as "github.com/warpbook/warpbook/tools/warpbook@v1.2.3".
	Install string
	// GoVersion is the Go release the workflow sets up, as "1.26".
	GoVersion string
	// Force writes into a directory that is not empty. Files already
	// there are never replaced: they are reported as kept.
	Force bool
}

// ErrNotEmpty is returned, wrapped, when the directory has files in it
// and Options.Force is not set.
var ErrNotEmpty = errors.New("is not empty")

// Files returns the files Write writes, by slash-separated path, with
// their contents for opts.
func Files(opts Options) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(template, "template", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := template.ReadFile(p)
		if err != nil {
			return err
		}
		b = bytes.ReplaceAll(b, []byte("{{GO_VERSION}}"), []byte(opts.GoVersion))
		b = bytes.ReplaceAll(b, []byte("{{INSTALL}}"), []byte(opts.Install))
		files[strings.TrimPrefix(p, "template/")] = b
		return nil
	})
	return files, err
}

// Write writes the new book into dir, creating dir if needed, and returns
// the paths it wrote and the ones it kept (already there, with Force), in
// path order. It refuses a directory with anything in it unless
// opts.Force is set. Every file is created inside dir (a link in dir that
// points out of it is refused), and never replaces an existing one.
func Write(dir string, opts Options) (written, kept []string, err error) {
	files, err := Files(opts)
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	if !opts.Force {
		f, err := root.Open(".")
		if err != nil {
			return nil, nil, err
		}
		names, err := f.Readdirnames(1)
		f.Close()
		if err != nil && err != io.EOF {
			return nil, nil, err
		}
		if len(names) > 0 {
			return nil, nil, fmt.Errorf("%s %w (it has %s): give -force to add the book's files beside what is there", dir, ErrNotEmpty, names[0])
		}
	}
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if err := root.MkdirAll(path.Dir(p), 0o755); err != nil {
			return written, kept, fmt.Errorf("write %s: %w", filepath.Join(dir, filepath.FromSlash(p)), err)
		}
		f, err := root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			kept = append(kept, p)
			continue
		}
		if err == nil {
			_, err = f.Write(files[p])
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return written, kept, fmt.Errorf("write %s: %w", filepath.Join(dir, filepath.FromSlash(p)), err)
		}
		written = append(written, p)
	}
	return written, kept, nil
}
