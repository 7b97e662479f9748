package sim

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/engine/sass"
)

// Kernel is a compiled kernel for [Workload].Kernel: one function of a
// SASS listing ([sass.Parse]) and what its SASS cannot say. A workload
// runs either a Program or a Kernel.
//
// Instructions are named by their address in the function, written as in
// the listing ("0x00a0" or "0xa0"), or by a label of an nvdisasm listing
// (".L_x_3").
type Kernel struct {
	// Listing names the listing Func came from, for errors
	// ("listing:line:col: ...").
	Listing string
	// Func is the function to run.
	Func *sass.Function
	// Loops gives each loop's trip count: the times its body runs per warp
	// (at least 1). A loop is named by its head, the target of the
	// backward branch that closes it. Every loop a warp can reach needs
	// one.
	Loops map[string]int
	// Branches says how a conditional forward branch, a predicated EXIT,
	// CALL or RET, or a BRA.DIV goes, by the instruction's address. One
	// that is not listed is not taken: a bounds check (@P0 EXIT) lets
	// every thread through, a loop guard (@!P0 BRA past the loop) lets the
	// loop run.
	Branches map[string]Branch
	// Access says where each global or local memory instruction's accesses
	// go and how its threads' addresses lie, by address; Default is for
	// the memory instructions not listed.
	Access  map[string]Access
	Default Access

	// pos holds where a kernel file wrote each key (section + "\x00" +
	// key), for errors; ParseKernel fills it.
	pos map[string]srcPos
}

// Branch is how a conditional branch goes. The zero value is not taken.
type Branch struct {
	// Taken sends every active thread to the target.
	Taken bool
	// Lanes are the lanes (0 to 31) that go to the target, e.g. "0-15";
	// the others fall through, one path after the other, and the warp
	// reconverges where the two paths meet (the branch's immediate
	// post-dominator).
	Lanes string
	// Warps are the warps of the block (by index) whose threads all go to
	// the target, e.g. "0".
	Warps string
}

// Access is where a memory instruction's accesses go.
type Access struct {
	// Level is "l1", "l2" or "dram" for a global or local access; ""
	// takes Default's, then dram for global and l1 for local memory and
	// l2 for atomics. Shared-memory instructions take none.
	Level string
	// Stride is the distance between consecutive threads' addresses, in
	// elements of the instruction's width (0 or 1: contiguous).
	Stride int
	// Broadcast puts every thread at one address.
	Broadcast bool
}

// jumpKind is how a control instruction of a SASS kernel goes.
type jumpKind uint8

const (
	jumpNone      jumpKind = iota // not a control instruction
	jumpNever                     // falls through
	jumpAlways                    // goes to its target
	jumpTrips                     // closes a loop: taken trip-1 times, then falls through
	jumpExitAfter                 // leaves a loop closed by an unconditional branch: falls through trip times, then taken
	jumpLanes                     // divergent: the lanes in inst.lanes go to the target
	jumpWarps                     // the warps in inst.warps go to the target
	jumpCall                      // CALL: to its target, returning after it
	jumpRet                       // RET: back after the last CALL
)

// sassProgram is what a compiled SASS kernel needs beyond its code.
type sassProgram struct {
	fn    *sass.Function
	trips int  // per-warp trip counters
	simt  bool // has divergent branches: warps keep a reconvergence stack
	calls bool // has CALL: warps keep a return stack
}

// maxCalls is the deepest CALL nesting a warp may reach.
const maxCalls = 16

// maxSIMT is the deepest a warp's reconvergence stack may grow.
const maxSIMT = 32

// compileSASS compiles a kernel's function into simulator code: one
// instruction per SASS instruction, PC = index in the function.
func compileSASS(k *Kernel, file string) (*compiled, error) {
	if k.Func == nil {
		return nil, &Error{File: file, Msg: "kernel has no function"}
	}
	f := k.Func
	n := len(f.Insts)
	if n == 0 {
		return nil, &Error{File: k.Listing, Line: f.Line, Msg: fmt.Sprintf("function %s has no instructions", f.Name)}
	}
	if err := checkArch(f); err != nil {
		return nil, &Error{File: k.Listing, Line: f.Line, Msg: err.Error()}
	}
	c := &sassCompiler{k: k, f: f, file: file, code: make([]inst, n)}
	for i := range f.Insts {
		if err := c.inst(i); err != nil {
			return nil, err
		}
	}
	if err := c.control(); err != nil {
		return nil, err
	}
	if c.err != nil {
		return nil, c.err
	}
	if err := c.checkKeys(); err != nil {
		return nil, err
	}
	pcs := make([]int32, n)
	for i := range pcs {
		pcs[i] = int32(i)
	}
	return &compiled{code: c.code, pcs: pcs, sass: &sassProgram{fn: f, trips: c.trips, simt: c.simt, calls: c.calls}}, nil
}

