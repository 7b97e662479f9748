package sim

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Inst is one instruction of a program, in SASS-like form.
type Inst struct {
	// Op is the opcode: FFMA, FADD, FMUL, IMAD, IADD3, LOP3, ISETP, SHF,
	// MOV, SEL, DFMA, DADD, DMUL, MUFU, HMMA, LDS, STS, LDG, STG, LDL, STL,
	// BAR, BAR.ARV, BAR.CLUSTER, MEMBAR, NANOSLEEP, NOP or EXIT; the
	// asynchronous LDGSTS, LDGDEPBAR and DEPBAR (cp.async and its commit
	// and wait groups), UTMALDG, UBLKCP and SYNCS (a TMA copy that
	// completes on an mbarrier: the tensor-map tile load,
	// cp.async.bulk.tensor, or the plain bulk copy, cp.async.bulk; and the
	// wait for a phase of one), MBARINIT and ARRIVE (an
	// mbarrier's arrivals per phase, and one arrival), HGMMA and
	// WARPGROUP.DEPBAR (warpgroup MMA and its wait). (Branches are
	// [Program.Branch].)
	Op string
	// Dst is the destination register ("r0"), "" for none.
	Dst string
	// Src are the source registers; "RZ" (the zero register) never waits.
	Src []string
	// Level is where a global/local access is served: "l1", "l2" (a hit
	// in the L2 partition near the SM), "l2far" (a hit in the far
	// partition, Machine.L2FarLatency) or "dram". Default: "dram" for
	// LDG/STG/LDGSTS/UTMALDG/UBLKCP, "l1" for LDL/STL. An LDS or STS with level
	// "dsmem" reads or writes the shared memory of another block of its
	// cluster (distributed shared memory; [Launch].Cluster of 2 or more).
	Level string
	// Width is the bytes each thread moves in a memory instruction
	// (1, 2, 4, 8 or 16; default 4).
	Width int
	// Stride is the distance, in elements of Width bytes, between the
	// addresses of consecutive threads of a memory instruction (default 1,
	// contiguous). A global access moves every 32-byte sector its threads
	// touch; a shared one takes one wavefront per bank conflict.
	Stride int
	// Broadcast makes every thread of a memory instruction access the same
	// address: one sector, one wavefront (Stride must be 0).
	Broadcast bool
	// ILP, when above 1, makes ILP independent copies of the instruction:
	// copy i renames Dst (and any source equal to Dst) to Dst~i, so
	// {FFMA r0 ← r0, r1} with ILP 4 is four independent chains.
	ILP int
	// Cycles is the sleep time of NANOSLEEP, in cycles.
	Cycles int
	// Shape is an HMMA's or HGMMA's matrix shape, e.g. "m16n8k16" or (for
	// HGMMA) "m64n128k16"; "" is the machine's TensorShape (HMMA) or
	// m64n128k16 (HGMMA).
	Shape string
	// Groups is how many committed groups DEPBAR (cp.async) or
	// WARPGROUP.DEPBAR (HGMMA) lets stay in flight.
	Groups int
	// Bytes is the size of a UTMALDG or UBLKCP copy.
	Bytes int
	// Bar names the mbarrier a UTMALDG, UBLKCP or ARRIVE arrives on, a SYNCS
	// waits on and an MBARINIT sets up (one name space per block, e.g.
	// "full0").
	Bar string
	// Arrivals is the number of arrivals (ARRIVEs by warps, and TMA copies
	// whose bytes have landed) that complete one phase of the mbarrier an
	// MBARINIT sets up. An mbarrier no MBARINIT has set up completes a
	// phase on every arrival.
	Arrivals int
	// Barrier is the named barrier (0 to 15) a BAR or BAR.ARV uses;
	// Threads is how many threads it waits for (a multiple of 32; each
	// warp's arrival counts 32). A BAR with Threads 0 waits for every
	// warp of its block that has not exited (__syncthreads); BAR.ARV
	// arrives without waiting and needs Threads.
	Barrier int
	Threads int
	// Operands is where an HGMMA reads its A matrix: "ss" (shared
	// memory, the default) or "rs" (registers); B is always in shared
	// memory.
	Operands string
}

