package occupancy_test

import (
	"math"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// TestTextbook checks the six textbook configurations of the golden README
// (testdata/README.md: cc 8.0, A100, no dynamic shared memory). The
// expected figures are the reference's, copied from that README.
func TestTextbook(t *testing.T) {
	tests := []struct {
		name                string
		regs, smem, threads int
		blocks, warps       int
		percent             float64
		limiters            occupancy.Limiter
		smemPerBlock        int
	}{
		{"regs_32_threads_256", 32, 0, 256, 8, 64, 100, occupancy.LimitWarps | occupancy.LimitRegisters, 1024},
		{"regs_64_threads_256", 64, 0, 256, 4, 32, 50, occupancy.LimitRegisters, 1024},
		{"regs_96_threads_256", 96, 0, 256, 2, 16, 25, occupancy.LimitRegisters, 1024},
		{"regs_32_smem_48k_threads_256", 32, 49152, 256, 3, 24, 37.5, occupancy.LimitSharedMem, 50176},
		{"regs_64_smem_8k_threads_512", 64, 8192, 512, 2, 32, 50, occupancy.LimitRegisters, 9216},
		// The source notes' calculator says 25 blocks, 78.1 %: it divides
		// the whole register file instead of each sub-partition's share.
		{"regs_33_threads_64", 33, 0, 64, 24, 48, 75, occupancy.LimitRegisters, 1024},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := occupancy.Compute(gpu.A100(), occupancy.Kernel{BlockSize: tt.threads, Registers: tt.regs, StaticSharedMem: tt.smem})
			if err != nil {
				t.Fatal(err)
			}
			if r.ActiveBlocks != tt.blocks || r.ActiveWarps != tt.warps || r.Limiters != tt.limiters {
				t.Errorf("got %d blocks, %d warps, limited by %v; want %d, %d, %v", r.ActiveBlocks, r.ActiveWarps, r.Limiters, tt.blocks, tt.warps, tt.limiters)
			}
			if got := 100 * r.Occupancy; math.Abs(got-tt.percent) > 1e-9 {
				t.Errorf("occupancy %v %%, want %v %%", got, tt.percent)
			}
			if r.SharedMemPerBlock != tt.smemPerBlock {
				t.Errorf("shared memory per block %d, want %d", r.SharedMemPerBlock, tt.smemPerBlock)
			}
		})
	}
}

// TestExplain33Registers checks that Explain tells the 33-register story in
// the words of the issue.
func TestExplain33Registers(t *testing.T) {
	s, err := occupancy.Explain(gpu.A100(), occupancy.Kernel{BlockSize: 64, Registers: 33})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"registers: 33 regs × 32 lanes = 1,056 → 1,280 per warp (256-register granularity); 16,384 per sub-partition ÷ 1,280 = 12 warps; × 4 sub-partitions = 48 warps = 24 blocks of 2 warps\n",
		"result: the smallest limit is 24 blocks, set by registers; 24 × 2 warps = 48 of 64 warp slots = 75 % occupancy\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("Explain is missing\n\t%q\ngot\n%s", want, s)
		}
	}
}

