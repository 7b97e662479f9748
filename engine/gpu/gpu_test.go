package gpu_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/gpu"
)

// TestCapabilityPresets checks each capability's preset against the table
// "Device properties used" of ../occupancy/testdata/README.md (copied here by
// hand): cc, part, SMs, regs/SM, regs/block, threads/SM, threads/block,
// smem/SM, smem/block, opt-in, reserved, warp, plus max blocks per SM and
// sub-partitions. Blackwell rows are the README's edge_other_cc property
// sets; their max blocks per SM (32 for 10.0, 24 for 12.0) are the CUDA C++
// Programming Guide's, as NVIDIA/cccl's arch_traits.h quotes them (see the
// top comment of presets.go).
func TestCapabilityPresets(t *testing.T) {
	table := []struct {
		cc, part                                                 string
		sms, regsSM, regsBlock, thrSM, thrBlock                  int
		smemSM, smemBlock, optIn, reserved, warp, maxBlocks, sub int
	}{
		{"5.0", "GeForce GTX 750 Ti", 5, 65536, 65536, 2048, 1024, 65536, 49152, 49152, 0, 32, 32, 4},
		{"5.2", "GeForce GTX 980", 16, 65536, 65536, 2048, 1024, 98304, 49152, 49152, 0, 32, 32, 4},
		{"5.3", "Jetson TX1", 2, 65536, 32768, 2048, 1024, 65536, 49152, 49152, 0, 32, 32, 4},
		{"6.0", "Tesla P100 SXM2", 56, 65536, 65536, 2048, 1024, 65536, 49152, 49152, 0, 32, 32, 2},
		{"6.1", "GeForce GTX 1080", 20, 65536, 65536, 2048, 1024, 98304, 49152, 49152, 0, 32, 32, 4},
		{"6.2", "Jetson TX2", 2, 65536, 32768, 2048, 1024, 65536, 49152, 49152, 0, 32, 32, 4},
		{"7.0", "Tesla V100 SXM2", 80, 65536, 65536, 2048, 1024, 98304, 49152, 98304, 0, 32, 32, 4},
		{"7.2", "Jetson AGX Xavier", 8, 65536, 65536, 2048, 1024, 98304, 49152, 98304, 0, 32, 32, 4},
		{"7.5", "Tesla T4", 40, 65536, 65536, 1024, 1024, 65536, 49152, 65536, 0, 32, 16, 4},
		{"8.0", "A100 SXM4", 108, 65536, 65536, 2048, 1024, 167936, 49152, 166912, 1024, 32, 32, 4},
		{"8.6", "GeForce RTX 3090", 82, 65536, 65536, 1536, 1024, 102400, 49152, 101376, 1024, 32, 16, 4},
		{"8.7", "Jetson AGX Orin 64GB", 16, 65536, 65536, 1536, 1024, 167936, 49152, 166912, 1024, 32, 16, 4},
		{"8.9", "GeForce RTX 4090", 128, 65536, 65536, 1536, 1024, 102400, 49152, 101376, 1024, 32, 24, 4},
		{"9.0", "H100 SXM5", 132, 65536, 65536, 2048, 1024, 233472, 49152, 232448, 1024, 32, 32, 4},
		{"10.0", "B200", 148, 65536, 65536, 2048, 1024, 233472, 49152, 232448, 1024, 32, 32, 4},
		{"12.0", "GeForce RTX 5090", 170, 65536, 65536, 1536, 1024, 102400, 49152, 101376, 1024, 32, 24, 4},
	}
	if got := len(gpu.Capabilities()); got != len(table) {
		t.Errorf("%d capabilities, want %d", got, len(table))
	}
	for _, w := range table {
		t.Run(w.cc, func(t *testing.T) {
			d, err := gpu.Lookup(w.cc)
			if err != nil {
				t.Fatal(err)
			}
			got := []int{d.SMs, d.RegistersPerSM, d.RegistersPerBlock, d.MaxThreadsPerSM, d.MaxThreadsPerBlock,
				d.SharedMemPerSM, d.SharedMemPerBlock, d.SharedMemPerBlockOptIn, d.ReservedSharedMemPerBlock, d.WarpSize, d.MaxBlocksPerSM, d.SubPartitions}
			want := []int{w.sms, w.regsSM, w.regsBlock, w.thrSM, w.thrBlock, w.smemSM, w.smemBlock, w.optIn, w.reserved, w.warp, w.maxBlocks, w.sub}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%s: field %d is %d, want %d (%+v)", w.part, i, got[i], want[i], d)
				}
			}
			if d.Name != w.part || d.CC.String() != w.cc {
				t.Errorf("got %s %s, want %s %s", d.Name, d.CC, w.part, w.cc)
			}
			if err := d.Validate(); err != nil {
				t.Error(err)
			}
			if n := len(d.SharedMemCapacities); n > 0 && d.SharedMemCapacities[n-1] != d.SharedMemPerSM {
				t.Errorf("largest carveout capacity %d ≠ shared memory per SM %d", d.SharedMemCapacities[n-1], d.SharedMemPerSM)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	tests := []struct{ in, want string }{
		{"A100", "A100 SXM4"},
		{"a100", "A100 SXM4"},
		{" a 100 ", "A100 SXM4"},
		{"H100 SXM", "H100 SXM5"},
		{"h100-sxm5", "H100 SXM5"},
		{"H100", "H100 SXM5"},
		{"H200", "H200"},
		{"B200", "B200"},
		{"P100", "Tesla P100 SXM2"},
		{"gtx 1080", "GeForce GTX 1080"},
		{"V100", "Tesla V100 SXM2"},
		{"t4", "Tesla T4"},
		{"A10", "A10"},
		{"RTX 3090", "GeForce RTX 3090"},
		{"rtx4090", "GeForce RTX 4090"},
		{"L4", "L4"},
		{"RTX 5090", "GeForce RTX 5090"},
		{"Jetson Orin", "Jetson AGX Orin 64GB"},
		{"8.0", "A100 SXM4"},
		{"sm_80", "A100 SXM4"},
		{"sm80", "A100 SXM4"},
		{"SM_90", "H100 SXM5"},
		{"compute_89", "GeForce RTX 4090"},
		{"sm_100", "B200"},
		{"12.0", "GeForce RTX 5090"},
		{"5.3", "Jetson TX1"},
	}
	for _, tt := range tests {
		d, err := gpu.Lookup(tt.in)
		if err != nil {
			t.Errorf("Lookup(%q): %v", tt.in, err)
			continue
		}
		if d.Name != tt.want {
			t.Errorf("Lookup(%q) = %s, want %s", tt.in, d.Name, tt.want)
		}
	}
}

func TestLookupErrors(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"A1000", []string{`unknown GPU "A1000"`, "did you mean", "A100 SXM4"}},
		{"h10", []string{"did you mean", "H100 SXM5"}},
		{"RTX 4900", []string{"GeForce RTX 4090"}},
		{"Voodoo 2", []string{`unknown GPU "Voodoo 2"`}},
		{"", []string{"empty GPU name"}},
		{"8.1", []string{"no preset for compute capability 8.1", "8.0, 8.6"}},
		{"sm_35", []string{"no preset for compute capability 3.5"}},
		{"sm_x", []string{"not a compute capability"}},
	}
	for _, tt := range tests {
		_, err := gpu.Lookup(tt.in)
		if err == nil {
			t.Errorf("Lookup(%q) succeeded", tt.in)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Lookup(%q) error %q lacks %q", tt.in, err, w)
			}
		}
	}
}

