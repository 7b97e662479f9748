//go:build !(js && wasm)

package cachefile

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/warpbook/warpbook/internal/atomicfile"
)

// tagSize is the size of the tag that ends each entry.
const tagSize = sha256.Size

// Write writes data as the entry at path (read back with [Read]),
// atomically: a reader sees the old entry or the new one.
func Write(path string, data []byte) error {
	key, err := Key()
	if err != nil {
		return err
	}
	out := make([]byte, 0, len(data)+tagSize)
	out = append(out, data...)
	out = append(out, tag(key, path, data)...)
	return atomicfile.Write(path, out, 0o644)
}

// Read reads the entry at path, of at most max bytes of data, and checks
// its tag. Its error wraps [fs.ErrNotExist] when there is no entry,
// [ErrNotRegular], [ErrForged], or says that the entry is too large.
func Read(path string, max int64) ([]byte, error) {
	key, err := Key()
	if err != nil {
		return nil, err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%v)", ErrNotRegular, fi.Mode().Type())}
	}
	// Opened without following a link and without blocking, in case the
	// entry was swapped since the Lstat; then checked again.
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%v)", ErrNotRegular, fi.Mode().Type())}
	}
	limit := max + tagSize
	if fi.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than %d bytes", limit)}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	switch {
	case err != nil:
		return nil, err
	case int64(len(data)) > limit:
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("larger than %d bytes", limit)}
	case len(data) < tagSize:
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrForged}
	}
	body, got := data[:len(data)-tagSize], data[len(data)-tagSize:]
	if !hmac.Equal(got, tag(key, path, body)) {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrForged}
	}
	return body, nil
}

// tag is the HMAC of an entry: its file name (the hash that keys it, so
// that an entry copied under another name does not pass) and its data.
func tag(key []byte, path string, data []byte) []byte {
	m := hmac.New(sha256.New, key)
	name := filepath.Base(path)
	fmt.Fprintf(m, "warpbook cache entry\x00%d:%s\x00", len(name), name)
	m.Write(data)
	return m.Sum(nil)
}

var loadKey = sync.OnceValues(func() ([]byte, error) {
	if v := os.Getenv(KeyEnv); v != "" {
		k := sha256.Sum256([]byte(v))
		return k[:], nil
	}
	dir, err := os.UserConfigDir()
	if err == nil {
		if k, err := keyFile(filepath.Join(dir, "warpbook", "cache-key")); err == nil {
			return k, nil
		}
	}
	// No place to keep a key: this process's own, so that the cache
	// serves this run only.
	k := make([]byte, 32)
	_, err = rand.Read(k)
	return k, err
})

// Key returns the key of the cache's tags: from [KeyEnv] when it is set,
// else from the file warpbook/cache-key in the user's configuration
// directory (os.UserConfigDir, outside the cache directory), made with
// 32 random bytes, readable by the user alone, the first time; else one
// made for this process.
func Key() ([]byte, error) { return loadKey() }

// keyFile reads the key file p, or makes it when there is none.
func keyFile(p string) ([]byte, error) {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, werr := f.Write(k)
		if err := errors.Join(werr, f.Close()); err != nil {
			os.Remove(p)
			return nil, err
		}
		return k, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	// Made by an earlier run (or one running now, which may still be
	// writing it: then this run keeps a key of its own).
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != 32 {
		return nil, fmt.Errorf("%s is not a key of 32 bytes", p)
	}
	f, err = os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := io.ReadFull(f, k); err != nil {
		return nil, err
	}
	return k, nil
}
