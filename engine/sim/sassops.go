package sim

import (
	"sort"
	"strings"

	"github.com/warpbook/warpbook/engine/sass"
)

// latSource says where the simulator takes the latency of an instruction's
// variable-latency result (the one a write dependence counter tracks).
type latSource uint8

const (
	latPipe latSource = iota // the pipe's latency (MUFU: XU; DFMA: FP64; HMMA: Tensor)
	latMem                   // the memory system (engine/sim's memory model)
	latMIO                   // an MIO operation with no published latency: SharedLatency (an estimate)
	latLDC                   // LDC: Huerta et al. Table 2
)

// sassOp is how the simulator runs one SASS opcode.
type sassOp struct {
	pipe   pipe
	act    action
	sb     sbClass // the scoreboard a dependence counter it sets reports: sbShort (MIO) or sbLong (L1TEX)
	lat    latSource
	store  bool  // memory: writes memory and returns nothing
	level  uint8 // memory: default level
	global bool  // memory: the access's level comes from the kernel's access table
	need   need
	group  uint8 // LDGDEPBAR, HGMMA: the asynchronous group kind
}

// SASS opcode classes. The unit of each opcode follows NVIDIA's CUDA Binary
// Utilities instruction set reference (the opcode categories: floating point,
// integer, conversion, movement, predicate, load/store, uniform datapath,
// control, miscellaneous) and the unit classes of Accel-Sim's
// gpu-simulator/ISA_Def/ampere_opcode.h and hopper_opcode.h; the pipe of an
// opcode Accel-Sim leaves on a generic ALU class (conversions, population
// count) follows the CUDA C++ Programming Guide's throughput table, which
// gives type conversions and bit counts the special-function rate (16
// results per clock per SM on compute capability 7.x to 9.0).
var (
	opFMA    = sassOp{pipe: pipeFMA, act: actMath, sb: sbShort, lat: latPipe}
	opALU    = sassOp{pipe: pipeALU, act: actMath, sb: sbShort, lat: latPipe}
	opFP64   = sassOp{pipe: pipeFP64, act: actMath, sb: sbShort, lat: latPipe}
	opXU     = sassOp{pipe: pipeXU, act: actMath, sb: sbShort, lat: latPipe}
	opTensor = sassOp{pipe: pipeTensor, act: actMath, sb: sbShort, lat: latPipe}
	opMIO    = sassOp{pipe: pipeNone, act: actMath, sb: sbShort, lat: latMIO}
	opUni    = sassOp{pipe: pipeNone, act: actMath, sb: sbShort, lat: latMIO} // uniform datapath
	opNone   = sassOp{pipe: pipeNone, act: actNop, sb: sbShort, lat: latMIO}
	opCBU    = sassOp{pipe: pipeBranch, act: actNop, sb: sbShort, lat: latMIO} // convergence and control unit
	opLoad   = sassOp{pipe: pipeLSU, act: actGlobal, sb: sbLong, lat: latMem, level: levelDRAM, global: true}
	opStore  = sassOp{pipe: pipeLSU, act: actGlobal, sb: sbLong, lat: latMem, level: levelDRAM, global: true, store: true}
	opLocalL = sassOp{pipe: pipeLSU, act: actGlobal, sb: sbLong, lat: latMem, level: levelL1, global: true}
	opLocalS = sassOp{pipe: pipeLSU, act: actGlobal, sb: sbLong, lat: latMem, level: levelL1, global: true, store: true}
	opAtomG  = sassOp{pipe: pipeLSU, act: actGlobal, sb: sbLong, lat: latMem, level: levelL2, global: true}
	opRedG   = sassOp{pipe: pipeLSU, act: actGlobal, sb: sbLong, lat: latMem, level: levelL2, global: true, store: true}
	opLDS    = sassOp{pipe: pipeMIO, act: actShared, sb: sbShort, lat: latMem, level: levelShared}
	opSTS    = sassOp{pipe: pipeMIO, act: actShared, sb: sbShort, lat: latMem, level: levelShared, store: true}
)

