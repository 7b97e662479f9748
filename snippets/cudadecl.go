package snippets

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
)

// The variable cuda: on a page with CUDA cells, every Go session but a
// whole program's has a package-level variable cuda, a ptxas.Kernels of
// the kernels the page's resources blocks record. The kernel writes its
// declaration from the recorded blocks (not from a compile), so that the
// same page runs the same way with a toolkit or without, natively and in
// the browser kernel; the compile checks the blocks. A kernel whose whole
// listing the page records (a sass block with raw and no selection) has
// it too, for cuda.SASS, except in a program a reader copies whose code
// never names it (see usesSASS). Its lines are in a file of their own in
// the generated programs, cudaFile, so that the
// sandbox checks them as a snippet's (it uses the engine only) and a
// snippet may use the variable.

// ptxasPath is the import path of package ptxas.
const ptxasPath = modulePath + "/engine/ptxas"

// cudaFile is the file name of the variable's declaration in the
// generated programs.
const cudaFile = "_wbcuda.go"

// cudaVar is the variable's name.
const cudaVar = "cuda"

// cudaDecl returns the declaration of cuda for page p, without its
// import: "var cuda = ptxas.NewKernels(...)\n"; "" for a page without
// CUDA cells. With withSASS false it leaves the kernels' listings out.
func cudaDecl(p *page.Page, withSASS bool) string {
	if len(p.CUDA) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "var %s = ptxas.NewKernels(", cudaVar)
	n := 0
	for _, c := range p.CUDA {
		for _, k := range c.Kernels {
			n++
			r := k.Resources
			fmt.Fprintf(&b, "\n\tptxas.Kernel{Cell: %s, Name: %s, Arch: %s, Resources: ptxas.Resources{Registers: %d, SharedMem: %d, StackFrame: %d, SpillStores: %d, SpillLoads: %d}",
				strconv.Quote(k.Cell), strconv.Quote(k.Name), strconv.Quote(k.Arch), r.Registers, r.SharedMem, r.StackFrame, r.SpillStores, r.SpillLoads)
			if withSASS && k.SASS != "" {
				fmt.Fprintf(&b, ", SASSFile: %s, SASSLine: %d, SASS: %s", strconv.Quote(k.SASSFile), k.SASSLine, strconv.Quote(k.SASS))
			}
			b.WriteString("},")
		}
	}
	if n > 0 {
		b.WriteString("\n")
	}
	b.WriteString(")\n")
	return b.String()
}

// prelude returns what a new interpreter of session s evaluates first:
// the import of ptxas and the declaration of cuda; nil for a whole
// program, or a page without CUDA cells.
func (pl *plan) prelude(s *session) []string {
	if s.program || pl.cuda == "" {
		return nil
	}
	return []string{"package main\nimport " + strconv.Quote(ptxasPath) + "\n" + pl.cuda}
}

// usesSASS reports whether the code of session s up to unit last may
// reach a kernel's listing: it names SASS or Listing. A program a reader
// copies carries the listings (tens of kilobytes each) only then.
func usesSASS(s *session, last *unit) bool {
	for _, u := range s.units {
		if u.code != nil && (strings.Contains(u.code.src.text, "SASS") || strings.Contains(u.code.src.text, "Listing")) {
			return true
		}
		if u == last {
			break
		}
	}
	return false
}
