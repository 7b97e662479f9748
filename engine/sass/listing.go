package sass

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxListingBytes is the largest listing [Parse] reads.
const MaxListingBytes = 32 << 20

// MaxInsts is the most instructions [Parse] accepts in one listing.
const MaxInsts = 1 << 20

// Format says which tool printed a listing.
type Format uint8

// The formats [Parse] reads.
const (
	// Cuobjdump is the output of cuobjdump -sass (optionally with
	// -res-usage): functions under "Function : NAME", branch targets as
	// addresses.
	Cuobjdump Format = iota + 1
	// Nvdisasm is the output of nvdisasm -hex: functions under
	// ".text.NAME:", labels such as ".L_x_3:" and branch targets as labels.
	// Without -hex it has no encodings, so no control information.
	Nvdisasm
)

// String returns "cuobjdump" or "nvdisasm".
func (f Format) String() string {
	switch f {
	case Cuobjdump:
		return "cuobjdump"
	case Nvdisasm:
		return "nvdisasm"
	}
	return "unknown"
}

// Listing is a parsed disassembly listing.
type Listing struct {
	// File names the listing in errors, as given to Parse.
	File string
	// Format is the tool that printed it.
	Format Format
	// Functions are the kernels and device functions, in listing order.
	Functions []*Function
}

// Function is one function of a listing.
type Function struct {
	// Name is the function's (mangled) name, e.g. "_Z5saxpyfPKfPfi".
	Name string
	// Arch is the architecture it was compiled for, e.g. "sm_80" or
	// "sm_90a"; "" when the listing does not say.
	Arch string
	// Line is the listing line of the function's header.
	Line int
	// Insts are its instructions, in address order; Insts[i].Addr is 16×i.
	Insts []Inst
	// Resources is what "cuobjdump -res-usage" printed for the function,
	// nil when the listing has no such block.
	Resources *Resources
}

// Resources is a function's resource usage as cuobjdump -res-usage prints
// it ("REG:10 STACK:0 SHARED:0 LOCAL:0 ...").
type Resources struct {
	Regs   int // registers per thread
	Shared int // static shared memory per block, bytes
	Stack  int // stack frame per thread, bytes
	Local  int // local memory per thread, bytes
}

// Inst is one instruction.
type Inst struct {
	// Addr is the instruction's byte offset in its function.
	Addr int
	// Line and Col are where its text starts in the listing (1-based; the
	// column counts bytes).
	Line, Col int
	// Text is the instruction as printed, predicate included, without the
	// trailing " ;", e.g. "@!P0 BRA 0x2e0".
	Text string
	// Label is the label that names this address in an nvdisasm listing
	// (".L_x_3"), "" for none.
	Label string
	// Pred is the guard predicate without its "@", e.g. "P0", "!P0",
	// "!UPT"; "" for an unguarded instruction.
	Pred string
	// Op is the opcode without modifiers ("LDG"); Mods are the
	// modifiers in order (["E", "64"] for LDG.E.64).
	Op   string
	Mods []string
	// Operands are the operands as printed, split at top-level commas,
	// e.g. ["R2", "[R2.64]"].
	Operands []string
	// Target is the address a branch (BRA, BSSY, CALL, JMP, BREAK) goes
	// to, -1 when it has none or it could not be read.
	Target int
	// TargetLabel is the label a branch names in an nvdisasm listing.
	TargetLabel string
	// Lo and Hi are the two 64-bit words of the encoding as printed; Ctrl
	// is decoded from Hi. HasEncoding is false for an nvdisasm listing
	// made without -hex.
	Lo, Hi      uint64
	HasEncoding bool
	Ctrl        Control
}

// Mnemonic returns the opcode with its modifiers, e.g. "LDG.E.64".
func (in *Inst) Mnemonic() string {
	if len(in.Mods) == 0 {
		return in.Op
	}
	return in.Op + "." + strings.Join(in.Mods, ".")
}

