// Package sass reads the SASS that NVIDIA's compiler emitted, as the CUDA
// binary utilities print it, and decodes the scheduling decisions the
// compiler encoded in every instruction. It is pure: it parses bytes it is
// given and does no I/O.
//
//	l, err := sass.Parse("saxpy.sass", listing) // cuobjdump -sass -res-usage, or nvdisasm -hex
//	f, err := l.Function("saxpy")
//	for _, in := range f.Insts {
//		fmt.Println(in.Addr, in.Text, in.Ctrl) // 160 LDG.E R2, [R2.64] B------:R-:W2:-:S04
//	}
//
// engine/sim runs a [Function] (its Kernel type): this package only reads it.
//
// # Listings
//
// [Parse] reads the output of "cuobjdump -sass" (functions under
// "Function : NAME", the architecture from "code for sm_XX"; with
// -res-usage also each function's registers and static shared memory) and
// of "nvdisasm -hex" (functions under ".text.NAME:", labels such as
// ".L_x_3:", the registers from the section's SHI_REGISTERS and the shared
// memory from its .nv.shared section). Each instruction has an address, a
// guard predicate, an opcode with its modifiers, its operands and, for a
// branch, its target; and its 128-bit encoding, printed as two 64-bit
// words, low word first. An nvdisasm listing made without -hex has no
// encodings and so no control information.
//
// Architectures before sm_70 bundle one control word with three or seven
// instructions; they are not read. A listing is hostile input as often as
// not: Parse reads at most [MaxListingBytes] and [MaxInsts] instructions,
// and every problem is an [*Error] at the listing's line and byte column.
//
// # Control information
//
// From sm_70 on, bits 105 to 125 of each instruction are its control
// information: bits 41 to 61 of the second word as cuobjdump prints it.
// Jia, Maggioni, Staiger and Scarpazza ("Dissecting the NVIDIA Volta GPU
// Architecture via Microbenchmarking", 2018, §2.1) give the layout, from
// the least significant bit: 4 bits of stall cycles, 1 yield bit, a 3-bit
// write barrier index, a 3-bit read barrier index, a 6-bit wait barrier
// mask and 4 reuse flags. [DecodeControl] decodes them into a [Control].
// The tests hold the decoding to the compiler's own listings for sm_70,
// sm_75, sm_80, sm_86, sm_89, sm_90 and sm_90a: every counter an
// instruction waits on is set by an instruction of the same function (an
// LDG that sets SB2 and the FFMA that waits on it, in saxpy), and every
// stall count above 11 comes with the yield bit clear, as Huerta et al.
// observed of compiler-generated code.
//
// Huerta, Abaie Shoushtary, Cruz and González ("Dissecting and Modeling the
// Architecture of Modern GPU Cores", MICRO 2025, §4) measured what each
// field does on Turing, Ampere and Blackwell hardware:
//
//   - The stall count: after issuing the instruction the warp may not
//     issue again for that many cycles. The compiler sets it so that a
//     fixed-latency result is ready when its first consumer issues; the
//     hardware does not check register dependencies at all.
//   - Yield: when the yield bit is clear the warp may not issue in the next
//     cycle, so the scheduler turns to another warp ([Control].Yield is
//     true then). Jia et al. describe the same bit as the scheduler's
//     preference to stay on the warp when it is set.
//   - Dependence counters SB0 to SB5 (Jia et al.'s barriers): a
//     variable-latency instruction (memory, special functions, S2R, and
//     FP64 on parts whose FP64 units are shared) increments its write
//     counter at issue and decrements it when its result is written; an
//     instruction that must keep its source registers (a store's data)
//     increments its read counter and decrements it once it has read them.
//     An instruction waits until every counter of its wait mask is zero;
//     DEPBAR.LE SBn, k waits until counter n is at most k.
//   - Reuse flags keep a source operand in the register file cache.
package sass