// checkArch accepts functions compiled for sm_70 and later (or whose
// listing does not say).
func checkArch(f *sass.Function) error {
	if f.Arch == "" {
		return nil
	}
	num := strings.TrimRight(strings.TrimPrefix(f.Arch, "sm_"), "abf")
	v, err := strconv.Atoi(num)
	if err != nil || !strings.HasPrefix(f.Arch, "sm_") {
		return fmt.Errorf("function %s: architecture %q, want sm_NN", f.Name, f.Arch)
	}
	if v < 70 {
		return fmt.Errorf("function %s is compiled for %s; the simulator runs the control information of sm_70 and later", f.Name, f.Arch)
	}
	return nil
}

type sassCompiler struct {
	k     *Kernel
	f     *sass.Function
	file  string
	code  []inst
	trips int
	simt  bool
	calls bool
	used  map[string]bool // kernel-file keys that matched an instruction
	err   error           // the first problem lookup found
}

// listingErr positions an error at instruction i of the listing.
func (c *sassCompiler) listingErr(i int, format string, args ...any) error {
	in := &c.f.Insts[i]
	return &Error{File: c.k.Listing, Line: in.Line, Col: in.Col, Msg: fmt.Sprintf(format, args...)}
}

// keyErr positions an error at a key of the kernel file.
func (c *sassCompiler) keyErr(section, key, format string, args ...any) error {
	e := &Error{File: c.file, Path: section + "." + key, Msg: fmt.Sprintf(format, args...)}
	if p, ok := c.k.pos[section+"\x00"+key]; ok {
		e.Line, e.Col = int(p.line), int(p.col)
	}
	return e
}

// addrKey returns the canonical key of an address: "0x00a0".
func addrKey(a int) string { return fmt.Sprintf("0x%04x", a) }

// lookup finds the entry of a kernel-file map for instruction i: by
// address (any spelling of the hex number) or by its label.
func lookup[V any](c *sassCompiler, section string, m map[string]V, i int) (V, string, bool) {
	var zero V
	in := &c.f.Insts[i]
	var keys []string
	for k := range m {
		if keyAddr(k) == in.Addr || (in.Label != "" && k == in.Label) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return zero, "", false
	}
	slices.Sort(keys)
	if len(keys) > 1 && c.err == nil {
		c.err = c.keyErr(section, keys[1], "%s and %s name the same instruction, %s; give one", keys[0], keys[1], in.Text)
	}
	if c.used == nil {
		c.used = map[string]bool{}
	}
	for _, k := range keys {
		c.used[section+"\x00"+k] = true
	}
	return m[keys[0]], keys[0], true
}

// keyAddr reads "0x00a0" as 160; -1 when the key is not an address.
func keyAddr(k string) int {
	h, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(k)), "0x")
	if !ok || h == "" {
		return -1
	}
	v, err := strconv.ParseUint(h, 16, 31)
	if err != nil {
		return -1
	}
	return int(v)
}

