package page

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/warpbook/warpbook/engine/ptxas"
	"github.com/warpbook/warpbook/engine/sass"
)

// CUDACell is a fenced block of CUDA marked to compile, and the verified
// blocks that record what the compiler made of it:
//
//	```cuda compile id=ilp arch=sm_80,sm_90a flags="-maxrregcount=64"
//	__global__ void ilp4(float* out, const float* in, int n) { ... }
//	```
//	```resources
//	KERNEL  ARCH    REGISTERS  SMEM  STACK  SPILL-STORES  SPILL-LOADS
//	ilp4    sm_80          30     0      0             0            0
//	ilp4    sm_90a         30     0      0             0            0
//	```
//	```sass kernel=ilp4 arch=sm_90a match="^FFMA"
//	/*0180*/ FFMA R9, R10, R11, R9 ;
//	```
//
// The resources block right after the cell holds ptxas's figures for each
// kernel and architecture in the table of [ptxas.FormatTable]; each sass
// block quotes instructions of one kernel for one architecture (see
// [SASSBlock]). The kernel compiles the cell with NVIDIA's toolkit and
// checks both kinds of block as it checks outputs.
type CUDACell struct {
	// Index is the cell's place among the page's CUDA cells, from 0.
	Index int
	// Pos is the position of the opening fence.
	Pos Pos
	// Code is the cell's fenced block, a child of its [CUDANode].
	Code *ast.FencedCodeBlock
	// Attrs are the parsed attributes.
	Attrs CUDAAttrs
	// Lines are the CUDA source's lines, with their positions in the page.
	Lines []Line
	// Resources is the resources block right after the cell (the node's
	// second child); nil if there is none.
	Resources *ast.FencedCodeBlock
	// ResourcesPos is the position of its opening fence.
	ResourcesPos Pos
	// Kernels are the kernels the resources block records, each with Cell
	// set to the cell's ID.
	Kernels []ptxas.Kernel
	// SASS are the page's sass blocks that quote this cell, in order.
	SASS []*SASSBlock
	src  []byte
}

// CUDAAttrs are a CUDA cell's attributes, after "cuda compile".
type CUDAAttrs struct {
	// ID is id=NAME ([A-Za-z0-9_-]+), "" without one (see [CUDACell.ID]).
	ID string
	// Archs are the architectures of arch=sm_80,sm_90a, in order: each is
	// a compile of its own. Required.
	Archs []string
	// Flags are the nvcc flags of flags="...", split at spaces. Which
	// flags a page may give, the compiler decides (snippets/cuda).
	Flags []string
	// ArchPos and FlagsPos are the attributes' positions, for messages.
	ArchPos, FlagsPos Pos
}

// ID is the id= attribute, or "cuda-N" (N = Index+1) without one.
func (c *CUDACell) ID() string {
	if c.Attrs.ID != "" {
		return c.Attrs.ID
	}
	return "cuda-" + strconv.Itoa(c.Index+1)
}