// TestExplainSteps checks that every step's limit is the Result's and that
// each explanation mentions the number it arrives at.
func TestExplainSteps(t *testing.T) {
	kernels := []occupancy.Kernel{
		{BlockSize: 64, Registers: 33},
		{BlockSize: 256, Registers: 32, StaticSharedMem: 49152},
		{BlockSize: 100, Registers: 255, Carveout: occupancy.CarveoutPercent(25)},
		{BlockSize: 2048, Registers: 64},
		{BlockSize: 128, Barriers: 16},
		{BlockSize: 128, DynamicSharedMem: 300000},
		{BlockSize: 128, Registers: 16, Carveout: occupancy.CarveoutPercent(0)},
	}
	for _, d := range []gpu.Device{gpu.A100(), gpu.H100(), gpu.P100(), gpu.T4(), gpu.GTX1080()} {
		for _, k := range kernels {
			r, err := occupancy.Compute(d, k)
			if err != nil {
				t.Fatal(err)
			}
			steps, err := occupancy.ExplainSteps(d, k)
			if err != nil {
				t.Fatal(err)
			}
			want := []occupancy.Limit{r.Limits.Warps, r.Limits.Registers, r.Limits.SharedMem, r.Limits.Blocks, r.Limits.Barriers, occupancy.Blocks(r.ActiveBlocks)}
			if len(steps) != len(want) {
				t.Fatalf("%s %+v: %d steps", d.Name, k, len(steps))
			}
			for i, s := range steps {
				if s.Limit != want[i] {
					t.Errorf("%s %+v: step %s limit %v, want %v", d.Name, k, s.Resource, s.Limit, want[i])
				}
				var tail string
				switch {
				case s.Limit.Unlimited:
					tail = "no limit"
				case s.Resource == "result" && s.Limit.Blocks == 0:
					tail = "0 % occupancy"
				case s.Resource == "result":
					tail = "occupancy"
				case s.Limit.Blocks == 1:
					tail = "1 block"
				default:
					tail = s.Limit.String() + " blocks"
				}
				if !strings.Contains(s.Text, tail) {
					t.Errorf("%s %+v: step %s does not arrive at %q: %s", d.Name, k, s.Resource, tail, s.Text)
				}
			}
		}
	}
}