func (c *sassCompiler) inst(i int) error {
	in := &c.f.Insts[i]
	if !in.HasEncoding {
		return c.listingErr(i, "%s has no encoding, so no control information: list the kernel with cuobjdump -sass or nvdisasm -hex", in.Text)
	}
	o, ok := lookupOp(in.Op)
	if !ok {
		if why := unmodelled(in.Op); why != "" {
			return c.listingErr(i, "%s is %s: not modelled", in.Mnemonic(), why)
		}
		return c.listingErr(i, "unknown opcode %s in %q: the simulator does not know its unit (sim.SASSOpcodes lists the %d opcodes it runs)", in.Op, in.Text, len(sassOps))
	}
	ci := inst{act: o.act, pipe: o.pipe, sb: o.sb, store: o.store, level: o.level, need: o.need, group: o.group,
		dst: -1, op: in.Mnemonic(), pos: srcPos{line: int32(in.Line), col: int32(in.Col)},
		width: 4, stride: 1, wbar: int8(in.Ctrl.WriteSB), rbar: int8(in.Ctrl.ReadSB), wait: in.Ctrl.Wait,
		stall: int8(max(1, in.Ctrl.Stall)), yield: in.Ctrl.Yield, depSB: -1, trip: -1}
	switch in.Op {
	case "WARPGROUP":
		switch {
		case in.Has("ARRIVE"):
		case in.Has("DEPBAR"):
			ci.act, ci.group, ci.need = actWaitGroup, groupMMA, needAsyncMMA
			ci.arg = int32(lastNumber(in.Operands))
		default:
			return c.listingErr(i, "%s is not modelled (WARPGROUP.ARRIVE and WARPGROUP.DEPBAR.LE are)", in.Mnemonic())
		}
	case "DEPBAR":
		if err := c.depbar(i, &ci); err != nil {
			return err
		}
	case "BAR":
		if in.Has("ARV") {
			ci.act = actNop // arrives without waiting
		}
	case "NANOSLEEP":
		v := lastNumber(in.Operands)
		if v < 0 {
			return c.listingErr(i, "%s: the sleep time is in a register; the model needs an immediate", in.Text)
		}
		ci.arg = int32(min(v, 1<<30))
	case "HMMA", "HGMMA":
		ci.shape = tensorShape(in)
		if in.Op == "HGMMA" && ci.shape == "" {
			ci.shape = defaultHGMMA
		}
	}
	if o.act == actShared || o.act == actGlobal || o.act == actAsyncCopy {
		ci.width = int32(memWidth(in))
		if in.Op == "LDGSTS" && ci.width < 4 {
			ci.width = 4
		}
		if err := c.access(i, &ci, o); err != nil {
			return err
		}
	}
	if in.Op == "LDC" {
		ci.lat = ldcLatency(in)
	}
	ci.rlat = warLatency(in.Op, o, int(ci.width))
	c.code[i] = ci
	return nil
}

// depbar reads DEPBAR.LE SBx, N[, {a,b}].
func (c *sassCompiler) depbar(i int, ci *inst) error {
	in := &c.f.Insts[i]
	if !in.Has("LE") || len(in.Operands) < 2 {
		return c.listingErr(i, "%s: want DEPBAR.LE SBn, count", in.Text)
	}
	sb, ok := strings.CutPrefix(in.Operands[0], "SB")
	v, err := strconv.Atoi(sb)
	if !ok || err != nil || v < 0 || v >= sass.Counters {
		return c.listingErr(i, "%s: %q is not a dependence counter SB0 to SB5", in.Text, in.Operands[0])
	}
	cnt := number(in.Operands[1])
	if cnt < 0 || cnt > 63 {
		return c.listingErr(i, "%s: count %q, want 0 to 63", in.Text, in.Operands[1])
	}
	ci.depSB, ci.depN = int8(v), int8(cnt)
	if len(in.Operands) > 2 {
		list := strings.Trim(in.Operands[2], "{} ")
		for _, s := range strings.Split(list, ",") {
			x, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || x < 0 || x >= sass.Counters {
				return c.listingErr(i, "%s: %q is not a list of counters", in.Text, in.Operands[2])
			}
			ci.wait |= 1 << uint(x)
		}
	}
	return nil
}

// number reads an immediate such as "0x1f" or "12"; -1 when it is not one.
func number(s string) int {
	s = strings.TrimSpace(s)
	base := 10
	if h, ok := strings.CutPrefix(s, "0x"); ok {
		s, base = h, 16
	}
	v, err := strconv.ParseInt(s, base, 32)
	if err != nil || v < 0 {
		return -1
	}
	return int(v)
}

// lastNumber reads the last operand as an immediate; -1 when it is not one.
func lastNumber(ops []string) int {
	if len(ops) == 0 {
		return -1
	}
	return number(ops[len(ops)-1])
}

