package sim

import (
	"fmt"
	"strconv"

	"github.com/warpbook/warpbook/internal/num"
)

// An access pattern, as a memory instruction's Width and Stride give it:
// thread t of a warp moves width bytes at byte t·stride·width from an
// aligned base (a stride of 0 is a broadcast, every thread at the base).
// The simulator moves what these two functions count; they are exported
// so that a caller can ask the question without running a program.

// Sectors returns the 32-byte sectors one full warp's global or local
// access touches: a contiguous 4-byte access moves 4, a stride of 2 moves
// 8 (half of every sector is waste), a stride of 8 or more one sector per
// thread. width is 1, 2, 4, 8 or 16 bytes; stride 0 to 1024 elements.
func Sectors(width, stride int) (int, error) {
	if err := checkAccess(width, stride); err != nil {
		return 0, err
	}
	return sectors(width, stride), nil
}

// Wavefronts returns the passes over shared memory's 32 four-byte banks
// that one full warp's access takes: the threads are served in phases of
// 128 bytes (32 threads of 4 bytes, 16 of 8, 8 of 16), and a phase takes
// as many passes as the most distinct words any one bank holds (a k-way
// bank conflict); threads reading one word share it, and a broadcast
// (stride 0) takes one pass. Its arguments are Sectors'.
func Wavefronts(width, stride int) (int, error) {
	if err := checkAccess(width, stride); err != nil {
		return 0, err
	}
	return wavefronts(width, stride), nil
}

func checkAccess(width, stride int) error {
	if width != 1 && width != 2 && width != 4 && width != 8 && width != 16 {
		return fmt.Errorf("sim: width %d, want 1, 2, 4, 8 or 16 bytes per thread", width)
	}
	if stride < 0 || stride > 1024 {
		return fmt.Errorf("sim: stride %d, want 0 (broadcast) to 1024 elements between consecutive threads", stride)
	}
	return nil
}

// ExplainSectors returns the arithmetic behind Sectors in words, one step
// per line of the answer.
func ExplainSectors(width, stride int) ([]string, error) {
	n, err := Sectors(width, stride)
	if err != nil {
		return nil, err
	}
	if stride == 0 {
		return []string{fmt.Sprintf("every thread reads the same %d bytes: one sector serves the warp, %d sector per request", width, n)}, nil
	}
	step := stride * width
	span := 31*step + width
	steps := []string{
		fmt.Sprintf("thread t reads %d bytes at byte t × %d × %d = %d·t: the warp's addresses run from 0 to %s",
			width, stride, width, step, num.Int(span-1)),
	}
	switch {
	case step >= 32:
		steps = append(steps, fmt.Sprintf("consecutive threads are %d bytes apart, at least a 32-byte sector: every thread needs a sector of its own", step))
		if width > 32-step%32 && step%32 != 0 {
			steps = append(steps, "some threads' bytes straddle two sectors")
		}
	default:
		steps = append(steps, fmt.Sprintf("the %s bytes the warp spans cover ⌈%s ÷ 32⌉ sectors", num.Int(span), num.Int(span)))
	}
	used := 32 * width
	steps = append(steps, fmt.Sprintf("%d sectors per request move %s bytes for the %d the threads use: %s %% of what moves is used",
		n, num.Int(32*n), used, num.Float(100*float64(used)/float64(32*n), 1)))
	return steps, nil
}

// ExplainWavefronts returns the arithmetic behind Wavefronts in words.
func ExplainWavefronts(width, stride int) ([]string, error) {
	n, err := Wavefronts(width, stride)
	if err != nil {
		return nil, err
	}
	if stride == 0 {
		return []string{"every thread reads the same word: a broadcast, one pass"}, nil
	}
	words := max(1, width/4)
	perPhase := 32 / words
	phases := 32 / perPhase
	steps := []string{}
	if phases == 1 {
		steps = append(steps, fmt.Sprintf("%d-byte accesses: the 32 threads are served in one phase of 128 bytes", width))
	} else {
		steps = append(steps, fmt.Sprintf("%d-byte accesses: the warp is served in %d phases of %d threads (128 bytes each)", width, phases, perPhase))
	}
	wordStride := stride * width / 4
	switch {
	case width < 4:
		steps = append(steps, fmt.Sprintf("thread t reads within word ⌊%d·t ÷ 4⌋; threads in one word share it, and the words fall on banks word mod 32", stride*width))
	case width > 4:
		steps = append(steps, fmt.Sprintf("thread t covers words %d·t to %d·t + %d, that is banks (%d·t + i) mod 32", wordStride, wordStride, words-1, wordStride))
	case wordStride%32 == 0:
		steps = append(steps, fmt.Sprintf("consecutive threads are %d words apart, a multiple of 32: every thread hits the same bank", wordStride))
	default:
		g := gcd(wordStride, 32)
		steps = append(steps, fmt.Sprintf("consecutive threads are %d words apart; gcd(%d, 32) = %d, so the 32 threads fall on %d banks, %s on each", wordStride, wordStride, g, 32/g, count(g, "distinct word", "distinct words")))
	}
	per := n / phases
	if phases == 1 {
		steps = append(steps, fmt.Sprintf("the busiest bank holds %s: %s = %d wavefronts", count(per, "distinct word", "distinct words"), count(per, "pass", "passes"), n))
	} else {
		steps = append(steps, fmt.Sprintf("the busiest bank holds %s per phase: %s per phase × %d phases = %d wavefronts", count(per, "distinct word", "distinct words"), count(per, "pass", "passes"), phases, n))
	}
	return steps, nil
}

// count writes n and the noun for it.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