type stmtKind uint8

const (
	stmtInst stmtKind = iota
	stmtLoop
	stmtBranch
)

// stmt is one statement of a Program: an instruction, a loop or a branch.
type stmt struct {
	kind  stmtKind
	inst  Inst
	count int      // loop trip count
	body  *Program // loop body
	lanes string   // branch: lanes taking then (divergent)
	warps string   // branch: warps of the block taking then (uniform per warp)
	then  *Program
	els   *Program
	pos   srcPos // where a workload file wrote it; zero for the builder
}

// srcPos is a line and column (1-based) in a workload file; the zero value
// means no position.
type srcPos struct{ line, col int32 }

// Program is the instruction stream every warp of a workload runs. Build
// one with [NewProgram] and its chaining methods, or parse a workload file
// with [ParseWorkload]. Loops cost no issue slots (as if unrolled); a
// branch issues one BRA.
type Program struct {
	stmts []stmt
}

// NewProgram returns an empty program.
func NewProgram() *Program { return &Program{} }

// Add appends an instruction.
func (p *Program) Add(in Inst) *Program {
	in.Src = append([]string(nil), in.Src...)
	p.stmts = append(p.stmts, stmt{kind: stmtInst, inst: in})
	return p
}

// Op appends the instruction op dst ← src....
func (p *Program) Op(op, dst string, src ...string) *Program {
	return p.Add(Inst{Op: op, Dst: dst, Src: src})
}

// FFMA appends a single-precision fused multiply-add dst ← src....
func (p *Program) FFMA(dst string, src ...string) *Program { return p.Op("FFMA", dst, src...) }

// IADD3 appends an integer add dst ← src....
func (p *Program) IADD3(dst string, src ...string) *Program { return p.Op("IADD3", dst, src...) }

// MUFU appends a special-function instruction (reciprocal, exp, ...) dst ← src.
func (p *Program) MUFU(dst string, src ...string) *Program { return p.Op("MUFU", dst, src...) }

// LDS appends a shared-memory load dst ← [addr].
func (p *Program) LDS(dst, addr string) *Program { return p.Op("LDS", dst, addr) }

// LDG appends a global load dst ← [addr] served at level ("l1", "l2", "dram").
func (p *Program) LDG(dst, addr, level string) *Program {
	return p.Add(Inst{Op: "LDG", Dst: dst, Src: []string{addr}, Level: level})
}

// BAR appends a block-wide barrier (__syncthreads).
func (p *Program) BAR() *Program { return p.Add(Inst{Op: "BAR"}) }

// NANOSLEEP appends a sleep of the given number of cycles.
func (p *Program) NANOSLEEP(cycles int) *Program { return p.Add(Inst{Op: "NANOSLEEP", Cycles: cycles}) }

// EXIT appends the end of the program. A program that does not end in EXIT
// gets one.
func (p *Program) EXIT() *Program { return p.Add(Inst{Op: "EXIT"}) }

// ILP appends n independent copies of the instruction op dst ← src...
// (see [Inst].ILP).
func (p *Program) ILP(n int, op, dst string, src ...string) *Program {
	return p.Add(Inst{Op: op, Dst: dst, Src: src, ILP: n})
}

// Loop appends body repeated n times. The loop itself issues nothing.
func (p *Program) Loop(n int, body *Program) *Program {
	p.stmts = append(p.stmts, stmt{kind: stmtLoop, count: n, body: body})
	return p
}