func (c *sassCompiler) access(i int, ci *inst, o sassOp) error {
	in := &c.f.Insts[i]
	a := c.k.Default
	where := func(format string, args ...any) error {
		return &Error{File: c.file, Path: "access.default", Msg: fmt.Sprintf(format, args...)}
	}
	spec, key, ok := lookup(c, "access", c.k.Access, i)
	if ok {
		where = func(format string, args ...any) error { return c.keyErr("access", key, format, args...) }
		if !o.global && spec.Level != "" {
			return where("%s is a shared-memory instruction; level is for global and local memory", in.Mnemonic())
		}
		if spec.Level != "" {
			a.Level = spec.Level
		}
		if spec.Stride != 0 || spec.Broadcast {
			a.Stride, a.Broadcast = spec.Stride, spec.Broadcast
		}
	}
	if o.global && a.Level != "" {
		l, found := levelNames[strings.ToLower(a.Level)]
		if !found {
			return where("level %q, want l1, l2 or dram", a.Level)
		}
		ci.level = l
	}
	switch {
	case a.Broadcast && a.Stride > 1:
		return where("broadcast and stride %d: give one of them", a.Stride)
	case a.Broadcast:
		ci.stride = 0
	case a.Stride > 1024 || a.Stride < 0:
		return where("stride %d, want 1 to 1024", a.Stride)
	case a.Stride > 1:
		ci.stride = int32(a.Stride)
	}
	return nil
}

// isPredOperand reports whether an operand is a predicate register used as
// a branch condition (P0, !P1, UP0, !UPT).
func isPredOperand(s string) bool {
	s = strings.TrimPrefix(s, "!")
	return strings.HasPrefix(s, "P") || strings.HasPrefix(s, "UP")
}

// conditional reports whether a control instruction depends on a
// predicate (its guard, a predicate operand, or .DIV's divergence test).
func conditional(in *sass.Inst) bool {
	switch in.Pred {
	case "", "PT":
	default:
		return true
	}
	if in.Has("DIV") {
		return true
	}
	for _, o := range in.Operands {
		if isPredOperand(o) && o != "PT" {
			return true
		}
	}
	return false
}

// control decides how every control instruction goes, checks that each
// loop a warp can reach has a trip count, and finds the reconvergence
// point of every divergent branch.
func (c *sassCompiler) control() error {
	f := c.f
	n := len(f.Insts)
	// Loop heads named in the kernel file and the backward branches.
	for i := range f.Insts {
		in := &f.Insts[i]
		ci := &c.code[i]
		if ci.act != actBranch && ci.act != actExit {
			continue
		}
		if in.Pred == "!PT" {
			ci.jump = jumpNever
			continue
		}
		switch {
		case ci.act == actExit:
			ci.jump = jumpAlways
			if conditional(in) {
				if err := c.conditional(i, ci, false); err != nil {
					return err
				}
			}
			continue
		case in.Op == "RET":
			ci.jump = jumpRet
			c.calls = true
			if conditional(in) {
				if err := c.conditional(i, ci, false); err != nil {
					return err
				}
				if ci.jump == jumpAlways {
					ci.jump = jumpRet
				}
			}
			continue
		}
		if in.Target < 0 && in.TargetLabel != "" {
			return c.listingErr(i, "%s: no label %s in function %s", in.Text, in.TargetLabel, f.Name)
		}
		t := f.Index(in.Target)
		if t < 0 {
			return c.listingErr(i, "%s: target %#x is not an instruction of %s (0x0000 to %#04x)", in.Text, in.Target, f.Name, 16*(n-1))
		}
		ci.target = int32(t)
		if in.Op == "CALL" {
			c.calls = true
			ci.jump = jumpCall
			if conditional(in) {
				if err := c.conditional(i, ci, false); err != nil {
					return err
				}
				if ci.jump == jumpAlways {
					ci.jump = jumpCall
				}
			}
			continue
		}
		if t > i {
			ci.jump = jumpAlways
			if conditional(in) {
				if err := c.conditional(i, ci, true); err != nil {
					return err
				}
			}
			continue
		}
		// A backward branch closes a loop whose head is its target.
		if _, key, ok := lookup(c, "branches", c.k.Branches, i); ok {
			return c.keyErr("branches", key, "%s at %s closes a loop: give its trip count under loops (by its head %s), not under branches", in.Text, addrKey(in.Addr), headName(f, t))
		}
		ci.jump = jumpAlways
		if conditional(in) {
			ci.jump = jumpTrips
		}
	}
	reach := c.reachable()
	for i := range c.code {
		ci := &c.code[i]
		if ci.act != actBranch || ci.target > int32(i) || (ci.jump != jumpTrips && ci.jump != jumpAlways) || !reach[i] {
			continue
		}
		in := &f.Insts[i]
		t := int(ci.target)
		trips, key, ok := lookup(c, "loops", c.k.Loops, t)
		if !ok {
			return c.listingErr(i, "%s closes a loop at %s (line %d) that has no trip count: add loops: {%s: N} to the kernel file",
				in.Text, headName(f, t), f.Insts[t].Line, headName(f, t))
		}
		if trips < 1 {
			return c.keyErr("loops", key, "trip count %d, want at least 1", trips)
		}
		if ci.jump == jumpTrips {
			ci.arg, ci.trip = int32(trips), int32(c.trips)
			c.trips++
			continue
		}
		// An unconditional backward branch: the loop ends at a conditional
		// branch inside it that jumps past it.
		exit := -1
		for j := t; j < i; j++ {
			cj := &c.code[j]
			if cj.act == actBranch && int(cj.target) > i && conditional(&f.Insts[j]) && f.Insts[j].Op == "BRA" {
				exit = j
				break
			}
		}
		if exit < 0 {
			return c.listingErr(i, "%s closes a loop at %s that no branch leaves: the warp would never finish", in.Text, headName(f, t))
		}
		ce := &c.code[exit]
		ce.jump, ce.arg, ce.trip = jumpExitAfter, int32(trips), int32(c.trips)
		c.trips++
	}
	reach = c.reachable()
	for i := range c.code {
		if !reach[i] {
			continue
		}
		ci := &c.code[i]
		if ci.act == actBranch && ci.jump == jumpAlways && int(ci.target) <= i {
			return c.listingErr(i, "%s loops forever: no trip count ends it", f.Insts[i].Text)
		}
		falls := !(ci.act == actExit && ci.jump == jumpAlways) && !(ci.act == actBranch && (ci.jump == jumpAlways || ci.jump == jumpCall || ci.jump == jumpRet))
		if i == n-1 && falls {
			return c.listingErr(i, "execution runs past the last instruction, %s", f.Insts[i].Text)
		}
	}
	if c.simt {
		return c.reconvergence()
	}
	return nil
}

