package cuda

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/warpbook/warpbook/internal/cachefile"
)

// The cache keeps each architecture's compile as one JSON file,
// CacheDir/cuda/KK/KEY.json, written through internal/cachefile. KEY
// hashes everything that decides the result: the format, the toolkit's
// nvcc --version, the host compiler's --version, the architecture, the
// nvcc flags and the source. An entry is read as untrusted input (the
// cache directory may be shared, or written by an older warpbook): a
// regular file of at most maxEntry bytes that this user's warpbook wrote
// (its tag, see package cachefile), JSON with no unknown field and
// nothing after it, every figure in range. Anything else is a miss.

// cacheFormat changes when an entry's meaning does.
const cacheFormat = "warpbook cuda cache 1"

// maxEntry bounds an entry: the SASS listing is at most Limits.Output.
const maxEntry = 64 << 20

func (c *Compiler) key(job Job, args []string, arch string) string {
	h := sha256.New()
	field := func(s string) {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	field(cacheFormat)
	field(c.Toolkit.VersionText)
	field(c.Toolkit.HostVersion)
	field(arch)
	field(strconv.Itoa(len(args)))
	for _, a := range args {
		field(a)
	}
	field(job.Source)
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Compiler) cachePath(key string) string {
	return filepath.Join(c.CacheDir, "cuda", key[:2], key+".json")
}

// cacheGet returns the entry stored under key, or nil.
func (c *Compiler) cacheGet(key, arch string) *entry {
	if c.CacheDir == "" {
		return nil
	}
	e, err := readEntry(c.cachePath(key), arch)
	if err != nil {
		return nil
	}
	now := time.Now() // used now: the cache is pruned least recently used first
	_ = os.Chtimes(c.cachePath(key), now, now)
	return e
}

// readEntry reads and checks the entry in file p, for arch.
func readEntry(p, arch string) (*entry, error) {
	data, err := cachefile.Read(p, maxEntry)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var e entry
	if err := dec.Decode(&e); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the entry")
	}
	if err := e.check(arch); err != nil {
		return nil, err
	}
	return &e, nil
}

// check reports what is wrong with an entry read from the cache.
func (e *entry) check(arch string) error {
	if e.Arch != arch {
		return fmt.Errorf("entry for %s, not %s", e.Arch, arch)
	}
	text := func(s string, max int) bool { return len(s) <= max && utf8.ValidString(s) }
	for _, f := range e.Functions {
		r := f.Resources
		switch {
		case f.Name == "" || !text(f.Name, 4096) || bytes.ContainsAny([]byte(f.Name), " \n\t"):
			return errors.New("bad function name")
		case f.Demangled != Demangle(f.Name):
			return errors.New("the demangled name is not the name's")
		case f.Arch != arch || f.Line < 0:
			return errors.New("bad function arch or line")
		case f.Entry && f.SASS == "", !text(f.SASS, maxEntry):
			return errors.New("bad SASS")
		case r.Registers < 0 || r.Registers > 255 || r.SharedMem < 0 || r.StackFrame < 0 || r.CumulativeStack < 0 ||
			r.SpillStores < 0 || r.SpillLoads < 0 || r.LocalMem < 0 || r.Barriers < 0 || r.Textures < 0 || r.Samplers < 0 || r.Surfaces < 0:
			return errors.New("a resource out of range")
		}
		for _, b := range r.ConstMem {
			if b.Bank < 0 || b.Bytes < 0 {
				return errors.New("a constant bank out of range")
			}
		}
	}
	for _, w := range e.Warnings {
		if w.Line < 0 || w.Col < 0 || (w.Severity != "warning" && w.Severity != "note") || !text(w.Text, 64<<10) {
			return errors.New("bad warning")
		}
	}
	return nil
}

// cachePut stores e under key; a failure to write costs only a compile.
func (c *Compiler) cachePut(key string, e *entry) {
	if c.CacheDir == "" {
		return
	}
	b, err := json.Marshal(e)
	if err != nil || len(b) > maxEntry {
		return
	}
	_ = cachefile.Write(c.cachePath(key), b)
}
