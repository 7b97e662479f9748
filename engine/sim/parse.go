package sim

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// ParseWorkload reads a workload file (YAML). name is used in error
// messages ("name:line:col: ...", columns in bytes) and as the workload's
// Name. The format:
//
//	gpu: toy              # preset name
//	policy: gty           # lrr | gto | gty | oldest | two_level:4 (default: the preset's)
//	launch:
//	  block: 128          # threads per block
//	  blocks: 1           # blocks in the grid
//	  regs: 32            # registers per thread (for occupancy)
//	  smem: 0             # shared memory per block, bytes
//	  resident: 0         # optional cap on resident blocks per SM
//	  cluster: 2          # optional thread block cluster size (Hopper)
//	memory:               # optional
//	  model: queue        # latency | queue (default: the preset's)
//	  lg_queue: 32
//	  mem_queue: 5
//	  dram_bytes_per_cycle: 8
//	program:
//	  - loop: 100
//	    body:
//	      - {op: FFMA, dst: r0, src: [r0, r1], ilp: 2}
//	      - {op: LDG, dst: r2, src: [r3], level: dram, width: 16, stride: 2}
//	      - {op: LDGSTS, src: [r3]}    # cp.async; then {op: LDGDEPBAR}, {op: DEPBAR, groups: 1}
//	      - {op: UTMALDG, src: [r3], bytes: 16384, bar: full0}
//	      - {op: SYNCS, bar: full0}
//	      - {op: MBARINIT, bar: empty0, arrivals: 4}   # then {op: ARRIVE, bar: empty0}
//	      - {op: BAR, barrier: 1, threads: 256}        # named barrier; {op: BAR.ARV, ...} arrives only
//	      - {op: LDS, dst: r4, src: [r5], level: dsmem}  # another block of the cluster
//	      - {op: BAR.CLUSTER}
//	      - {op: HGMMA, dst: acc, src: [acc], shape: m64n128k16, operands: rs}
//	      - {op: WARPGROUP.DEPBAR, groups: 0}
//	      - {op: BRA, lanes: "0-15", then: [...], else: [...]}
//	      - {op: BRA, warps: "0", then: [...]}
//	      - {op: NANOSLEEP, cycles: 100}
//	      - {op: BAR}
//	  - {op: EXIT}
func ParseWorkload(name string, data []byte) (Workload, error) {
	p := newWParser(name, data)
	w, err := p.workload(data)
	if err != nil {
		return Workload{}, err
	}
	w.Name = name
	// Check the program now so that its errors carry file:line.
	if _, err := compile(w.Program, name); err != nil {
		return Workload{}, err
	}
	if !issues(w.Program) {
		return Workload{}, p.errAt(p.programKey, "program issues no instruction; want at least one instruction")
	}
	return w, nil
}

// ParseProgram reads a program alone: the YAML list of instructions, loops
// and branches that follows program: in a workload file (see
// [ParseWorkload]), written at the left margin:
//
//   - loop: 100
//     body:
//   - {op: FFMA, dst: r0, src: [r0, r1]}
//   - {op: EXIT}
//
// file names src in error messages. Errors are [*Error] values whose Line
// and Col (a byte column) are positions in src, so a caller that took src
// out of a larger file can move them onto that file. The program is
// checked as [Run] would check it; one that issues no instruction is an
// error.
func ParseProgram(file string, src []byte) (*Program, error) {
	p := newWParser(file, src)
	root, err := p.document(src, "empty program; want a list of instructions, loops and branches")
	if err != nil {
		return nil, err
	}
	prog, err := p.program(root, "program")
	if err != nil {
		return nil, err
	}
	if _, err := compile(prog, file); err != nil {
		return nil, err
	}
	if !issues(prog) {
		return nil, p.errAt(root, "program issues no instruction; want at least one instruction")
	}
	return prog, nil
}

type wparser struct {
	file       string
	lines      [][]byte // src split after each newline, for byte columns
	programKey ast.Node // the program: key, for errors about the whole program
}

