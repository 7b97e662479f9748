package sim

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// maxNest is the deepest nesting of loops and branches a program may have.
const maxNest = 16

// maxRegs is the most distinct registers a program may name.
const maxRegs = 1024

// inst is one compiled instruction or control marker.
type inst struct {
	act    action
	pipe   pipe
	sb     sbClass
	store  bool
	level  uint8
	nsrc   uint8
	byWarp bool
	dst    int16 // -1: none
	src    [4]int16
	width  int32 // bytes per thread
	arg    int32 // loop count, sleep cycles
	target int32 // loopStart: index of its loopEnd; loopEnd: index of its loopStart
	elsePC int32 // BRA: first index of the else path
	joinPC int32 // BRA: index of the endIf marker
	lanes  uint32
	warps  uint32
	stride int32 // memory instructions: elements between consecutive threads' addresses
	bar    int16 // UTMALDG, UBLKCP, SYNCS, ARRIVE, MBARINIT: the mbarrier's index in the block; BAR, BAR.ARV: the named barrier
	rs     bool  // HGMMA: A in registers
	group  uint8 // actCommit, actWaitGroup: groupCopy or groupMMA
	need   need
	shape  string // HMMA, HGMMA: the shape as written ("" for the default)
	op     string
	pos    srcPos

	// SASS control information (a kernel's instructions only; see
	// compileSASS). A YAML program's instructions leave them zero.
	stall int8  // cycles until the warp's next issue, at least 1
	yield bool  // the warp may not issue in the next cycle
	wbar  int8  // dependence counter incremented at issue, released at write-back; -1 none
	rbar  int8  // dependence counter released once the sources are read; -1 none
	wait  uint8 // counters that must be zero before issue (DEPBAR.LE: those besides depSB)
	depSB int8  // DEPBAR.LE: the counter that must fall to depN or below; -1 none
	depN  int8
	jump  jumpKind // BRA, JMP, CALL, RET, EXIT: how it goes
	trip  int32    // jumpTrips, jumpExitAfter: the warp's trip counter; jumpLanes: reconvergence index (-1: none)
	rlat  int32    // cycles until the read counter is released

	// Set by bind for the machine being simulated.
	alt     bool  // FFMA, FADD, FMUL: may use Machine.FMA2
	lat     int32 // math: result latency (0: the pipe's)
	ivl     int32 // math: cycles the pipe is held (0: the pipe's interval)
	waves   int32 // LDS/STS: wavefronts (bank conflicts included); global: 32-byte sectors
	replays int32 // LDS/STS: the wavefronts bank conflicts add (queue model)
	extra   int32 // memory: cycles beyond the level's latency (width, async copy)
}

// Error is a problem in a workload or program, with the place it was found.
// For a workload file it prints as "file:line:col: message".
type Error struct {
	File string // workload file name as given, "" for a program built in Go
	Line int    // 1-based; 0 when unknown
	Col  int    // 1-based; 0 when unknown
	Path string // where in a built program, e.g. "program[2].body[0]"
	Msg  string // what is wrong and what is expected
}

