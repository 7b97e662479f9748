package site

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/warpbook/warpbook/internal/atomicfile"
	"github.com/warpbook/warpbook/internal/cachefile"
	"github.com/warpbook/warpbook/snippets"
)

// A stamp lets a build skip all work when nothing changed: it records the
// hash of every input (the book's files and the tool) and the size and
// modification time of every file the build wrote. It lives in the user's
// cache directory, never in the site.
type stamp struct {
	Input  string     `json:"input"`
	Output []fileStat `json:"output"`
}

type fileStat struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
}

// inputKey hashes every file of the book that a build reads, together
// with extra (the tool's own fingerprint and the build options). It reads
// as the build does ([page.ReadFile]): a file the build would refuse
// (not a regular file, too large, a link out of the book) is hashed as
// the reason, never read, and left to the build to report.
func inputKey(fsys fs.FS, extra string) (string, error) {
	book, err := readBook(fsys)
	return keyOf(extra, book.hash), err
}

// keyOf is the input key of a book whose files hash to files
// ([bookData]).
func keyOf(extra, files string) string {
	sum := sha256.Sum256([]byte(extra + "\x00" + files))
	return hex.EncodeToString(sum[:])
}

// toolKey identifies the running warpbook by what it is, not where it
// is, so that a rebuilt tool (a new engine, a new template) never reuses
// an old site while "go run", which builds into a new directory every
// time, reuses it: as the kernel's verifier names it (by the executable's
// Go build ID, a few bytes, where there is one).
func toolKey() string {
	v := (&snippets.Kernel{}).Verifier()
	return v.Tool + "\x00" + v.Engine + "\x00" + v.Go
}

func stampPath(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cache, "warpbook", "site", hex.EncodeToString(sum[:12])+".json"), nil
}

func statTree(dir string) ([]fileStat, error) {
	var out []fileStat
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, fileStat{Path: filepath.ToSlash(rel), Size: fi.Size(), MTime: fi.ModTime().UnixNano()})
		return nil
	})
	slices.SortFunc(out, func(a, b fileStat) int { return strings.Compare(a.Path, b.Path) })
	return out, err
}

// upToDate reports whether the site in dir was built from inputs with
// the key that key computes and is unchanged since. key is called only
// when dir has a stamp that its files match, so that a build with no
// stamp (a cold build) hashes nothing first.
func upToDate(dir string, key func() (string, error)) bool {
	sp, err := stampPath(dir)
	if err != nil {
		return false
	}
	data, err := cachefile.Read(sp, maxStampBytes)
	if err != nil {
		return false
	}
	var st stamp
	if json.Unmarshal(data, &st) != nil {
		return false
	}
	if now, err := statTree(dir); err != nil || !slices.Equal(now, st.Output) {
		return false
	}
	k, err := key()
	return err == nil && k == st.Input
}

// saveStamp records that dir now holds the site built from inputs with
// this key. A failure only costs the next build its shortcut.
func saveStamp(dir, key string) error {
	sp, err := stampPath(dir)
	if err != nil {
		return err
	}
	files, err := statTree(dir)
	if err != nil {
		return err
	}
	data, err := json.Marshal(stamp{Input: key, Output: files})
	if err != nil {
		return err
	}
	return cachefile.Write(sp, data)
}

// maxStampBytes bounds a stamp: a line of JSON for each file of the site.
const maxStampBytes = 64 << 20

// forgetStamp removes dir's stamp, so that the next build does the work.
func forgetStamp(dir string) {
	if sp, err := stampPath(dir); err == nil {
		os.Remove(sp) // a stamp that is not there is forgotten already
	}
}

// BuildDir builds the book in fsys (see [Build]) and writes it into out
// (see [Site.Write]), keeping a stamp so that a build whose inputs — the
// book's files, the running tool, opts.Strict, opts.Provenance, whether
// opts.PDF is set, and out — have not changed
// since the last one into out, and whose output is untouched, does no work:
// it then returns a nil Site and fresh true. force always builds.
// A failed stamp is reported through opts.Warnf; it costs only the next
// build's shortcut. When opts.PDF fails, the site is written and returned
// with the error.
func BuildDir(ctx context.Context, fsys fs.FS, out string, opts Options, force bool) (s *Site, fresh bool, err error) {
	// The tool's fingerprint may hash the executable (once per cache
	// directory): it is computed while the book builds.
	tool := sync.OnceValue(toolKey)
	go tool()
	pv := opts.Provenance
	extra := func() string {
		return fmt.Sprintf("%s\x00strict=%v\x00out=%s\x00source=%s,%v,%d,%s\x00pdf=%v\x00live=%v\x00cuda=%s", tool(), opts.Strict, out,
			pv.Commit, pv.Dirty, pv.Date.Unix(), pv.Prefix, opts.PDF != nil, opts.Live != nil, opts.CUDA)
	}
	if !force && upToDate(out, func() (string, error) { return inputKey(fsys, extra()) }) {
		return nil, true, nil
	}
	// The site's files are written into a new directory as the build
	// makes them; the directory replaces out once the build succeeds. When
	// out may not be replaced, nothing is written and s.Write says why
	// after the build, as it did before.
	w, werr := newSiteWriter(out)
	var emit func(string, []byte)
	if werr == nil {
		emit = w.add
	}
	s, err = buildSite(ctx, fsys, opts, emit)
	if err != nil {
		if w != nil {
			w.abort()
		}
		return nil, false, err
	}
	// The stamp's key is of the files as this build read them.
	key := keyOf(extra(), s.hash)
	// Forget first: a crash while writing must not leave a stamp that
	// vouches for the old site.
	forgetStamp(out)
	if w != nil {
		err = w.commit(s.Files)
	} else {
		err = s.Write(out)
	}
	if err != nil {
		return nil, false, err
	}
	if opts.PDF != nil {
		// The site is written: a failure here returns it with the error.
		pdf, err := opts.PDF(ctx, out)
		if err == nil {
			err = atomicfile.Write(filepath.Join(out, "book.pdf"), pdf, 0o644)
		}
		if err != nil {
			return s, false, fmt.Errorf("book.pdf: %w", err)
		}
		s.Files["book.pdf"] = pdf
	}
	if err := saveStamp(out, key); err != nil && opts.Warnf != nil {
		opts.Warnf("%v", err)
	}
	return s, false, nil
}