// Branch appends a divergent branch: the lanes listed (e.g. "0-15" or
// "0-7,24-31") run then, the others run els, one path after the other,
// each with a partial mask; the warp reconverges after both. A nil path is
// empty.
func (p *Program) Branch(lanes string, then, els *Program) *Program {
	p.stmts = append(p.stmts, stmt{kind: stmtBranch, lanes: lanes, then: then, els: els})
	return p
}

// BranchWarps appends a branch that is uniform within each warp: the warps
// of the block listed (e.g. "0" or "0-3") run then, the others run els. Use
// it for per-warp extra work, e.g. before a barrier.
func (p *Program) BranchWarps(warps string, then, els *Program) *Program {
	p.stmts = append(p.stmts, stmt{kind: stmtBranch, warps: warps, then: then, els: els})
	return p
}

// Len returns the number of statements (instructions, loops, branches) at
// the top level of p.
func (p *Program) Len() int {
	if p == nil {
		return 0
	}
	return len(p.stmts)
}

// String returns the program as a workload-file program listing.
func (p *Program) String() string {
	var b strings.Builder
	p.format(&b, "")
	return b.String()
}

func (p *Program) format(b *strings.Builder, indent string) {
	if p == nil {
		return
	}
	for _, s := range p.stmts {
		switch s.kind {
		case stmtInst:
			in := s.inst
			fmt.Fprintf(b, "%s- {op: %s", indent, in.Op)
			if in.Dst != "" {
				fmt.Fprintf(b, ", dst: %s", in.Dst)
			}
			if len(in.Src) > 0 {
				fmt.Fprintf(b, ", src: [%s]", strings.Join(in.Src, ", "))
			}
			if in.Level != "" {
				fmt.Fprintf(b, ", level: %s", in.Level)
			}
			if in.Width != 0 {
				fmt.Fprintf(b, ", width: %d", in.Width)
			}
			if in.ILP > 1 {
				fmt.Fprintf(b, ", ilp: %d", in.ILP)
			}
			if in.Cycles != 0 {
				fmt.Fprintf(b, ", cycles: %d", in.Cycles)
			}
			if in.Stride != 0 {
				fmt.Fprintf(b, ", stride: %d", in.Stride)
			}
			if in.Broadcast {
				b.WriteString(", broadcast: true")
			}
			if in.Shape != "" {
				fmt.Fprintf(b, ", shape: %s", in.Shape)
			}
			if in.Groups != 0 {
				fmt.Fprintf(b, ", groups: %d", in.Groups)
			}
			if in.Bytes != 0 {
				fmt.Fprintf(b, ", bytes: %d", in.Bytes)
			}
			if in.Bar != "" {
				fmt.Fprintf(b, ", bar: %s", in.Bar)
			}
			if in.Arrivals != 0 {
				fmt.Fprintf(b, ", arrivals: %d", in.Arrivals)
			}
			if in.Barrier != 0 {
				fmt.Fprintf(b, ", barrier: %d", in.Barrier)
			}
			if in.Threads != 0 {
				fmt.Fprintf(b, ", threads: %d", in.Threads)
			}
			if in.Operands != "" {
				fmt.Fprintf(b, ", operands: %s", in.Operands)
			}
			b.WriteString("}\n")
		case stmtLoop:
			fmt.Fprintf(b, "%s- loop: %d\n%s  body:\n", indent, s.count, indent)
			s.body.format(b, indent+"    ")
		case stmtBranch:
			if s.warps != "" {
				fmt.Fprintf(b, "%s- op: BRA\n%s  warps: %q\n", indent, indent, s.warps)
			} else {
				fmt.Fprintf(b, "%s- op: BRA\n%s  lanes: %q\n", indent, indent, s.lanes)
			}
			if s.then.Len() > 0 {
				fmt.Fprintf(b, "%s  then:\n", indent)
				s.then.format(b, indent+"    ")
			}
			if s.els.Len() > 0 {
				fmt.Fprintf(b, "%s  else:\n", indent)
				s.els.format(b, indent+"    ")
			}
		}
	}
}

