package sim

import (
	"fmt"
	"testing"
)

// The figures of the GH100 features (warpgroup MMA at small N, TMA,
// distributed shared memory), the L2's partitions, bank-conflict replays
// and Turing's warp start order; the presets' Sources say which numbers
// were taken from which of them.

// hopperRepo is Luo et al.'s benchmark repository, where their raw logs
// were read.
const hopperRepo = "HPMLL/NVIDIA-Hopper-Benchmark"

// gmmaN is an HGMMA m64nNk16 with A in shared memory or registers.
func gmmaN(n int, rs bool) Inst {
	in := Inst{Op: "HGMMA", Dst: "acc", Src: []string{"acc", "b"}, Shape: fmt.Sprintf("m64n%dk16", n)}
	if rs {
		in.Operands = "rs"
	}
	return in
}

// gmmaLatencyN is the cycles per waited-for HGMMA m64nNk16 on m.
func gmmaLatencyN(t *testing.T, m Machine, n int, rs bool) float64 {
	run := func(trips int) int {
		body := NewProgram().Add(gmmaN(n, rs)).Add(Inst{Op: "WARPGROUP.DEPBAR"})
		return steady(t, m, Workload{Name: "wgmma", Launch: Launch{Block: 128}, Program: NewProgram().Loop(trips, body)}).RunCycles
	}
	return float64(run(40)-run(20)) / 20
}

// gmmaTFLOPS is the dense FP16 TFLOPS of the whole part that one
// warpgroup per SM reaches with back-to-back HGMMA m64nNk16, at the
// tensor clock (the part's peak is quoted there).
func gmmaTFLOPS(t *testing.T, m Machine, n int, rs bool) float64 {
	run := func(trips int) int {
		p := NewProgram().Loop(trips, NewProgram().Add(gmmaN(n, rs))).Add(Inst{Op: "WARPGROUP.DEPBAR"})
		return steady(t, m, Workload{Name: "wgmma", Launch: Launch{Block: 128}, Program: p}).RunCycles
	}
	flops := float64(2 * 64 * n * 16 * 100)
	return flops / float64(run(200)-run(100)) * float64(m.SMs) * float64(m.TensorClockMHz) / 1e6
}

// tableX is Luo et al.'s Table X (H800, wgmma.m64nNk16.f32.f16.f16): per
// N, the latency and the dense TFLOPS with zeros and with random data,
// A in shared memory (SS) and in registers (RS).
var tableX = []struct {
	n                  int
	ssLat, rsLat       float64
	ssZero, ssRand     float64
	rsZero, rsRand     float64
	ssFitted, rsFitted bool
}{
	{n: 32, ssLat: 24, rsLat: 16, ssZero: 477.3, ssRand: 471.5, rsZero: 710.3, rsRand: 634.4},
	{n: 16, ssLat: 20, rsLat: 13, ssZero: 287.0, ssRand: 283.5, rsZero: 434.2, rsRand: 426.2, rsFitted: true},
	{n: 8, ssLat: 18, rsLat: 13, ssZero: 158.2, ssRand: 157.6, rsZero: 216.7, rsRand: 215.2, rsFitted: true},
}

// gmmaNote says why the model's back-to-back small wgmmas run faster
// than the H800's.
const gmmaNote = "back to back, each of the H800's small wgmmas takes about one cycle more than its latency (0.9 to 1.4 in the table's zero-data columns), as if the next could only start after the last had finished; the model starts it as soon as its accumulator is ready, at the latency, so it runs 5 to 8 % faster"

func tableXFigures() []figure {
	var out []figure
	for _, r := range tableX {
		for _, rs := range []bool{false, true} {
			mode, lat, zero, rnd, fitted := "SS", r.ssLat, r.ssZero, r.ssRand, r.ssFitted
			if rs {
				mode, lat, zero, rnd, fitted = "RS", r.rsLat, r.rsZero, r.rsRand, r.rsFitted
			}
			out = append(out, figure{arch: "h800", what: fmt.Sprintf("latency of a waited-for wgmma m64n%dk16, %s", r.n, mode),
				source: luo + ", Table X", published: fmt.Sprintf("%.1f cycles", lat), lo: lat, hi: lat,
				band: "the table's latencies are whole cycles", oos: !fitted, unit: "cycles",
				model: func(t *testing.T) float64 { return gmmaLatencyN(t, H800(), r.n, rs) }, agrees: true})
			out = append(out, figure{arch: "h800", what: fmt.Sprintf("back-to-back wgmma m64n%dk16, %s, dense FP16", r.n, mode),
				source: luo + ", Table X", published: fmt.Sprintf("%.1f TFLOPS (zeros), %.1f (random)", zero, rnd), lo: rnd, hi: zero,
				band: "zeros and random data", oos: true, unit: "TFLOPS",
				model: func(t *testing.T) float64 { return gmmaTFLOPS(t, H800(), r.n, rs) },
				note:  gmmaNote})
		}
	}
	return out
}