func newWParser(file string, src []byte) *wparser {
	return &wparser{file: file, lines: bytes.SplitAfter(src, []byte("\n"))}
}

// pos returns the line and byte column of a token. goccy/go-yaml counts
// columns in characters (runes); errors count bytes, as go/token does.
func (p *wparser) pos(tk *token.Token) (line, col int) {
	if tk == nil || tk.Position == nil {
		return 0, 0
	}
	line, col = tk.Position.Line, tk.Position.Column
	if line < 1 || line > len(p.lines) || col < 1 {
		return line, col
	}
	text, b := p.lines[line-1], 0
	for r := 1; r < col && b < len(text); r++ {
		_, size := utf8.DecodeRune(text[b:])
		b += size
	}
	return line, b + 1
}

func (p *wparser) errAt(n ast.Node, format string, args ...any) error {
	// A mapping is reported at its first key.
	switch m := unwrap(n).(type) {
	case *ast.MappingNode:
		if len(m.Values) > 0 {
			n = m.Values[0].Key
		}
	case *ast.MappingValueNode:
		n = m.Key
	}
	e := &Error{File: p.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = p.pos(n.GetToken())
	}
	return e
}

// document parses src as one YAML document and returns its body; empty
// is the message for a document with none.
func (p *wparser) document(src []byte, empty string) (ast.Node, error) {
	f, err := p.parseYAML(src)
	if err != nil {
		var se *yaml.SyntaxError
		var le *Error
		if errors.As(err, &le) {
			return nil, le
		}
		if errors.As(err, &se) {
			e := &Error{File: p.file, Msg: "YAML syntax: " + se.Message}
			e.Line, e.Col = p.pos(se.Token)
			return nil, e
		}
		return nil, &Error{File: p.file, Msg: "YAML: " + err.Error()}
	}
	var docs []ast.Node
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			docs = append(docs, d.Body)
		}
	}
	if len(docs) == 0 {
		return nil, &Error{File: p.file, Msg: empty}
	}
	if len(docs) > 1 {
		return nil, p.errAt(docs[1], "more than one YAML document; want one per file")
	}
	return docs[0], nil
}

func (p *wparser) workload(data []byte) (Workload, error) {
	root, err := p.document(data, "empty workload; want a mapping with gpu, policy, launch and program")
	if err != nil {
		return Workload{}, err
	}
	kvs, err := p.mapping(root, "the workload", []string{"name", "gpu", "policy", "launch", "memory", "program"})
	if err != nil {
		return Workload{}, err
	}
	var w Workload
	var prog ast.Node
	for _, kv := range kvs {
		switch kv.key {
		case "name":
			// ignored: the file name names the workload
			if _, err := p.str(kv.val, "name"); err != nil {
				return w, err
			}
		case "program":
			prog, p.programKey = kv.val, kv.keyN
		default:
			if err := p.runKey(kv, &w); err != nil {
				return w, err
			}
		}
	}
	if prog == nil {
		return w, p.errAt(root, "missing program: want a list of instructions, loops and branches")
	}
	if w.Launch.Block == 0 {
		return w, p.errAt(root, "missing launch.block: want the threads per block")
	}
	if w.Program, err = p.program(prog, "program"); err != nil {
		return w, err
	}
	return w, nil
}

// runKey reads a key that workload and kernel files share: gpu, policy,
// launch or memory.
func (p *wparser) runKey(kv keyVal, w *Workload) error {
	var err error
	switch kv.key {
	case "gpu":
		if w.GPU, err = p.str(kv.val, "gpu (a preset name such as toy or volta)"); err != nil {
			return err
		}
		if _, perr := Preset(w.GPU); perr != nil {
			return p.errAt(kv.val, "%v", perr)
		}
	case "policy":
		if w.Policy, err = p.str(kv.val, "policy (lrr, gto, gty, oldest or two_level:N)"); err != nil {
			return err
		}
		if _, _, perr := parsePolicy(w.Policy); perr != nil {
			return p.errAt(kv.val, "%v", perr)
		}
	case "launch":
		w.Launch, err = p.launch(kv.val)
	case "memory":
		w.Memory, err = p.memory(kv.val)
	}
	return err
}