// Source returns the CUDA source: what compiles.
func (c *CUDACell) Source() string {
	var b strings.Builder
	for _, l := range c.Lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// Recorded is the body of the resources block ("" without one).
func (c *CUDACell) Recorded() string {
	if c.Resources == nil {
		return ""
	}
	return string(c.Resources.Lines().Value(c.src))
}

// SASSBlock is a fenced block of SASS that a CUDA cell's compile must
// produce: the instructions of one kernel for one architecture that its
// selection keeps, as cuobjdump lists them (see snippets/cuda.Excerpt).
// It follows its cell's blocks, or names its cell (cell=ID) anywhere
// below it:
//
//	```sass kernel=ilp4 arch=sm_90a match="^(FFMA|LDG)" context=1
//	```
type SASSBlock struct {
	// Index is the block's place among the page's sass blocks, from 0.
	Index int
	// Pos is the position of the opening fence.
	Pos Pos
	// Block is the fenced block, the child of its [SASSNode].
	Block *ast.FencedCodeBlock
	// Cell is the CUDA cell it quotes.
	Cell *CUDACell
	// Kernel is kernel=NAME: the kernel, as the resources block names it;
	// "" for the cell's only kernel.
	Kernel string
	// Arch is arch=sm_XX, one of the cell's; "" for its first.
	Arch string
	// Match, From and To are the selection's regular expressions (Go's
	// syntax, matched against an instruction's text), "" where not given;
	// Context is context=N, Raw the raw flag and Control the control flag.
	// See snippets/cuda.Selection.
	Match, From, To string
	Context         int
	Raw, Control    bool
	src             []byte
}

// ID names the block in messages and -run: its cell's ID, "/sass-", and
// the block's place among the cell's sass blocks, from 1.
func (s *SASSBlock) ID() string {
	for i, b := range s.Cell.SASS {
		if b == s {
			return s.Cell.ID() + "/sass-" + strconv.Itoa(i+1)
		}
	}
	return s.Cell.ID() + "/sass"
}

// Expected is the block's body: the instructions it must quote.
func (s *SASSBlock) Expected() string {
	return string(s.Block.Lines().Value(s.src))
}

// ArchOrDefault is Arch, or the cell's first architecture.
func (s *SASSBlock) ArchOrDefault() string {
	if s.Arch != "" || len(s.Cell.Attrs.Archs) == 0 {
		return s.Arch
	}
	return s.Cell.Attrs.Archs[0]
}

// KindCUDA and KindSASS are the node kinds of [CUDANode] and [SASSNode].
var (
	KindCUDA = ast.NewNodeKind("CUDA")
	KindSASS = ast.NewNodeKind("SASS")
)

// CUDANode is a CUDA cell in a page's AST, in place of its cuda block and
// the resources block after it, which are its children.
type CUDANode struct {
	ast.BaseBlock
	Cell *CUDACell
}

// Kind implements ast.Node.
func (n *CUDANode) Kind() ast.NodeKind { return KindCUDA }

// Dump implements ast.Node.
func (n *CUDANode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"ID": n.Cell.ID()}, nil)
}

// SASSNode is a sass block in a page's AST, in place of the fenced block,
// its child.
type SASSNode struct {
	ast.BaseBlock
	SASS *SASSBlock
}

// Kind implements ast.Node.
func (n *SASSNode) Kind() ast.NodeKind { return KindSASS }

// Dump implements ast.Node.
func (n *SASSNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"ID": n.SASS.ID()}, nil)
}

// archRE is an architecture name; which ones compile, the compiler says.
var archRE = regexp.MustCompile(`^sm_[0-9]{2,3}[af]?$`)

// newCUDACell builds a CUDA cell from a "cuda compile" block; attrs are
// the tokens after "cuda compile".
func (pg *Page) newCUDACell(n *ast.FencedCodeBlock, infoPos Pos, attrs []infoToken, diags *Diagnostics) *CUDACell {
	c := &CUDACell{Index: len(pg.CUDA), Pos: pg.Pos(n.Pos()), Code: n, src: pg.Source}
	bad := func(t infoToken, format string, args ...any) {
		*diags = append(*diags, &Diagnostic{Pos: shift(infoPos, t.col), ID: c.Attrs.ID, Msg: fmt.Sprintf(format, args...)})
	}
	seen := map[string]bool{}
	for _, t := range attrs {
		if seen[t.key] {
			bad(t, "attribute %s given twice", t.key)
			continue
		}
		seen[t.key] = true
		if !t.isKV || t.value == "" {
			if u, ok := cudaUsage[t.key]; ok {
				bad(t, "%s needs a value: %s", t.key, u)
				continue
			}
		}
		switch t.key {
		case "id":
			if !idRE.MatchString(t.value) {
				bad(t, "id %q: use letters, digits, '-' and '_'", t.value)
			} else {
				c.Attrs.ID = t.value
			}
		case "arch":
			c.Attrs.ArchPos = shift(infoPos, t.col)
			for _, a := range strings.Split(t.value, ",") {
				switch {
				case !archRE.MatchString(a):
					bad(t, "arch %q is not an architecture: write arch=sm_80,sm_90a", a)
				case slices.Contains(c.Attrs.Archs, a):
					bad(t, "arch %s is named twice", a)
				default:
					c.Attrs.Archs = append(c.Attrs.Archs, a)
				}
			}
		case "flags":
			c.Attrs.FlagsPos = shift(infoPos, t.col)
			c.Attrs.Flags = strings.Fields(t.value)
		default:
			bad(t, "unknown attribute %q of a CUDA cell (known: id, arch, flags)", t.key)
		}
	}
	if !seen["arch"] {
		*diags = append(*diags, &Diagnostic{Pos: infoPos, ID: c.Attrs.ID, Msg: "a CUDA cell names the architectures it compiles for: arch=sm_80,sm_90a"})
	}
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		c.Lines = append(c.Lines, Line{Text: strings.TrimRight(string(seg.Value(pg.Source)), "\r\n"), Pos: pg.Pos(seg.Start)})
	}
	if !pg.closed(n) {
		*diags = append(*diags, &Diagnostic{Pos: c.Pos, ID: c.ID(), Msg: "CUDA cell is never closed (its fence runs to the end of the page)"})
	}
	return c
}

