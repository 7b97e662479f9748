package ptxas

import (
	"errors"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// The rows of a table as ptxas -v reported them for real kernels (CUDA
// 12.4): saxpy's 10 registers on sm_80 are the record of this
// toolkit; transpose's 4224 bytes are 32 × 33 floats.
var kernels = []Kernel{
	{Name: "saxpy", Arch: "sm_80", Resources: Resources{Registers: 10}},
	{Name: "transpose", Arch: "sm_80", Resources: Resources{Registers: 8, SharedMem: 4224}},
	{Name: "tile<64, 2>", Arch: "sm_90a", Resources: Resources{Registers: 32, StackFrame: 1008, SpillStores: 1988, SpillLoads: 2012}},
}

const table = `KERNEL       ARCH    REGISTERS  SMEM  STACK  SPILL-STORES  SPILL-LOADS
saxpy        sm_80          10     0      0             0            0
transpose    sm_80           8  4224      0             0            0
tile<64, 2>  sm_90a         32     0   1008          1988         2012
`

func TestFormatTable(t *testing.T) {
	if got := FormatTable(kernels); got != table {
		t.Errorf("FormatTable:\n%s\nwant\n%s", got, table)
	}
	if got := FormatTable(nil); got != Header+"\n" {
		t.Errorf("FormatTable(nil) = %q", got)
	}
}

func TestParseTable(t *testing.T) {
	got, err := ParseTable(table)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(kernels) {
		t.Fatalf("%d kernels, want %d", len(got), len(kernels))
	}
	for i := range got {
		if got[i].Name != kernels[i].Name || got[i].Arch != kernels[i].Arch || got[i].Resources.Registers != kernels[i].Registers ||
			got[i].SharedMem != kernels[i].SharedMem || got[i].StackFrame != kernels[i].StackFrame ||
			got[i].SpillStores != kernels[i].SpillStores || got[i].SpillLoads != kernels[i].SpillLoads {
			t.Errorf("row %d: %+v, want %+v", i, got[i], kernels[i])
		}
	}
	// Any alignment reads, and CRLF line ends.
	loose := "KERNEL ARCH REGISTERS SMEM STACK SPILL-STORES SPILL-LOADS\r\n\r\nk  sm_75 3 0 0 0 0\r\n"
	if ks, err := ParseTable(loose); err != nil || len(ks) != 1 || ks[0].Name != "k" || ks[0].Registers != 3 {
		t.Errorf("loose table: %+v, %v", ks, err)
	}
	if ks, err := ParseTable(""); err != nil || ks != nil {
		t.Errorf("empty table: %+v, %v", ks, err)
	}
}

func TestParseTableErrors(t *testing.T) {
	head := Header + "\n"
	for _, tc := range []struct{ name, text, want string }{
		{"header", "KERNEL ARCH REGS\nk sm_80 1 0 0 0 0\n", "1:1: the table's first line must name its columns"},
		{"short", head + "k sm_80 1 0 0\n", "2:1: a row has a kernel, an architecture and 5 figures; this one has 5 fields"},
		{"no name", head + "sm_80 1 0 0 0 0\n", "2:1: a row has a kernel"},
		{"arch", head + "k sm80 1 0 0 0 0\n", `2:3: "sm80" is not an architecture`},
		{"registers", head + "k sm_80 256 0 0 0 0\n", `2:9: REGISTERS "256" is not a count from 0 to 255`},
		{"negative", head + "k sm_80 1 -4 0 0 0\n", `2:11: SMEM "-4" is not a count`},
		{"huge", head + "k sm_80 1 0 99999999999 0 0\n", `2:13: STACK "99999999999" is not a count from 0 to 2147483647`},
		{"twice", head + "k sm_80 1 0 0 0 0\nk sm_80 2 0 0 0 0\n", "3:1: kernel k is listed twice for sm_80 (first on line 2)"},
		{"control", head + "k\x01 sm_80 1 0 0 0 0\n", "2:1: a kernel's name holds a control character"},
		{"long", head + strings.Repeat("k", MaxName+1) + " sm_80 1 0 0 0 0\n", "2:1: a kernel's name of 1025 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseTable(tc.text)
			var te *TableError
			if !errors.As(err, &te) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v, want a *TableError starting %q", err, tc.want)
			}
		})
	}
}