type keyVal struct {
	key  string
	keyN ast.Node
	val  ast.Node
}

// mapping returns the key/value pairs of a mapping node, checking the keys
// against allowed and rejecting duplicates.
func (p *wparser) mapping(n ast.Node, what string, allowed []string) ([]keyVal, error) {
	n = unwrap(n)
	var vals []*ast.MappingValueNode
	switch m := n.(type) {
	case *ast.MappingNode:
		vals = m.Values
	case *ast.MappingValueNode:
		vals = []*ast.MappingValueNode{m}
	case *ast.AliasNode:
		return nil, p.errAt(n, "aliases are not supported in workload files")
	default:
		return nil, p.errAt(n, "%s: want a mapping with keys %s, got %s", what, strings.Join(allowed, ", "), describe(n))
	}
	seen := map[string]bool{}
	out := make([]keyVal, 0, len(vals))
	for _, mv := range vals {
		key, err := p.keyOf(mv, "workload files")
		if err != nil {
			return nil, err
		}
		if !slices.Contains(allowed, key) {
			return nil, p.errAt(mv.Key, "unknown key %q in %s (want %s)", key, what, strings.Join(allowed, ", "))
		}
		if seen[key] {
			return nil, p.errAt(mv.Key, "duplicate key %q in %s", key, what)
		}
		seen[key] = true
		out = append(out, keyVal{key: key, keyN: mv.Key, val: mv.Value})
	}
	return out, nil
}

// keyOf returns the key of a pair as written; a merge key (<<) is an
// error (in files of the kind named).
func (p *wparser) keyOf(mv *ast.MappingValueNode, files string) (string, error) {
	if _, ok := mv.Key.(*ast.MergeKeyNode); ok {
		return "", p.errAt(mv.Key, "merge keys (<<) are not supported in %s", files)
	}
	if s, ok := unwrap(mv.Key).(*ast.StringNode); ok {
		return s.Value, nil
	}
	return strings.TrimSpace(mv.Key.GetToken().Value), nil
}

func unwrap(n ast.Node) ast.Node {
	for {
		switch t := n.(type) {
		case *ast.AnchorNode:
			n = t.Value
		case *ast.TagNode:
			n = t.Value
		default:
			return n
		}
	}
}

func describe(n ast.Node) string {
	switch t := unwrap(n).(type) {
	case nil:
		return "nothing"
	case *ast.NullNode:
		return "null"
	case *ast.StringNode:
		return fmt.Sprintf("the string %q", t.Value)
	case *ast.IntegerNode:
		return "the number " + t.GetToken().Value
	case *ast.FloatNode:
		return "the number " + t.GetToken().Value
	case *ast.BoolNode:
		return "the boolean " + t.GetToken().Value
	case *ast.SequenceNode:
		return "a list"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.LiteralNode:
		return "a block of text"
	case *ast.AliasNode:
		return "an alias (aliases are not supported in workload files)"
	}
	return "a " + n.Type().String()
}

func (p *wparser) str(n ast.Node, what string) (string, error) {
	switch t := unwrap(n).(type) {
	case *ast.StringNode:
		return t.Value, nil
	case *ast.IntegerNode, *ast.FloatNode:
		return t.GetToken().Value, nil
	}
	return "", p.errAt(n, "%s: want a string, got %s", what, describe(n))
}

func (p *wparser) integer(n ast.Node, what string, min int) (int, error) {
	t, ok := unwrap(n).(*ast.IntegerNode)
	if !ok {
		return 0, p.errAt(n, "%s: want an integer, got %s", what, describe(n))
	}
	var v int64
	switch x := t.Value.(type) {
	case int64:
		v = x
	case uint64:
		if x > math.MaxInt32 {
			return 0, p.errAt(n, "%s: %d is too large", what, x)
		}
		v = int64(x)
	}
	if v > math.MaxInt32 {
		return 0, p.errAt(n, "%s: %d is too large", what, v)
	}
	if v < int64(min) {
		return 0, p.errAt(n, "%s: %d, want at least %d", what, v, min)
	}
	return int(v), nil
}