// Error returns "file:line:col: message" for a workload file (the path
// in the program where the line is unknown) and "sim: path: message" for
// a program built in Go.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
			if e.Col > 0 {
				fmt.Fprintf(&b, ":%d", e.Col)
			}
		}
		b.WriteString(": ")
	} else {
		b.WriteString("sim: ")
	}
	if e.Path != "" && e.Line == 0 {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

type compiler struct {
	code  []inst
	regs  map[string]int16
	names []string
	bars  []string // mbarrier names, by index
	named bool     // a BAR or BAR.ARV names a barrier or a thread count
	file  string
}

// maxBars is the most distinct mbarriers a program may name.
const maxBars = 16

// maxNamedBars is the number of named barriers of a block (bar.sync 0 to
// 15 in PTX).
const maxNamedBars = 16

// compiled is a program ready to run.
type compiled struct {
	code  []inst
	pcs   []int32 // per code index: the instruction's PC (see Issue.PC), -1 for a marker
	nregs int
	regs  []string
	bars  []string
	named bool // uses named barriers (Inst.Barrier, Inst.Threads, BAR.ARV)
	async bool // uses cp.async or HGMMA groups (set by bind)
	// A SASS kernel's: the control information decides dependencies
	// (stall counts and dependence counters, not registers).
	sass *sassProgram
}

func compile(p *Program, file string) (*compiled, error) {
	c := &compiler{regs: map[string]int16{}, file: file}
	if err := c.block(p, "program", 0, true); err != nil {
		return nil, err
	}
	// A program ends in EXIT: add one when the last top-level statement is
	// not an EXIT.
	if n := len(c.code); n == 0 || c.code[n-1].act != actExit {
		c.code = append(c.code, inst{act: actExit, pipe: pipeBranch, dst: -1, op: "EXIT"})
	}
	// PCs number the instructions that can issue, in program order;
	// loop and reconvergence markers take none. They live beside the code,
	// out of the simulator's hot data.
	pcs := make([]int32, len(c.code))
	pc := int32(0)
	for i := range c.code {
		pcs[i] = -1
		if c.code[i].act < actLoopStart {
			pcs[i] = pc
			pc++
		}
	}
	return &compiled{code: c.code, pcs: pcs, nregs: len(c.names), regs: c.names, bars: c.bars, named: c.named}, nil
}

// usesCluster reports whether the program reads or writes another
// block's shared memory or waits at a cluster barrier.
func (p *compiled) usesCluster() bool {
	return slices.ContainsFunc(p.code, func(in inst) bool { return in.need == needCluster || in.level == levelDSMEM })
}

func (c *compiler) errorf(s *stmt, path, format string, args ...any) error {
	e := &Error{File: c.file, Path: path, Msg: fmt.Sprintf(format, args...)}
	if s != nil {
		e.Line, e.Col = int(s.pos.line), int(s.pos.col)
	}
	return e
}

// issues reports whether running p issues at least one instruction.
func issues(p *Program) bool {
	if p == nil {
		return false
	}
	for _, s := range p.stmts {
		switch s.kind {
		case stmtInst, stmtBranch:
			return true
		case stmtLoop:
			if s.count > 0 && issues(s.body) {
				return true
			}
		}
	}
	return false
}

func (c *compiler) block(p *Program, path string, depth int, top bool) error {
	if p == nil {
		return nil
	}
	for i := range p.stmts {
		s := &p.stmts[i]
		sp := fmt.Sprintf("%s[%d]", path, i)
		switch s.kind {
		case stmtInst:
			if err := c.instruction(s, sp, top); err != nil {
				return err
			}
		case stmtLoop:
			if depth+1 > maxNest {
				return c.errorf(s, sp, "loops and branches nested more than %d deep", maxNest)
			}
			if s.count < 0 || s.count > math.MaxInt32 {
				return c.errorf(s, sp, "loop count %d, want 0 to %d", s.count, math.MaxInt32)
			}
			if s.count > 0 && !issues(s.body) {
				return c.errorf(s, sp, "loop body issues no instruction; want at least one instruction in body")
			}
			start := len(c.code)
			c.code = append(c.code, inst{act: actLoopStart, arg: int32(s.count), dst: -1, op: "loop", pos: s.pos})
			if err := c.block(s.body, sp+".body", depth+1, false); err != nil {
				return err
			}
			end := len(c.code)
			c.code = append(c.code, inst{act: actLoopEnd, target: int32(start), dst: -1, op: "loop end", pos: s.pos})
			c.code[start].target = int32(end)
		case stmtBranch:
			if depth+1 > maxNest {
				return c.errorf(s, sp, "loops and branches nested more than %d deep", maxNest)
			}
			in := inst{act: actBranch, pipe: pipeBranch, dst: -1, op: "BRA", pos: s.pos}
			switch {
			case s.lanes != "" && s.warps != "":
				return c.errorf(s, sp, "BRA takes lanes or warps, not both")
			case s.lanes != "":
				m, err := parseSet(s.lanes, 32)
				if err != nil {
					return c.errorf(s, sp, "lanes %q: %v", s.lanes, err)
				}
				in.lanes = m
			case s.warps != "":
				m, err := parseSet(s.warps, 32)
				if err != nil {
					return c.errorf(s, sp, "warps %q: %v", s.warps, err)
				}
				in.warps = m
				in.byWarp = true
			default:
				return c.errorf(s, sp, "BRA needs lanes (e.g. lanes: \"0-15\") or warps (e.g. warps: \"0\")")
			}
			at := len(c.code)
			c.code = append(c.code, in)
			if err := c.block(s.then, sp+".then", depth+1, false); err != nil {
				return err
			}
			endThen := len(c.code)
			c.code = append(c.code, inst{act: actEndThen, dst: -1, op: "end then", pos: s.pos})
			if err := c.block(s.els, sp+".else", depth+1, false); err != nil {
				return err
			}
			endIf := len(c.code)
			c.code = append(c.code, inst{act: actEndIf, dst: -1, op: "end if", pos: s.pos})
			c.code[at].elsePC = int32(endThen + 1)
			c.code[at].joinPC = int32(endIf)
		}
	}
	return nil
}

func (c *compiler) instruction(s *stmt, path string, top bool) error {
	in := s.inst
	name := strings.ToUpper(strings.TrimSpace(in.Op))
	if name == "BRA" {
		return c.errorf(s, path, "BRA needs then/else paths: use Program.Branch or BranchWarps (in a workload file: {op: BRA, lanes: \"0-15\", then: [...], else: [...]})")
	}
	info, ok := ops[name]
	if !ok {
		if name == "" {
			return c.errorf(s, path, "instruction has no op (want one of %s)", strings.Join(Ops(), ", "))
		}
		return c.errorf(s, path, "unknown op %q (want one of %s)", in.Op, strings.Join(Ops(), ", "))
	}
	if info.act == actExit && !top {
		return c.errorf(s, path, "EXIT is only allowed at the top level of the program, not inside a loop or branch")
	}
	switch {
	case info.dst == 1 && in.Dst == "":
		return c.errorf(s, path, "%s needs a destination register (dst)", name)
	case info.dst == 0 && in.Dst != "":
		return c.errorf(s, path, "%s has no destination register, got dst %q", name, in.Dst)
	}
	if len(in.Src) > 4 {
		return c.errorf(s, path, "%s has %d source registers, want at most 4", name, len(in.Src))
	}
	level := info.level
	if in.Level != "" {
		l, ok := levelNames[strings.ToLower(strings.TrimSpace(in.Level))]
		switch {
		case info.act == actShared && (!ok || l != levelDSMEM):
			return c.errorf(s, path, "level %q on %s, want dsmem (another block's shared memory) or none", in.Level, name)
		case info.act == actShared:
		case !info.global:
			return c.errorf(s, path, "level is only for LDG, STG, LDL, STL, LDGSTS, UTMALDG, UBLKCP, and dsmem on LDS and STS, not %s", name)
		case !ok || l == levelDSMEM:
			return c.errorf(s, path, "level %q, want l1, l2, l2far or dram", in.Level)
		}
		level = l
	}
	width := cmp.Or(in.Width, 4)
	memInst := info.act == actShared || info.act == actGlobal || info.act == actAsyncCopy
	if !memInst && in.Width != 0 {
		return c.errorf(s, path, "width is only for memory instructions, not %s", name)
	}
	if width != 1 && width != 2 && width != 4 && width != 8 && width != 16 {
		return c.errorf(s, path, "width %d, want 1, 2, 4, 8 or 16 bytes per thread", in.Width)
	}
	if info.act == actAsyncCopy && width < 4 {
		return c.errorf(s, path, "LDGSTS width %d, want 4, 8 or 16 bytes per thread (cp.async copies 4, 8 or 16)", width)
	}
	stride := in.Stride
	switch {
	case (in.Stride != 0 || in.Broadcast) && !memInst:
		return c.errorf(s, path, "stride and broadcast are only for memory instructions, not %s", name)
	case in.Broadcast && in.Stride != 0:
		return c.errorf(s, path, "broadcast and stride %d: a broadcast has every thread at one address; give one of them", in.Stride)
	case in.Broadcast:
		stride = 0
	case stride == 0:
		stride = 1
	case stride < 0 || stride > 1024:
		return c.errorf(s, path, "stride %d, want 1 to 1024 elements between consecutive threads", in.Stride)
	}
	if in.Shape != "" && info.pipe != pipeTensor {
		return c.errorf(s, path, "shape is only for HMMA and HGMMA, not %s", name)
	}
	if in.Shape != "" {
		sh, err := parseShape(in.Shape)
		if err != nil {
			return c.errorf(s, path, "shape: %v", err)
		}
		if (info.act == actGMMA) != (sh.m == 64) {
			return c.errorf(s, path, "shape %q: HGMMA takes m64nNk16 shapes (a warpgroup's), HMMA m16n8k8, m16n8k16 or m8n8k4", in.Shape)
		}
	}
	if in.Groups != 0 && info.act != actWaitGroup {
		return c.errorf(s, path, "groups is only for DEPBAR and WARPGROUP.DEPBAR, not %s", name)
	}
	if in.Groups < 0 || in.Groups > 7 {
		return c.errorf(s, path, "groups %d, want 0 to 7 groups left in flight", in.Groups)
	}
	if in.Bytes != 0 && info.act != actBulkCopy {
		return c.errorf(s, path, "bytes is only for UTMALDG and UBLKCP, not %s", name)
	}
	if info.act == actBulkCopy && (in.Bytes < 16 || in.Bytes > 1<<20 || in.Bytes%16 != 0) {
		return c.errorf(s, path, "%s bytes %d, want a multiple of 16 from 16 to %d", name, in.Bytes, 1<<20)
	}
	needsBar := info.act == actBulkCopy || info.act == actMbarWait || info.act == actMbarInit || info.act == actArrive
	if in.Bar != "" && !needsBar {
		return c.errorf(s, path, "bar is only for UTMALDG, UBLKCP, SYNCS, ARRIVE and MBARINIT, not %s", name)
	}
	if in.Arrivals != 0 && info.act != actMbarInit {
		return c.errorf(s, path, "arrivals is only for MBARINIT, not %s", name)
	}
	if info.act == actMbarInit && (in.Arrivals < 1 || in.Arrivals > 1<<20) {
		return c.errorf(s, path, "MBARINIT arrivals %d, want 1 to %d arrivals per phase", in.Arrivals, 1<<20)
	}
	named := (info.act == actBar || info.act == actBarArrive) && name != "BAR.CLUSTER"
	if (in.Barrier != 0 || in.Threads != 0) && !named {
		return c.errorf(s, path, "barrier and threads are only for BAR and BAR.ARV, not %s", name)
	}
	if in.Barrier < 0 || in.Barrier >= maxNamedBars {
		return c.errorf(s, path, "barrier %d, want a named barrier from 0 to %d", in.Barrier, maxNamedBars-1)
	}
	if in.Threads < 0 || in.Threads > 1024 || in.Threads%32 != 0 {
		return c.errorf(s, path, "threads %d, want a multiple of 32 from 32 to 1024 (a warp's arrival counts 32)", in.Threads)
	}
	if info.act == actBarArrive && in.Threads == 0 {
		return c.errorf(s, path, "BAR.ARV needs threads: the number of threads its barrier waits for")
	}
	if named && (in.Barrier != 0 || in.Threads != 0 || info.act == actBarArrive) {
		c.named = true
	}
	if in.Operands != "" && info.act != actGMMA {
		return c.errorf(s, path, "operands is only for HGMMA, not %s", name)
	}
	rs := false
	switch strings.ToLower(strings.TrimSpace(in.Operands)) {
	case "", "ss":
	case "rs":
		rs = true
	default:
		return c.errorf(s, path, "operands %q, want ss (A and B in shared memory) or rs (A in registers)", in.Operands)
	}
	bar := int16(-1)
	if needsBar {
		if in.Bar == "" {
			return c.errorf(s, path, "%s needs an mbarrier (bar: a name such as full0)", name)
		}
		b, err := c.bar(in.Bar)
		if err != nil {
			return c.errorf(s, path, "bar: %v", err)
		}
		bar = b
	}
	if in.Cycles != 0 && info.act != actSleep {
		return c.errorf(s, path, "cycles is only for NANOSLEEP, not %s", name)
	}
	if in.Cycles < 0 || in.Cycles > 1<<30 {
		return c.errorf(s, path, "NANOSLEEP cycles %d, want 0 to %d", in.Cycles, 1<<30)
	}
	if in.ILP < 0 {
		return c.errorf(s, path, "ilp %d, want 1 or more", in.ILP)
	}
	n := cmp.Or(in.ILP, 1)
	if n > 1 && in.Dst == "" {
		return c.errorf(s, path, "ilp needs a destination register to rename")
	}
	if n > 64 {
		return c.errorf(s, path, "ilp %d, want at most 64", n)
	}
	for k := 0; k < n; k++ {
		ci := inst{act: info.act, pipe: info.pipe, sb: info.sb, store: info.store, level: level,
			width: int32(width), arg: int32(in.Cycles), dst: -1, op: name, pos: s.pos,
			stride: int32(stride), bar: bar, group: info.group, need: info.need, shape: in.Shape, rs: rs}
		switch info.act {
		case actWaitGroup:
			ci.arg = int32(in.Groups)
		case actBulkCopy:
			ci.arg = int32(in.Bytes)
		case actMbarInit:
			ci.arg = int32(in.Arrivals)
		case actBar, actBarArrive:
			ci.arg = int32(in.Threads)
			if named {
				ci.bar = int16(in.Barrier)
			}
		}
		rename := func(r string) string {
			if k > 0 && r == in.Dst {
				return r + "~" + strconv.Itoa(k)
			}
			return r
		}
		if in.Dst != "" {
			d, err := c.reg(rename(in.Dst))
			if err != nil {
				return c.errorf(s, path, "dst: %v", err)
			}
			ci.dst = d
		}
		for _, r := range in.Src {
			x, err := c.reg(rename(r))
			if err != nil {
				return c.errorf(s, path, "src: %v", err)
			}
			if x >= 0 {
				ci.src[ci.nsrc] = x
				ci.nsrc++
			}
		}
		c.code = append(c.code, ci)
	}
	return nil
}

// bar returns the index of mbarrier name.
func (c *compiler) bar(name string) (int16, error) {
	name = strings.TrimSpace(name)
	for i, b := range c.bars {
		if b == name {
			return int16(i), nil
		}
	}
	if !validReg(name) {
		return 0, fmt.Errorf("bad mbarrier name %q (want a name such as full0)", name)
	}
	if len(c.bars) >= maxBars {
		return 0, fmt.Errorf("more than %d distinct mbarriers", maxBars)
	}
	c.bars = append(c.bars, name)
	return int16(len(c.bars) - 1), nil
}

// reg returns the index of register name, -1 for the zero register RZ.
func (c *compiler) reg(name string) (int16, error) {
	name = strings.TrimSpace(name)
	if strings.EqualFold(name, "RZ") {
		return -1, nil
	}
	if i, ok := c.regs[name]; ok {
		return i, nil
	}
	if !validReg(name) {
		return 0, fmt.Errorf("bad register name %q (want a name such as r0, r12 or acc)", name)
	}
	if len(c.names) >= maxRegs {
		return 0, fmt.Errorf("more than %d distinct registers", maxRegs)
	}
	i := int16(len(c.names))
	c.regs[name] = i
	c.names = append(c.names, name)
	return i, nil
}

func validReg(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case i > 0 && ((r >= '0' && r <= '9') || r == '.' || r == '~'):
		default:
			return false
		}
	}
	return true
}

// parseSet parses "0-15,20,24-31" into a bit set of values below n.
func parseSet(s string, n int) (uint32, error) {
	var m uint32
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			return 0, fmt.Errorf("empty item; want numbers or ranges like 0-15,20")
		}
		lo, hi := part, part
		if i := strings.IndexByte(part, '-'); i >= 0 {
			lo, hi = strings.TrimSpace(part[:i]), strings.TrimSpace(part[i+1:])
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("%q is not a number or range; want e.g. 0-15,20", part)
		}
		if a < 0 || b >= n || a > b {
			return 0, fmt.Errorf("%q out of range; want values 0..%d, low before high", part, n-1)
		}
		for v := a; v <= b; v++ {
			m |= 1 << uint(v)
		}
	}
	if bits.OnesCount32(m) == 0 {
		return 0, fmt.Errorf("empty set")
	}
	return m, nil
}