// Has reports whether the instruction carries modifier mod.
func (in *Inst) Has(mod string) bool { return slices.Contains(in.Mods, mod) }

// Function returns the function with the given name; with name "" it
// returns the listing's only function and an error naming them all when
// there are several.
func (l *Listing) Function(name string) (*Function, error) {
	if name == "" {
		switch len(l.Functions) {
		case 0:
			return nil, fmt.Errorf("%s: the listing has no functions", l.File)
		case 1:
			return l.Functions[0], nil
		}
		return nil, fmt.Errorf("%s: the listing has %d functions (%s); name one", l.File, len(l.Functions), l.names())
	}
	for _, f := range l.Functions {
		if f.Name == name {
			return f, nil
		}
	}
	return nil, fmt.Errorf("%s: no function %q in the listing (it has %s)", l.File, name, l.names())
}

func (l *Listing) names() string {
	names := make([]string, len(l.Functions))
	for i, f := range l.Functions {
		names[i] = f.Name
	}
	if len(names) > 16 {
		names = append(names[:16], fmt.Sprintf("and %d more", len(l.Functions)-16))
	}
	return strings.Join(names, ", ")
}

// Index returns the index in Insts of the instruction at byte address
// addr, or -1.
func (f *Function) Index(addr int) int {
	if addr < 0 || addr%16 != 0 || addr/16 >= len(f.Insts) {
		return -1
	}
	return addr / 16
}

// Error is a problem in a listing, at a line and byte column.
type Error struct {
	File      string
	Line, Col int // 1-based; 0 when unknown
	Msg       string
}

// Error returns "file:line:col: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// parser holds the state of one Parse.
type parser struct {
	l       *Listing
	lines   [][]byte
	arch    string
	fn      *Function
	inText  bool   // nvdisasm: inside a .text. section
	label   string // nvdisasm: label for the next instruction
	insts   int
	resName string // -res-usage: the function whose line comes next
	res     map[string]*Resources
	secRegs int            // nvdisasm: registers of the text section being read, -1 none
	shName  string         // nvdisasm: the function whose .nv.shared section is being read
	shared  map[string]int // nvdisasm: static shared memory by function
}

// Parse reads a listing printed by cuobjdump -sass or nvdisasm -hex for
// sm_70 or later. file names it in errors, which are [*Error] values
// positioned at a line and byte column of src.
func Parse(file string, src []byte) (*Listing, error) {
	if len(src) > MaxListingBytes {
		return nil, &Error{File: file, Msg: fmt.Sprintf("listing of %d bytes, more than %d", len(src), MaxListingBytes)}
	}
	p := &parser{l: &Listing{File: file}, lines: bytes.Split(src, []byte("\n")), res: map[string]*Resources{}, secRegs: -1, shared: map[string]int{}}
	for i := 0; i < len(p.lines); i++ {
		skip, err := p.line(i)
		if err != nil {
			return nil, err
		}
		i += skip
	}
	if len(p.l.Functions) == 0 {
		return nil, &Error{File: file, Msg: "no functions found; want the output of cuobjdump -sass or nvdisasm -hex"}
	}
	for _, f := range p.l.Functions {
		if r := p.res[f.Name]; r != nil {
			if p.l.Format == Nvdisasm {
				r.Shared = p.shared[f.Name] // no .nv.shared section: none
			}
			f.Resources = r
		}
		if err := p.resolve(f); err != nil {
			return nil, err
		}
	}
	return p.l, nil
}

