package problems

import (
	"fmt"

	"github.com/warpbook/warpbook/engine/cdna"
	"github.com/warpbook/warpbook/engine/roofline"
	"github.com/warpbook/warpbook/engine/sim"

	"github.com/warpbook/warpbook/internal/num"
)

// roofPresets are the simulator presets with both roofs.
var roofPresets = []string{"volta", "turing", "ampere", "hopper", "h800"}

// roofOf returns the roof of params' gpu (a simulator preset) and unit.
func roofOf(in Values) (roofline.Roof, sim.Machine, error) {
	m, err := sim.Preset(in.Str("gpu"))
	if err != nil {
		return roofline.Roof{}, m, err
	}
	u := roofline.FP32
	switch in.Str("unit") {
	case "fp32":
	case "tensor":
		u = roofline.Tensor
	default:
		return roofline.Roof{}, m, fmt.Errorf("problems: unit %q, want fp32 or tensor", in.Str("unit"))
	}
	r, err := roofline.Of(m, u)
	return r, m, err
}

// roofFacts states the model's figures of a roof.
func roofFacts(r roofline.Roof, m sim.Machine) []string {
	how := fmt.Sprintf("%d schedulers × 32 lanes ÷ %d cycles per warp FMA × 2 FLOPs", m.Schedulers, m.FMA.Interval)
	if r.Unit == roofline.Tensor {
		how = fmt.Sprintf("%d schedulers × %d dense FP16 multiply-adds per cycle × 2 FLOPs", m.Schedulers, m.TensorFMA)
	}
	return []string{
		fmt.Sprintf("The model's %s preset (%s): %s %s FLOPs per SM per cycle (%s), at %s MHz.", m.Name, m.Part, num.Float(r.FLOPs, 0), r.Unit, how, num.Int(r.ClockMHz)),
		fmt.Sprintf("Its SM's share of the sustained DRAM bandwidth, at that clock: %s bytes per cycle.", num.Float(r.Bytes, 2)),
	}
}

func rooflineFamily() Family {
	return Family{
		Name: "roofline", Code: "roof", Tags: []string{"roofline"}, Title: "Ridge point: memory- or compute-bound",
		Section: "tensor-cores.md#roofline-and-arithmetic-intensity",
		draw: func(r *rng) Values {
			in := Values{{"gpu", pick(r, roofPresets)}, {"unit", pick(r, []string{"fp32", "tensor"})}}
			ridge := 20.0
			if rf, _, err := roofOf(in); err == nil {
				ridge = rf.Ridge()
			}
			// An intensity clearly on one side: a factor of 1.25 to 8 away.
			f := pick(r, []float64{1.25, 1.5, 2, 3, 4, 6, 8})
			x := ridge * f
			if r.chance(1, 2) {
				x = ridge / f
			}
			return in.With("intensity", round(x, max(0, 1-int(x/100))))
		},
		make: makeRoofline,
	}
}

func makeRoofline(in Values) (*Problem, error) {
	rf, m, err := roofOf(in)
	if err != nil {
		return nil, err
	}
	x := in.Float("intensity")
	if !(x > 0) {
		return nil, fmt.Errorf("problems: intensity %v, want a positive number of FLOPs per byte", x)
	}
	ridge := round(rf.Ridge(), 1)
	b := string(rf.Bound(x))
	return &Problem{
		Params: in,
		Question: fmt.Sprintf("A kernel does %s %s FLOPs per byte it moves to or from DRAM, on the %s preset. Where is the ridge point of the roofline, and is the kernel memory- or compute-bound?",
			num.Float(x, 1), rf.Unit, m.Name),
		Given: roofFacts(rf, m),
		Parts: []Part{
			numberPart("ridge", "Ridge point (FLOP per byte)", "FLOP/byte", ridge, 1, func() (float64, bool, string) { return withinPercent(1) }),
			choicePart("bound", "Memory- or compute-bound?", []string{"memory", "compute"}, b),
		},
		Answer:   Values{{"ridge", ridge}, {"bound", b}},
		Solution: rf.Explain(x),
	}, nil
}

