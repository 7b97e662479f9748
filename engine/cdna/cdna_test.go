package cdna_test

import (
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/cdna"
)

// TestLLVM holds the targets to what LLVM's AMDGPU compiler reports for
// the kernels of its test llvm/test/CodeGen/AMDGPU/agpr-register-count.ll
// (TotalNumVgprs and Occupancy, in waves per SIMD; the kernels' flat
// work-group size of up to 512 and their LDS set no lower limit).
func TestLLVM(t *testing.T) {
	for _, c := range []struct {
		target        string
		vgprs, agprs  int
		total, occupy int
	}{
		{"gfx908", 9, 32, 32, 8},     // kernel_32_agprs
		{"gfx90a", 9, 32, 44, 8},     // kernel_32_agprs
		{"gfx908", 1, 0, 1, 10},      // kernel_0_agprs
		{"gfx90a", 1, 0, 1, 8},       // kernel_0_agprs
		{"gfx908", 40, 16, 40, 6},    // kernel_40_vgprs
		{"gfx90a", 40, 16, 56, 8},    // kernel_40_vgprs
		{"gfx908", 256, 256, 256, 1}, // kernel_max_gprs
		{"gfx90a", 256, 256, 512, 1}, // kernel_max_gprs
		{"gfx90a", 32, 9, 41, 8},     // func_32_vgprs (total only)
	} {
		tg, err := cdna.Lookup(c.target)
		if err != nil {
			t.Fatal(err)
		}
		w, err := tg.Waves(c.vgprs, c.agprs)
		if err != nil || w != c.occupy {
			t.Errorf("%s with %d VGPRs and %d AGPRs: %d waves (%v), LLVM reports %d", c.target, c.vgprs, c.agprs, w, err, c.occupy)
		}
		a, _ := tg.Allocated(c.vgprs, c.agprs)
		if a != roundUp(c.total, tg.Granule) {
			t.Errorf("%s with %d VGPRs and %d AGPRs: %d allocated, LLVM's total %d rounds to %d", c.target, c.vgprs, c.agprs, a, c.total, roundUp(c.total, tg.Granule))
		}
	}
}

// TestBook: the rows of the book's table (amd-wavefronts.md, cell
// waves-per-eu), which quotes the same LLVM rules as constants.
func TestBook(t *testing.T) {
	mi300, _ := cdna.Lookup("MI300X")
	mi100, _ := cdna.Lookup("mi100")
	for _, c := range []struct{ v, mi300, mi100 int }{
		{24, 8, 10}, {32, 8, 8}, {50, 8, 4}, {64, 8, 4}, {65, 7, 3}, {96, 5, 2}, {128, 4, 2}, {129, 3, 1}, {256, 2, 1},
	} {
		a, _ := mi300.Waves(c.v, 0)
		b, _ := mi100.Waves(c.v, 0)
		if a != c.mi300 || b != c.mi100 {
			t.Errorf("%d VGPRs: MI300 %d, MI100 %d waves; the book prints %d and %d", c.v, a, b, c.mi300, c.mi100)
		}
	}
	if w, _ := mi300.Waves(96, 128); w != 2 {
		t.Errorf("96 VGPRs and 128 AGPRs on the MI300: %d waves, the book's AGPR question says 2", w)
	}
}

func TestErrorsAndExplain(t *testing.T) {
	tg, _ := cdna.Lookup("gfx90a")
	for _, c := range [][2]int{{-1, 0}, {0, -1}, {257, 0}, {0, 257}} {
		if _, err := tg.Waves(c[0], c[1]); err == nil {
			t.Errorf("Waves%v is no error", c)
		}
	}
	if _, err := cdna.Lookup("MI999"); err == nil || !strings.Contains(err.Error(), "MI300X") {
		t.Errorf("Lookup(MI999): %v", err)
	}
	steps, err := tg.ExplainWaves(40, 16)
	if err != nil || len(steps) != 3 || !strings.Contains(steps[0], "40 + 16 = 56") || !strings.Contains(steps[2], "8 waves per SIMD") {
		t.Errorf("ExplainWaves(40, 16) = %q, %v", steps, err)
	}
	mi100, _ := cdna.Lookup("gfx908")
	steps, _ = mi100.ExplainWaves(40, 16)
	if !strings.Contains(steps[2], "256 registers per lane ÷ 40 = 6 waves") {
		t.Errorf("gfx908 ExplainWaves(40, 16) = %q", steps)
	}
}

func roundUp(n, unit int) int { return (n + unit - 1) / unit * unit }
