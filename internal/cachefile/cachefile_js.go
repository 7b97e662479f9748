//go:build js && wasm

package cachefile

import (
	"errors"
	"io/fs"
)

// errNoCache is Read's and Write's error in the browser.
var errNoCache = errors.New("the browser has no cache")

// Write drops the entry: the browser has no cache.
func Write(path string, data []byte) error { return errNoCache }

// Read reports a miss: the browser has no cache.
func Read(path string, max int64) ([]byte, error) { return nil, fs.ErrNotExist }

// Key reports that the browser has no cache key.
func Key() ([]byte, error) { return nil, errNoCache }