func (p *parser) errorf(line, col int, format string, args ...any) error {
	return &Error{File: p.l.File, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// line reads line i (0-based) and returns how many following lines it
// consumed too.
func (p *parser) line(i int) (int, error) {
	raw := bytes.TrimRight(p.lines[i], "\r")
	text := strings.TrimSpace(string(raw))
	ln := i + 1
	switch {
	case text == "":
		return 0, nil
	case strings.HasPrefix(text, "/*"):
		return p.inst(i, string(raw))
	case strings.HasPrefix(text, "code for "):
		p.arch = strings.TrimSpace(strings.TrimPrefix(text, "code for "))
		return 0, nil
	case strings.HasPrefix(text, "arch = "):
		p.arch = strings.TrimSpace(strings.TrimPrefix(text, "arch = "))
		return 0, nil
	case strings.HasPrefix(text, ".headerflags"):
		if p.arch == "" {
			if i := strings.Index(text, "EF_CUDA_SM"); i >= 0 {
				n := text[i+len("EF_CUDA_SM"):]
				j := 0
				for j < len(n) && n[j] >= '0' && n[j] <= '9' {
					j++
				}
				if j > 0 {
					p.arch = "sm_" + n[:j]
					if strings.Contains(text, "EF_CUDA_ACCELERATORS") {
						p.arch += "a" // sm_90a: the arch-specific features
					}
				}
			}
		}
		return 0, nil
	case strings.HasPrefix(text, "Function : "):
		p.l.Format = Cuobjdump
		return 0, p.start(strings.TrimSpace(strings.TrimPrefix(text, "Function : ")), ln, len(raw)-len(bytes.TrimLeft(raw, " \t"))+1)
	case strings.HasPrefix(text, "Function ") && strings.HasSuffix(text, ":"):
		// -res-usage: " Function NAME:" then a line of KEY:VALUE pairs.
		p.resName = strings.TrimSuffix(strings.TrimPrefix(text, "Function "), ":")
		return 0, nil
	case strings.HasPrefix(text, "REG:") && p.resName != "":
		r, err := parseResources(text)
		if err != nil {
			return 0, p.errorf(ln, 1, "resource usage of %s: %v", p.resName, err)
		}
		p.res[p.resName] = r
		p.resName = ""
		return 0, nil
	case strings.HasPrefix(text, ".sectioninfo"):
		// nvdisasm: @"SHI_REGISTERS=10" for the text section that follows.
		if _, v, ok := strings.Cut(text, "SHI_REGISTERS="); ok {
			v = strings.TrimRight(v, `"`)
			if n, err := strconv.Atoi(v); err == nil && n >= 0 {
				p.secRegs = n
			}
		}
		return 0, nil
	case strings.HasPrefix(text, ".section"):
		sec := strings.TrimSpace(strings.TrimPrefix(text, ".section"))
		p.inText = strings.HasPrefix(sec, ".text.")
		if !p.inText {
			p.fn = nil
		}
		p.shName = ""
		if name, ok := strings.CutPrefix(sec, ".nv.shared."); ok {
			p.shName, _, _ = strings.Cut(name, ",")
		}
		return 0, nil
	case strings.HasPrefix(text, ".zero") && p.shName != "":
		// nvdisasm: the size of a function's static shared memory.
		if n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(text, ".zero"))); err == nil && n >= 0 {
			p.shared[p.shName] = n
		}
		p.shName = ""
		return 0, nil
	case strings.HasSuffix(text, ":") && !strings.ContainsAny(text, " \t"):
		name := strings.TrimSuffix(text, ":")
		if fn, ok := strings.CutPrefix(name, ".text."); ok {
			p.l.Format = Nvdisasm
			p.inText = true
			return 0, p.start(fn, ln, len(raw)-len(bytes.TrimLeft(raw, " \t"))+1)
		}
		if p.fn != nil && p.l.Format == Nvdisasm {
			p.label = name
		}
		return 0, nil
	}
	return 0, nil
}

func (p *parser) start(name string, line, col int) error {
	if name == "" {
		return p.errorf(line, col, "function header without a name")
	}
	for _, f := range p.l.Functions {
		if f.Name == name && f.Arch == p.arch {
			return p.errorf(line, col, "function %s (%s) appears twice", name, p.arch)
		}
	}
	p.fn = &Function{Name: name, Arch: p.arch, Line: line}
	if p.secRegs >= 0 {
		p.res[name] = &Resources{Regs: p.secRegs}
		p.secRegs = -1
	}
	p.l.Functions = append(p.l.Functions, p.fn)
	p.label = ""
	return nil
}

