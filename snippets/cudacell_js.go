//go:build js

package snippets

import (
	"context"

	"github.com/warpbook/warpbook/snippets/page"
)

// CUDA stands for the compiler of CUDA cells, which the browser kernel
// does not have: its CUDA cells show their recorded blocks.
type CUDA struct{}

// checkCUDA skips every CUDA cell: the browser has no toolkit.
func (k *Kernel) checkCUDA(ctx context.Context, p *page.Page) []*CUDAResult {
	out := make([]*CUDAResult, len(p.CUDA))
	for i, c := range p.CUDA {
		if k.cudaSelected(c) {
			out[i] = &CUDAResult{ID: c.ID(), Status: StatusSkip, Skip: ErrNoCUDA.Error()}
		}
	}
	return out
}
