//go:build !js

package live

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/warpbook/warpbook/snippets"
)

// testKernel builds the kernel into the user's cache (the first build on a
// machine compiles it; every later one finds it there).
func testKernel(t testing.TB) *Kernel {
	t.Helper()
	dir, err := DefaultCacheDir()
	noErr(t, err)
	b := &Builder{CacheDir: dir}
	k, err := b.Kernel(context.Background())
	if err != nil {
		t.Fatalf("build the kernel: %v", err)
	}
	return k
}

func TestBuildCached(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the kernel for GOOS=js when the cache lacks it; skipped with -short")
	}
	k := testKernel(t)
	if !bytes.HasPrefix(k.Script, []byte("// The warpbook browser kernel")) || k.Gzip == 0 || k.Wasm < k.Gzip {
		t.Fatalf("kernel %q... (%d bytes, %d gzipped)", k.Script[:min(80, len(k.Script))], k.Wasm, k.Gzip)
	}
	dir, _ := DefaultCacheDir()
	start := time.Now()
	again, err := (&Builder{CacheDir: dir}).Kernel(context.Background())
	noErr(t, err)
	t.Logf("kernel %s: %d bytes, %d gzipped; found in the cache in %v", k.Key, k.Wasm, k.Gzip, time.Since(start))
	if !again.Cached || again.Key != k.Key || !bytes.Equal(again.Script, k.Script) {
		t.Errorf("second build: cached %v, key %s (first %s), same script %v", again.Cached, again.Key, k.Key, bytes.Equal(again.Script, k.Script))
	}
	// The module's memory is capped at the memory limit of a worker.
	_, b64, _ := bytes.Cut(k.Script, []byte(`"wasm":"`))
	b64, _, _ = bytes.Cut(b64, []byte(`"`))
	gz, err := base64.StdEncoding.DecodeString(string(b64))
	noErr(t, err)
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	noErr(t, err)
	mod, err := io.ReadAll(zr)
	noErr(t, err)
	if _, max, err := memoryLimits(mod); err != nil || max*pageSize != snippets.DefaultMemoryLimit {
		t.Errorf("the kernel's memory may grow to %d pages (%v), want %d bytes", max, err, snippets.DefaultMemoryLimit)
	}
}

// TestBuildPractice builds the practice page's module the same way: its
// own cache entry, a script that says what it is, and a quarter of the
// kernel's size or less.
func TestBuildPractice(t *testing.T) {
	dir, err := DefaultCacheDir()
	noErr(t, err)
	p, err := (&Builder{CacheDir: dir, Package: PracticePackage}).Kernel(context.Background())
	noErr(t, err)
	k := testKernel(t)
	if p.Key == k.Key || !bytes.HasPrefix(p.Script, []byte("// The warpbook module site/live/practice: ")) || !bytes.Contains(p.Script, []byte("window.warpbookKernelData = ")) {
		t.Fatalf("practice module %s (kernel %s): %q...", p.Key, k.Key, p.Script[:min(100, len(p.Script))])
	}
	if 3*p.Gzip > k.Gzip {
		t.Errorf("the practice module is %d bytes gzipped, the kernel %d: want it under a third", p.Gzip, k.Gzip)
	}
	t.Logf("practice module %s: %d bytes, %d gzipped (the kernel: %d gzipped)", p.Key, p.Wasm, p.Gzip, k.Gzip)
}

// TestBuildFromABook: the kernel is built from the module warpbook was
// built from, wherever it runs: from inside a book with a go.mod naming
// the warpbook module and a kernel package of its own, it is the same
// kernel (from the cache), not the book's, which every reader's browser
// would run.
func TestBuildFromABook(t *testing.T) {
	k := testKernel(t)
	book := t.TempDir()
	for name, data := range map[string]string{
		"go.mod":                   "module github.com/warpbook/warpbook\n\ngo 1.26\n",
		"site/live/kernel/main.go": "package main\n\nfunc main() { println(\"the book's kernel\") }\n",
	} {
		p := filepath.Join(book, filepath.FromSlash(name))
		noErr(t, os.MkdirAll(filepath.Dir(p), 0o755))
		noErr(t, os.WriteFile(p, []byte(data), 0o644))
	}
	t.Chdir(book)
	dir, _ := DefaultCacheDir()
	got, err := (&Builder{CacheDir: dir}).Kernel(context.Background())
	noErr(t, err)
	if got.Key != k.Key || !bytes.Equal(got.Script, k.Script) {
		t.Errorf("from inside the book: kernel %s, want %s", got.Key, k.Key)
	}
}