func parseResources(text string) (*Resources, error) {
	r := &Resources{}
	for _, f := range strings.Fields(text) {
		k, v, ok := strings.Cut(f, ":")
		if !ok {
			continue
		}
		var dst *int
		switch k {
		case "REG":
			dst = &r.Regs
		case "SHARED":
			dst = &r.Shared
		case "STACK":
			dst = &r.Stack
		case "LOCAL":
			dst = &r.Local
		default:
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s:%s is not a count", k, v)
		}
		*dst = n
	}
	return r, nil
}

// inst reads an instruction line (and the line holding its second word).
func (p *parser) inst(i int, raw string) (int, error) {
	ln := i + 1
	lead := len(raw) - len(strings.TrimLeft(raw, " \t"))
	rest := raw[lead:]
	end := strings.Index(rest[2:], "*/")
	if end < 0 {
		return 0, p.errorf(ln, lead+1, "unclosed /* comment")
	}
	end += 2
	inner := strings.TrimSpace(rest[2:end])
	after := rest[end+2:]
	afterCol := lead + end + 3
	if strings.HasPrefix(inner, "0x") {
		// A lone encoding word (the second line of an instruction) where an
		// instruction should start.
		if p.fn != nil && (p.l.Format == Cuobjdump || p.inText) {
			return 0, p.errorf(ln, lead+1, "encoding word %s without an instruction before it", inner)
		}
		return 0, nil
	}
	addr, err := strconv.ParseUint(inner, 16, 32)
	if err != nil {
		return 0, p.errorf(ln, lead+3, "address %q is not hexadecimal", inner)
	}
	body := strings.TrimLeft(after, " \t")
	col := afterCol + len(after) - len(body)
	if strings.HasPrefix(body, ".") || p.fn == nil || (p.l.Format == Nvdisasm && !p.inText) {
		return 0, nil // data (.byte, .word) or an instruction outside any function
	}
	semi := strings.IndexByte(body, ';')
	if semi < 0 {
		return 0, p.errorf(ln, col, "instruction without its closing ';'")
	}
	text := strings.TrimSpace(body[:semi])
	if text == "" {
		return 0, p.errorf(ln, col, "empty instruction")
	}
	in := Inst{Addr: int(addr), Line: ln, Col: col, Text: text, Label: p.label, Target: -1}
	p.label = ""
	if want := 16 * len(p.fn.Insts); in.Addr != want {
		return 0, p.errorf(ln, lead+3, "instruction at address %#04x, want %#04x: instructions are 16 bytes, in order", in.Addr, want)
	}
	if err := splitInst(&in); err != nil {
		return 0, p.errorf(ln, col, "%v", err)
	}
	tail := strings.TrimSpace(body[semi+1:])
	skip := 0
	if tail != "" {
		lo, err := hexWord(tail)
		if err != nil {
			return 0, p.errorf(ln, col+semi+1+strings.Index(body[semi+1:], tail), "%v", err)
		}
		if i+1 >= len(p.lines) {
			return 0, p.errorf(ln, col, "instruction %s has one 64-bit word; sm_70 and later encode 128 bits, printed on two lines", text)
		}
		next := strings.TrimSpace(strings.TrimRight(string(p.lines[i+1]), "\r"))
		hi, err := hexWord(next)
		if err != nil {
			return 0, p.errorf(ln+1, 1, "the second word of %s: %v (want /* 0x... */ on the line after the instruction; sm_70 and later encode 128 bits)", text, err)
		}
		in.Lo, in.Hi, in.HasEncoding, in.Ctrl = lo, hi, true, DecodeControl(hi)
		skip = 1
	}
	p.insts++
	if p.insts > MaxInsts {
		return 0, p.errorf(ln, col, "more than %d instructions in the listing", MaxInsts)
	}
	p.fn.Insts = append(p.fn.Insts, in)
	return skip, nil
}

