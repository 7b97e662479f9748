package occupancy

import (
	"fmt"

	"github.com/warpbook/warpbook/engine/gpu"
)

// Axis is the kernel input a Curve varies.
type Axis int

const (
	// ByRegisters varies Kernel.Registers (registers per thread).
	ByRegisters Axis = iota
	// BySharedMem varies Kernel.DynamicSharedMem (bytes per block). The
	// kernel's MaxDynamicSharedMem should be left unset, so that the
	// attribute follows the launch.
	BySharedMem
	// ByBlockSize varies Kernel.BlockSize (threads per block).
	ByBlockSize
)

// String returns "registers", "shared memory" or "block size".
func (a Axis) String() string {
	switch a {
	case ByRegisters:
		return "registers"
	case BySharedMem:
		return "shared memory"
	case ByBlockSize:
		return "block size"
	}
	return fmt.Sprintf("Axis(%d)", int(a))
}

// Point is one point of a Curve: the value of the varied input and the
// result there.
type Point struct {
	// X is the value of the varied input.
	X int `json:"x"`
	// Result is the occupancy with that value.
	Result Result `json:"result"`
}

// maxCurvePoints bounds the length of a curve.
const maxCurvePoints = 1 << 20

// Curve computes k's occupancy on d as one input, axis, runs from from to
// to (inclusive) in steps of step: the data behind the book's occupancy
// plots, where the cliffs show. Every other input stays as in k.
func Curve(d gpu.Device, k Kernel, axis Axis, from, to, step int) ([]Point, error) {
	if step <= 0 {
		return nil, fmt.Errorf("occupancy: curve step must be positive, got %d", step)
	}
	if to < from {
		return nil, fmt.Errorf("occupancy: curve runs from %d to %d: the end is before the start", from, to)
	}
	if n := (to-from)/step + 1; n > maxCurvePoints {
		return nil, fmt.Errorf("occupancy: curve of %d points is too long (at most %d)", n, maxCurvePoints)
	}
	if axis < ByRegisters || axis > ByBlockSize {
		return nil, fmt.Errorf("occupancy: unknown curve axis %d", int(axis))
	}
	var pts []Point
	for x := from; x <= to; x += step {
		kx := k
		switch axis {
		case ByRegisters:
			kx.Registers = x
		case BySharedMem:
			kx.DynamicSharedMem = x
		case ByBlockSize:
			kx.BlockSize = x
		}
		r, err := Compute(d, kx)
		if err != nil {
			return nil, fmt.Errorf("occupancy: curve at %s %d: %w", axis, x, err)
		}
		pts = append(pts, Point{X: x, Result: r})
		if x > to-step {
			break // the next step would overflow or pass the end
		}
	}
	return pts, nil
}
