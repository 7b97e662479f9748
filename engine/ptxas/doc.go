// Package ptxas holds what NVIDIA's assembler, ptxas, reports about a
// compiled kernel: its registers per thread, static shared memory, stack
// frame and spills ([Resources]), per kernel and architecture ([Kernel]).
// It is pure: it computes nothing from a GPU and reads no file.
//
// A page of the book records its CUDA cells' resources in a table that
// [FormatTable] writes and [ParseTable] reads back:
//
//	KERNEL  ARCH    REGISTERS  SMEM  STACK  SPILL-STORES  SPILL-LOADS
//	ilp4    sm_80          40     0      0             0            0
//	ilp4    sm_90a         40     0      0             0            0
//
// Registers are 32-bit registers per thread; SMEM is the static shared
// memory per block in bytes; STACK, SPILL-STORES and SPILL-LOADS are bytes
// per thread. The kernel is named as C++ names it, without its parameters
// ("ilp4", "tile<64>"), unless two kernels of the cell share that name.
//
// The Go snippets of such a page read the table through a variable the
// kernel declares, cuda, a [Kernels] value:
//
//	k := cuda.Kernel("ilp4", "sm_80")
//	r, _ := occupancy.Compute(gpu.A100(), k.Launch(256, 0))
//
// so that the occupancy a page prints is the occupancy calculator's answer
// for ptxas's own register count. Where the page records a kernel's whole
// listing (a sass block with raw and no selection), [Kernels.SASS] gives it
// to engine/sim, which runs the compiler's own instructions:
//
//	w, err := sim.ParseKernel("k.yaml", []byte("launch: {block: 256}"), cuda.SASS("ilp4", "sm_80"))
package ptxas