// sassOps maps a SASS opcode (without modifiers) to its class, sorted by
// opcode (TestSASSOpsSorted) so that lookupOp can search it: static data,
// which costs the browser kernel less than a map literal's code.
var sassOps = [...]struct {
	name string
	op   sassOp
}{
	{"ACQBULK", opNone}, {"ATOM", opAtomG}, {"ATOMG", opAtomG}, {"ATOMS", opLDS},
	{"BAR", sassOp{pipe: pipeBranch, act: actBar}}, {"BMMA", opTensor}, {"BMOV", opCBU}, {"BMSK", opALU},
	{"BRA", sassOp{pipe: pipeBranch, act: actBranch}}, {"BREAK", opCBU}, {"BREV", opXU}, {"BSSY", opCBU},
	{"BSYNC", opCBU}, {"CALL", sassOp{pipe: pipeBranch, act: actBranch}}, {"CCTL", opNone}, {"CCTLL", opNone},
	{"CGAERRBAR", opNone}, {"CS2R", opALU}, {"DADD", opFP64},
	{"DEPBAR", sassOp{pipe: pipeNone, act: actNop, sb: sbShort, lat: latMIO}}, {"DFMA", opFP64},
	{"DMMA", opTensor}, {"DMNMX", opFP64}, {"DMUL", opFP64}, {"DSETP", opFP64}, {"ELECT", opALU},
	{"ERRBAR", opNone}, {"EXIT", sassOp{pipe: pipeBranch, act: actExit}}, {"F2F", opXU}, {"F2FP", opALU},
	{"F2I", opXU}, {"F2IP", opALU}, {"FADD", opFMA}, {"FADD32I", opFMA}, {"FCHK", opXU}, {"FENCE", opNone},
	{"FFMA", opFMA}, {"FFMA32I", opFMA}, {"FLO", opXU}, {"FMNMX", opALU}, {"FMNMX3", opALU}, {"FMUL", opFMA},
	{"FMUL32I", opFMA}, {"FRND", opXU}, {"FSEL", opALU}, {"FSET", opALU}, {"FSETP", opALU}, {"FSWZADD", opFMA},
	{"HADD2", opFMA}, {"HADD2_32I", opFMA}, {"HFMA2", opFMA}, {"HFMA2_32I", opFMA},
	{"HGMMA", sassOp{pipe: pipeTensor, act: actGMMA, sb: sbGMMA, lat: latPipe, group: groupMMA, need: needAsyncMMA}},
	{"HMMA", opTensor}, {"HMNMX2", opALU}, {"HMUL2", opFMA}, {"HMUL2_32I", opFMA}, {"HSET2", opALU},
	{"HSETP2", opALU}, {"I2F", opXU}, {"I2FP", opALU}, {"I2I", opXU}, {"I2IP", opALU}, {"IABS", opALU},
	{"IADD", opALU}, {"IADD3", opALU}, {"IADD32I", opALU}, {"IADD3X", opALU}, {"IDP", opFMA}, {"IDP4A", opFMA},
	{"IMAD", opFMA}, {"IMAD32I", opFMA}, {"IMMA", opTensor}, {"IMNMX", opALU}, {"IMUL", opFMA},
	{"IMUL32I", opFMA}, {"ISCADD", opALU}, {"ISCADD32I", opALU}, {"ISETP", opALU},
	{"JMP", sassOp{pipe: pipeBranch, act: actBranch}}, {"LD", opLoad},
	{"LDC", sassOp{pipe: pipeNone, act: actMath, sb: sbShort, lat: latLDC}}, {"LDG", opLoad},
	{"LDGDEPBAR", sassOp{pipe: pipeNone, act: actCommit, sb: sbLong, lat: latMem, group: groupCopy, need: needAsyncCopy}},
	{"LDGSTS", sassOp{pipe: pipeLSU, act: actAsyncCopy, sb: sbLong, lat: latMem, level: levelDRAM, global: true, need: needAsyncCopy}},
	{"LDL", opLocalL}, {"LDS", opLDS}, {"LDSM", opLDS}, {"LEA", opALU}, {"LOP", opALU}, {"LOP3", opALU},
	{"LOP32I", opALU}, {"MATCH", opMIO}, {"MEMBAR", sassOp{pipe: pipeNone, act: actMembar}}, {"MOV", opALU},
	{"MOV32I", opALU}, {"MUFU", opXU}, {"NANOSLEEP", sassOp{pipe: pipeBranch, act: actSleep}}, {"NOP", opNone},
	{"P2R", opALU}, {"PLOP3", opALU}, {"POPC", opXU}, {"PRMT", opALU}, {"PSETP", opALU}, {"R2P", opALU},
	{"R2UR", opUni}, {"RED", opRedG}, {"REDG", opRedG}, {"REDUX", opMIO},
	{"RET", sassOp{pipe: pipeBranch, act: actBranch}}, {"S2R", opMIO}, {"S2UR", opUni}, {"SEL", opALU},
	{"SGXT", opALU}, {"SHF", opALU}, {"SHFL", opMIO}, {"SHL", opALU}, {"SHR", opALU}, {"ST", opStore},
	{"STG", opStore}, {"STL", opLocalS}, {"STS", opSTS}, {"UBMSK", opUni}, {"UBREV", opUni}, {"UCLEA", opUni},
	{"UF2FP", opUni}, {"UFLO", opUni}, {"UIADD3", opUni}, {"UIADD3X", opUni}, {"UIMAD", opUni},
	{"UISETP", opUni}, {"ULDC", opUni}, {"ULEA", opUni}, {"ULOP", opUni}, {"ULOP3", opUni}, {"ULOP32I", opUni},
	{"UMOV", opUni}, {"UP2UR", opUni}, {"UPLOP3", opUni}, {"UPOPC", opUni}, {"UPRMT", opUni}, {"UPSETP", opUni},
	{"UR2UP", opUni}, {"USEL", opUni}, {"USETMAXREG", opNone}, {"USGXT", opUni}, {"USHF", opUni},
	{"USHL", opUni}, {"USHR", opUni}, {"UVIADD", opUni}, {"VABSDIFF", opALU}, {"VABSDIFF4", opALU},
	{"VIADD", opALU}, {"VIMNMX", opALU}, {"VOTE", opALU}, {"VOTEU", opUni},
	{"WARPGROUP", sassOp{pipe: pipeNone, act: actNop}}, {"WARPSYNC", opCBU}, {"YIELD", opCBU},
}