var cudaUsage = map[string]string{
	"id":      "id=NAME",
	"arch":    "arch=sm_80,sm_90a",
	"flags":   `flags="-maxrregcount=64"`,
	"cell":    "cell=ID",
	"kernel":  "kernel=NAME",
	"match":   `match="^(LDG|FFMA)"`,
	"from":    `from="^HMMA"`,
	"to":      `to="^BRA"`,
	"context": "context=2",
}

// resources attaches a resources block to the CUDA cell right before it.
func (pg *Page) resources(n *ast.FencedCodeBlock, infoPos Pos, toks []infoToken, diags *Diagnostics) {
	if len(toks) > 1 {
		*diags = append(*diags, &Diagnostic{Pos: shift(infoPos, toks[1].col),
			Msg: fmt.Sprintf("a resources block takes no attributes (found %q); put them on the CUDA cell above", toks[1].text)})
	}
	prev, _ := n.PreviousSibling().(*ast.FencedCodeBlock)
	var c *CUDACell
	if k := len(pg.CUDA); k > 0 && prev != nil && pg.CUDA[k-1].Code == prev {
		c = pg.CUDA[k-1]
	}
	if c == nil || c.Resources != nil {
		*diags = append(*diags, &Diagnostic{Pos: pg.Pos(n.Pos()), Msg: "resources block with no CUDA cell (```cuda compile) right before it"})
		return
	}
	c.Resources, c.ResourcesPos = n, pg.Pos(n.Pos())
	if !pg.closed(n) {
		*diags = append(*diags, &Diagnostic{Pos: c.ResourcesPos, ID: c.ID(), Msg: "resources block is never closed"})
		return
	}
	ks, err := ptxas.ParseTable(c.Recorded())
	var te *ptxas.TableError
	if errors.As(err, &te) {
		at := c.ResourcesPos
		if l := n.Lines(); te.Line-1 < l.Len() {
			at = pg.Pos(l.At(te.Line-1).Start + te.Col - 1)
		}
		*diags = append(*diags, &Diagnostic{Pos: at, ID: c.ID(), Msg: "resources block: " + te.Msg,
			Hint: "empty the block and run warpbook test -update to write it again"})
		return
	}
	for i := range ks {
		ks[i].Cell = c.ID()
	}
	c.Kernels = ks
}

