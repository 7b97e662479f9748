package sass

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func readListing(t testing.TB, name string) *Listing {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	l, err := Parse(name, b)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestSaxpy reads saxpy as cuobjdump and nvdisasm print it: the same
// instructions, encodings and control information either way.
func TestSaxpy(t *testing.T) {
	cu := readListing(t, "saxpy_sm_80.sass")
	nv := readListing(t, "saxpy_sm_80.nvdisasm")
	if cu.Format != Cuobjdump || nv.Format != Nvdisasm {
		t.Fatalf("formats %v and %v, want cuobjdump and nvdisasm", cu.Format, nv.Format)
	}
	a, err := cu.Function("")
	if err != nil {
		t.Fatal(err)
	}
	b, err := nv.Function("saxpy")
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "saxpy" || a.Arch != "sm_80" || b.Arch != "sm_80" {
		t.Errorf("function %s (%s) and %s, want saxpy for sm_80", a.Name, a.Arch, b.Arch)
	}
	// ptxas -v said "Used 10 registers" for this kernel; both tools say so.
	if a.Resources == nil || a.Resources.Regs != 10 || b.Resources == nil || b.Resources.Regs != 10 {
		t.Errorf("resources %+v and %+v, want 10 registers", a.Resources, b.Resources)
	}
	if len(a.Insts) != len(b.Insts) || len(a.Insts) < 16 {
		t.Fatalf("%d and %d instructions", len(a.Insts), len(b.Insts))
	}
	for i := range a.Insts {
		x, y := a.Insts[i], b.Insts[i]
		if x.Lo != y.Lo || x.Hi != y.Hi || x.Mnemonic() != y.Mnemonic() || x.Addr != 16*i || y.Addr != 16*i {
			t.Errorf("instruction %d: %q %#x/%#x against %q %#x/%#x", i, x.Text, x.Lo, x.Hi, y.Text, y.Lo, y.Hi)
		}
	}
	check := func(in Inst, text, pred, op string, mods, operands []string) {
		t.Helper()
		if in.Text != text || in.Pred != pred || in.Op != op || !slices.Equal(in.Mods, mods) || !slices.Equal(in.Operands, operands) {
			t.Errorf("%q read as pred %q op %q mods %q operands %q", in.Text, in.Pred, in.Op, in.Mods, in.Operands)
		}
	}
	check(a.Insts[5], "@P0 EXIT", "P0", "EXIT", nil, nil)
	check(a.Insts[10], "LDG.E R2, [R2.64]", "", "LDG", []string{"E"}, []string{"R2", "[R2.64]"})
	check(a.Insts[4], "ISETP.GE.AND P0, PT, R4, c[0x0][0x178], PT", "", "ISETP", []string{"GE", "AND"},
		[]string{"P0", "PT", "R4", "c[0x0][0x178]", "PT"})
	// The self-branch after EXIT, as an address and as a label.
	last := func(f *Function) Inst {
		for i := len(f.Insts) - 1; i >= 0; i-- {
			if f.Insts[i].Op == "BRA" {
				return f.Insts[i]
			}
		}
		t.Fatal("no BRA")
		return Inst{}
	}
	if x, y := last(a), last(b); x.Target != x.Addr || y.Target != y.Addr || y.TargetLabel == "" || y.Label != y.TargetLabel {
		t.Errorf("self-branch: %q → %#x; %q → %#x (label %q at %q)", x.Text, x.Target, y.Text, y.Target, y.TargetLabel, y.Label)
	}
}

// TestControlOfSaxpy decodes saxpy's control information by hand from the
// layout in Jia et al. §2.1 and checks what the listing shows: the loads set
// SB2 and the FFMA that consumes them waits on SB2; S2R sets SB0 and the
// IMAD that reads its result waits on SB0.
func TestControlOfSaxpy(t *testing.T) {
	f, _ := readListing(t, "saxpy_sm_80.sass").Function("saxpy")
	want := map[string]Control{
		"S2R R4, SR_CTAID.X":                         {Stall: 4, WriteSB: 0, ReadSB: NoSB},
		"IMAD R4, R4, c[0x0][0x0], R3":               {Stall: 5, Yield: true, WriteSB: NoSB, ReadSB: NoSB, Wait: 1 << 0},
		"ISETP.GE.AND P0, PT, R4, c[0x0][0x178], PT": {Stall: 13, Yield: true, WriteSB: NoSB, ReadSB: NoSB},
		"LDG.E R2, [R2.64]":                          {Stall: 4, WriteSB: 2, ReadSB: NoSB},
		"FFMA R7, R2, c[0x0][0x160], R7":             {Stall: 5, Yield: true, WriteSB: NoSB, ReadSB: NoSB, Wait: 1 << 2},
		"STG.E [R4.64], R7":                          {Stall: 1, WriteSB: NoSB, ReadSB: NoSB},
		"EXIT":                                       {Stall: 5, WriteSB: NoSB, ReadSB: NoSB},
	}
	seen := 0
	for _, in := range f.Insts {
		if c, ok := want[in.Text]; ok {
			seen++
			if in.Ctrl != c {
				t.Errorf("%s: decoded %v (%+v), want %v", in.Text, in.Ctrl, in.Ctrl, c)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d instructions", seen, len(want))
	}
	for _, in := range f.Insts {
		const mask = uint64(0x1fffff) << 41
		if got := in.Ctrl.Encode(); got != in.Hi&mask {
			t.Errorf("%s: Encode gives %#x, the listing %#x", in.Text, got, in.Hi&mask)
		}
	}
	if got := DecodeControl(0x000ea8000c1e1900).String(); got != "B------:R-:W2:-:S04" {
		t.Errorf("LDG.E's control prints as %q", got)
	}
	if got := DecodeControl(0x004fca0000000007).String(); got != "B--2---:R-:W-:Y:S05" {
		t.Errorf("FFMA's control prints as %q", got)
	}
}

// TestControlInvariants holds the decoding to every committed listing:
// a counter that an instruction waits on is set (as a write or a read
// counter) by some instruction of the same function; and a stall count above
// 11 always comes with the yield bit clear (Huerta et al. §4: the other
// combination never appears in compiler-generated code). A field read from
// the wrong bits breaks both.
func TestControlInvariants(t *testing.T) {
	files, err := filepath.Glob("testdata/*.sass")
	if err != nil || len(files) < 9 {
		t.Fatalf("listings: %v %v", files, err)
	}
	archs := map[string]bool{}
	for _, file := range files {
		l := readListing(t, filepath.Base(file))
		for _, f := range l.Functions {
			archs[f.Arch] = true
			var set, waited uint8
			for _, in := range f.Insts {
				if !in.HasEncoding {
					t.Fatalf("%s: %s has no encoding", file, in.Text)
				}
				if in.Ctrl.WriteSB != NoSB {
					set |= 1 << uint(in.Ctrl.WriteSB)
				}
				if in.Ctrl.ReadSB != NoSB {
					set |= 1 << uint(in.Ctrl.ReadSB)
				}
				waited |= in.Ctrl.Wait
				if in.Ctrl.Stall > 11 && !in.Ctrl.Yield {
					t.Errorf("%s:%d: %s: stall %d without yield", file, in.Line, in.Text, in.Ctrl.Stall)
				}
				if in.Ctrl.Wait>>6 != 0 {
					t.Errorf("%s:%d: wait mask %#x names a counter past SB5", file, in.Line, in.Ctrl.Wait)
				}
			}
			if waited&^set != 0 {
				t.Errorf("%s: %s (%s) waits on counters %06b that no instruction sets (%06b)", file, f.Name, f.Arch, waited&^set, set)
			}
		}
	}
	for _, a := range []string{"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"} {
		if !archs[a] {
			t.Errorf("no listing for %s", a)
		}
	}
}

// TestErrors: bad listings fail with a message at the line and byte column
// of the problem.
func TestErrors(t *testing.T) {
	const head = "\tcode for sm_80\n\t\tFunction : k\n"
	const lo, hi = "/* 0x00000a0000017a02 */", "/* 0x000fe40000000f00 */"
	tests := []struct {
		name, src, want string
	}{
		{"empty", "", "x.sass: no functions found"},
		{"one word", head + "        /*0000*/  MOV R1, c[0x0][0x28] ; " + lo + "\n", "x.sass:4:1: the second word of MOV R1, c[0x0][0x28]: encoding \"\", want /* 0x followed by 16 hex digits */"},
		{"bad second word", head + "        /*0000*/  MOV R1, R2 ; " + lo + "\n  /* 0xzz */\n", "x.sass:4:1: the second word of MOV R1, R2"},
		{"bad first word", head + "        /*0000*/  MOV R1, R2 ; /* 0x12 */\n", "x.sass:3:32: encoding \"/* 0x12 */\""},
		{"no semicolon", head + "        /*0000*/  MOV R1, R2 " + lo + "\n", "x.sass:3:19: instruction without its closing ';'"},
		{"address", head + "        /*0010*/  MOV R1, R2 ; " + lo + "\n" + hi + "\n", "x.sass:3:11: instruction at address 0x0010, want 0x0000: instructions are 16 bytes, in order"},
		{"bad address", head + "        /*00g0*/  MOV R1, R2 ;\n", "x.sass:3:11: address \"00g0\" is not hexadecimal"},
		{"unclosed", head + "        /*0000  MOV R1, R2 ;\n", "x.sass:3:9: unclosed /* comment"},
		{"predicate", head + "        /*0000*/  @P0 ;\n", "x.sass:3:19: predicate \"@P0\" without an instruction"},
		{"opcode", head + "        /*0000*/  mov R1, R2 ;\n", "x.sass:3:19: opcode \"mov\" is not a SASS opcode"},
		{"brackets", head + "        /*0000*/  LDG.E R2, [R2.64 ;\n", "x.sass:3:19: unbalanced brackets"},
		{"stray word", head + "        /*0000*/  MOV R1, R2 ; " + lo + "\n" + hi + "\n" + hi + "\n", "x.sass:5:1: encoding word 0x000fe40000000f00 without an instruction"},
		{"twice", head + "\t\tFunction : k\n", "x.sass:3:3: function k (sm_80) appears twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.sass", []byte(tc.src))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want an *Error", err, err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %q\nwant prefix %q", err, tc.want)
			}
		})
	}
}