// lookupOp returns the class of opcode op.
func lookupOp(op string) (sassOp, bool) {
	i := sort.Search(len(sassOps), func(i int) bool { return sassOps[i].name >= op })
	if i < len(sassOps) && sassOps[i].name == op {
		return sassOps[i].op, true
	}
	return sassOp{}, false
}

// sassUnmodelled names opcodes the simulator knows but does not run from
// SASS, with the reason.
var sassUnmodelled = [...][2]string{
	{"BRX", "an indirect branch: its targets are in a register"},
	{"JMX", "an indirect jump: its target is in a register"},
	{"SYNCS", "an mbarrier operation: the mbarrier is named by an address in a register, which SASS does not resolve; write the pipeline as a YAML workload (UTMALDG or UBLKCP, SYNCS)"},
	{"UTMALDG", "a TMA load: it completes on an mbarrier named in a register; write the pipeline as a YAML workload (UTMALDG, SYNCS)"},
	{"UTMASTG", "a TMA store"},
	{"UBLKCP", "a bulk copy: it completes on an mbarrier named in a register; write the pipeline as a YAML workload (UBLKCP, SYNCS)"},
	{"UTMAPF", "a TMA prefetch"},
	{"TEX", "a texture fetch"},
	{"TLD", "a texture load"},
	{"TLD4", "a texture gather"},
	{"SULD", "a surface load"},
	{"SUST", "a surface store"},
	{"KILL", "a thread kill"},
	{"BPT", "a breakpoint or trap"},
	{"RTT", "a return from trap"},
	{"SETCTAID", "a graphics-only instruction"},
}