func TestComputeErrors(t *testing.T) {
	broken := gpu.A100()
	broken.WarpSize = 0
	tests := []struct {
		name string
		d    gpu.Device
		k    occupancy.Kernel
		want string
	}{
		{"zero_block", gpu.A100(), occupancy.Kernel{}, "block size must be positive"},
		{"negative_block", gpu.A100(), occupancy.Kernel{BlockSize: -32}, "block size must be positive"},
		{"negative_regs", gpu.A100(), occupancy.Kernel{BlockSize: 32, Registers: -1}, "registers per thread must not be negative"},
		{"negative_smem", gpu.A100(), occupancy.Kernel{BlockSize: 32, StaticSharedMem: -1}, "static shared memory must not be negative"},
		{"huge_block", gpu.A100(), occupancy.Kernel{BlockSize: 1 << 40}, "too large"},
		{"carveout_101", gpu.A100(), occupancy.Kernel{BlockSize: 32, Carveout: occupancy.CarveoutPercent(101)}, "carveout 101% is out of range"},
		{"carveout_minus_5", gpu.V100(), occupancy.Kernel{BlockSize: 32, Carveout: occupancy.CarveoutPercent(-5)}, "out of range"},
		{"bad_mode", gpu.A100(), occupancy.Kernel{BlockSize: 32, SharedMemLimit: 7}, "unknown shared-memory limit mode"},
		{"broken_device", broken, occupancy.Kernel{BlockSize: 32}, "WarpSize must be positive"},
		{"zero_device", gpu.Device{}, occupancy.Kernel{BlockSize: 32}, "must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := occupancy.Compute(tt.d, tt.k)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	// Before Volta there is no carveout, and the reference ignores it,
	// even out of range.
	if _, err := occupancy.Compute(gpu.GTX1080(), occupancy.Kernel{BlockSize: 32, Carveout: occupancy.CarveoutPercent(101)}); err != nil {
		t.Errorf("GTX 1080 with carveout 101: %v, want it ignored", err)
	}
}

// TestKernelBounds sets each of a kernel's numbers, one at a time, to the
// edges of its documented range and past them, and checks that Compute
// refuses exactly the values outside it, naming the field: every count and
// size from 0 to MaxInt32 (BlockSize from 1), MaxDynamicSharedMem from
// NoDynamicSharedMem, and each mode one of its constants.
func TestKernelBounds(t *testing.T) {
	edges := []int{math.MinInt64, math.MinInt32, -2, -1, 0, 1, 1 << 30, math.MaxInt32, math.MaxInt32 + 1, 1 << 32, 1 << 62, math.MaxInt64}
	fields := []struct {
		name   string
		set    func(k *occupancy.Kernel, v int)
		lo, hi int
	}{
		{"block size", func(k *occupancy.Kernel, v int) { k.BlockSize = v }, 1, math.MaxInt32},
		{"registers per thread", func(k *occupancy.Kernel, v int) { k.Registers = v }, 0, math.MaxInt32},
		{"static shared memory", func(k *occupancy.Kernel, v int) { k.StaticSharedMem = v }, 0, math.MaxInt32},
		{"dynamic shared memory", func(k *occupancy.Kernel, v int) { k.DynamicSharedMem = v }, 0, math.MaxInt32},
		{"barriers", func(k *occupancy.Kernel, v int) { k.Barriers = v }, 0, math.MaxInt32},
		{"kernel max threads per block", func(k *occupancy.Kernel, v int) { k.MaxThreadsPerBlock = v }, 0, math.MaxInt32},
		{"max dynamic shared memory", func(k *occupancy.Kernel, v int) { k.MaxDynamicSharedMem = v }, occupancy.NoDynamicSharedMem, math.MaxInt32},
		{"shared-memory limit mode", func(k *occupancy.Kernel, v int) { k.SharedMemLimit = occupancy.SharedMemLimit(v) }, 0, 1},
		{"cache preference", func(k *occupancy.Kernel, v int) { k.CachePreference = occupancy.CachePreference(v) }, 0, 3},
		{"partitioned global caching mode", func(k *occupancy.Kernel, v int) { k.PartitionedGC = occupancy.PartitionedGC(v) }, 0, 2},
	}
	for _, f := range fields {
		for _, v := range append(edges, f.hi-1, f.hi+1) {
			k := occupancy.Kernel{BlockSize: 32}
			f.set(&k, v)
			_, err := occupancy.Compute(gpu.A100(), k)
			if ok := f.lo <= v && v <= f.hi; ok != (err == nil) {
				t.Errorf("%s %d: error %v, want one: %t", f.name, v, err, !ok)
			} else if err != nil && !strings.Contains(err.Error(), f.name) {
				t.Errorf("%s %d: error %q does not name the field", f.name, v, err)
			}
		}
	}
}

// TestUnlimited checks that "no limit" is explicit and never a number.
func TestUnlimited(t *testing.T) {
	r, err := occupancy.Compute(gpu.V100(), occupancy.Kernel{BlockSize: 128})
	if err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]occupancy.Limit{"registers": r.Limits.Registers, "shared memory": r.Limits.SharedMem, "barriers": r.Limits.Barriers} {
		if !l.Unlimited || l.String() != "unlimited" {
			t.Errorf("%s limit %#v, want unlimited", name, l)
		}
		if b, _ := l.MarshalJSON(); string(b) != "null" {
			t.Errorf("%s limit marshals as %s, want null", name, b)
		}
	}
	if r.ActiveBlocks != 16 || r.Limiters != occupancy.LimitWarps {
		t.Errorf("got %d blocks limited by %v, want 16 by warps", r.ActiveBlocks, r.Limiters)
	}
}

// TestBarrierQuirk checks the reference's stale limiter flags on Hopper.
func TestBarrierQuirk(t *testing.T) {
	r, err := occupancy.Compute(gpu.H100(), occupancy.Kernel{BlockSize: 32, Barriers: 16})
	if err != nil {
		t.Fatal(err)
	}
	if r.ActiveBlocks != 4 || r.Limiters.String() != "blocks|barriers" {
		t.Errorf("got %d blocks, limiters %q; want 4, blocks|barriers", r.ActiveBlocks, r.Limiters)
	}
}

// TestCarveoutZero checks that carveout 0 caps an Ampere SM at 8 blocks of
// the 1 KB driver reserve.
func TestCarveoutZero(t *testing.T) {
	for _, d := range []gpu.Device{gpu.A100(), gpu.RTX3090(), gpu.RTX4090(), gpu.H100()} {
		r, err := occupancy.Compute(d, occupancy.Kernel{BlockSize: 32, Carveout: occupancy.CarveoutPercent(0)})
		if err != nil {
			t.Fatal(err)
		}
		if r.ActiveBlocks != 8 || r.SharedMemPreference != 0 || r.SharedMemConfig != 8192 {
			t.Errorf("%s: %d blocks, preference %d, configuration %d; want 8, 0, 8192", d.Name, r.ActiveBlocks, r.SharedMemPreference, r.SharedMemConfig)
		}
	}
}

func TestCurve(t *testing.T) {
	k := occupancy.Kernel{BlockSize: 256, Registers: 32}
	d := gpu.A100()
	for _, axis := range []occupancy.Axis{occupancy.ByRegisters, occupancy.BySharedMem, occupancy.ByBlockSize} {
		from, to, step := 1, 255, 1
		if axis == occupancy.BySharedMem {
			from, to, step = 0, 200000, 1024
		}
		if axis == occupancy.ByBlockSize {
			from, to, step = 32, 1024, 32
		}
		pts, err := occupancy.Curve(d, k, axis, from, to, step)
		if err != nil {
			t.Fatalf("%v: %v", axis, err)
		}
		if want := (to-from)/step + 1; len(pts) != want {
			t.Fatalf("%v: %d points, want %d", axis, len(pts), want)
		}
		for i, p := range pts {
			kx := k
			switch axis {
			case occupancy.ByRegisters:
				kx.Registers = p.X
			case occupancy.BySharedMem:
				kx.DynamicSharedMem = p.X
			case occupancy.ByBlockSize:
				kx.BlockSize = p.X
			}
			r, _ := occupancy.Compute(d, kx)
			if r != p.Result {
				t.Errorf("%v at %d: curve %+v, Compute %+v", axis, p.X, p.Result, r)
			}
			// More registers or shared memory never raise occupancy.
			if i > 0 && axis != occupancy.ByBlockSize && p.Result.Occupancy > pts[i-1].Result.Occupancy {
				t.Errorf("%v: occupancy rises from %v at %d to %v at %d", axis, pts[i-1].Result.Occupancy, pts[i-1].X, p.Result.Occupancy, p.X)
			}
		}
	}
	if _, err := occupancy.Curve(d, k, occupancy.ByRegisters, 10, 1, 1); err == nil {
		t.Error("a curve that ends before it starts is accepted")
	}
	if _, err := occupancy.Curve(d, k, occupancy.ByRegisters, 0, 10, 0); err == nil {
		t.Error("a curve with step 0 is accepted")
	}
	if _, err := occupancy.Curve(d, k, occupancy.ByBlockSize, -64, 64, 32); err == nil {
		t.Error("a curve through block size 0 is accepted")
	}
	if pts, err := occupancy.Curve(d, k, occupancy.ByRegisters, math.MaxInt-1, math.MaxInt, 5); err == nil || pts != nil {
		t.Errorf("a curve past the largest input: %v, %v", len(pts), err)
	}
}

func TestSuggestErrors(t *testing.T) {
	if _, err := occupancy.SuggestBlockSizeFunc(gpu.A100(), occupancy.Kernel{}, nil); err == nil {
		t.Error("nil function accepted")
	}
	if _, err := occupancy.SuggestBlockSizeFunc(gpu.A100(), occupancy.Kernel{}, func(int) int { return -1 }); err == nil {
		t.Error("negative dynamic shared memory accepted")
	}
	if _, err := occupancy.SuggestBlockSize(gpu.A100(), occupancy.Kernel{MaxThreadsPerBlock: -1}); err == nil {
		t.Error("negative kernel block limit accepted")
	}
	s, err := occupancy.SuggestBlockSize(gpu.A100(), occupancy.Kernel{Registers: 300})
	if err != nil || s.BlockSize != 0 || s.Result.Obstacles != occupancy.TooManyRegistersPerThread|occupancy.TooManyRegistersPerBlock {
		t.Errorf("300 registers: %+v, %v; want no block size, and why", s, err)
	}
}

// TestPresetsNotShared checks that changing one device never changes
// another.
func TestPresetsNotShared(t *testing.T) {
	a := gpu.A100()
	a.SharedMemCapacities[len(a.SharedMemCapacities)-1] = 1
	if r, err := occupancy.Compute(gpu.A100(), occupancy.Kernel{BlockSize: 32}); err != nil || r.SharedMemPreference != 167936 {
		t.Errorf("a change to one A100 leaked into another: %+v, %v", r, err)
	}
}

// TestGP10xCrossCheck covers the 6.0 rule the golden sample has no row
// for. 288 threads (9 warps) at 176 registers: 5,632 registers per warp.
// GP100's two sub-partitions check 10 warps × 5,632 = 56,320 ≤ 65,536 and
// would hold one block, but GP10x's four check 12 × 5,632 = 67,584 >
// 65,536, so the reference refuses the kernel on GP100 too.
func TestGP10xCrossCheck(t *testing.T) {
	k := occupancy.Kernel{BlockSize: 288, Registers: 176}
	r, err := occupancy.Compute(gpu.P100(), k)
	if err != nil {
		t.Fatal(err)
	}
	if r.ActiveBlocks != 0 || r.Obstacles != occupancy.GP10xCrossCheck || r.Limits.Registers != occupancy.Blocks(0) {
		t.Errorf("P100: %d blocks, obstacles %q, register limit %v; want 0, %q, 0", r.ActiveBlocks, r.Obstacles, r.Limits.Registers, occupancy.GP10xCrossCheck)
	}
	// The same kernel on a GP10x part fails the sub-partition check itself.
	r, _ = occupancy.Compute(gpu.GTX1080(), k)
	if r.ActiveBlocks != 0 || r.Obstacles != occupancy.SubPartitionRounding {
		t.Errorf("GTX 1080: %d blocks, obstacles %q; want 0, %q", r.ActiveBlocks, r.Obstacles, occupancy.SubPartitionRounding)
	}
	// At 160
	// registers (5,120 per warp, 12 × 5,120 = 61,440) passes both checks.
	r, _ = occupancy.Compute(gpu.P100(), occupancy.Kernel{BlockSize: 288, Registers: 160})
	if r.ActiveBlocks != 1 {
		t.Errorf("P100 at 160 registers: %d blocks, want 1 (32,768 ÷ 5,120 = 6 warps × 2 = 12 ≥ 9)", r.ActiveBlocks)
	}
}

// TestSettingWords checks that each setting reads the words of the golden
// CSV and prints them back, and that an unknown word is an error naming it.
func TestSettingWords(t *testing.T) {
	var m occupancy.SharedMemLimit
	var c occupancy.CachePreference
	var g occupancy.PartitionedGC
	settings := []struct {
		words  []string
		read   func([]byte) error
		String func() string // of the value read
	}{
		{[]string{"optin", "default"}, m.UnmarshalText, func() string { return m.String() }},
		{[]string{"none", "prefer_shared", "prefer_l1", "prefer_equal"}, c.UnmarshalText, func() string { return c.String() }},
		{[]string{"off", "on", "on_strict"}, g.UnmarshalText, func() string { return g.String() }},
	}
	for _, s := range settings {
		for _, w := range s.words {
			if err := s.read([]byte(w)); err != nil || s.String() != w {
				t.Errorf("%q reads back as %q, %v", w, s.String(), err)
			}
		}
		if err := s.read([]byte("Off")); err == nil || !strings.Contains(err.Error(), `"Off" is not `) {
			t.Errorf("unknown word: %v, want an error naming it", err)
		}
	}
}
