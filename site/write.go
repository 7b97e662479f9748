package site

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// marker is a file every built site has; Write only replaces a directory
// that holds it (or an empty one), so that a wrong -o never deletes
// someone's files.
const marker = "assets/warpbook.js"

// Write replaces the directory dir with the site, atomically: it writes
// the site into a new directory beside dir and then swaps the two, so
// that dir is at every moment either the old site or the new one, never a
// mix. On an error dir is left as it was.
func (s *Site) Write(dir string) error {
	w, err := newSiteWriter(dir)
	if err != nil {
		return err
	}
	return w.commit(s.Files)
}

// A siteWriter writes a site's files into a new directory beside dir, in
// the background, as a build makes them, and then puts it in dir's place
// ([Site.Write]). Creating a file is mostly the file system's work in the
// kernel, and one directory's creations take turns there: one goroutine
// writes while the build goes on with the rest.
type siteWriter struct {
	dir     string
	tmp     string // the new directory, made with the first file (see mkdir)
	files   chan siteFile
	done    chan struct{}
	written map[string][]byte // by the goroutine, read after done
	err     error             // the first failure, read after done
}

type siteFile struct {
	name string
	data []byte
}

// newSiteWriter checks that dir may be replaced with a site (it is
// missing, empty or a site) and makes the new directory beside it.
func newSiteWriter(dir string) (*siteWriter, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if abs == filepath.Dir(abs) {
		return nil, fmt.Errorf("refusing to replace %s with a site", dir)
	}
	if fi, err := os.Stat(abs); err == nil {
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s exists and is not a directory", dir)
		}
		entries, err := os.ReadDir(abs)
		if err != nil {
			return nil, err
		}
		if len(entries) > 0 {
			if _, err := os.Stat(filepath.Join(abs, filepath.FromSlash(marker))); err != nil {
				return nil, fmt.Errorf("%s is not empty and holds no warpbook site (no %s); refusing to replace it", dir, marker)
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	removeStale(parent, "."+filepath.Base(abs)+".new-")
	w := &siteWriter{dir: abs, files: make(chan siteFile, 256), done: make(chan struct{}), written: map[string][]byte{}}
	go w.run()
	return w, nil
}

// mkdir makes the new directory, beside dir, when the first file comes:
// a build that runs snippets for minutes first leaves no directory that
// looks stale (removeStale) to a build started beside it meanwhile.
func (w *siteWriter) mkdir() error {
	if w.tmp != "" {
		return nil
	}
	tmp, err := os.MkdirTemp(filepath.Dir(w.dir), "."+filepath.Base(w.dir)+".new-")
	if err != nil {
		return err
	}
	w.tmp = tmp
	return os.Chmod(tmp, 0o755)
}

func (w *siteWriter) run() {
	defer close(w.done)
	made := map[string]bool{}
	for f := range w.files {
		if w.err != nil {
			continue
		}
		w.err = w.write(f, made)
	}
}

// write writes one file into the new directory.
func (w *siteWriter) write(f siteFile, made map[string]bool) error {
	if !fs.ValidPath(f.name) || strings.Contains(f.name, `\`) {
		return fmt.Errorf("invalid output path %q", f.name)
	}
	if err := w.mkdir(); err != nil {
		return err
	}
	p := filepath.Join(w.tmp, filepath.FromSlash(f.name))
	if d := filepath.Dir(p); !made[d] {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		made[d] = true
	}
	if err := writeFile(p, f.data); err != nil {
		return err
	}
	w.written[f.name] = f.data
	return nil
}

// add queues a file of the site; the last one added under a name stands.
func (w *siteWriter) add(name string, data []byte) {
	w.files <- siteFile{name, data}
}

// commit finishes the new directory so that it holds exactly files (the
// site), writing what add did not, and swaps it into dir's place.
func (w *siteWriter) commit(files map[string][]byte) error {
	close(w.files)
	<-w.done
	defer w.remove() // after a swap it holds the old site
	if w.err != nil {
		return w.err
	}
	if err := w.mkdir(); err != nil { // a site of no files
		return err
	}
	made := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if old, ok := w.written[name]; ok && sameBytes(old, files[name]) {
			continue
		}
		if err := w.write(siteFile{name, files[name]}, made); err != nil {
			return err
		}
	}
	for name := range w.written {
		if _, ok := files[name]; !ok {
			if err := os.Remove(filepath.Join(w.tmp, filepath.FromSlash(name))); err != nil {
				return err
			}
		}
	}
	return swapDirs(w.tmp, w.dir)
}

// abort removes the new directory; dir stays as it was.
func (w *siteWriter) abort() {
	close(w.files)
	<-w.done
	w.remove()
}

// remove removes the new directory, if there is one.
func (w *siteWriter) remove() {
	if w.tmp != "" {
		os.RemoveAll(w.tmp)
	}
}

// sameBytes reports whether a and b are the same slice of memory.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// removeStale removes what an interrupted build left beside the site: new
// sites it never swapped in. Only old ones go, so that a build running at
// the same moment keeps its own.
func removeStale(parent, prefix string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > 10*time.Minute {
			os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}

// swapDirs puts directory src in place of dst. Afterwards src holds the
// old dst, if there was one.
func swapDirs(src, dst string) error {
	if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(src, dst)
	}
	if err := exchange(src, dst); err == nil {
		return nil
	}
	// No atomic exchange here: two renames, with dst missing in between.
	old := src + ".old"
	if err := os.Rename(dst, old); err != nil {
		return err
	}
	if err := os.Rename(src, dst); err != nil {
		os.Rename(old, dst)
		return err
	}
	return os.Rename(old, src)
}