// sass builds a sass block: it quotes the CUDA cell it names (cell=ID,
// above it), or the one whose blocks it follows.
func (pg *Page) sass(n *ast.FencedCodeBlock, infoPos Pos, attrs []infoToken, diags *Diagnostics) *SASSBlock {
	s := &SASSBlock{Index: len(pg.SASS), Pos: pg.Pos(n.Pos()), Block: n, src: pg.Source}
	bad := func(t infoToken, format string, args ...any) {
		*diags = append(*diags, &Diagnostic{Pos: shift(infoPos, t.col), Msg: fmt.Sprintf(format, args...)})
	}
	var cell, arch infoToken
	seen := map[string]bool{}
	for _, t := range attrs {
		if seen[t.key] {
			bad(t, "attribute %s given twice", t.key)
			continue
		}
		seen[t.key] = true
		if u, ok := cudaUsage[t.key]; ok && (!t.isKV || t.value == "") {
			bad(t, "%s needs a value: %s", t.key, u)
			continue
		}
		switch t.key {
		case "cell":
			cell = t
		case "kernel":
			s.Kernel = t.value
		case "arch":
			arch = t
			s.Arch = t.value
		case "match", "from", "to":
			if _, err := regexp.Compile(t.value); err != nil {
				bad(t, "%s=%q is not a regular expression: %v", t.key, t.value, err)
				continue
			}
			*map[string]*string{"match": &s.Match, "from": &s.From, "to": &s.To}[t.key] = t.value
		case "context":
			v, err := strconv.Atoi(t.value)
			if err != nil || v < 0 || v > 64 {
				bad(t, "context=%s: a number of instructions from 0 to 64", t.value)
				continue
			}
			s.Context = v
		case "raw", "control":
			if t.isKV {
				bad(t, "%s is a flag and takes no value", t.key)
				continue
			}
			*map[string]*bool{"raw": &s.Raw, "control": &s.Control}[t.key] = true
		default:
			bad(t, "unknown attribute %q of a sass block (known: cell, kernel, arch, match, from, to, context, raw, control)", t.key)
		}
	}
	if s.Raw && s.Control {
		*diags = append(*diags, &Diagnostic{Pos: s.Pos, Msg: "raw shows the control words as they are: drop control, or raw"})
	}
	if s.Context > 0 && s.Match == "" {
		*diags = append(*diags, &Diagnostic{Pos: s.Pos, Msg: "context= keeps instructions around the ones match= keeps: give match= too"})
	}
	if cell.key != "" {
		for _, c := range pg.CUDA {
			if c.ID() == cell.value {
				s.Cell = c
			}
		}
		if s.Cell == nil {
			bad(cell, "no CUDA cell with id %q above this sass block", cell.value)
			return nil
		}
	} else {
		prev, _ := n.PreviousSibling().(*ast.FencedCodeBlock)
		if k := len(pg.CUDA); k > 0 && prev != nil {
			c := pg.CUDA[k-1]
			if prev == c.Code || prev == c.Resources || (len(c.SASS) > 0 && prev == c.SASS[len(c.SASS)-1].Block) {
				s.Cell = c
			}
		}
		if s.Cell == nil {
			*diags = append(*diags, &Diagnostic{Pos: s.Pos, Msg: "sass block with no CUDA cell right before it: put it after the cell's blocks, or name the cell with cell=ID"})
			return nil
		}
	}
	if arch.key != "" && !slices.Contains(s.Cell.Attrs.Archs, arch.value) {
		bad(arch, "the CUDA cell %s does not compile for %s (it compiles for %s)", s.Cell.ID(), arch.value, strings.Join(s.Cell.Attrs.Archs, ", "))
	}
	if !pg.closed(n) {
		*diags = append(*diags, &Diagnostic{Pos: s.Pos, Msg: "sass block is never closed"})
	}
	s.Cell.SASS = append(s.Cell.SASS, s)
	if s.Whole() && pg.closed(n) && n.Lines().Len() > 0 {
		pg.record(s, diags)
	}
	return s
}

// Whole reports whether the block quotes its kernel's whole listing as
// cuobjdump prints it (raw, with no match, from or to): the SASS that the
// page's Go snippets run on the simulator, cuda.SASS(kernel, arch).
func (s *SASSBlock) Whole() bool {
	return s.Raw && s.Match == "" && s.From == "" && s.To == ""
}

// record gives the kernel that whole block s quotes its listing
// (ptxas.Kernel.SASS), which must read: an instruction engine/sass cannot
// read is an error at its place in the block. A kernel the resources
// block does not list is left to the compile's check.
func (pg *Page) record(s *SASSBlock, diags *Diagnostics) {
	c, arch := s.Cell, s.ArchOrDefault()
	name := s.Kernel
	for _, ck := range c.Kernels {
		if s.Kernel == "" && name != "" && ck.Name != name {
			return // kernel= left out of a cell of several: the compile's check says so
		}
		if s.Kernel == "" {
			name = ck.Name
		}
	}
	var k *ptxas.Kernel
	for i := range c.Kernels {
		if ck := &c.Kernels[i]; ck.Arch == arch && ck.Name == name {
			k = ck
		}
	}
	if k == nil {
		return
	}
	if k.SASS != "" {
		*diags = append(*diags, &Diagnostic{Pos: s.Pos, ID: c.ID(), Msg: fmt.Sprintf("the whole listing of %s for %s is recorded twice (first at line %d)", k.Name, arch, k.SASSLine)})
		return
	}
	lines := s.Block.Lines()
	first := pg.Pos(lines.At(0).Start)
	k.SASS, k.SASSFile, k.SASSLine = s.Expected(), pg.Path, first.Line
	_, err := k.Listing()
	var se *sass.Error
	if !errors.As(err, &se) {
		return
	}
	at := s.Pos
	switch i := se.Line - first.Line; {
	case i >= 0 && i < lines.Len():
		at = pg.Pos(lines.At(i).Start + max(se.Col-1, 0))
	case i == lines.Len(): // the line after the block: the last one lacks its next
		at = pg.Pos(lines.At(i - 1).Start)
	}
	k.SASS, k.SASSFile, k.SASSLine = "", "", 0
	*diags = append(*diags, &Diagnostic{Pos: at, ID: c.ID(), Msg: "sass block: " + se.Msg,
		Hint: "empty the block and run warpbook test -update to write it again"})
}
