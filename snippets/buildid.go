package snippets

import (
	"bytes"
	"debug/elf"
	"strings"
)

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
