package main

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/cuda"
	"github.com/warpbook/warpbook/snippets/page"
)

// requireCUDAUsage is the help of --require-cuda, the same in test and
// build.
const requireCUDAUsage = "fail when the book's CUDA cells cannot be compiled here (no CUDA toolkit), as CI does, instead of showing their recorded blocks unchecked"

// findCUDA returns the compiler of the book's CUDA cells, caching in
// cacheDir ("" caches nothing), or nil and why there is none.
func findCUDA(ctx context.Context, cacheDir string) (*snippets.CUDA, error) {
	tk, err := cuda.Find(ctx)
	if err != nil {
		return nil, err
	}
	return &snippets.CUDA{Toolkit: tk, CacheDir: cacheDir}, nil
}

// uncompiled reports whether a CUDA cell's result is a skip for want of
// a toolkit.
func uncompiled(r *snippets.CUDAResult) bool {
	return r != nil && r.Status == snippets.StatusSkip && r.Skip == snippets.ErrNoCUDA.Error()
}

// hasCUDA reports whether any page has a CUDA cell.
func hasCUDA(pages []*page.Page) bool {
	for _, p := range pages {
		if len(p.CUDA) > 0 {
			return true
		}
	}
	return false
}

// reportUncompiled says once, on stderr, that n CUDA cells were not
// compiled here, why, and how to compile them (why, cuda.Find's error,
// names the fetch command).
func reportUncompiled(c *cli, n int, why error) {
	if n == 0 {
		return
	}
	cells := "1 CUDA cell was"
	if n != 1 {
		cells = fmt.Sprintf("%d CUDA cells were", n)
	}
	fmt.Fprintf(c.stderr, "warpbook %s: CUDA was not compiled here: %s left as recorded, unchecked, because %v\n", c.name, cells, why)
}

// countingKernel is the build's kernel, counting the CUDA cells it could
// not compile.
type countingKernel struct {
	*snippets.Kernel
	uncompiled atomic.Int64
}

// Stream implements site.Kernel.
func (k *countingKernel) Stream(ctx context.Context, pages []*page.Page, done func(int, *snippets.PageResult)) {
	k.Kernel.Stream(ctx, pages, func(i int, r *snippets.PageResult) {
		for _, c := range r.CUDA {
			if uncompiled(c) {
				k.uncompiled.Add(1)
			}
		}
		done(i, r)
	})
}
