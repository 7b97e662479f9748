package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if abs == filepath.Dir(abs) {
		return fmt.Errorf("refusing to replace %s with a site", dir)
	}
	if fi, err := os.Stat(abs); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s exists and is not a directory", dir)
		}
		entries, err := os.ReadDir(abs)
		if err != nil {
			return err
		}
		if len(entries) > 0 {
			if _, err := os.Stat(filepath.Join(abs, filepath.FromSlash(marker))); err != nil {
				return fmt.Errorf("%s is not empty and holds no warpbook site (no %s); refusing to replace it", dir, marker)
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	removeStale(parent, "."+filepath.Base(abs)+".new-")
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(abs)+".new-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // after a swap it holds the old site
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	names := make([]string, 0, len(s.Files))
	for name := range s.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	made := map[string]bool{}
	for _, name := range names {
		if !fs.ValidPath(name) || strings.Contains(name, `\`) {
			return fmt.Errorf("invalid output path %q", name)
		}
		if d := filepath.Dir(filepath.Join(tmp, filepath.FromSlash(name))); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
	}
	// Creating a file is mostly the file system's work in the kernel
	// (finding a free inode): the files are written on all CPUs.
	errs := make([]error, len(names))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(names)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(names); i = int(next.Add(1)) - 1 {
				errs[i] = os.WriteFile(filepath.Join(tmp, filepath.FromSlash(names[i])), s.Files[names[i]], 0o644)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return swapDirs(tmp, abs)
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
