package ptxas

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/engine/occupancy"
)

// Resources are what ptxas -v reports for one function compiled for one
// architecture. Sizes are in bytes, register counts in 32-bit registers
// per thread.
type Resources struct {
	// Registers is the registers per thread ("Used N registers").
	Registers int `json:"registers"`
	// SharedMem is the static shared memory per block ("N bytes smem"):
	// __shared__ arrays, not the dynamic shared memory of a launch.
	SharedMem int `json:"shared_mem"`
	// ConstMem lists the constant-memory banks the function uses ("N
	// bytes cmem[B]"), bank order as ptxas prints them. Bank 0 holds the
	// kernel's parameters.
	ConstMem []ConstBank `json:"const_mem,omitempty"`
	// StackFrame is the function's own stack frame per thread ("N bytes
	// stack frame"): local arrays and spilled registers.
	StackFrame int `json:"stack_frame"`
	// CumulativeStack is the stack of the function and the functions it
	// calls ("N bytes cumulative stack size"); 0 when ptxas prints none.
	CumulativeStack int `json:"cumulative_stack,omitempty"`
	// SpillStores and SpillLoads are the bytes per thread of registers
	// spilled to local memory and loaded back ("N bytes spill stores, N
	// bytes spill loads"): what the STL and LDL instructions move.
	SpillStores int `json:"spill_stores"`
	SpillLoads  int `json:"spill_loads"`
	// LocalMem is the local memory per thread where ptxas reports it on
	// its own ("N bytes lmem", older toolkits).
	LocalMem int `json:"local_mem,omitempty"`
	// Barriers is the named barriers the kernel uses ("used N barriers"),
	// when ptxas reports them; 0 when it does not (CUDA 12.4 does not).
	Barriers int `json:"barriers,omitempty"`
	// Textures, Samplers and Surfaces count the bound texture, sampler
	// and surface references.
	Textures int `json:"textures,omitempty"`
	Samplers int `json:"samplers,omitempty"`
	Surfaces int `json:"surfaces,omitempty"`
}

// ConstBank is the constant memory a function uses in one bank.
type ConstBank struct {
	Bank  int `json:"bank"`
	Bytes int `json:"bytes"`
}

// Launch returns the occupancy calculator's view of the compiled kernel
// launched with blockSize threads per block and dynamicSharedMem bytes of
// dynamic shared memory: ptxas's registers and static shared memory, and
// its barriers (one, for __syncthreads, when ptxas does not say).
func (r Resources) Launch(blockSize, dynamicSharedMem int) occupancy.Kernel {
	barriers := cmp.Or(r.Barriers, 1)
	return occupancy.Kernel{
		BlockSize:        blockSize,
		Registers:        r.Registers,
		StaticSharedMem:  r.SharedMem,
		DynamicSharedMem: dynamicSharedMem,
		Barriers:         barriers,
	}
}

// Kernel is one kernel compiled for one architecture.
type Kernel struct {
	// Cell is the id of the page's CUDA cell that holds the kernel; ""
	// outside a page.
	Cell string
	// Name is the kernel's C++ name without its parameters ("ilp4",
	// "tile<64>"), or with them where two kernels of the cell share it.
	Name string
	// Arch is the architecture it was compiled for: "sm_80", "sm_90a".
	Arch string
	// Resources are ptxas's figures.
	Resources
	// SASS is the kernel's whole listing as cuobjdump -sass prints it
	// (each instruction's line and the line of its control word, without
	// the function's header), where the page records it; "" where it
	// does not. [Kernel.Listing] reads it.
	SASS string
	// SASSFile and SASSLine say where SASS is recorded: the page's path
	// and the line of its first instruction. Positions in the listing
	// are the page's.
	SASSFile string
	SASSLine int
}

// Kernels is the compiled kernels of a page, read-only: what its resource
// tables record. Make one with NewKernels.
type Kernels struct {
	list []Kernel
}

// NewKernels returns the kernels ks (copied).
func NewKernels(ks ...Kernel) Kernels {
	return Kernels{list: append([]Kernel(nil), ks...)}
}

// All returns every kernel, in the page's order.
func (ks Kernels) All() []Kernel {
	return append([]Kernel(nil), ks.list...)
}

// Kernel returns the kernel named name compiled for arch. name is the
// kernel's name as its table gives it ("ilp4"), or "CELL/NAME" where two
// cells of the page compile a kernel of that name for arch (the same
// kernel with other flags). It panics, saying which kernels there are,
// when name names none or more than one: a page's snippets name the
// page's own kernels.
func (ks Kernels) Kernel(name, arch string) Kernel {
	var found []Kernel
	for _, k := range ks.list {
		if k.Arch == arch && (k.Name == name || k.Cell+"/"+k.Name == name) {
			found = append(found, k)
		}
	}
	switch len(found) {
	case 1:
		return found[0]
	case 0:
		panic(fmt.Sprintf("ptxas: no kernel %q compiled for %s on this page (%s)", name, arch, ks.describe()))
	}
	var cells []string
	for _, k := range found {
		cells = append(cells, fmt.Sprintf("%q", k.Cell+"/"+k.Name))
	}
	panic(fmt.Sprintf("ptxas: %d cells compile a kernel %q for %s: name one of %s", len(found), name, arch, strings.Join(cells, ", ")))
}

// describe lists the kernels for a message: "ilp4 (sm_80, sm_90a), saxpy
// (sm_80)".
func (ks Kernels) describe() string {
	if len(ks.list) == 0 {
		return "it compiles none"
	}
	archs := map[string][]string{}
	var names []string
	for _, k := range ks.list {
		if archs[k.Name] == nil {
			names = append(names, k.Name)
		}
		if !slices.Contains(archs[k.Name], k.Arch) {
			archs[k.Name] = append(archs[k.Name], k.Arch)
		}
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s (%s)", n, strings.Join(archs[n], ", "))
	}
	return "it compiles " + strings.Join(parts, ", ")
}