func (p *wparser) number(n ast.Node, what string) (float64, error) {
	switch t := unwrap(n).(type) {
	case *ast.IntegerNode:
		v, err := strconv.ParseFloat(t.GetToken().Value, 64)
		if err == nil && v >= 0 {
			return v, nil
		}
	case *ast.FloatNode:
		if t.Value >= 0 {
			return t.Value, nil
		}
	}
	return 0, p.errAt(n, "%s: want a number of at least 0, got %s", what, describe(n))
}

func (p *wparser) launch(n ast.Node) (Launch, error) {
	var l Launch
	kvs, err := p.mapping(n, "launch", []string{"block", "blocks", "regs", "smem", "resident", "cluster"})
	if err != nil {
		return l, err
	}
	for _, kv := range kvs {
		switch kv.key {
		case "block":
			l.Block, err = p.integer(kv.val, "launch.block (threads per block)", 1)
		case "blocks":
			l.Blocks, err = p.integer(kv.val, "launch.blocks (blocks in the grid)", 1)
		case "regs":
			l.Regs, err = p.integer(kv.val, "launch.regs (registers per thread)", 0)
		case "smem":
			l.Smem, err = p.integer(kv.val, "launch.smem (shared memory per block, bytes)", 0)
		case "resident":
			l.Resident, err = p.integer(kv.val, "launch.resident (resident blocks per SM)", 0)
		case "cluster":
			l.Cluster, err = p.integer(kv.val, "launch.cluster (blocks per thread block cluster)", 0)
		}
		if err != nil {
			return l, err
		}
	}
	l.Blocks = cmp.Or(l.Blocks, 1)
	return l, nil
}

func (p *wparser) memory(n ast.Node) (Memory, error) {
	var m Memory
	kvs, err := p.mapping(n, "memory", []string{"model", "lg_queue", "mem_queue", "dram_bytes_per_cycle"})
	if err != nil {
		return m, err
	}
	for _, kv := range kvs {
		switch kv.key {
		case "model":
			m.Model, err = p.str(kv.val, "memory.model")
			if err == nil && m.Model != "latency" && m.Model != "queue" {
				err = p.errAt(kv.val, "memory.model %q, want latency or queue", m.Model)
			}
		case "lg_queue":
			m.LGQueue, err = p.integer(kv.val, "memory.lg_queue (in-flight global/local requests per SM)", 1)
		case "mem_queue":
			m.MemQueue, err = p.integer(kv.val, "memory.mem_queue (memory instructions each sub-partition buffers)", 1)
		case "dram_bytes_per_cycle":
			m.DRAMBytesPerCycle, err = p.number(kv.val, "memory.dram_bytes_per_cycle")
		}
		if err != nil {
			return m, err
		}
	}
	return m, nil
}

func (p *wparser) program(n ast.Node, what string) (*Program, error) {
	prog := NewProgram()
	if _, ok := unwrap(n).(*ast.NullNode); ok {
		return prog, nil
	}
	if _, ok := unwrap(n).(*ast.AliasNode); ok {
		return nil, p.errAt(n, "aliases are not supported in workload files")
	}
	seq, ok := unwrap(n).(*ast.SequenceNode)
	if !ok {
		return nil, p.errAt(n, "%s: want a list of instructions, loops and branches, got %s", what, describe(n))
	}
	for _, item := range seq.Values {
		st, err := p.statement(item)
		if err != nil {
			return nil, err
		}
		prog.stmts = append(prog.stmts, st)
	}
	return prog, nil
}

func (p *wparser) posOf(n ast.Node) srcPos {
	line, col := p.pos(n.GetToken())
	return srcPos{line: int32(line), col: int32(col)}
}