// headName names a loop head for messages: its label, else its address.
func headName(f *sass.Function, t int) string {
	if f.Insts[t].Label != "" {
		return f.Insts[t].Label
	}
	return addrKey(f.Insts[t].Addr)
}

// conditional sets how a conditional instruction goes from the kernel's
// Branches (not taken when it is not listed).
func (c *sassCompiler) conditional(i int, ci *inst, divergeOK bool) error {
	b, key, ok := lookup(c, "branches", c.k.Branches, i)
	ci.jump = jumpNever
	if !ok {
		return nil
	}
	set := 0
	for _, on := range []bool{b.Taken, b.Lanes != "", b.Warps != ""} {
		if on {
			set++
		}
	}
	if set > 1 {
		return c.keyErr("branches", key, "give one of taken, lanes and warps")
	}
	if ci.act == actBranch && !divergeOK && (b.Lanes != "" || b.Warps != "") {
		return c.keyErr("branches", key, "%s: a CALL or RET takes taken: true or nothing; lanes and warps are for a forward BRA or an EXIT", c.f.Insts[i].Mnemonic())
	}
	switch {
	case b.Taken:
		ci.jump = jumpAlways
	case b.Lanes != "":
		m, err := parseSet(b.Lanes, 32)
		if err != nil {
			return c.keyErr("branches", key, "lanes %q: %v", b.Lanes, err)
		}
		ci.jump, ci.lanes = jumpLanes, m
		if ci.act == actBranch {
			c.simt = true
		}
	case b.Warps != "":
		m, err := parseSet(b.Warps, 32)
		if err != nil {
			return c.keyErr("branches", key, "warps %q: %v", b.Warps, err)
		}
		ci.jump, ci.warps, ci.byWarp = jumpWarps, m, true
	}
	return nil
}

// successors returns where instruction i can go next: to and including
// its branch target for a branch that can be taken (a CALL also to the
// instruction after it, where its RET comes back).
func (c *sassCompiler) successors(i int, out []int) []int {
	ci := &c.code[i]
	out = out[:0]
	next := i + 1
	switch {
	case ci.act == actExit:
		if ci.jump != jumpAlways {
			out = append(out, next)
		}
	case ci.act != actBranch:
		out = append(out, next)
	case ci.jump == jumpRet:
	case ci.jump == jumpNever:
		out = append(out, next)
	case ci.jump == jumpAlways:
		out = append(out, int(ci.target))
	case ci.jump == jumpCall:
		out = append(out, int(ci.target), next)
	default:
		out = append(out, int(ci.target), next)
	}
	return out
}