// pipe identifies the unit an instruction uses.
type pipe uint8

const (
	pipeFMA pipe = iota
	pipeALU
	pipeFP64
	pipeXU
	pipeTensor
	pipeBranch
	numSchedPipes
	pipeMIO  // shared memory (per SM)
	pipeLSU  // global/local memory via L1TEX (per SM)
	pipeNone // MEMBAR, NOP
)

// sbClass is how the result of an instruction is tracked.
type sbClass uint8

const (
	sbFixed sbClass = iota // compiler-known latency: wait
	sbShort                // MIO scoreboard: short_scoreboard
	sbLong                 // L1TEX scoreboard: long_scoreboard
	sbGMMA                 // an asynchronous warpgroup MMA's accumulator: gmma
)

// action is what issuing an instruction does beyond its pipe.
type action uint8

const (
	actMath action = iota
	actShared
	actGlobal
	actBranch
	actBar
	actMembar
	actSleep
	actExit
	actNop
	actAsyncCopy // LDGSTS: a global load into shared memory, in the open cp.async group
	actCommit    // LDGDEPBAR: closes the open cp.async group
	actWaitGroup // DEPBAR, WARPGROUP.DEPBAR: wait until at most arg groups are in flight
	actBulkCopy  // UTMALDG, UBLKCP: a TMA copy that arrives on an mbarrier when it lands
	actMbarWait  // SYNCS: wait for the next phase of an mbarrier
	actMbarInit  // MBARINIT: set the arrivals per phase of an mbarrier
	actArrive    // ARRIVE: one arrival on an mbarrier
	actBarArrive // BAR.ARV: arrive at a named barrier without waiting
	actGMMA      // HGMMA: an asynchronous warpgroup MMA, in the open HGMMA group
	// markers: never issued, resolved when a warp's pc reaches them
	actLoopStart
	actLoopEnd
	actEndThen
	actEndIf
)

type opInfo struct {
	pipe   pipe
	sb     sbClass
	act    action
	dst    int8 // 1 needs a destination, 0 must not have one, -1 optional
	store  bool
	level  uint8 // default level for memory ops
	global bool  // may take level
	group  uint8 // actCommit, actWaitGroup: groupCopy or groupMMA
	need   need  // what the machine must support
}

// Kinds of asynchronous group.
const (
	groupCopy uint8 = iota // cp.async (LDGSTS)
	groupMMA               // warpgroup MMA (HGMMA)
	numGroups
)

// need is a machine feature an instruction requires.
type need uint8

const (
	needNone need = iota
	needAsyncCopy
	needTMA
	needAsyncMMA
	needCluster
)

const (
	levelShared uint8 = iota
	levelL1
	levelL2
	levelL2Far
	levelDRAM
	levelDSMEM // another block's shared memory (LDS/STS only)
)

var levelNames = map[string]uint8{"l1": levelL1, "l2": levelL2, "l2far": levelL2Far, "dram": levelDRAM, "dsmem": levelDSMEM}