func tileFamily() Family {
	return Family{
		Name: "tile-intensity", Code: "tile", Tags: []string{"roofline", "tensor-cores", "gemm"}, Title: "Tensor-core tile intensity",
		Section: "tensor-cores.md#roofline-and-arithmetic-intensity",
		draw: func(r *rng) Values {
			sizes := []int{16, 32, 64, 64, 128, 128, 192, 256}
			return Values{{"gpu", pick(r, roofPresets)}, {"bm", pick(r, sizes)}, {"bn", pick(r, sizes)}}
		},
		make: makeTile,
	}
}

func makeTile(in Values) (*Problem, error) {
	rf, m, err := roofOf(in.With("unit", "tensor"))
	if err != nil {
		return nil, err
	}
	bm, bn := in.Int("bm"), in.Int("bn")
	x, err := roofline.TileIntensity(bm, bn, 2)
	if err != nil {
		return nil, err
	}
	sol, _ := roofline.ExplainTile(bm, bn, 2)
	sol = append(sol, rf.Explain(x)[1:]...)
	xr := round(x, 1)
	b := string(rf.Bound(x))
	return &Problem{
		Params: in,
		Question: fmt.Sprintf("A GEMM block on the %s preset computes a %d × %d tile of C with FP16 tensor cores, reading a %d × K strip of A and a K × %d strip of B (2-byte elements, each read once). What is the tile's arithmetic intensity, and if every tile load came from DRAM, would the kernel be memory- or compute-bound?",
			m.Name, bm, bn, bm, bn),
		Given: roofFacts(rf, m),
		Parts: []Part{
			numberPart("intensity", "Intensity (FLOP per byte)", "FLOP/byte", xr, 1, func() (float64, bool, string) { return withinPercent(1) }),
			choicePart("bound", "Memory- or compute-bound?", []string{"memory", "compute"}, b),
		},
		Answer:   Values{{"intensity", xr}, {"bound", b}},
		Solution: sol,
	}, nil
}

var cdnaParts = []string{"MI100", "MI210", "MI250X", "MI300X"}

func cdnaFamily() Family {
	return Family{
		Name: "cdna-waves", Code: "amd", Tags: []string{"amd", "occupancy", "registers"}, Title: "Waves per SIMD on AMD CDNA",
		Section: "amd-wavefronts.md#vgpr-granularity-and-waves-per-simd-on-mi200-and-mi300",
		draw: func(r *rng) Values {
			in := Values{{"gpu", pick(r, cdnaParts)}, {"vgprs", r.between(8, 256)}}
			if r.chance(1, 3) {
				in = in.With("agprs", 4*r.between(1, 64))
			}
			return in
		},
		make: makeCDNA,
	}
}

func makeCDNA(in Values) (*Problem, error) {
	name := in.Str("gpu")
	t, err := cdna.Lookup(name)
	if err != nil {
		return nil, err
	}
	v, a := in.Int("vgprs"), in.Int("agprs")
	w, err := t.Waves(v, a)
	if err != nil {
		return nil, err
	}
	sol, err := t.ExplainWaves(v, a)
	if err != nil {
		return nil, err
	}
	regs := fmt.Sprintf("%d VGPRs", v)
	if a > 0 {
		regs += fmt.Sprintf(" and %d AGPRs", a)
	}
	agprs := "AGPRs are a file of their own, as large"
	if t.UnifiedAGPRs {
		agprs = "AGPRs come out of the same file, after the VGPRs rounded up to 4"
	}
	return &Problem{
		Params:   in,
		Question: fmt.Sprintf("A HIP kernel uses %s per work-item on an %s (%s). How many wavefronts can one SIMD hold, as far as vector registers allow?", regs, name, t.Name),
		Given: []string{fmt.Sprintf("The model's %s (%s): %d registers per lane per SIMD, allocated to a wave in granules of %d; at most %d waves per SIMD; %s.",
			t.Name, t.Architecture, t.RegistersPerLane, t.Granule, t.MaxWaves, agprs)},
		Parts:    []Part{numberPart("waves", "Waves per SIMD", "waves", float64(w), 0, exactly)},
		Answer:   Values{{"waves", w}},
		Solution: sol,
	}, nil
}