var instKeys = []string{"op", "dst", "src", "level", "width", "stride", "broadcast", "ilp", "cycles", "shape", "groups", "bytes", "bar", "arrivals", "barrier", "threads", "operands", "lanes", "warps", "then", "else", "loop", "body"}

func (p *wparser) statement(n ast.Node) (stmt, error) {
	kvs, err := p.mapping(n, "a program item", instKeys)
	if err != nil {
		if _, ok := unwrap(n).(*ast.StringNode); ok {
			return stmt{}, p.errAt(n, "program item %s: want a mapping such as {op: FFMA, dst: r0, src: [r0, r1]} or {loop: 10, body: [...]}", describe(n))
		}
		return stmt{}, err
	}
	// The position of an item is that of its first key.
	pos := p.posOf(n)
	if len(kvs) > 0 {
		pos = p.posOf(kvs[0].keyN)
	}
	has := map[string]keyVal{}
	for _, kv := range kvs {
		has[kv.key] = kv
	}
	only := func(kind string, allowed ...string) error {
		for _, kv := range kvs {
			if !slices.Contains(allowed, kv.key) {
				return p.errAt(kv.keyN, "key %q does not belong in %s (want %s)", kv.key, kind, strings.Join(allowed, ", "))
			}
		}
		return nil
	}
	if lp, ok := has["loop"]; ok {
		if err := only("a loop", "loop", "body"); err != nil {
			return stmt{}, err
		}
		count, err := p.integer(lp.val, "loop (the trip count)", 0)
		if err != nil {
			return stmt{}, err
		}
		bodyKV, ok := has["body"]
		if !ok {
			return stmt{}, p.errAt(lp.keyN, "loop needs a body: a list of instructions")
		}
		body, err := p.program(bodyKV.val, "loop body")
		if err != nil {
			return stmt{}, err
		}
		if count > 0 && !issues(body) {
			return stmt{}, p.errAt(bodyKV.keyN, "loop body issues no instruction; want at least one instruction")
		}
		return stmt{kind: stmtLoop, count: count, body: body, pos: pos}, nil
	}
	if _, ok := has["body"]; ok {
		return stmt{}, p.errAt(has["body"].keyN, "body belongs to a loop; add loop: N")
	}
	opKV, ok := has["op"]
	if !ok {
		return stmt{}, p.errAt(n, "program item has no op or loop: want e.g. {op: FFMA, dst: r0, src: [r0, r1]} or {loop: 10, body: [...]}")
	}
	op, err := p.str(opKV.val, "op")
	if err != nil {
		return stmt{}, err
	}
	op = strings.ToUpper(strings.TrimSpace(op))
	if op == "BRA" {
		if err := only("a branch", "op", "lanes", "warps", "then", "else"); err != nil {
			return stmt{}, err
		}
		st := stmt{kind: stmtBranch, pos: pos}
		if kv, ok := has["lanes"]; ok {
			if st.lanes, err = p.str(kv.val, "lanes (e.g. \"0-15\")"); err != nil {
				return stmt{}, err
			}
			if _, perr := parseSet(st.lanes, 32); perr != nil {
				return stmt{}, p.errAt(kv.val, "lanes %q: %v", st.lanes, perr)
			}
		}
		if kv, ok := has["warps"]; ok {
			if st.warps, err = p.str(kv.val, "warps (e.g. \"0-3\")"); err != nil {
				return stmt{}, err
			}
			if _, perr := parseSet(st.warps, 32); perr != nil {
				return stmt{}, p.errAt(kv.val, "warps %q: %v", st.warps, perr)
			}
		}
		if st.lanes == "" && st.warps == "" {
			return stmt{}, p.errAt(opKV.keyN, "BRA needs lanes (e.g. lanes: \"0-15\") or warps (e.g. warps: \"0\")")
		}
		if st.lanes != "" && st.warps != "" {
			return stmt{}, p.errAt(has["warps"].keyN, "BRA takes lanes or warps, not both")
		}
		_, hasThen := has["then"]
		_, hasElse := has["else"]
		if !hasThen && !hasElse {
			return stmt{}, p.errAt(opKV.keyN, "BRA needs then: and/or else: paths (lists of instructions)")
		}
		if hasThen {
			if st.then, err = p.program(has["then"].val, "then"); err != nil {
				return stmt{}, err
			}
		}
		if hasElse {
			if st.els, err = p.program(has["else"].val, "else"); err != nil {
				return stmt{}, err
			}
		}
		return st, nil
	}
	if err := only("an instruction", "op", "dst", "src", "level", "width", "stride", "broadcast", "ilp", "cycles", "shape", "groups", "bytes", "bar", "arrivals", "barrier", "threads", "operands"); err != nil {
		return stmt{}, err
	}
	in := Inst{Op: op}
	if _, ok := ops[op]; !ok {
		return stmt{}, p.errAt(opKV.val, "unknown op %q (want one of %s)", op, strings.Join(Ops(), ", "))
	}
	if kv, ok := has["dst"]; ok {
		if in.Dst, err = p.str(kv.val, "dst (a register such as r0)"); err != nil {
			return stmt{}, err
		}
	}
	if kv, ok := has["src"]; ok {
		switch t := unwrap(kv.val).(type) {
		case *ast.SequenceNode:
			for _, v := range t.Values {
				s, err := p.str(v, "src (registers such as [r0, r1])")
				if err != nil {
					return stmt{}, err
				}
				in.Src = append(in.Src, s)
			}
		default:
			s, err := p.str(kv.val, "src (registers such as [r0, r1])")
			if err != nil {
				return stmt{}, err
			}
			in.Src = []string{s}
		}
	}
	// The instruction's other fields, each read if present, in this order.
	for _, f := range []struct {
		key, what string
		str       *string // a string field, or
		num       *int    // a whole number of at least min, or
		min       int
		flag      *bool // true or false
	}{
		{key: "level", what: "level (l1, l2 or dram)", str: &in.Level},
		{key: "width", what: "width (bytes per thread)", num: &in.Width, min: 1},
		{key: "ilp", what: "ilp (independent copies)", num: &in.ILP, min: 1},
		{key: "cycles", what: "cycles (NANOSLEEP duration)", num: &in.Cycles},
		{key: "stride", what: "stride (elements between consecutive threads)", num: &in.Stride, min: 1},
		{key: "broadcast", flag: &in.Broadcast},
		{key: "groups", what: "groups (committed groups left in flight)", num: &in.Groups},
		{key: "bytes", what: "bytes (size of the bulk copy)", num: &in.Bytes, min: 1},
		{key: "shape", what: "shape (e.g. m16n8k16)", str: &in.Shape},
		{key: "bar", what: "bar (an mbarrier name such as full0)", str: &in.Bar},
		{key: "arrivals", what: "arrivals (per phase of the mbarrier)", num: &in.Arrivals, min: 1},
		{key: "barrier", what: "barrier (a named barrier, 0 to 15)", num: &in.Barrier},
		{key: "threads", what: "threads (that the named barrier waits for)", num: &in.Threads, min: 32},
		{key: "operands", what: "operands (ss or rs)", str: &in.Operands},
	} {
		kv, ok := has[f.key]
		var err error
		switch {
		case !ok:
		case f.str != nil:
			*f.str, err = p.str(kv.val, f.what)
		case f.num != nil:
			*f.num, err = p.integer(kv.val, f.what, f.min)
		default:
			b, isBool := unwrap(kv.val).(*ast.BoolNode)
			if !isBool {
				return stmt{}, p.errAt(kv.val, "%s: want true or false, got %s", f.key, describe(kv.val))
			}
			*f.flag = b.Value
		}
		if err != nil {
			return stmt{}, err
		}
	}
	return stmt{kind: stmtInst, inst: in, pos: pos}, nil
}