// dsmemLatency is the cycles per access of one warp's dependent chain of
// loads from another block's shared memory, clusters of size c on m.
func dsmemLatency(t *testing.T, m Machine, c int) float64 {
	run := func(n int) int {
		body := NewProgram().Add(Inst{Op: "LDS", Dst: "p", Src: []string{"p"}, Level: "dsmem"})
		return steady(t, m, Workload{Name: "dsmem chase", Launch: Launch{Block: 32, Blocks: c, Cluster: c}, Program: NewProgram().Loop(n, body)}).RunCycles
	}
	return float64(run(40)-run(20)) / 20
}

// chase is the cycles per access of one warp's dependent chain of LDGs
// at level on m.
func chase(t *testing.T, m Machine, level string) float64 {
	run := func(n int) int {
		body := NewProgram().Add(Inst{Op: "LDG", Dst: "p", Src: []string{"p"}, Level: level})
		return steady(t, m, Workload{Name: "chase", Launch: Launch{Block: 32}, Program: NewProgram().Loop(n, body)}).RunCycles
	}
	return float64(run(40)-run(20)) / 20
}

// tmaChase is the cycles per bulk copy of one thread's chain of 16-byte
// TMA loads at level, each waited for on its mbarrier.
func tmaChase(t *testing.T, m Machine, level string) float64 {
	run := func(n int) int {
		body := NewProgram().Add(Inst{Op: "UBLKCP", Src: []string{"p"}, Bytes: 16, Bar: "full", Level: level}).Add(Inst{Op: "SYNCS", Bar: "full"})
		return steady(t, m, Workload{Name: "tma chase", Launch: Launch{Block: 32}, Program: NewProgram().Loop(n, body)}).RunCycles
	}
	return float64(run(40)-run(20)) / 20
}

// transposeGBs is the GB/s of m's whole part for a 32×32 float tile
// transpose: 256 threads, each loading four words, storing them to shared
// memory, waiting at the barrier, reading four words of a column (word
// stride 32: a 32-way conflict; 33: padded) and storing them.
func transposeGBs(t *testing.T, m Machine, stride int) float64 {
	body := NewProgram()
	for i := range 4 {
		body.Add(Inst{Op: "LDG", Dst: fmt.Sprintf("g%d", i), Src: []string{"a"}})
	}
	for i := range 4 {
		body.Add(Inst{Op: "STS", Src: []string{"a", fmt.Sprintf("g%d", i)}})
	}
	body.BAR()
	for i := range 4 {
		body.Add(Inst{Op: "LDS", Dst: fmt.Sprintf("s%d", i), Src: []string{"a"}, Stride: stride})
	}
	for i := range 4 {
		body.Add(Inst{Op: "STG", Src: []string{"a", fmt.Sprintf("s%d", i)}})
	}
	one := m
	one.SMs = 1
	run := func(blocks int) int {
		r, err := Config{Machine: &one}.Run(Workload{Name: "transpose", Launch: Launch{Block: 256, Blocks: blocks, Smem: 4224}, Program: body})
		if err != nil {
			t.Fatal(err)
		}
		return r.RunCycles
	}
	const n = 200
	return float64(n*8192) / float64(run(2*n)-run(n)) * float64(m.SMs) * float64(m.ClockMHz) / 1000
}

// studyHopper is the hopper preset with the DRAM share of the H100 SXM5
// the transpose was measured on, whose copy kernel reached 1992 GB/s.
func studyHopper() Machine {
	m := Hopper()
	m.DRAMBytesPerCycle = 1992e3 / 132 / 1980
	return m
}

// t4Table reports whether one block of eight warps on the turing preset
// reaches its first instruction in the T4's order and spacing: warps 4
// to 7, then 0 to 3, two cycles apart.
func t4Table(t *testing.T) float64 {
	first := t4Order(t)
	want := map[int]int{4: 0, 5: 2, 6: 4, 7: 6, 0: 8, 1: 10, 2: 12, 3: 14}
	for w, c := range want {
		if first[w]-first[4] != c {
			return 0
		}
	}
	return 1
}

