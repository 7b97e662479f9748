package snippets

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/warpbook/warpbook/internal/atomicfile"
	"github.com/warpbook/warpbook/internal/cachefile"
	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/symbols"
)

// DefaultCacheDir returns the usual cache directory,
// os.UserCacheDir()/warpbook: outside the source tree and the site.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the cache directory: %w", err)
	}
	return filepath.Join(d, "warpbook"), nil
}

// Verifier says what verifies pages run by k.
func (k *Kernel) Verifier() Verifier {
	v := Verifier{Tool: toolVersion(), Engine: symbols.EngineFingerprint, Go: runtime.Version()}
	if hasProcesses && k.Native {
		v.Native = k.nativeVersion()
	}
	return v
}

var (
	toolOnce sync.Once
	toolVer  string
)

// toolVersion is "warpbook VERSION+HASH": the module version (or
// "devel") and a hash that identifies the running executable by its
// contents ([exeSum]), so that any rebuild of the tool, the kernel or the
// engine invalidates cached results.
func toolVersion() string {
	toolOnce.Do(func() {
		ver := "devel"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			ver = bi.Main.Version
		}
		sum := "unknown"
		if exe, err := os.Executable(); err == nil {
			if h := exeSum(exe); h != "" {
				sum = h
			}
		}
		toolVer = "warpbook " + ver + "+" + sum
	})
	return toolVer
}

// chain is a running hash of what a session ran.
type chain [32]byte

func newHash(parts ...string) chain {
	var c chain
	for _, p := range parts {
		c = c.add(p)
	}
	return c
}

func (c chain) add(s string) chain {
	h := sha256.New()
	h.Write(c[:])
	fmt.Fprintf(h, "%d:", len(s))
	io.WriteString(h, s)
	var out chain
	copy(out[:], h.Sum(nil))
	return out
}

func (c chain) hex() string { return hex.EncodeToString(c[:]) }

// resultCache stores outcomes of units by key, one small JSON file each,
// through package cachefile: read as bounded, regular files, and used
// only when this user's warpbook wrote them. A nil cache stores nothing.
type resultCache struct {
	dir string
}

func (k *Kernel) cache() *resultCache {
	if k.CacheDir == "" {
		return nil
	}
	return &resultCache{dir: k.CacheDir}
}

func (c *resultCache) path(key string) string {
	return filepath.Join(c.dir, "results", key[:2], key+".json")
}

func (c *resultCache) get(key string) *worker.Outcome {
	if c == nil || key == "" {
		return nil
	}
	b, err := cachefile.Read(c.path(key), maxResultBytes)
	if err != nil {
		return nil
	}
	// Used now: PruneCache removes the least recently used first.
	now := time.Now()
	_ = os.Chtimes(c.path(key), now, now)
	var o worker.Outcome
	if json.Unmarshal(b, &o) != nil {
		return nil
	}
	o.Ran, o.Cached = true, true
	return &o
}

// put stores o; failures to write are ignored (the cache is an
// optimisation), but a file is never left half-written.
func (c *resultCache) put(key string, o *worker.Outcome) {
	if c == nil || key == "" {
		return
	}
	b, err := json.Marshal(o)
	if err != nil {
		return
	}
	_ = cachefile.Write(c.path(key), b)
}

// maxResultBytes bounds a cached outcome: a unit's output is at most the
// output limit of its page (1 MiB by default), escaped in JSON.
const maxResultBytes = 8 << 20

// DefaultCacheLimit is the size the cache directory is pruned to:
// 256 MiB, some thousands of books' worth of results.
const DefaultCacheLimit = 256 << 20

// PruneInterval is the least time between two walks of the cache
// directory by [PruneCache].
const PruneInterval = time.Hour

// PruneCache removes the least recently used files of the cache directory
// dir (results, drawn figures, build stamps: what warpbook keeps there)
// until it holds at most limit bytes; a file the cache reads counts as
// used then. A dir that does not exist is already pruned.
// It walks the directory at most once per [PruneInterval] (the time of
// the last walk is the modification time of dir/pruned), as the Go build
// cache trims itself at most once a day: the walk stats every file, and
// one build of the 200-page synthetic book made 47,000 stats of a busy
// cache.
func PruneCache(dir string, limit int64) error {
	stamp := filepath.Join(dir, "pruned")
	if fi, err := os.Stat(stamp); err == nil {
		if age := time.Since(fi.ModTime()); age >= 0 && age < PruneInterval {
			return nil
		}
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	defer atomicfile.Write(stamp, nil, 0o644) // a lost stamp costs the next run a walk
	type file struct {
		path string
		size int64
		used time.Time
	}
	var files []file
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		files = append(files, file{p, fi.Size(), fi.ModTime()})
		total += fi.Size()
		return nil
	})
	if err != nil || total <= limit {
		return err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].used.Before(files[j].used) })
	for _, f := range files {
		if total <= limit {
			break
		}
		if err := os.Remove(f.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= f.size
		}
	}
	return nil
}
