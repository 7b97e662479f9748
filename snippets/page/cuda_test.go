package page

import (
	"strings"
	"testing"
)

const cudaPage = "# ILP\n" + // 1
	"\n" + // 2
	"```cuda compile id=ilp arch=sm_80,sm_90a flags=\"-maxrregcount=64 -lineinfo\"\n" + // 3
	"__global__ void ilp4(float* y, const float* x) {\n" + // 4
	"  y[threadIdx.x] = x[threadIdx.x];\n" + // 5
	"}\n" + // 6
	"```\n" + // 7
	"```resources\n" + // 8
	"KERNEL  ARCH    REGISTERS  SMEM  STACK  SPILL-STORES  SPILL-LOADS\n" + // 9
	"ilp4    sm_80           8     0      0             0            0\n" + // 10
	"ilp4    sm_90a          8     0      0             0            0\n" + // 11
	"```\n" + // 12
	"```sass arch=sm_90a match=\"^(LDG|STG)\"\n" + // 13
	"/*0060*/ LDG.E R3, desc[UR4][R2.64] ;\n" + // 14
	"```\n" + // 15
	"\n" + // 16
	"Prose.\n" + // 17
	"\n" + // 18
	"```sass cell=ilp kernel=ilp4 from=\"^S2R\" to=\"^EXIT\" control\n" + // 19
	"```\n" + // 20
	"\n" + // 21
	"```cuda\n" + // 22
	"__global__ void shown_only() {}\n" + // 23
	"```\n" // 24

func TestParseCUDA(t *testing.T) {
	pg := mustParse(t, "x.md", cudaPage)
	if len(pg.CUDA) != 1 || len(pg.SASS) != 2 || len(pg.Cells) != 0 {
		t.Fatalf("%d CUDA cells, %d sass blocks, %d Go cells; want 1, 2, 0", len(pg.CUDA), len(pg.SASS), len(pg.Cells))
	}
	c := pg.CUDA[0]
	if c.ID() != "ilp" || strings.Join(c.Attrs.Archs, " ") != "sm_80 sm_90a" || strings.Join(c.Attrs.Flags, " ") != "-maxrregcount=64 -lineinfo" {
		t.Errorf("attributes %+v", c.Attrs)
	}
	if c.Pos.String() != "x.md:3:1" || c.ResourcesPos.String() != "x.md:8:1" || c.Lines[0].Pos.String() != "x.md:4:1" {
		t.Errorf("positions: cell %s, resources %s, first line %s", c.Pos, c.ResourcesPos, c.Lines[0].Pos)
	}
	if !strings.HasPrefix(c.Source(), "__global__ void ilp4(") || len(c.Lines) != 3 {
		t.Errorf("source %q", c.Source())
	}
	if len(c.Kernels) != 2 || c.Kernels[1].Name != "ilp4" || c.Kernels[1].Arch != "sm_90a" || c.Kernels[1].Registers != 8 || c.Kernels[1].Cell != "ilp" {
		t.Errorf("kernels %+v", c.Kernels)
	}
	s0, s1 := pg.SASS[0], pg.SASS[1]
	if s0.Cell != c || s0.ArchOrDefault() != "sm_90a" || s0.Match != "^(LDG|STG)" || s0.Expected() != "/*0060*/ LDG.E R3, desc[UR4][R2.64] ;\n" || s0.ID() != "ilp/sass-1" {
		t.Errorf("first sass block %+v", s0)
	}
	if s1.Cell != c || s1.Kernel != "ilp4" || s1.ArchOrDefault() != "sm_80" || s1.From != "^S2R" || s1.To != "^EXIT" || !s1.Control || s1.Raw || s1.ID() != "ilp/sass-2" {
		t.Errorf("second sass block %+v", s1)
	}
	// In the AST: the cell's node holds its two blocks; each sass block
	// has a node of its own.
	var kinds []string
	for n := pg.Doc.FirstChild(); n != nil; n = n.NextSibling() {
		kinds = append(kinds, n.Kind().String())
	}
	if got := strings.Join(kinds, " "); got != "Heading CUDA SASS Paragraph SASS FencedCodeBlock" {
		t.Errorf("top-level nodes: %s", got)
	}
	if n := pg.Doc.FirstChild().NextSibling().(*CUDANode); n.ChildCount() != 2 {
		t.Errorf("the CUDA node has %d children", n.ChildCount())
	}
}

