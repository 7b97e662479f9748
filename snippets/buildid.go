//go:build !js

package snippets

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/warpbook/warpbook/internal/cachefile"
)

// exeSum returns 12 hex digits that identify the executable exe by its
// contents, or "" when it cannot be read: the hash of its Go build ID
// ([exeBuildID], a few bytes to read, which the go command derives from
// everything linked in and from the result), else of the executable
// itself ([exeHash]). The browser kernel has none (see buildid_js.go),
// and links neither debug/elf nor the hashing.
func exeSum(exe string) string {
	if id := exeBuildID(exe); id != "" {
		h := sha256.Sum256([]byte(id))
		return hex.EncodeToString(h[:6])
	}
	if h := exeHash(exe); h != "" {
		return h[:12]
	}
	return ""
}

// exeBuildID returns the Go build ID of the executable exe, or "" when it
// has none that the go command wrote (not an ELF file, linked with
// -buildid=, built by another toolchain). The go command derives it from
// the hashes of everything linked in and of the linked result, so that it
// changes whenever the executable does; it is read from a note of a few
// bytes, where hashing the executable reads all of it.
func exeBuildID(exe string) string {
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil || s.Size > 1<<10 {
		return ""
	}
	note, err := s.Data()
	// A note: name size, description size, type (4, the Go build ID),
	// the name "Go" padded to 4 bytes, then the description, the ID.
	if err != nil || len(note) < 16 {
		return ""
	}
	order := f.ByteOrder
	nameSize, descSize, typ := order.Uint32(note), order.Uint32(note[4:]), order.Uint32(note[8:])
	if nameSize != 4 || typ != 4 || !bytes.Equal(note[12:16], []byte("Go\x00\x00")) || uint64(descSize) > uint64(len(note)-16) {
		return ""
	}
	id := string(note[16 : 16+descSize])
	if !goBuildID(id) {
		return ""
	}
	return id
}

// goBuildID reports whether id has the form the go command gives an
// executable's build ID: four hashes of 20 base64url characters, joined
// by slashes.
func goBuildID(id string) bool {
	parts := strings.Split(id, "/")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if len(p) != 20 || strings.Trim(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			return false
		}
	}
	return true
}

// exeHash returns the sha256 of the executable exe, in hex, or "" when it
// cannot be read: the tool's identity where its executable has no Go build
// ID. Hashing an executable of tens of megabytes on every command would
// slow every command, so the hash is kept in the cache
// directory under the executable's path, size and modification time, and
// computed again whenever one of them changes (a rebuild, go run's next
// binary). The kept hash is a cache entry (package cachefile).
func exeHash(exe string) string {
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	var memo string
	if dir, err := DefaultCacheDir(); err == nil {
		key := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d\x00%d", exe, fi.Size(), fi.ModTime().UnixNano()))
		memo = filepath.Join(dir, "exe", hex.EncodeToString(key[:12]))
		if b, err := cachefile.Read(memo, 64); err == nil && len(b) == 64 {
			if _, err := hex.DecodeString(string(b)); err == nil {
				return string(b)
			}
		}
	}
	f, err := os.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if memo != "" {
		_ = cachefile.Write(memo, []byte(sum)) // a lost memo costs the next run the hash
	}
	return sum
}