// reachable marks the instructions a warp can reach from the entry.
func (c *sassCompiler) reachable() []bool {
	n := len(c.code)
	seen := make([]bool, n)
	stack := []int{0}
	seen[0] = true
	var succ []int
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		succ = c.successors(i, succ)
		for _, s := range succ {
			if s >= 0 && s < n && !seen[s] {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}

// reconvergence sets, for each divergent branch, the index of its
// immediate post-dominator (where both paths meet), or -1 when the paths
// only meet at the exit.
func (c *sassCompiler) reconvergence() error {
	n := len(c.code)
	// Post-dominators on the instruction graph: dominators of the reverse
	// graph from a virtual exit node n (Cooper, Harvey and Kennedy's
	// iterative algorithm over a reverse postorder).
	preds := make([][]int, n+1) // in the reverse graph: successors in the program
	var succ []int
	for i := 0; i < n; i++ {
		succ = c.successors(i, succ)
		if len(succ) == 0 {
			preds[i] = append(preds[i], n)
			continue
		}
		for _, s := range succ {
			preds[i] = append(preds[i], min(s, n))
		}
	}
	// Reverse graph edges: from s to i when i → s in the program.
	rsucc := make([][]int, n+1)
	for i := 0; i < n; i++ {
		for _, s := range preds[i] {
			rsucc[s] = append(rsucc[s], i)
		}
	}
	order := make([]int, 0, n+1) // postorder of the reverse graph from n
	state := make([]uint8, n+1)
	type frame struct{ v, k int }
	st := []frame{{n, 0}}
	state[n] = 1
	for len(st) > 0 {
		top := &st[len(st)-1]
		if top.k < len(rsucc[top.v]) {
			w := rsucc[top.v][top.k]
			top.k++
			if state[w] == 0 {
				state[w] = 1
				st = append(st, frame{w, 0})
			}
			continue
		}
		order = append(order, top.v)
		st = st[:len(st)-1]
	}
	rpo := make([]int, n+1)
	for i := range rpo {
		rpo[i] = -1
	}
	for k, v := range order {
		rpo[v] = len(order) - 1 - k
	}
	idom := make([]int, n+1)
	for i := range idom {
		idom[i] = -1
	}
	idom[n] = n
	intersect := func(a, b int) int {
		for a != b {
			for rpo[a] > rpo[b] {
				a = idom[a]
			}
			for rpo[b] > rpo[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for k := len(order) - 1; k >= 0; k-- {
			v := order[k]
			if v == n {
				continue
			}
			nd := -1
			for _, p := range preds[v] { // p post-dominates... p is a successor of v
				if rpo[p] < 0 || idom[p] < 0 {
					continue
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd >= 0 && idom[v] != nd {
				idom[v] = nd
				changed = true
			}
		}
	}
	for i := range c.code {
		ci := &c.code[i]
		if ci.act != actBranch || ci.jump != jumpLanes {
			continue
		}
		r := idom[i]
		if r == n || r < 0 {
			ci.trip = -1
		} else {
			ci.trip = int32(r)
		}
	}
	return nil
}

// checkKeys reports a key of the kernel file that names no instruction of
// its kind.
func (c *sassCompiler) checkKeys() error {
	check := func(section string, keys iter.Seq[string], what string) error {
		for _, k := range slices.Sorted(keys) {
			if !c.used[section+"\x00"+k] {
				return c.keyErr(section, k, "%s names no %s of %s", k, what, c.f.Name)
			}
		}
		return nil
	}
	if err := check("loops", maps.Keys(c.k.Loops), "reachable loop head (the target of a backward branch)"); err != nil {
		return err
	}
	if err := check("branches", maps.Keys(c.k.Branches), "conditional branch, EXIT, CALL or RET"); err != nil {
		return err
	}
	return check("access", maps.Keys(c.k.Access), "memory instruction")
}

// bindSASS sets the machine-dependent latencies of a kernel's variable-
// latency results that have no pipe of their own: an MIO operation with no
// published latency (S2R, SHFL, the uniform datapath's S2UR) takes the
// shared-memory latency, an estimate.
func (p *compiled) bindSASS(m Machine) {
	for i := range p.code {
		in := &p.code[i]
		if in.act != actMath || in.lat > 0 {
			continue
		}
		op, _, _ := strings.Cut(in.op, ".")
		if o, _ := lookupOp(op); o.lat == latMIO {
			in.lat = int32(max(1, m.SharedLatency))
		}
	}
}
