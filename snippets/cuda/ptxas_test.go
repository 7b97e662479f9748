package cuda

import (
	"errors"
	"github.com/warpbook/warpbook/engine/ptxas"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestParse reads ptxas -v output of a real compile (testdata/ptxas_sm50.txt:
// nvcc 12.4, sm_50): three kernels, one with a stack and constant banks,
// and a device function ptxas reports only the stack of. The figures are
// copied by hand from the file.
func TestParse(t *testing.T) {
	f, err := os.Open("testdata/ptxas_sm50.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	want := []Function{
		{Name: "dyn", Demangled: "dyn", Arch: "sm_50", Entry: true, Line: 2,
			Resources: ptxas.Resources{Registers: 6, ConstMem: []ptxas.ConstBank{{Bank: 0, Bytes: 328}}}},
		{Name: "_Z9named_barPf", Demangled: "named_bar(float*)", Arch: "sm_50", Entry: true, Line: 6,
			Resources: ptxas.Resources{Registers: 7, SharedMem: 1024, ConstMem: []ptxas.ConstBank{{Bank: 0, Bytes: 328}}}},
		{Name: "_Z8useconstPfPKfi", Demangled: "useconst(float*, float const*, int)", Arch: "sm_50", Entry: true, Line: 10,
			Resources: ptxas.Resources{Registers: 22, StackFrame: 64, CumulativeStack: 64, ConstMem: []ptxas.ConstBank{{Bank: 0, Bytes: 340}}}},
		{Name: "_Z6helperfi", Demangled: "helper(float, int)", Arch: "sm_50", Line: 14},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}

// TestParseForms covers the forms of ptxas lines the toolkit prints that
// the file above lacks: spills, several modules, a device function before
// any kernel, items of other toolkits.
func TestParseForms(t *testing.T) {
	in := `$ nvcc -c x.cu
ptxas info    : Overriding maximum register limit 256 for '_Z5spillPfPKf' with  32 of maxrregcount option
ptxas info    : 0 bytes gmem
ptxas info    : Function properties for _Z3devv
    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function '_Z5spillPfPKf' for 'sm_80'
ptxas info    : Function properties for _Z5spillPfPKf
    1008 bytes stack frame, 1988 bytes spill stores, 2012 bytes spill loads
ptxas info    : Used 32 registers, 1008 bytes cumulative stack size, 368 bytes cmem[0], 8 bytes cmem[2]
x.cu(3): warning: something
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z5spillPfPKf' for 'sm_90a'
ptxas info    : Function properties for _Z5spillPfPKf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 168 registers, used 2 barriers, 16 bytes lmem, 1 textures, 2 samplers, 3 surfaces
`
	got, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Function{
		{Name: "_Z3devv", Demangled: "dev()", Arch: "sm_80", Line: 4, Resources: ptxas.Resources{StackFrame: 8}},
		{Name: "_Z5spillPfPKf", Demangled: "spill(float*, float const*)", Arch: "sm_80", Entry: true, Line: 6,
			Resources: ptxas.Resources{Registers: 32, StackFrame: 1008, CumulativeStack: 1008, SpillStores: 1988, SpillLoads: 2012, ConstMem: []ptxas.ConstBank{{Bank: 0, Bytes: 368}, {Bank: 2, Bytes: 8}}}},
		{Name: "_Z5spillPfPKf", Demangled: "spill(float*, float const*)", Arch: "sm_90a", Entry: true, Line: 12,
			Resources: ptxas.Resources{Registers: 168, Barriers: 2, LocalMem: 16, Textures: 1, Samplers: 2, Surfaces: 3}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		line     int
		want     string
	}{
		{"unknown item", "ptxas info    : Compiling entry function 'k' for 'sm_80'\nptxas info    : Used 3 registers, 4 bytes of smem\n", 2, `unknown item "4 bytes of smem"`},
		{"used first", "ptxas info    : Used 3 registers\n", 1, "before naming the entry function"},
		{"no frame", "ptxas info    : Function properties for k\nptxas info    : Used 3 registers\n", 2, "want ptxas's stack frame line"},
		{"frame at end", "ptxas info    : Compiling entry function 'k' for 'sm_80'\nptxas info    : Function properties for k\n", 2, "ends before the stack frame line"},
		{"huge number", "ptxas info    : Compiling entry function 'k' for 'sm_80'\nptxas info    : Used 99999999999 registers\n", 2, "out of range"},
		{"no arch", "ptxas info    : Function properties for k\n    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n", 1, "no architecture for function k"},
		{"long line", strings.Repeat("x", MaxLineLength+1), 1, "longer than"},
	} {
		_, err := Parse(strings.NewReader(c.in))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != c.line || !strings.Contains(pe.Error(), c.want) {
			t.Errorf("%s: %v; want line %d: ...%s", c.name, err, c.line, c.want)
		}
	}
}

// TestSplitSASS splits cuobjdump -sass of a real cubin (sm_75): three
// functions (the device function is in its caller's listing), each from
// its Function line to its dotted line, every instruction with its
// control word. The instruction counts are counted in the file by hand.
func TestSplitSASS(t *testing.T) {
	b, err := os.ReadFile("testdata/sass_sm75.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := SplitSASS(string(b))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"dyn": 16, "_Z9named_barPf": 16, "_Z8useconstPfPKfi": 48}
	if len(got) != len(want) {
		t.Fatalf("%d functions, want %d", len(got), len(want))
	}
	for name, n := range want {
		s := got[name]
		lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
		if lines[0] != "\t\tFunction : "+name || strings.Trim(strings.TrimSpace(lines[len(lines)-1]), ".") != "" {
			t.Errorf("%s: starts %q, ends %q", name, lines[0], lines[len(lines)-1])
		}
		instr := 0
		for i, l := range lines {
			if strings.Contains(l, "*/                   ") && strings.HasPrefix(strings.TrimSpace(l), "/*0") {
				instr++
				// The control word follows each instruction.
				if i+1 >= len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[i+1]), "/* 0x") {
					t.Errorf("%s: no control word after %q", name, l)
				}
			}
		}
		if instr != n {
			t.Errorf("%s: %d instructions, want %d", name, instr, n)
		}
		if !strings.Contains(string(b), s) {
			t.Errorf("%s: not verbatim", name)
		}
	}
	for _, bad := range []string{
		"\t\tFunction : a\n  /*0000*/ EXIT ;\n",
		"\t\tFunction : a\n\t\t..........\n\t\tFunction : a\n\t\t..........\n",
		"\t\tFunction : a\n\t\tFunction : b\n\t\t..........\n",
	} {
		if _, err := SplitSASS(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