// A kernel's resources, and the first instruction of a whole listing as
// cuobjdump prints it (nvcc's sm_80 SASS of fma_chain, book/stall-reasons.md).
const (
	resources  = "```resources\nKERNEL ARCH REGISTERS SMEM STACK SPILL-STORES SPILL-LOADS\nk sm_80 8 0 0 0 0\n```\n"
	wholeLine0 = "        /*0000*/                   MOV R1, c[0x0][0x28] ;                             /* 0x00000a0000017a02 */\n" +
		"                                                                                      /* 0x000fe40000000f00 */\n"
	wholeCtrl = "                                                                                      /* 0x000fea0003800000 */\n"
)

func TestParseCUDAErrors(t *testing.T) {
	cell := "```cuda compile id=k arch=sm_80\n__global__ void k() {}\n```\n"
	testParseErrors(t, []parseError{
		{"no arch", "```cuda compile\nx\n```\n", "x.md:1:4: a CUDA cell names the architectures it compiles for"},
		{"bad arch", "```cuda compile arch=sm80\nx\n```\n", `x.md:1:17: arch "sm80" is not an architecture`},
		{"arch twice", "```cuda compile arch=sm_80,sm_80\nx\n```\n", "x.md:1:17: arch sm_80 is named twice"},
		{"unknown attribute", "```cuda compile arch=sm_80 opt=3\nx\n```\n", `x.md:1:28: unknown attribute "opt" of a CUDA cell`},
		{"display attrs", "```cuda sm_80\nx\n```\n", `x.md:1:9: a display-only cuda block takes no attributes (found "sm_80")`},
		{"unclosed", "```cuda compile arch=sm_80\nx\n", "x.md:1:1: cuda-1: CUDA cell is never closed"},
		{"duplicate id", "```go run id=k\n```\n" + cell, `x.md:3:1: k: duplicate snippet id "k" (first used at line 1)`},
		{"orphan resources", "text\n\n```resources\n```\n", "x.md:3:1: resources block with no CUDA cell"},
		{"second resources", cell + "```resources\n```\n```resources\n```\n", "x.md:6:1: resources block with no CUDA cell"},
		{"resources attrs", cell + "```resources arch=sm_80\n```\n", `x.md:4:14: a resources block takes no attributes`},
		{"bad table", cell + "```resources\n" + "KERNEL  ARCH    REGISTERS  SMEM  STACK  SPILL-STORES  SPILL-LOADS\nk  sm_80  300  0  0  0  0\n```\n",
			`x.md:6:11: k: resources block: REGISTERS "300" is not a count from 0 to 255`},
		{"orphan sass", "text\n\n```sass\n```\n", "x.md:3:1: sass block with no CUDA cell right before it"},
		{"sass after prose", cell + "\ntext\n\n```sass\n```\n", "x.md:7:1: sass block with no CUDA cell right before it"},
		{"sass unknown cell", cell + "```sass cell=nope\n```\n", `x.md:4:9: no CUDA cell with id "nope" above this sass block`},
		{"sass other arch", cell + "```sass arch=sm_90a\n```\n", "x.md:4:9: the CUDA cell k does not compile for sm_90a (it compiles for sm_80)"},
		{"sass bad regexp", cell + "```sass match=\"(\"\n```\n", `x.md:4:9: match="(" is not a regular expression`},
		{"sass context alone", cell + "```sass context=2\n```\n", "x.md:4:1: context= keeps instructions around the ones match= keeps"},
		{"sass context range", cell + "```sass match=. context=100\n```\n", "x.md:4:17: context=100: a number of instructions from 0 to 64"},
		{"sass raw value", cell + "```sass raw=yes\n```\n", "x.md:4:9: raw is a flag"},
		{"sass unknown", cell + "```sass lines=3\n```\n", `x.md:4:9: unknown attribute "lines" of a sass block`},
		{"sass raw and control", cell + "```sass raw control\n```\n", "x.md:4:1: raw shows the control words as they are"},
		{"sass empty value", cell + "```sass kernel\n```\n", "x.md:4:9: kernel needs a value: kernel=NAME"},
		// A whole listing (raw, no selection) must read: its errors are
		// at their place in the block.
		{"whole bad word", cell + resources + "```sass raw\n" + wholeLine0 + "        /*0010*/  EXIT ;  /* 0xZZ */\n" + wholeCtrl + "```\n",
			`x.md:11:27: k: sass block: encoding "/* 0xZZ */", want /* 0x followed by 16 hex digits */`},
		{"whole no control word", cell + resources + "```sass raw\n" + wholeLine0 + "        /*0010*/  EXIT ;  /* 0x000000000000794d */\n```\n", "x.md:11:"},
		{"whole twice", cell + resources + "```sass raw\n" + wholeLine0 + "```\n```sass raw\n" + wholeLine0 + "```\n",
			"x.md:12:1: k: the whole listing of k for sm_80 is recorded twice (first at line 9)"},
	})
}

