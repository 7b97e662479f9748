package sim

import (
	"fmt"
	"testing"
)

// An ernstPart is one GPU of Ernst's gpu-stream tables (see ernstStream):
// the preset that stands for it, the clock it ran at, and the published
// GB/s of the scale kernel and of the two other kernels that load one
// array and store one (the 3- and 5-point stencils, whose extra loads hit
// in cache; the A100 40GB table names them 1pt and 3pt) at each block
// size, two blocks per SM.
type ernstPart struct {
	arch   string
	part   string
	table  string
	preset func() Machine
	clock  int // MHz: the part's boost clock, at which the tables were taken
	fitted bool
	// copies[b] is {scale, stencil, stencil} GB/s at block size b.
	copies map[int][3]float64
}

var ernstParts = []ernstPart{
	{arch: "volta", part: "V100 PCIe", table: "gpu-stream/v100.txt", preset: Volta, clock: 1380, fitted: true,
		copies: map[int][3]float64{32: {128, 122, 117}, 64: {244, 230, 224}, 128: {423, 403, 394}, 256: {673, 645, 633},
			384: {764, 752, 744}, 512: {784, 777, 774}, 768: {798, 794, 792}, 1024: {802, 798, 795}}},
	{arch: "ampere", part: "A100 40GB", table: "gpu-stream/a100_40.txt", preset: Ampere, clock: 1410, fitted: true,
		copies: map[int][3]float64{32: {151, 142, 139}, 64: {291, 269, 264}, 128: {548, 503, 495}, 256: {954, 901, 879},
			384: {1245, 1205, 1176}, 512: {1338, 1326, 1320}, 768: {1364, 1354, 1350}, 1024: {1381, 1372, 1368}}},
	// Held out: the A100 80GB (HBM2e; the same 108 SMs and 1410 MHz, a
	// pointer chase of 571 cycles in gpu-latency/a100_80.txt against the
	// 40GB's 574), run on the ampere preset, whose loadCurve is the 40GB's.
	{arch: "ampere", part: "A100 80GB", table: "gpu-stream/a100_80.txt", preset: Ampere, clock: 1410,
		copies: map[int][3]float64{32: {157, 148, 144}, 64: {305, 280, 275}, 128: {581, 530, 521}, 256: {1026, 962, 937},
			384: {1382, 1312, 1271}, 512: {1577, 1517, 1493}, 768: {1678, 1639, 1623}, 1024: {1732, 1696, 1680}}},
	{arch: "h800", part: "H100 PCIe", table: "cuda-stream/h100_pcie.txt", preset: H800, clock: 1755, fitted: true,
		copies: map[int][3]float64{32: {183, 168, 164}, 64: {341, 316, 310}, 128: {607, 567, 558}, 256: {1037, 1005, 989},
			384: {1378, 1348, 1326}, 512: {1583, 1556, 1545}, 768: {1666, 1642, 1638}, 1024: {1704, 1686, 1683}}},
}

// machine is the part's preset run at the part's clock with the DRAM
// share that makes the model's scale kernel at full occupancy reach the
// measured one: the curve's shape, not its plateau, is what the figures
// test (the plateau is each preset's own sourced figure). The share is
// found by bisection: with TurnaroundCost the full-occupancy copy stays
// a little under it.
func (e ernstPart) machine(t *testing.T) Machine {
	m := e.preset().AtClock(e.clock)
	want := e.copies[1024][0]
	lo := want * 1e3 / float64(m.SMs) / float64(e.clock) * 0.98
	hi := 1.3 * lo
	for range 14 {
		m.DRAMBytesPerCycle = (lo + hi) / 2
		if ernstGBs(t, m, "scale", 1024) > want {
			hi = m.DRAMBytesPerCycle
		} else {
			lo = m.DRAMBytesPerCycle
		}
	}
	m.DRAMBytesPerCycle = (lo + hi) / 2
	return m
}

// ernstKernel is one of the gpu-stream kernels for one thread: the index
// arithmetic, then init's store, read's load and test, or scale's load,
// multiply and store, of 8 bytes.
func ernstKernel(kind string) *Program {
	p := NewProgram().Op("IMAD", "i", "t", "c").Op("ISETP", "p", "i", "n")
	switch kind {
	case "init":
		p.Add(Inst{Op: "STG", Src: []string{"i", "p"}, Width: 8})
	case "read":
		p.Add(Inst{Op: "LDG", Dst: "v", Src: []string{"i", "p"}, Width: 8})
		p.Add(Inst{Op: "ISETP", Dst: "q", Src: []string{"v"}})
	default:
		p.Add(Inst{Op: "LDG", Dst: "v", Src: []string{"i", "p"}, Width: 8})
		p.Add(Inst{Op: "DMUL", Dst: "v", Src: []string{"v"}})
		p.Add(Inst{Op: "STG", Src: []string{"i", "v"}, Width: 8})
	}
	return p
}

// ernstGBs is the GB/s of the whole part that the kernel reaches on m
// with blocks of block threads, two resident per SM: the bytes and cycles
// that 60 more blocks per SM add, so the grid's start and end drop out.
func ernstGBs(t *testing.T, m Machine, kind string, block int) float64 {
	streams := map[string]int{"init": 1, "read": 1, "scale": 2}[kind]
	run := func(blocks int) int {
		one := m
		one.SMs = 1
		r, err := Config{Machine: &one}.Run(Workload{Name: kind, Launch: Launch{Block: block, Blocks: blocks, Resident: 2}, Program: ernstKernel(kind)})
		if err != nil {
			t.Fatal(err)
		}
		return r.RunCycles
	}
	const n = 60
	bytes := float64(n * block * 8 * streams)
	return bytes / float64(run(2*n)-run(n)) * float64(m.SMs) * float64(m.ClockMHz) / 1000
}