func featureFigures() []figure {
	figs := tableXFigures()
	dsm := func(c int, lo, hi float64, fitted bool) figure {
		published := fmt.Sprintf("%g-%g cycles", lo, hi)
		if lo == hi {
			published = fmt.Sprintf("%g cycles", lo)
		}
		return figure{arch: "h800", what: fmt.Sprintf("distributed shared memory latency, clusters of %d", c),
			source: hopperRepo + " DSM/Latency log", published: published, lo: lo, hi: hi,
			band: "every pair of SMs the log measured at that size", oos: !fitted, unit: "cycles",
			model: func(t *testing.T) float64 { return dsmemLatency(t, H800(), c) }, agrees: true}
	}
	return append(figs,
		dsm(2, 181, 181, true), dsm(3, 203, 207, false), dsm(4, 201, 207, true), dsm(8, 190, 213, false), dsm(16, 180, 213, false),
		figure{arch: "ampere", what: "cycles a far L2 partition's hit adds to a near one", source: "Ernst gpu-benches, gpu-latency/a100_40.txt",
			published: "426 against 213 cycles", lo: 213, hi: 213, band: "the two chases' plateaus", unit: "cycles",
			model: func(t *testing.T) float64 { return chase(t, Ampere(), "l2far") - chase(t, Ampere(), "l2") }, agrees: true},
		figure{arch: "h800", what: "cycles a far L2 partition's hit adds to a near one", source: "Ernst gpu-benches, gpu-latency/h100_pcie.txt",
			published: "484 against 265 cycles", lo: 219, hi: 219, band: "the two chases' plateaus", unit: "cycles",
			model: func(t *testing.T) float64 { return chase(t, H800(), "l2far") - chase(t, H800(), "l2") }, agrees: true},
		figure{arch: "ampere", what: "far L2 partition hit latency (A100 PCIe at 1395 MHz, 24-39 MB)", source: hopperRepo + " random_latency/a100_pcie.txt",
			published: "395-415 cycles", lo: 395.1, hi: 415.3, band: "the chase's readings from 24 to 39 MB", oos: true, unit: "cycles",
			model: func(t *testing.T) float64 { return chase(t, Ampere().AtClock(1395), "l2far") }, agrees: true},
		figure{arch: "h800", what: "far L2 partition hit latency (32-51 MB)", source: hopperRepo + " random_latency/h800_pcie.txt",
			published: "475-499 cycles", lo: 474.8, hi: 498.6, band: "the chase's readings from 32 to 51 MB", oos: true, unit: "cycles",
			model: func(t *testing.T) float64 { return chase(t, H800(), "l2far") }, agrees: true},
		figure{arch: "h800", what: "TMA bulk-copy chase from L2 (0.4-20 MB)", source: hopperRepo + " TMA/Latency h800_tma.txt",
			published: "368.4-369.1 cycles", lo: 368.4, hi: 369.1, band: "the chase's L2 plateau", unit: "cycles",
			model: func(t *testing.T) float64 { return tmaChase(t, H800(), "l2") }, agrees: true},
		figure{arch: "h800", what: "TMA bulk-copy chase from DRAM (0.3-1.8 GB)", source: hopperRepo + " TMA/Latency h800_tma.txt",
			published: "753.6-760.9 cycles", lo: 753.6, hi: 760.9, band: "the chase's two DRAM readings", oos: true, unit: "cycles",
			model: func(t *testing.T) float64 { return tmaChase(t, H800(), "dram") },
			note:  "the model's chase is the TMA's 105 cycles above the preset's DRAM latency, Ernst's 655-cycle chase on an H100 PCIe, plus 3 cycles of its own (the mbarrier wait, and the channel's load rising with the chase's own requests); the same table's plain loads read 649 to 656 on Luo et al.'s H800"},
		figure{arch: "hopper", what: "32×32 float transpose, 32-way conflicting column reads against padded: time ratio", source: "ahmadsharif1/cuda_study README.md §4 (H100 SXM5)",
			published: "1904 / 1224 GB/s = 1.556", lo: 1.5545, hi: 1.5566, band: "the two bandwidths to the GB/s", unit: "×",
			model: func(t *testing.T) float64 {
				return transposeGBs(t, studyHopper(), 33) / transposeGBs(t, studyHopper(), 32)
			}, agrees: true},
		figure{arch: "turing", what: "first issues of one block's eight warps: 4-7 then 0-3, two cycles apart", source: "T4 issue-order measurement, book/data/measured/t4",
			published: "4, 5, 6, 7, 0, 1, 2, 3 at 0 to 14", lo: 1, hi: 1, band: "measured", unit: "match",
			model: func(t *testing.T) float64 { return t4Table(t) }, agrees: true},
	)
}
