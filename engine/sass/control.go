package sass

import (
	"fmt"
	"strings"
)

// NoSB is the value of [Control].WriteSB and ReadSB when the instruction
// sets no dependence counter.
const NoSB = -1

// Counters is the number of dependence counters (scoreboards) a warp has:
// SB0 to SB5.
const Counters = 6

// Control is the scheduling information the compiler encodes in every
// instruction from sm_70 on: bits 105 to 125 of the 128-bit word, which
// cuobjdump and nvdisasm print as bits 41 to 61 of the second 64-bit word.
// The layout, from the least significant bit, is Jia et al.'s (2018, §2.1):
//
//	bits  0–3   stall cycles
//	bit   4     yield flag (0: yield)
//	bits  5–7   write dependence counter (7: none)
//	bits  8–10  read dependence counter (7: none)
//	bits 11–16  wait mask, one bit per counter SB0–SB5
//	bits 17–20  reuse flags, one per source operand slot
//
// The meanings are Huerta et al.'s (MICRO 2025, §4), who tested each on
// Turing, Ampere and Blackwell hardware: see the package documentation.
type Control struct {
	// Stall is the stall count, 0 to 15: the cycles the warp waits after
	// this instruction before it may issue its next one. The compiler sets
	// it so that a fixed-latency result is ready when its first consumer
	// issues; the hardware does not check.
	Stall int
	// Yield is set when the encoding's yield bit is clear: the warp may not
	// issue its next instruction in the following cycle, so the scheduler
	// turns to another warp (Huerta et al. §4; Jia et al. §2.1 describe the
	// same bit from the other side: set, the scheduler prefers to stay).
	Yield bool
	// WriteSB is the dependence counter (0 to 5) the instruction increments
	// at issue and decrements when its result is written (read-after-write
	// and write-after-write hazards of variable-latency results), or NoSB.
	WriteSB int
	// ReadSB is the dependence counter the instruction increments at issue
	// and decrements once it has read its source registers (write-after-read
	// hazards, e.g. a store's data register), or NoSB.
	ReadSB int
	// Wait is the mask of counters (bit i: SBi) that must be zero before the
	// instruction may issue.
	Wait uint8
	// Reuse holds the register reuse flags, bit i for source operand slot i:
	// keep that operand in the register file cache for the next instruction.
	Reuse uint8
}

// DecodeControl returns the control information in the second (high)
// 64-bit word of a 128-bit instruction, as cuobjdump prints it.
func DecodeControl(hi uint64) Control {
	c := hi >> 41
	ctl := Control{
		Stall:   int(c & 0xf),
		Yield:   c>>4&1 == 0,
		WriteSB: int(c >> 5 & 7),
		ReadSB:  int(c >> 8 & 7),
		Wait:    uint8(c >> 11 & 0x3f),
		Reuse:   uint8(c >> 17 & 0xf),
	}
	if ctl.WriteSB > 5 {
		ctl.WriteSB = NoSB
	}
	if ctl.ReadSB > 5 {
		ctl.ReadSB = NoSB
	}
	return ctl
}

// Encode returns the control information as the bits of the second
// 64-bit word of an instruction (bits 41 to 61; the others zero): the
// inverse of DecodeControl, for writing listings by hand.
func (c Control) Encode() uint64 {
	sb := func(v int) uint64 {
		if v < 0 || v >= Counters {
			return 7
		}
		return uint64(v)
	}
	var y uint64 = 1
	if c.Yield {
		y = 0
	}
	bits := uint64(c.Stall&0xf) | y<<4 | sb(c.WriteSB)<<5 | sb(c.ReadSB)<<8 | uint64(c.Wait&0x3f)<<11 | uint64(c.Reuse&0xf)<<17
	return bits << 41
}

// Waits reports whether the instruction waits for counter sb.
func (c Control) Waits(sb int) bool { return sb >= 0 && sb < Counters && c.Wait>>uint(sb)&1 != 0 }

// String returns the control information in the notation of the
// CuAssembler tool that Huerta et al. used, e.g. "B--2---:R-:W0:Y:S04":
// the wait mask (a digit per counter waited for), the read and write
// counters, Y for yield and the stall count.
func (c Control) String() string {
	var b strings.Builder
	b.WriteByte('B')
	for i := 0; i < Counters; i++ {
		if c.Waits(i) {
			b.WriteByte(byte('0' + i))
		} else {
			b.WriteByte('-')
		}
	}
	sb := func(v int) string {
		if v == NoSB {
			return "-"
		}
		return fmt.Sprint(v)
	}
	y := "-"
	if c.Yield {
		y = "Y"
	}
	fmt.Fprintf(&b, ":R%s:W%s:%s:S%02d", sb(c.ReadSB), sb(c.WriteSB), y, c.Stall)
	return b.String()
}