// SASSOpcodes returns the SASS opcodes (without modifiers) the simulator
// runs, sorted; any other opcode in a kernel is an error naming it and its
// line.
func SASSOpcodes() []string {
	out := make([]string, len(sassOps))
	for i, o := range sassOps {
		out[i] = o.name
	}
	return out
}

// unmodelled returns why the simulator does not run opcode op, "" when
// it is not one of those it knows and leaves out.
func unmodelled(op string) string {
	for _, u := range sassUnmodelled {
		if u[0] == op {
			return u[1]
		}
	}
	return ""
}

// memWidth returns the bytes per thread of a memory instruction from its
// modifiers: .64 and .128 (and LDSM's .x2, .x4 as .2 and .4), .U8, .S8,
// .U16 and .S16; 4 otherwise.
func memWidth(in *sass.Inst) int {
	w := 4
	for _, m := range in.Mods {
		switch m {
		case "64":
			w = 8
		case "128":
			w = 16
		case "U8", "S8":
			w = 1
		case "U16", "S16":
			w = 2
		}
	}
	if in.Op == "LDSM" {
		switch {
		case in.Has("4"):
			w = 16
		case in.Has("2"):
			w = 8
		}
	}
	return w
}

// tensorShape returns the shape of an HMMA ("16816" → m16n8k16) or HGMMA
// ("64x128x16" → m64n128k16), "" when the mnemonic names none the model
// knows.
func tensorShape(in *sass.Inst) string {
	for _, m := range in.Mods {
		switch m {
		case "16816":
			return "m16n8k16"
		case "1688":
			return "m16n8k8"
		case "884":
			return "m8n8k4"
		}
		if in.Op == "HGMMA" {
			if p := strings.Split(m, "x"); len(p) == 3 && p[0] == "64" && p[2] == "16" {
				return "m64n" + p[1] + "k16"
			}
		}
	}
	return ""
}

// warLatency is the cycles after issue at which a memory instruction has
// read its source registers and releases its read dependence counter:
// Huerta et al. (MICRO 2025) Table 2, RTX A6000 (Ampere), with the address
// in a regular register: loads from global memory 11, shared-memory loads
// 9, global stores 14, 16 and 20 and shared stores 12, 14 and 18 for 32-,
// 64- and 128-bit data, LDGSTS 13, LDC 29. Any other instruction that
// sets a read counter (a variable-latency math instruction, a shuffle)
// gets the shared-memory load's 9, an estimate. The presets other than
// ampere assume the same pipeline, as they do for its other figures.
func warLatency(op string, o sassOp, width int) int32 {
	wide := map[int]int32{8: 2, 16: 6}[width]
	switch {
	case op == "LDGSTS":
		return 13
	case op == "LDC":
		return 29
	case o.act == actGlobal && o.store:
		return 14 + wide
	case o.act == actGlobal:
		return 11
	case o.act == actShared && o.store:
		return 12 + wide
	}
	return 9
}

// ldcLatency is LDC's result latency: Huerta et al. Table 2, 29 cycles with
// the address in a register and 26 with an immediate address.
func ldcLatency(in *sass.Inst) int32 {
	for _, o := range in.Operands {
		if _, addr, ok := strings.Cut(o, "]["); ok && strings.HasPrefix(o, "c[") && strings.ContainsRune(addr, 'R') {
			return 29
		}
	}
	return 26
}
