// Package roofline is the roofline model of Williams, Waterman and
// Patterson (Communications of the ACM, 2009) for one SM of the
// simulator's presets: a kernel's attainable rate is the lower of the peak
// compute rate and the memory bandwidth times its arithmetic intensity
// (FLOPs per byte moved); the two roofs meet at the ridge point, peak ÷
// bandwidth.
//
// The figures are per SM and per cycle: a [Roof] holds a preset's peak
// FLOPs per SM per cycle (FP32 on the CUDA cores, or dense FP16 on the
// tensor cores) and its share of the device memory's sustained bandwidth,
// both from engine/sim's presets (each preset's Sources says where they
// come from), counted at the clock at which the peak holds: the tensor
// roof of a part whose tensor peak holds below its boost clock
// (Machine.TensorClockMHz) is drawn at that clock, where the same bytes
// per second are more bytes per cycle.
//
//	r, _ := roofline.Of(sim.Ampere(), roofline.Tensor)
//	r.Ridge() // 2,048 FLOP/cycle ÷ 9.24 bytes/cycle ≈ 222 FLOP per byte
package roofline

import (
	"fmt"

	"github.com/warpbook/warpbook/engine/sim"

	"github.com/warpbook/warpbook/internal/num"
)

// Unit is the compute unit a roof is drawn for.
type Unit int

const (
	// FP32 is fused multiply-adds on the CUDA cores: 2 FLOPs per lane per
	// cycle, each scheduler's FMA pipe taking a warp instruction every
	// Machine.FMA.Interval cycles.
	FP32 Unit = iota
	// Tensor is dense FP16 matrix multiply-accumulate on the tensor
	// cores: 2 FLOPs per multiply-add, Machine.TensorFMA per scheduler
	// per cycle.
	Tensor
)

// String returns "FP32" or "FP16 tensor".
func (u Unit) String() string {
	if u == Tensor {
		return "FP16 tensor"
	}
	return "FP32"
}

// Roof is one SM's roofline.
type Roof struct {
	// Machine is the preset's name ("ampere").
	Machine string
	// Unit is what the compute roof counts.
	Unit Unit
	// FLOPs is the peak, in FLOPs per SM per cycle.
	FLOPs float64
	// Bytes is the SM's share of the sustained DRAM bandwidth, in bytes
	// per SM per cycle.
	Bytes float64
	// ClockMHz is the SM clock the cycles are counted at: the preset's,
	// or for the tensor roof the clock at which NVIDIA's tensor peak
	// holds (Machine.TensorClockMHz), at which the same bytes per second
	// are more bytes per cycle.
	ClockMHz int
}

// Of returns the roof of machine m for unit u. A machine without the unit
// (no tensor cores), without a DRAM bandwidth or with a second FP32 pipe
// (Kepler's dual issue, whose peak the model does not reach) is an error.
func Of(m sim.Machine, u Unit) (Roof, error) {
	if u == Tensor && m.TensorClockMHz > 0 {
		m = m.AtClock(m.TensorClockMHz)
	}
	r := Roof{Machine: m.Name, Unit: u, Bytes: m.DRAMBytesPerCycle, ClockMHz: m.ClockMHz}
	if !(m.DRAMBytesPerCycle > 0) {
		return Roof{}, fmt.Errorf("roofline: preset %s has no DRAM bandwidth", m.Name)
	}
	switch u {
	case FP32:
		if m.FMA.Interval < 1 || m.FMA2.Interval != 0 || m.Schedulers < 1 {
			return Roof{}, fmt.Errorf("roofline: preset %s has no single FP32 pipe per scheduler to count", m.Name)
		}
		r.FLOPs = float64(2 * m.Schedulers * 32 / m.FMA.Interval)
	case Tensor:
		if m.TensorFMA < 1 || m.Schedulers < 1 {
			return Roof{}, fmt.Errorf("roofline: preset %s has no tensor-core rate", m.Name)
		}
		r.FLOPs = float64(2 * m.Schedulers * m.TensorFMA)
	default:
		return Roof{}, fmt.Errorf("roofline: unknown unit %d", int(u))
	}
	return r, nil
}

