package roofline_test

import (
	"math"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/roofline"
	"github.com/warpbook/warpbook/engine/sim"
)

// TestPeaks holds the presets' peaks per SM per cycle to the
// architecture whitepapers' counts: FP32 cores per SM (V100, T4 and A100
// 64; H100 128) and dense FP16 tensor multiply-adds per SM per clock
// (V100 and T4: 8 tensor cores × 64; A100 4 × 256; H100 4 × 512), two
// FLOPs per lane or multiply-add.
func TestPeaks(t *testing.T) {
	for _, c := range []struct {
		preset       string
		fp32, tensor float64
	}{
		{"volta", 2 * 64, 2 * 512},
		{"turing", 2 * 64, 2 * 512},
		{"ampere", 2 * 64, 2 * 1024},
		{"hopper", 2 * 128, 2 * 2048},
		{"h800", 2 * 128, 2 * 2048},
	} {
		m, err := sim.Preset(c.preset)
		if err != nil {
			t.Fatal(err)
		}
		f, err := roofline.Of(m, roofline.FP32)
		if err != nil || f.FLOPs != c.fp32 {
			t.Errorf("%s FP32: %v FLOPs per SM per cycle (%v), want %v", c.preset, f.FLOPs, err, c.fp32)
		}
		tc, err := roofline.Of(m, roofline.Tensor)
		if err != nil || tc.FLOPs != c.tensor {
			t.Errorf("%s tensor: %v FLOPs per SM per cycle (%v), want %v", c.preset, tc.FLOPs, err, c.tensor)
		}
		at := m
		if m.TensorClockMHz > 0 {
			at = m.AtClock(m.TensorClockMHz)
		}
		if f.Bytes != m.DRAMBytesPerCycle || f.ClockMHz != m.ClockMHz || tc.Ridge() != c.tensor/at.DRAMBytesPerCycle || tc.ClockMHz != at.ClockMHz {
			t.Errorf("%s: bytes %v at %d MHz, ridge %v at %d MHz", c.preset, f.Bytes, f.ClockMHz, tc.Ridge(), tc.ClockMHz)
		}
	}
	// Presets the model cannot draw a roof for.
	if _, err := roofline.Of(sim.GK110(), roofline.FP32); err == nil {
		t.Error("gk110 (dual issue) has an FP32 roof")
	}
	if _, err := roofline.Of(sim.GM204(), roofline.Tensor); err == nil {
		t.Error("gm204 has a tensor roof")
	}
	m := sim.Toy()
	m.DRAMBytesPerCycle = 0
	if _, err := roofline.Of(m, roofline.FP32); err == nil {
		t.Error("a machine without DRAM bandwidth has a roof")
	}
}

// TestBook: the ridge points the book's tensor-core chapter prints
// (tensor-cores.md, cell ridge, each peak at its clock: volta 167, turing
// 272, ampere 222, hopper 341, h800 406 FLOP per byte) and its tile
// intensities (64 × 64: 32.0, 128 × 256: 85.3 FLOP per byte of fp16).
func TestBook(t *testing.T) {
	for name, want := range map[string]float64{"volta": 167, "turing": 272, "ampere": 222, "hopper": 341, "h800": 406} {
		m, _ := sim.Preset(name)
		r, _ := roofline.Of(m, roofline.Tensor)
		if got := math.Round(r.Ridge()); got != want {
			t.Errorf("%s ridge %v, the book prints %v", name, got, want)
		}
	}
	for _, c := range []struct {
		bm, bn int
		want   float64
	}{{64, 64, 32.0}, {128, 128, 64.0}, {128, 256, 85.3}} {
		got, err := roofline.TileIntensity(c.bm, c.bn, 2)
		if err != nil || math.Round(10*got)/10 != c.want {
			t.Errorf("tile %d × %d: %v (%v), the book prints %v", c.bm, c.bn, got, err, c.want)
		}
	}
	if _, err := roofline.TileIntensity(0, 64, 2); err == nil {
		t.Error("a 0 × 64 tile has an intensity")
	}
}

// TestBoundAndExplain: below the ridge is memory-bound, at and above it
// compute-bound, and the explanation says which.
func TestBoundAndExplain(t *testing.T) {
	r, _ := roofline.Of(sim.Ampere(), roofline.FP32)
	ridge := r.Ridge()
	if r.Bound(ridge*0.99) != roofline.MemoryBound || r.Bound(ridge) != roofline.ComputeBound {
		t.Errorf("bounds around the ridge %v", ridge)
	}
	if got := r.Attainable(ridge / 2); math.Abs(got-r.FLOPs/2) > 1e-9 {
		t.Errorf("half the ridge attains %v of %v", got, r.FLOPs)
	}
	steps := r.Explain(2)
	if len(steps) != 3 || !strings.Contains(steps[2], "memory-bound") || !strings.Contains(steps[1], "ridge point = 128 ÷ 9.24") {
		t.Errorf("Explain: %q", steps)
	}
	ts, err := roofline.ExplainTile(128, 256, 2)
	if err != nil || !strings.Contains(ts[1], "= 85.3 FLOP per byte") {
		t.Errorf("ExplainTile: %q, %v", ts, err)
	}
}