// TestFunctionLookup: naming a function, or not naming one when there are
// several, says which there are.
func TestFunctionLookup(t *testing.T) {
	l := readListing(t, "micro_sm_80.sass")
	if _, err := l.Function(""); err == nil || !strings.Contains(err.Error(), "has 9 functions") {
		t.Errorf("no name: %v", err)
	}
	if _, err := l.Function("nope"); err == nil || !strings.Contains(err.Error(), `no function "nope"`) || !strings.Contains(err.Error(), "ffma_chain") {
		t.Errorf("unknown name: %v", err)
	}
	f, err := l.Function("lds_chase")
	if err != nil {
		t.Fatal(err)
	}
	// 1024 unsigned ints of static shared memory, as ptxas reports it.
	if f.Resources == nil || f.Resources.Shared != 4096 {
		t.Errorf("lds_chase resources %+v, want 4096 bytes of shared memory", f.Resources)
	}
}

// TestLimits: a listing over MaxListingBytes is refused before it is read.
func TestLimits(t *testing.T) {
	_, err := Parse("big.sass", make([]byte, MaxListingBytes+1))
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("error %v", err)
	}
}

// FuzzParse: no input makes Parse panic, and what it accepts is
// consistent: instructions 16 bytes apart and targets inside or -1.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"saxpy_sm_80.sass", "saxpy_sm_80.nvdisasm"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("\t\tFunction : k\n /*0000*/ @!P0 BRA `(.L_x_0) ; /* 0x0 */\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		l, err := Parse("f.sass", src)
		if err != nil {
			return
		}
		for _, fn := range l.Functions {
			for i, in := range fn.Insts {
				if in.Addr != 16*i || in.Op == "" {
					t.Fatalf("instruction %d at %#x, op %q", i, in.Addr, in.Op)
				}
			}
		}
	})
}
