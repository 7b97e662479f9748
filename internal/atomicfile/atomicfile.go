// Package atomicfile writes files so that a reader sees the old contents
// or the new, never half of them: the cache, the build stamps, the
// browser kernel and the generated symbols are all written this way.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
)

// Write writes data to name with permissions perm through a temporary file
// in the same directory and a rename, creating the directory if needed.
// The temporary file has a name of its own, so that two writers of name
// at once do not write into each other's; the last rename wins.
func Write(name string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr, os.Chmod(f.Name(), perm)); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
