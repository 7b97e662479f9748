//go:build !js

package snippets

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// overlayDir returns a fresh name for the directory, inside the module
// root, that holds a native build's packages: it exists only in the
// build's overlay (their files are in a new private temporary
// directory), and a random name that is not on disk means that no file
// there joins their packages.
func overlayDir(root string) (string, error) {
	for range 4 {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		name := "_wbnative_" + hex.EncodeToString(b[:])
		if _, err := os.Lstat(filepath.Join(root, name)); errors.Is(err, fs.ErrNotExist) {
			return name, nil
		}
	}
	return "", errors.New("no fresh name for the native build's packages")
}
