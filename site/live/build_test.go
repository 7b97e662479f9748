//go:build !js

package live

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// testKernel builds the kernel into the user's cache (the first build on a
// machine compiles it; every later one finds it there).
func testKernel(t testing.TB) *Kernel {
	t.Helper()
	dir, err := DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	b := &Builder{CacheDir: dir}
	k, err := b.Kernel(context.Background())
	if err != nil {
		t.Fatalf("build the kernel: %v", err)
	}
	return k
}

func TestBuildCached(t *testing.T) {
	k := testKernel(t)
	if !bytes.HasPrefix(k.Script, []byte("// The warpbook browser kernel")) || k.Gzip == 0 || k.Wasm < k.Gzip {
		t.Fatalf("kernel %q... (%d bytes, %d gzipped)", k.Script[:min(80, len(k.Script))], k.Wasm, k.Gzip)
	}
	dir, _ := DefaultCacheDir()
	start := time.Now()
	again, err := (&Builder{CacheDir: dir}).Kernel(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kernel %s: %d bytes, %d gzipped; found in the cache in %v", k.Key, k.Wasm, k.Gzip, time.Since(start))
	if !again.Cached || again.Key != k.Key || !bytes.Equal(again.Script, k.Script) {
		t.Errorf("second build: cached %v, key %s (first %s), same script %v", again.Cached, again.Key, k.Key, bytes.Equal(again.Script, k.Script))
	}
}
