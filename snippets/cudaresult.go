package snippets

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"time"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/warpbook/warpbook/snippets/page"
)

// CUDAResult is what compiling and checking one CUDA cell found: the
// resources and SASS excerpts its compile gives, compared with the blocks
// the page records.
type CUDAResult struct {
	// ID is the CUDA cell's id.
	ID string `json:"id"`
	// Status is pass, fail, or skip when the cell was not compiled.
	Status Status `json:"status"`
	// Skip says why a skipped cell was not compiled: there is no CUDA
	// toolkit here (ErrNoCUDA), or the cell was not selected.
	Skip string `json:"skip,omitempty"`
	// Resources is the resource table the compile gives (the resources
	// block's text); "" when the cell did not compile.
	Resources string `json:"resources,omitempty"`
	// SASS holds, by sass block ([page.SASSBlock.Index]), the excerpt the
	// compile gives; a block whose selection failed has none.
	SASS map[int]string `json:"sass,omitempty"`
	// Toolkit says what compiled the cell: "CUDA 12.4.131 (fetched; host
	// compiler g++-12 ...)".
	Toolkit string `json:"toolkit,omitempty"`
	// Warnings are the compiler's warnings, at their lines of the page.
	Warnings page.Diagnostics `json:"-"`
	// Diagnostics say what is wrong when Status is fail.
	Diagnostics page.Diagnostics `json:"-"`
	// Elapsed is how long the compile took (short when it was cached).
	Elapsed time.Duration `json:"elapsed,omitempty"`
}

// ErrNoCUDA is wrapped by the skip of a CUDA cell that was not compiled
// because the kernel has no toolkit (Kernel.CUDA is nil): its recorded
// blocks stand as they are.
var ErrNoCUDA = errors.New("CUDA was not compiled here")

// cudaUpdatable reports whether -update can fix a CUDA result: it failed
// only because a recorded block differs from what the compile gives.
func cudaUpdatable(cr *CUDAResult) bool {
	if cr == nil || cr.Status != StatusFail || len(cr.Diagnostics) == 0 || cr.Resources == "" {
		return false
	}
	for _, d := range cr.Diagnostics {
		if !errors.Is(d, ErrOutput) {
			return false
		}
	}
	return true
}

// CUDAUpdateCommand is the command that rewrites the verified blocks of
// CUDA cell c, written for a POSIX shell.
func CUDAUpdateCommand(c *page.CUDACell) string {
	return fmt.Sprintf("warpbook test -update -run '^%s$' %s", c.ID(), shellQuote(c.Pos.File))
}

// compareBlock compares text a compile gives with a recorded block's
// body, as outputs are compared: trailing blanks and blank lines do not
// count. what names the block for the message; at is where it is, or
// where it should be.
func compareBlock(c *page.CUDACell, at page.Pos, what, recorded, got string, missing bool) *page.Diagnostic {
	if normalize(recorded, false) == normalize(got, false) {
		return nil
	}
	d := &page.Diagnostic{Pos: at, ID: c.ID(), Err: ErrOutput, Hint: CUDAUpdateCommand(c),
		Msg:  "the " + what + " block differs from what the compiler gives",
		Diff: udiff.Unified("recorded", "compiled", normalize(recorded, false), normalize(got, false))}
	if missing {
		d.Msg = "has no " + what + " block: the compiler gives the one below"
	}
	return d
}

// cudaSelected reports whether the filter selects a CUDA cell: its id, or
// the id of one of its sass blocks.
func (k *Kernel) cudaSelected(c *page.CUDACell) bool {
	if k.selected(c.ID()) {
		return true
	}
	for _, s := range c.SASS {
		if k.selected(s.ID()) {
			return true
		}
	}
	return false
}

// kernelLabel names a sass block's kernel and architecture for a message.
func kernelLabel(s *page.SASSBlock) string {
	name := cmp.Or(s.Kernel, "its kernel")
	return strings.TrimSpace(name + " for " + s.ArchOrDefault())
}