// copyShare is the model's scale bandwidth at block size b as a fraction
// of its own at 1024 (full occupancy).
func (e ernstPart) copyShare(t *testing.T, m Machine, b int) float64 {
	return ernstGBs(t, m, "scale", b) / ernstGBs(t, m, "scale", 1024)
}

// band is the range of the three copy kernels' fractions of their own
// full-occupancy bandwidth at block size b.
func (e ernstPart) band(b int) (float64, float64) {
	lo, hi := 2.0, 0.0
	for k := range 3 {
		v := e.copies[b][k] / e.copies[1024][k]
		lo, hi = min(lo, v), max(hi, v)
	}
	return math3(lo), math3(hi)
}

func math3(v float64) float64 { return float64(int(v*1000+0.5)) / 1000 }

// ernstFigures are the copy curves of the three parts: the share of the
// full-occupancy bandwidth at 6.25 to 75 % occupancy. The V100 PCIe's,
// A100 40GB's and H100 PCIe's loadCurves (DRAMLoadedLatency,
// DRAMServiceCycles, TurnaroundCost and TurnaroundBacklog) were each
// fitted to that part's curve, so those figures are input-consistency;
// the A100 80GB's, run with the 40GB's loadCurve, are held out. agree and
// notes are keyed by part.
func ernstFigures(agree map[string][6]bool, notes map[string]string) []figure {
	var out []figure
	for _, e := range ernstParts {
		// The part's machine is calibrated once, by its first figure.
		var m *Machine
		machine := func(t *testing.T) Machine {
			if m == nil {
				c := e.machine(t)
				m = &c
			}
			return *m
		}
		for i, b := range []int{64, 128, 256, 384, 512, 768} {
			lo, hi := e.band(b)
			f := figure{arch: e.arch, what: fmt.Sprintf("copy (scale), %s, %.3g %% occupancy: share of its bandwidth at 100 %%", e.part, 100*float64(b)/1024),
				source: "Ernst gpu-benches, " + e.table, published: fmt.Sprintf("%.0f of %.0f GB/s", e.copies[b][0], e.copies[1024][0]),
				lo: lo, hi: hi, band: "the three copy kernels of the table (scale and the two stencils)", oos: !e.fitted, unit: "",
				model: func(t *testing.T) float64 { return math3(e.copyShare(t, machine(t), b)) }, agrees: agree[e.part][i]}
			if !f.agrees {
				f.note = notes[e.part]
			}
			out = append(out, f)
		}
	}
	return out
}

// dramChase is the cycles one warp's dependent chain of DRAM loads takes
// per load on m, with nothing else in flight.
func dramChase(t *testing.T, m Machine) float64 {
	run := func(n int) int {
		body := NewProgram().Add(Inst{Op: "LDG", Dst: "p", Src: []string{"p"}, Level: "dram"})
		return steady(t, m, Workload{Name: "chase", Launch: Launch{Block: 32}, Program: NewProgram().Loop(n, body)}).RunCycles
	}
	return float64(run(40)-run(20)) / 20
}

// memoryFigures are the memory system under load: Ernst's copy curves,
// and the unloaded DRAM latencies the presets did not take.
func memoryFigures() []figure {
	figs := ernstFigures(map[string][6]bool{
		"V100 PCIe": {true, true, true, true, true, true},
		"A100 40GB": {true, true, true, true, true, true},
		"A100 80GB": {true, true, false, false, true, false},
		"H100 PCIe": {true, true, true, true, true, true},
	}, map[string]string{
		"A100 80GB": "the A100 40GB's loadCurve, carried to the 80GB part, gives a knee sharper than the part's: the model's share is under the band at 25 and 37.5 % occupancy and reaches its plateau by 75 %, where the 80GB part still gains 3 % from 75 to 100 %; the 80GB moves a quarter more bytes per second at the same pointer-chase latency, and its own curve was not fitted",
	})
	chase := func(arch, part, source, published string, v float64, m func() Machine, note string) figure {
		return figure{arch: arch, what: "DRAM latency of a dependent load chain, nothing else in flight (" + part + ")", source: source,
			published: published, lo: v, hi: v, band: "cycle counts are stated to the cycle", oos: true, unit: "cycles",
			model: func(t *testing.T) float64 { return dramChase(t, m()) }, agrees: false, note: note}
	}
	return append(figs,
		chase("volta", "V100", "markdewing/AI_kernels latency/README.md", "460 cycles", 460, Volta,
			"the preset takes Ernst's V100 chase, 436 cycles at 1380 MHz, 483 at the preset's 1530; this chase's clock is not stated"),
		chase("ampere", "A100", "Abdelkhalik et al. 2022, Table IV", "290 cycles", 290, Ampere,
			"half of Ernst's chase over 60 MB and more (574 cycles), which the preset takes: a chase whose footprint stays within a few DRAM pages and the TLB's reach measures the quickest case, which a streaming kernel does not see (Ernst's read kernel at one warp per block implies 640)"),
		chase("h800", "H800 PCIe", luo+", Table IV", "478.8 cycles", 478.8, H800,
			"the preset takes Ernst's chase on an H100 PCIe (the same SM count, HBM2e and clock), 655 cycles; Luo et al.'s is 27 % quicker, as Abdelkhalik et al.'s A100 figure is against Ernst's"),
	)
}

func TestErnstCurves(t *testing.T) {
	for _, e := range ernstParts {
		var s string
		m := e.machine(t)
		for _, b := range []int{32, 64, 128, 256, 384, 512, 768} {
			lo, hi := e.band(b)
			s += fmt.Sprintf(" %d:%.3f[%.3f-%.3f]", b, e.copyShare(t, m, b), lo, hi)
		}
		t.Logf("%s%s", e.part, s)
	}
}