var ops = map[string]opInfo{
	"FFMA": {pipe: pipeFMA, dst: 1}, "FADD": {pipe: pipeFMA, dst: 1}, "FMUL": {pipe: pipeFMA, dst: 1},
	"IMAD":  {pipe: pipeFMA, dst: 1},
	"IADD3": {pipe: pipeALU, dst: 1}, "LOP3": {pipe: pipeALU, dst: 1}, "ISETP": {pipe: pipeALU, dst: 1},
	"SHF": {pipe: pipeALU, dst: 1}, "MOV": {pipe: pipeALU, dst: 1}, "SEL": {pipe: pipeALU, dst: 1},
	"DFMA": {pipe: pipeFP64, dst: 1}, "DADD": {pipe: pipeFP64, dst: 1}, "DMUL": {pipe: pipeFP64, dst: 1},
	"MUFU":             {pipe: pipeXU, sb: sbShort, dst: 1},
	"HMMA":             {pipe: pipeTensor, dst: 1},
	"LDS":              {pipe: pipeMIO, sb: sbShort, act: actShared, dst: 1, level: levelShared},
	"STS":              {pipe: pipeMIO, sb: sbShort, act: actShared, dst: 0, store: true, level: levelShared},
	"LDG":              {pipe: pipeLSU, sb: sbLong, act: actGlobal, dst: 1, level: levelDRAM, global: true},
	"STG":              {pipe: pipeLSU, sb: sbLong, act: actGlobal, dst: 0, store: true, level: levelDRAM, global: true},
	"LDL":              {pipe: pipeLSU, sb: sbLong, act: actGlobal, dst: 1, level: levelL1, global: true},
	"STL":              {pipe: pipeLSU, sb: sbLong, act: actGlobal, dst: 0, store: true, level: levelL1, global: true},
	"BAR":              {pipe: pipeBranch, act: actBar, dst: 0},
	"BAR.ARV":          {pipe: pipeBranch, act: actBarArrive, dst: 0},
	"BAR.CLUSTER":      {pipe: pipeBranch, act: actBar, dst: 0, need: needCluster},
	"MBARINIT":         {pipe: pipeNone, act: actMbarInit, dst: 0, need: needTMA},
	"ARRIVE":           {pipe: pipeNone, act: actArrive, dst: 0, need: needTMA},
	"MEMBAR":           {pipe: pipeNone, act: actMembar, dst: 0},
	"NANOSLEEP":        {pipe: pipeBranch, act: actSleep, dst: 0},
	"NOP":              {pipe: pipeNone, act: actNop, dst: 0},
	"EXIT":             {pipe: pipeBranch, act: actExit, dst: 0},
	"LDGSTS":           {pipe: pipeLSU, sb: sbLong, act: actAsyncCopy, dst: 0, level: levelDRAM, global: true, need: needAsyncCopy},
	"LDGDEPBAR":        {pipe: pipeNone, act: actCommit, dst: 0, group: groupCopy, need: needAsyncCopy},
	"DEPBAR":           {pipe: pipeNone, act: actWaitGroup, dst: 0, group: groupCopy, need: needAsyncCopy},
	"UBLKCP":           {pipe: pipeLSU, sb: sbLong, act: actBulkCopy, dst: 0, level: levelDRAM, global: true, need: needTMA},
	"UTMALDG":          {pipe: pipeLSU, sb: sbLong, act: actBulkCopy, dst: 0, level: levelDRAM, global: true, need: needTMA},
	"SYNCS":            {pipe: pipeNone, act: actMbarWait, dst: 0, need: needTMA},
	"HGMMA":            {pipe: pipeTensor, act: actGMMA, dst: 1, group: groupMMA, need: needAsyncMMA},
	"WARPGROUP.DEPBAR": {pipe: pipeNone, act: actWaitGroup, dst: 0, group: groupMMA, need: needAsyncMMA},
}

// Ops returns the opcodes a program may use, sorted, plus BRA.
func Ops() []string {
	out := append(slices.Collect(maps.Keys(ops)), "BRA")
	slices.Sort(out)
	return out
}

// Listing returns the program's instructions one line each, indexed by PC:
// line i is the instruction that issues carry as [Issue].PC = i. The
// program is flattened in program order, each instruction once however
// often a loop repeats it; a loop and a reconvergence point take no PC; a
// branch is its BRA, then its then path, then its else path; Inst.ILP
// copies take one PC each (renamed registers shown, r0~1); the EXIT the
// program gets when it does not end in one is last. A line reads like
// "FFMA r0, r0, r1" (destination first) or "LDG r2, r3 (dram)". Listing
// returns an error for a program the simulator would reject.
func (p *Program) Listing() ([]string, error) {
	prog, err := compile(p, "")
	if err != nil {
		return nil, err
	}
	var out []string
	for i := range prog.code {
		if prog.pcs[i] >= 0 {
			out = append(out, prog.text(i))
		}
	}
	return out, nil
}