func TestKernels(t *testing.T) {
	ks := NewKernels(
		Kernel{Cell: "a", Name: "k", Arch: "sm_80", Resources: Resources{Registers: 40}},
		Kernel{Cell: "b", Name: "k", Arch: "sm_80", Resources: Resources{Registers: 64}},
		Kernel{Cell: "b", Name: "k", Arch: "sm_90a", Resources: Resources{Registers: 72}},
	)
	if got := ks.Kernel("k", "sm_90a").Registers; got != 72 {
		t.Errorf("k sm_90a: %d registers", got)
	}
	if got := ks.Kernel("b/k", "sm_80").Registers; got != 64 {
		t.Errorf("b/k sm_80: %d registers", got)
	}
	panics := func(name, arch, want string) {
		t.Helper()
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), want) {
				t.Errorf("Kernel(%q, %q) panicked with %v, want %q", name, arch, r, want)
			}
		}()
		ks.Kernel(name, arch)
	}
	panics("k", "sm_80", `2 cells compile a kernel "k" for sm_80: name one of "a/k", "b/k"`)
	panics("k", "sm_75", `no kernel "k" compiled for sm_75 on this page (it compiles k (sm_80, sm_90a))`)
	all := ks.All()
	all[0].Registers = 1
	if ks.Kernel("a/k", "sm_80").Registers != 40 {
		t.Error("All gives the table itself, not a copy")
	}
}

// TestLaunch checks that a compiled kernel reaches the occupancy
// calculator with its registers and shared memory: 33 registers on an A100
// at 64 threads is the package occupancy's documented example (24 blocks,
// 75 %), and 4224 bytes of static shared memory are what the calculator
// sees of transpose.
func TestLaunch(t *testing.T) {
	k := Resources{Registers: 33}.Launch(64, 0)
	r, err := occupancy.Compute(gpu.A100(), k)
	if err != nil || r.ActiveBlocks != 24 || r.Occupancy != 0.75 {
		t.Errorf("33 registers, 64 threads on an A100: %+v, %v", r, err)
	}
	k = Resources{Registers: 8, SharedMem: 4224}.Launch(1024, 2048)
	if k.StaticSharedMem != 4224 || k.DynamicSharedMem != 2048 || k.BlockSize != 1024 || k.Barriers != 1 {
		t.Errorf("Launch: %+v", k)
	}
	if k := (Resources{Barriers: 3}).Launch(32, 0); k.Barriers != 3 {
		t.Errorf("barriers %d", k.Barriers)
	}
}

// TestListing reads a kernel's recorded SASS at the page's lines, and
// says how to record it when there is none.
func TestListing(t *testing.T) {
	k := Kernel{Name: "k", Arch: "sm_80", Resources: Resources{Registers: 8, SharedMem: 4224}, SASSFile: "p.md", SASSLine: 40,
		SASS: "        /*0000*/                   EXIT ;                                             /* 0x000000000000794d */\n" +
			"                                                                                      /* 0x000fea0003800000 */\n" +
			"        /*0010*/                   BRA 0x10;                                          /* 0xfffffff000007947 */\n" +
			"                                                                                      /* 0x000fc0000383ffff */\n"}
	l, err := k.Listing()
	if err != nil {
		t.Fatal(err)
	}
	f := l.Functions[0]
	if l.File != "p.md" || f.Name != "k" || f.Arch != "sm_80" || f.Resources.Regs != 8 || f.Resources.Shared != 4224 {
		t.Errorf("listing %s: function %+v, resources %+v", l.File, f, f.Resources)
	}
	if len(f.Insts) != 2 || f.Insts[0].Line != 40 || f.Insts[1].Line != 42 || f.Insts[1].Target != 0x10 {
		t.Errorf("instructions %+v", f.Insts)
	}
	if got := NewKernels(k).SASS("k", "sm_80"); got.Functions[0].Insts[1].Line != 42 {
		t.Errorf("Kernels.SASS: %+v", got.Functions[0].Insts[1])
	}
	k.SASS = strings.Replace(k.SASS, "0x000fea0003800000", "0x000fea00038000", 1)
	if _, err := k.Listing(); err == nil || !strings.HasPrefix(err.Error(), "p.md:41:") {
		t.Errorf("a bad control word: %v, want an error at p.md:41", err)
	}
	k.SASS = ""
	if _, err := k.Listing(); err == nil || !strings.Contains(err.Error(), "add ```sass kernel=k arch=sm_80 raw```") {
		t.Errorf("no listing: %v", err)
	}
}