// hexWord reads "/* 0x000fe40000000f00 */".
func hexWord(s string) (uint64, error) {
	t, ok := strings.CutPrefix(s, "/*")
	if ok {
		t, ok = strings.CutSuffix(t, "*/")
	}
	t = strings.TrimSpace(t)
	if !ok || !strings.HasPrefix(t, "0x") || len(t) != 18 {
		return 0, fmt.Errorf("encoding %q, want /* 0x followed by 16 hex digits */", s)
	}
	v, err := strconv.ParseUint(t[2:], 16, 64)
	if err != nil {
		return 0, fmt.Errorf("encoding %q is not hexadecimal", s)
	}
	return v, nil
}

// branchOps are the opcodes whose last operand is a target address.
var branchOps = map[string]bool{"BRA": true, "BSSY": true, "CALL": true, "JMP": true, "BREAK": true, "BPT": false}

// splitInst fills Pred, Op, Mods, Operands and the branch target from Text.
func splitInst(in *Inst) error {
	s := in.Text
	if strings.HasPrefix(s, "@") {
		sp := strings.IndexAny(s, " \t")
		if sp < 0 {
			return fmt.Errorf("predicate %q without an instruction", s)
		}
		in.Pred = s[1:sp]
		if in.Pred == "" || in.Pred == "!" {
			return fmt.Errorf("empty predicate in %q", in.Text)
		}
		s = strings.TrimLeft(s[sp:], " \t")
	}
	mn, ops, _ := strings.Cut(s, " ")
	if mn == "" {
		return fmt.Errorf("no opcode in %q", in.Text)
	}
	parts := strings.Split(mn, ".")
	in.Op = parts[0]
	for _, r := range in.Op {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return fmt.Errorf("opcode %q is not a SASS opcode (capital letters, digits, _)", in.Op)
		}
	}
	if len(parts) > 1 {
		in.Mods = parts[1:]
	}
	var err error
	if in.Operands, err = splitOperands(strings.TrimSpace(ops)); err != nil {
		return fmt.Errorf("%v in %q", err, in.Text)
	}
	if branchOps[in.Op] && len(in.Operands) > 0 {
		last := in.Operands[len(in.Operands)-1]
		switch {
		case strings.HasPrefix(last, "`(") && strings.HasSuffix(last, ")"):
			in.TargetLabel = last[2 : len(last)-1]
		case strings.HasPrefix(last, "0x"):
			if v, err := strconv.ParseUint(last[2:], 16, 32); err == nil {
				in.Target = int(v)
			}
		}
	}
	return nil
}

// splitOperands splits at commas outside brackets, braces and parentheses.
func splitOperands(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("unbalanced %q", s[i])
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced brackets")
	}
	return append(out, strings.TrimSpace(s[start:])), nil
}

// resolve turns nvdisasm label targets into addresses and checks targets.
func (p *parser) resolve(f *Function) error {
	labels := map[string]int{}
	for _, in := range f.Insts {
		if in.Label != "" {
			labels[in.Label] = in.Addr
		}
	}
	for i := range f.Insts {
		in := &f.Insts[i]
		if in.TargetLabel == "" {
			continue
		}
		a, ok := labels[in.TargetLabel]
		if !ok {
			// A label after the last instruction (the end of the function).
			if !p.labelAtEnd(f, in.TargetLabel) {
				continue
			}
			a = 16 * len(f.Insts)
		}
		in.Target = a
	}
	return nil
}

// labelAtEnd reports whether label names the end of f (nvdisasm prints a
// label after the last instruction when a branch goes there).
func (p *parser) labelAtEnd(f *Function, label string) bool {
	if len(f.Insts) == 0 {
		return false
	}
	last := f.Insts[len(f.Insts)-1].Line
	for i := last; i < len(p.lines) && i < last+4; i++ {
		if strings.TrimSpace(string(p.lines[i])) == label+":" {
			return true
		}
	}
	return false
}