// text returns instruction i as Listing prints it (a SASS kernel's: the
// instruction as the listing printed it).
func (prog *compiled) text(i int) string {
	if prog.sass != nil {
		return prog.sass.fn.Insts[i].Text
	}
	in := &prog.code[i]
	var b strings.Builder
	b.WriteString(in.op)
	sep := " "
	if in.dst >= 0 {
		b.WriteString(sep + prog.regs[in.dst])
		sep = ", "
	}
	for k := uint8(0); k < in.nsrc; k++ {
		b.WriteString(sep + prog.regs[in.src[k]])
		sep = ", "
	}
	var notes []string
	switch {
	case in.act == actBranch && in.byWarp:
		notes = append(notes, "warps "+formatSet(in.warps))
	case in.act == actBranch:
		notes = append(notes, "lanes "+formatSet(in.lanes))
	case in.act == actGlobal || in.act == actAsyncCopy:
		notes = append(notes, levelNamesByID[in.level])
	case in.act == actBulkCopy:
		notes = append(notes, levelNamesByID[in.level], fmt.Sprintf("%d bytes", in.arg), "bar "+prog.bars[in.bar])
	case in.act == actMbarWait || in.act == actArrive:
		notes = append(notes, "bar "+prog.bars[in.bar])
	case in.act == actMbarInit:
		notes = append(notes, "bar "+prog.bars[in.bar], fmt.Sprintf("%d arrivals", in.arg))
	case (in.act == actBar || in.act == actBarArrive) && (in.bar != 0 || in.arg != 0):
		notes = append(notes, fmt.Sprintf("barrier %d", in.bar))
		if in.arg != 0 {
			notes = append(notes, fmt.Sprintf("%d threads", in.arg))
		}
	case in.act == actShared && in.level == levelDSMEM:
		notes = append(notes, "dsmem")
	case in.act == actSleep:
		notes = append(notes, fmt.Sprintf("%d cycles", in.arg))
	case in.act == actWaitGroup:
		notes = append(notes, fmt.Sprintf("%d groups", in.arg))
	case in.pipe == pipeTensor && in.shape != "":
		notes = append(notes, in.shape)
	}
	if in.act == actGMMA && in.rs {
		notes = append(notes, "A in registers")
	}
	if (in.act == actGlobal || in.act == actShared || in.act == actAsyncCopy) && in.width != 4 {
		notes = append(notes, fmt.Sprintf("%d B", in.width))
	}
	switch {
	case in.stride == 0 && (in.act == actGlobal || in.act == actShared || in.act == actAsyncCopy):
		notes = append(notes, "broadcast")
	case in.stride != 1 && (in.act == actGlobal || in.act == actShared || in.act == actAsyncCopy):
		notes = append(notes, fmt.Sprintf("stride %d", in.stride))
	}
	if len(notes) > 0 {
		b.WriteString(" (" + strings.Join(notes, ", ") + ")")
	}
	return b.String()
}

var levelNamesByID = [...]string{levelShared: "shared", levelL1: "l1", levelL2: "l2", levelL2Far: "l2far", levelDRAM: "dram", levelDSMEM: "dsmem"}

// formatSet writes a bit set as ranges, e.g. "0-15,20".
func formatSet(m uint32) string {
	var parts []string
	for v := 0; v < 32; v++ {
		if m>>uint(v)&1 == 0 {
			continue
		}
		hi := v
		for hi+1 < 32 && m>>uint(hi+1)&1 != 0 {
			hi++
		}
		if hi == v {
			parts = append(parts, strconv.Itoa(v))
		} else {
			parts = append(parts, strconv.Itoa(v)+"-"+strconv.Itoa(hi))
		}
		v = hi
	}
	return strings.Join(parts, ",")
}
