package occupancy_test

import (
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// TestRegisterCap: the cap is the most registers at which the blocks fit,
// and every count above it fits fewer; the book's __launch_bounds__(256,
// 3) on an A100 is 80 (questions/launch-bounds-cap.md).
func TestRegisterCap(t *testing.T) {
	a100 := gpu.A100()
	if c, err := occupancy.RegisterCap(a100, occupancy.Kernel{BlockSize: 256}, 3); err != nil || c != 80 {
		t.Errorf("__launch_bounds__(256, 3) on an A100: cap %d (%v), want 80", c, err)
	}
	for _, d := range []gpu.Device{a100, gpu.H100(), gpu.T4(), gpu.RTX4090(), gpu.P100()} {
		for _, threads := range []int{64, 96, 128, 256, 384, 512, 1024} {
			for minBlocks := 1; minBlocks <= 8; minBlocks++ {
				k := occupancy.Kernel{BlockSize: threads, StaticSharedMem: 2048}
				c, err := occupancy.RegisterCap(d, k, minBlocks)
				if err != nil {
					t.Fatal(err)
				}
				blocksAt := func(regs int) int {
					k.Registers = regs
					r, err := occupancy.Compute(d, k)
					if err != nil {
						t.Fatal(err)
					}
					return r.ActiveBlocks
				}
				if c > 0 && blocksAt(c) < minBlocks {
					t.Errorf("%s %d threads, %d blocks: cap %d fits only %d", d.Name, threads, minBlocks, c, blocksAt(c))
				}
				for regs := c + 1; regs <= 255; regs++ {
					if blocksAt(regs) >= minBlocks {
						t.Errorf("%s %d threads, %d blocks: cap %d, but %d registers fit too", d.Name, threads, minBlocks, c, regs)
						break
					}
				}
			}
		}
	}
	if _, err := occupancy.RegisterCap(a100, occupancy.Kernel{BlockSize: 256}, 0); err == nil {
		t.Error("a cap for 0 blocks is no error")
	}
}

// TestWaves: 1,000 blocks of 8 per SM on 108 SMs are 2 waves, the second
// of 136 blocks.
func TestWaves(t *testing.T) {
	a100 := gpu.A100()
	r, _ := occupancy.Compute(a100, occupancy.Kernel{BlockSize: 256, Registers: 32})
	if r.ActiveBlocks != 8 {
		t.Fatalf("setup: %d blocks", r.ActiveBlocks)
	}
	for _, c := range []struct{ blocks, waves, last int }{{1000, 2, 136}, {864, 1, 864}, {865, 2, 1}, {1, 1, 1}, {1728, 2, 864}} {
		w, err := occupancy.Waves(a100, r, c.blocks)
		if err != nil || w.PerWave != 864 || w.Waves != c.waves || w.LastWave != c.last {
			t.Errorf("%d blocks: %+v (%v), want %d waves, the last of %d", c.blocks, w, err, c.waves, c.last)
		}
	}
	if _, err := occupancy.Waves(a100, r, 0); err == nil {
		t.Error("an empty grid is no error")
	}
	if _, err := occupancy.Waves(a100, occupancy.Result{}, 10); err == nil {
		t.Error("a launch that cannot run has waves")
	}
	steps, err := occupancy.ExplainWaves(a100, r, 1000)
	if err != nil || !strings.Contains(steps[2], "1,000 − 1 × 864 = 136 blocks") {
		t.Errorf("ExplainWaves: %q, %v", steps, err)
	}
}

// TestSetMaxNReg: CUTLASS's warp-specialized Hopper GEMMs launch 384
// threads (one producer and two consumer warpgroups) at 168 registers and
// give the producer 40 and each consumer 232 (LoadRegisterRequirement and
// MmaRegisterRequirement in its sm90 kernels); 24 for the producer leaves
// 240.
func TestSetMaxNReg(t *testing.T) {
	h100 := gpu.H100()
	for _, c := range []struct{ launch, producers, producerRegs, consumers, want int }{
		{168, 1, 40, 2, 232}, {168, 1, 24, 2, 240}, {128, 1, 24, 1, 232}, {255, 1, 24, 1, 256},
	} {
		got, err := occupancy.SetMaxNReg(h100, c.launch, c.producers, c.producerRegs, c.consumers)
		if err != nil || got != c.want {
			t.Errorf("%+v: %d (%v), want %d", c, got, err, c.want)
		}
		if _, err := occupancy.ExplainSetMaxNReg(h100, c.launch, c.producers, c.producerRegs, c.consumers); err != nil {
			t.Error(err)
		}
	}
	for _, bad := range []struct {
		d                                          gpu.Device
		launch, producers, producerRegs, consumers int
	}{
		{gpu.A100(), 168, 1, 40, 2}, // no setmaxnreg before Hopper
		{h100, 168, 1, 36, 2},       // not a multiple of 8
		{h100, 168, 1, 16, 2},       // under 24
		{h100, 176, 1, 40, 2},       // 384 × 176 does not fit the block limit
		{h100, 168, 0, 40, 2},
		{h100, 32, 1, 232, 1}, // the producer takes more than the pool
	} {
		if got, err := occupancy.SetMaxNReg(bad.d, bad.launch, bad.producers, bad.producerRegs, bad.consumers); err == nil {
			t.Errorf("%+v: %d, want an error", bad, got)
		}
	}
}
