//go:build !js

package live

import (
	"context"
	"os"
	"testing"
)

// BenchmarkBuild measures what producing the browser kernel costs a
// build: cold (an empty Go build cache and an empty kernel cache: every
// package compiled for js/wasm, then linked), after a change (the Go build
// cache warm, the kernel cache empty: a link) and cached (nothing changed:
// the stat check of the kernel's inputs). Each iteration of cold uses a
// fresh GOCACHE in a temporary directory; the user's own cache is not
// touched. It reports the kernel's sizes too.
func BenchmarkBuild(b *testing.B) {
	run := func(b *testing.B, goCache bool, kernelCache string) {
		for b.Loop() {
			b.StopTimer()
			if !goCache {
				b.Setenv("GOCACHE", b.TempDir())
			}
			cache := kernelCache
			if cache == "" {
				cache = b.TempDir()
			}
			bd := &Builder{CacheDir: cache}
			b.StartTimer()
			k, err := bd.Kernel(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(k.Wasm), "wasm-bytes")
			b.ReportMetric(float64(k.Gzip), "gzip-bytes")
		}
	}
	b.Run("cold", func(b *testing.B) { run(b, false, "") })
	b.Run("changed", func(b *testing.B) { run(b, true, "") })
	b.Run("cached", func(b *testing.B) {
		dir, err := os.MkdirTemp("", "warpbook-kernel-bench-")
		if err != nil {
			b.Fatal(err)
		}
		defer os.RemoveAll(dir)
		if _, err := (&Builder{CacheDir: dir}).Kernel(context.Background()); err != nil {
			b.Fatal(err)
		}
		run(b, true, dir)
	})
}
