package ptxas

import (
	"errors"
	"fmt"

	"github.com/warpbook/warpbook/engine/sass"
)

// Listing reads the kernel's recorded SASS (k.SASS) as engine/sass reads
// a cuobjdump listing: one function, named k.Name, compiled for k.Arch,
// with the registers and static shared memory of k.Resources as its
// resource usage (so that sim.ParseKernel needs no launch.regs). Lines
// in the listing, and in the errors of its reading, are the page's
// (k.SASSFile from k.SASSLine on). A kernel without SASS is an error
// that says how a page records it.
func (k Kernel) Listing() (*sass.Listing, error) {
	if k.SASS == "" {
		return nil, fmt.Errorf("ptxas: the page records no whole listing of %s for %s: add ```sass kernel=%s arch=%s raw``` after its CUDA cell's blocks (empty, then warpbook test -update fills it)", k.Name, k.Arch, k.Name, k.Arch)
	}
	// The header takes four lines: the listing's first instruction is
	// its fifth line, the page's SASSLine.
	head := fmt.Sprintf(" Function %s:\n REG:%d STACK:%d SHARED:%d LOCAL:0\n\tcode for %s\n\t\tFunction : %s\n",
		k.Name, k.Registers, k.StackFrame, k.SharedMem, k.Arch, k.Name)
	shift := k.SASSLine - 5
	if k.SASSLine == 0 {
		shift = 0
	}
	l, err := sass.Parse(k.SASSFile, []byte(head+k.SASS))
	var se *sass.Error
	if errors.As(err, &se) {
		if se.Line > 4 {
			se.Line += shift
		} else if se.Line > 0 {
			se.Line, se.Col = k.SASSLine, 0
		}
		return nil, se
	}
	if err != nil {
		return nil, err
	}
	for _, f := range l.Functions {
		f.Line = max(k.SASSLine-1, 1)
		for i := range f.Insts {
			f.Insts[i].Line += shift
		}
	}
	return l, nil
}

// SASS returns the listing of the kernel name compiled for arch (see
// [Kernels.Kernel] for the name) as the page records it, ready for
// sim.ParseKernel:
//
//	w, err := sim.ParseKernel("reduce.yaml", []byte("launch: {block: 256, blocks: 864}"), cuda.SASS("reduce_shfl", "sm_80"))
//
// Like Kernel it panics, saying what to write, when the page compiles no
// such kernel or records no whole listing of it (a sass block with raw
// and no selection); a listing that does not read is an error of the
// page before any snippet runs.
func (ks Kernels) SASS(name, arch string) *sass.Listing {
	l, err := ks.Kernel(name, arch).Listing()
	if err != nil {
		panic(err.Error())
	}
	return l
}
