package site

import (
	"context"
	"fmt"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// Kernel runs and verifies the snippets of parsed pages, calling done with
// each page's result (and its index) as soon as it is verified, one call at
// a time. The site never runs code itself; [*snippets.Kernel] is the
// implementation.
type Kernel interface {
	Stream(ctx context.Context, pages []*page.Page, done func(i int, r *snippets.PageResult))
}

// runCells runs and verifies every page with snippets or checked values
// through the kernel. Any failure fails the build.
func (b *build) runCells() error {
	var run []*htmlPage
	for _, p := range b.pages {
		if p.snip != nil && len(p.snip.Diagnostics) == 0 && (len(p.snip.Cells) > 0 || len(p.snip.Checks) > 0 || len(p.snip.CUDA) > 0) {
			run = append(run, p)
		}
	}
	if len(run) == 0 || b.opts.Kernel == nil {
		return nil
	}
	// The last build's results stand for pages it verified that are
	// unchanged; the kernel runs the rest.
	results := make([]*snippets.PageResult, len(run))
	var pages []*page.Page
	var at []int // index in run of each of pages
	finished := 0
	for i, p := range run {
		if results[i] = b.cache.result(p.snip, b.pkgs.Hash()); results[i] != nil {
			finished++
			continue
		}
		pages = append(pages, p.snip)
		at = append(at, i)
	}
	k := b.opts.Kernel
	if sk, ok := k.(*snippets.Kernel); ok && sk.Packages == nil && b.pkgs != nil {
		// The book's packages, for a kernel that was not given them.
		c := *sk
		c.Packages = func(*page.Page) *snippets.Packages { return b.pkgs }
		k = &c
	}
	if len(pages) > 0 {
		k.Stream(b.ctx, pages, func(i int, r *snippets.PageResult) {
			if i >= 0 && i < len(at) && results[at[i]] == nil {
				results[at[i]] = r
				b.cache.keep(r, b.pkgs.Hash())
				finished++
			}
			if b.opts.Progress != nil {
				b.opts.Progress(finished, len(run))
			}
		})
	}
	if finished != len(run) {
		return fmt.Errorf("kernel returned %d results for %d pages", finished, len(run))
	}
	for i, p := range run {
		res := results[i]
		b.addErrs(res.AllDiagnostics()...)
		if res.Failed() && len(res.AllDiagnostics()) == 0 {
			b.errorf(p.path, 0, "snippets failed without a diagnostic")
		}
		p.results = res
	}
	return nil
}