// Ridge returns the ridge point in FLOPs per byte: the arithmetic
// intensity at which the memory roof meets the compute roof.
func (r Roof) Ridge() float64 { return r.FLOPs / r.Bytes }

// Attainable returns the attainable rate, in FLOPs per SM per cycle, of a
// kernel of the given arithmetic intensity (FLOPs per byte).
func (r Roof) Attainable(intensity float64) float64 {
	return min(r.FLOPs, intensity*r.Bytes)
}

// Bound says which roof limits a kernel.
type Bound string

// The two roofs.
const (
	MemoryBound  Bound = "memory"
	ComputeBound Bound = "compute"
)

// Bound returns the roof that limits a kernel of the given intensity:
// memory below the ridge point, compute at or above it.
func (r Roof) Bound(intensity float64) Bound {
	if intensity < r.Ridge() {
		return MemoryBound
	}
	return ComputeBound
}

// Explain returns the arithmetic of the ridge point and of a kernel of
// the given intensity against it, in words.
func (r Roof) Explain(intensity float64) []string {
	perSM := "per SM per cycle"
	clock := ""
	if r.ClockMHz > 0 {
		clock = fmt.Sprintf(" at %s MHz", num.Float(float64(r.ClockMHz), 0))
	}
	steps := []string{
		fmt.Sprintf("the %s preset's %s peak is %s FLOPs %s, its share of DRAM bandwidth %s bytes %s%s", r.Machine, r.Unit, num.Float(r.FLOPs, 0), perSM, num.Float(r.Bytes, 2), perSM, clock),
		fmt.Sprintf("ridge point = %s ÷ %s = %s FLOP per byte", num.Float(r.FLOPs, 0), num.Float(r.Bytes, 2), num.Float(r.Ridge(), 1)),
	}
	b := r.Bound(intensity)
	rel := "below"
	if b == ComputeBound {
		rel = "at or above"
	}
	steps = append(steps, fmt.Sprintf("%s FLOP per byte is %s the ridge: %s-bound, at most %s FLOPs %s (%s %% of peak)",
		num.Float(intensity, 1), rel, b, num.Float(r.Attainable(intensity), 0), perSM, num.Float(100*r.Attainable(intensity)/r.FLOPs, 1)))
	return steps
}

// TileIntensity returns the arithmetic intensity, in FLOPs per byte, of a
// GEMM block that computes a bm × bn tile of C from a bm × K strip of A
// and a K × bn strip of B with elements of elemBytes bytes, each read
// once: 2·bm·bn·K FLOPs over elemBytes·(bm + bn)·K bytes, whatever K.
func TileIntensity(bm, bn, elemBytes int) (float64, error) {
	if bm < 1 || bn < 1 || elemBytes < 1 {
		return 0, fmt.Errorf("roofline: want a positive tile and element size, got %d × %d of %d bytes", bm, bn, elemBytes)
	}
	return 2 * float64(bm) * float64(bn) / (float64(elemBytes) * float64(bm+bn)), nil
}

// ExplainTile returns TileIntensity's arithmetic in words.
func ExplainTile(bm, bn, elemBytes int) ([]string, error) {
	x, err := TileIntensity(bm, bn, elemBytes)
	if err != nil {
		return nil, err
	}
	return []string{
		fmt.Sprintf("per step of k the block does 2 × %d × %d = %s FLOPs and reads (%d + %d) × %d = %s bytes of A and B",
			bm, bn, num.Float(float64(2*bm*bn), 0), bm, bn, elemBytes, num.Float(float64((bm+bn)*elemBytes), 0)),
		fmt.Sprintf("intensity = %s ÷ %s = %s FLOP per byte, whatever K is", num.Float(float64(2*bm*bn), 0), num.Float(float64((bm+bn)*elemBytes), 0), num.Float(x, 1)),
	}, nil
}
