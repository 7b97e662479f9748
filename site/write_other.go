//go:build !linux

package site

import (
	"errors"
	"os"
)

// exchange is not available here; the caller falls back to two renames.
func exchange(a, b string) error { return errors.New("no atomic exchange") }

// writeFile writes data to the file p.
func writeFile(p string, data []byte) error { return os.WriteFile(p, data, 0o644) }