func TestParseCC(t *testing.T) {
	good := map[string]gpu.CC{
		"8.0": {8, 0}, "sm_86": {8, 6}, "sm89": {8, 9}, "compute_90": {9, 0},
		"100": {10, 0}, "sm_120": {12, 0}, "10.0": {10, 0}, " 7.5 ": {7, 5},
	}
	for in, want := range good {
		got, err := gpu.ParseCC(in)
		if err != nil || got != want {
			t.Errorf("ParseCC(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "8", "8.", ".0", "8.00", "sm_", "abc", "8.x", "1234"} {
		if cc, err := gpu.ParseCC(in); err == nil {
			t.Errorf("ParseCC(%q) = %v, want an error", in, cc)
		}
	}
	if s := (gpu.CC{Major: 8, Minor: 6}).SM(); s != "sm_86" {
		t.Errorf("SM() = %q", s)
	}
}

// TestParts checks that every named part is a valid device, that names
// are unique, and that every name and alias finds its own part.
func TestParts(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range gpu.Parts() {
		if seen[d.Name] {
			t.Errorf("part %q listed twice", d.Name)
		}
		seen[d.Name] = true
		if err := d.Validate(); err != nil {
			t.Error(err)
		}
		if d.Architecture == "" {
			t.Errorf("%s: no architecture", d.Name)
		}
		got, err := gpu.Lookup(d.Name)
		if err != nil || got.Name != d.Name {
			t.Errorf("Lookup(%q) = %s, %v", d.Name, got.Name, err)
		}
	}
	named := map[string]gpu.Device{
		"Tesla P100 SXM2": gpu.P100(), "GeForce GTX 1080": gpu.GTX1080(), "Tesla V100 SXM2": gpu.V100(),
		"Tesla T4": gpu.T4(), "A100 SXM4": gpu.A100(), "A10": gpu.A10(), "GeForce RTX 3090": gpu.RTX3090(),
		"GeForce RTX 4090": gpu.RTX4090(), "L4": gpu.L4(), "H100 SXM5": gpu.H100(), "H200": gpu.H200(),
		"B200": gpu.B200(), "GeForce RTX 5090": gpu.RTX5090(), "Jetson AGX Orin 64GB": gpu.JetsonOrin(),
	}
	for name, d := range named {
		if d.Name != name || !seen[name] || d.SMs == 0 {
			t.Errorf("named constructor for %s returned %+v", name, d)
		}
	}
}

func TestCloneIsIndependent(t *testing.T) {
	a := gpu.H100()
	b := a.Clone()
	b.SharedMemCapacities[0] = 99
	if a.SharedMemCapacities[0] != 0 {
		t.Error("Clone shares the capacities slice")
	}
}

// TestValidateNamesField checks that Validate rejects a zero or negative
// value in each field that must be positive, and names that field; that it
// rejects a device breaking each of its other rules, saying which; and that
// it accepts a device at the edges of those rules' ranges.
func TestValidateNamesField(t *testing.T) {
	for _, name := range []string{"SMs", "WarpSize", "MaxThreadsPerBlock", "MaxThreadsPerSM", "MaxBlocksPerSM",
		"RegistersPerSM", "RegistersPerBlock", "MaxRegistersPerThread", "RegisterAllocUnit", "SubPartitions",
		"SharedMemPerSM", "SharedMemPerBlock", "SharedMemPerBlockOptIn", "SharedMemAllocUnit"} {
		for _, v := range []int64{0, -1, math.MinInt64} {
			d := gpu.A100()
			reflect.ValueOf(&d).Elem().FieldByName(name).SetInt(v)
			err := d.Validate()
			if want := fmt.Sprintf("%s must be positive, got %d", name, v); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s = %d: Validate() = %v, want an error saying %q", name, v, err, want)
			}
		}
	}
	for _, c := range [][]int{{-1, 0}, {0, 0}, {0, 8192, 4096}} {
		d := gpu.A100()
		d.SharedMemCapacities = c
		if err := d.Validate(); err == nil || !strings.Contains(err.Error(), "must be ascending and not negative") {
			t.Errorf("SharedMemCapacities %v: Validate() = %v", c, err)
		}
	}
	for _, tt := range []struct {
		change func(d *gpu.Device)
		want   string
	}{
		{func(d *gpu.Device) { d.MaxThreadsPerSM = d.WarpSize - 1 }, "is less than one warp"},
		{func(d *gpu.Device) { d.ReservedSharedMemPerBlock = -1 }, "ReservedSharedMemPerBlock must not be negative"},
		{func(d *gpu.Device) { d.BarriersPerSM = math.MinInt64 }, "BarriersPerSM must not be negative"},
	} {
		d := gpu.A100()
		tt.change(&d)
		if err := d.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate() = %v, want an error saying %q", err, tt.want)
		}
	}
	// The edges of the ranges are allowed.
	d := gpu.A100()
	d.MaxThreadsPerSM, d.ReservedSharedMemPerBlock, d.BarriersPerSM, d.SharedMemCapacities = d.WarpSize, 0, 0, nil
	if err := d.Validate(); err != nil {
		t.Errorf("a device at the edges of the ranges: %v", err)
	}
}