// TestWholeListing reads a whole sass block (raw, no selection) into its
// kernel: the listing engine/sass reads, at the page's lines and columns.
func TestWholeListing(t *testing.T) {
	cell := "```cuda compile id=k arch=sm_80\n__global__ void k() {}\n```\n"
	src := cell + resources + "```sass raw\n" + wholeLine0 + "        /*0010*/                   EXIT ;    /* 0x000000000000794d */\n" + wholeCtrl + "```\n" +
		"```sass match=EXIT raw\n        /*0010*/                   EXIT ;    /* 0x000000000000794d */\n" + wholeCtrl + "```\n"
	pg := mustParse(t, "x.md", src)
	if !pg.SASS[0].Whole() || pg.SASS[1].Whole() {
		t.Errorf("Whole: %v, %v; want true, false (match= selects)", pg.SASS[0].Whole(), pg.SASS[1].Whole())
	}
	k := pg.CUDA[0].Kernels[0]
	if k.SASSFile != "x.md" || k.SASSLine != 9 || !strings.HasPrefix(k.SASS, wholeLine0) {
		t.Fatalf("kernel's listing: %s:%d %q", k.SASSFile, k.SASSLine, k.SASS)
	}
	l, err := k.Listing()
	if err != nil {
		t.Fatal(err)
	}
	f := l.Functions[0]
	if f.Name != "k" || f.Arch != "sm_80" || f.Resources == nil || f.Resources.Regs != 8 || len(f.Insts) != 2 {
		t.Fatalf("function %+v", f)
	}
	if in := f.Insts[1]; in.Line != 11 || in.Col != 36 || in.Text != "EXIT" || in.Ctrl.Stall != 5 {
		t.Errorf("second instruction at %d:%d %q %+v; want line 11, column 36, EXIT with a stall of 5", in.Line, in.Col, in.Text, in.Ctrl)
	}
}

// TestWithVerified rewrites a CUDA cell's resources and sass blocks, and
// adds the resources block a cell lacks, inside a list item.
func TestWithVerified(t *testing.T) {
	pg := mustParse(t, "x.md", cudaPage)
	out, err := pg.WithVerified(Verified{Resources: map[string]string{"ilp": "T\n"}, SASS: map[int]string{1: "/*0000*/ MOV R1 ;\n"}})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(cudaPage, "KERNEL  ARCH    REGISTERS  SMEM  STACK  SPILL-STORES  SPILL-LOADS\n"+
		"ilp4    sm_80           8     0      0             0            0\n"+
		"ilp4    sm_90a          8     0      0             0            0\n", "T\n", 1)
	want = strings.Replace(want, "control\n```\n", "control\n/*0000*/ MOV R1 ;\n```\n", 1)
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	listed := "- step\n\n  ```cuda compile arch=sm_80\n  __global__ void k() {}\n  ```\n"
	pg = mustParse(t, "y.md", listed)
	out, err = pg.WithVerified(Verified{Resources: map[string]string{"cuda-1": "A\n\nB\n"}})
	if want := listed + "  ```resources\n  A\n\n  B\n  ```\n"; err != nil || string(out) != want {
		t.Errorf("got %v\n%s\nwant\n%s", err, out, want)
	}
	if _, err := pg.WithVerified(Verified{Resources: map[string]string{"cuda-1": "```\n"}}); err == nil || !strings.Contains(err.Error(), "would close its resources block") {
		t.Errorf("a fence in the text: %v", err)
	}
	if _, err := pg.WithVerified(Verified{SASS: map[int]string{0: ""}}); err == nil {
		t.Error("no error for a sass block the page does not have")
	}
}
