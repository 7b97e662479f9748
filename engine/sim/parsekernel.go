package sim

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/warpbook/warpbook/engine/sass"
)

// archPresets maps a SASS architecture to the preset a kernel file that
// names no gpu runs on.
var archPresets = map[string]string{"sm_70": "volta", "sm_75": "turing", "sm_80": "ampere", "sm_90": "hopper", "sm_90a": "hopper"}

// PresetForArch returns the preset that runs SASS compiled for arch
// ("sm_80" → "ampere"), and false when no preset models that
// architecture.
func PresetForArch(arch string) (string, bool) {
	p, ok := archPresets[arch]
	return p, ok
}

// ParseKernel reads a kernel file (YAML): what a SASS listing cannot say
// about a run of one of its functions. name is used in errors
// ("name:line:col: ...") and as the workload's Name; l is the listing, and
// errors about its instructions are positioned in it. The format, every
// key but launch.block optional:
//
//	kernel: _Z5saxpyfPKfPfi   # the function (default: the listing's only one)
//	gpu: ampere               # preset (default: from the listing's sm_XX)
//	policy: gty               # as in a workload file
//	launch:
//	  block: 256              # threads per block
//	  blocks: 1080            # blocks in the grid (default 1)
//	  regs: 10                # registers per thread (default: cuobjdump -res-usage's REG)
//	  smem: 0                 # dynamic shared memory per block, bytes, added to the static
//	memory: {model: queue}    # as in a workload file
//	loops:                    # trip count of every reachable loop, by its head
//	  0x00a0: 100             #   (the target of the backward branch), or .L_x_3: 100
//	branches:                 # conditional forward branches, predicated EXIT/CALL/RET
//	  0x0050: {lanes: "16-31"}  # (default: not taken); or {taken: true}, {warps: "0"}
//	access:                   # memory instructions
//	  default: {level: l2}    # (default: dram for global, l1 for local, l2 for atomics)
//	  0x00a0: {level: dram, stride: 2}
//
// Registers per thread must come from the listing (cuobjdump -sass
// -res-usage) or from launch.regs, and a kernel that uses shared memory
// needs its static size from the listing or launch.smem: either missing is
// an error that says so.
func ParseKernel(name string, spec []byte, l *sass.Listing) (Workload, error) {
	p := newWParser(name, spec)
	root, err := p.document(spec, "empty kernel file; want a mapping with launch (and loops, branches, access as the kernel needs)")
	if err != nil {
		return Workload{}, err
	}
	kvs, err := p.mapping(root, "the kernel file", []string{"kernel", "gpu", "policy", "launch", "memory", "loops", "branches", "access"})
	if err != nil {
		return Workload{}, err
	}
	w := Workload{Name: name}
	k := &Kernel{Listing: l.File, pos: map[string]srcPos{}}
	var fname string
	var fnode, launchNode ast.Node
	var hasRegs, hasSmem bool
	for _, kv := range kvs {
		switch kv.key {
		case "kernel":
			if fname, err = p.str(kv.val, "kernel (a function name of the listing)"); err != nil {
				return w, err
			}
			fnode = kv.val
		case "launch":
			launchNode = kv.val
			if err := p.runKey(kv, &w); err != nil {
				return w, err
			}
			lk, _ := p.mapping(kv.val, "launch", []string{"block", "blocks", "regs", "smem", "resident"})
			for _, x := range lk {
				hasRegs = hasRegs || x.key == "regs"
				hasSmem = hasSmem || x.key == "smem"
			}
		case "gpu", "policy", "memory":
			if err := p.runKey(kv, &w); err != nil {
				return w, err
			}
		case "loops":
			if k.Loops, err = p.loops(kv.val, k.pos); err != nil {
				return w, err
			}
		case "branches":
			if k.Branches, err = p.branches(kv.val, k.pos); err != nil {
				return w, err
			}
		case "access":
			if k.Access, k.Default, err = p.accesses(kv.val, k.pos); err != nil {
				return w, err
			}
		}
	}
	f, ferr := l.Function(fname)
	if ferr != nil {
		if fnode != nil {
			return w, p.errAt(fnode, "%v", ferr)
		}
		return w, p.errAt(root, "%v: add kernel: NAME", ferr)
	}
	k.Func = f
	if w.GPU == "" {
		g, ok := PresetForArch(f.Arch)
		if !ok {
			names := slices.Sorted(maps.Keys(archPresets))
			return w, p.errAt(root, "no preset models %q (the architecture of %s); add gpu: a preset name (presets follow %s)", f.Arch, f.Name, strings.Join(names, ", "))
		}
		w.GPU = g
	}
	if launchNode == nil || w.Launch.Block == 0 {
		return w, p.errAt(root, "missing launch.block: want launch: {block: THREADS, blocks: BLOCKS}")
	}
	if f.Resources != nil {
		if !hasRegs {
			w.Launch.Regs = f.Resources.Regs
		}
		w.Launch.Smem += f.Resources.Shared
	} else {
		if !hasRegs {
			return w, p.errAt(launchNode, "missing launch.regs: the listing has no resource usage for %s (print it with cuobjdump -sass -res-usage) and occupancy needs the registers per thread", f.Name)
		}
		if !hasSmem && usesShared(f) {
			return w, p.errAt(launchNode, "missing launch.smem: %s uses shared memory and the listing has no resource usage (print it with cuobjdump -sass -res-usage)", f.Name)
		}
	}
	w.Kernel = k
	if _, err := compileSASS(k, name); err != nil {
		return w, err
	}
	return w, nil
}

// usesShared reports whether a function has shared-memory instructions.
func usesShared(f *sass.Function) bool {
	for i := range f.Insts {
		switch f.Insts[i].Op {
		case "LDS", "STS", "LDSM", "ATOMS", "LDGSTS":
			return true
		}
	}
	return false
}

// entries returns the pairs of a mapping whose keys are instruction names
// (addresses or labels), rejecting duplicates, and records their positions.
func (p *wparser) entries(n ast.Node, section string, pos map[string]srcPos) ([]keyVal, error) {
	n = unwrap(n)
	if _, ok := n.(*ast.NullNode); ok {
		return nil, nil
	}
	var vals []*ast.MappingValueNode
	switch m := n.(type) {
	case *ast.MappingNode:
		vals = m.Values
	case *ast.MappingValueNode:
		vals = []*ast.MappingValueNode{m}
	default:
		return nil, p.errAt(n, "%s: want a mapping from instruction addresses (0x00a0) or labels (.L_x_3), got %s", section, describe(n))
	}
	seen := map[string]bool{}
	var out []keyVal
	for _, mv := range vals {
		key, err := p.keyOf(mv, "kernel files")
		if err != nil {
			return nil, err
		}
		canon := key
		if a := keyAddr(key); a >= 0 {
			canon = addrKey(a)
		} else if key != "default" && !strings.HasPrefix(key, ".") {
			return nil, p.errAt(mv.Key, "%s: key %q is not an instruction address (0x00a0) or an nvdisasm label (.L_x_3)", section, key)
		}
		if seen[canon] {
			return nil, p.errAt(mv.Key, "%s: %s appears twice", section, key)
		}
		seen[canon] = true
		pos[section+"\x00"+canon] = p.posOf(mv.Key)
		out = append(out, keyVal{key: canon, keyN: mv.Key, val: mv.Value})
	}
	return out, nil
}

func (p *wparser) loops(n ast.Node, pos map[string]srcPos) (map[string]int, error) {
	kvs, err := p.entries(n, "loops", pos)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, kv := range kvs {
		if kv.key == "default" {
			return nil, p.errAt(kv.keyN, "loops: every loop needs its own trip count; name its head")
		}
		v, err := p.integer(kv.val, "loops."+kv.key+" (the trip count)", 1)
		if err != nil {
			return nil, err
		}
		out[kv.key] = v
	}
	return out, nil
}

func (p *wparser) branches(n ast.Node, pos map[string]srcPos) (map[string]Branch, error) {
	kvs, err := p.entries(n, "branches", pos)
	if err != nil {
		return nil, err
	}
	out := map[string]Branch{}
	for _, kv := range kvs {
		if kv.key == "default" {
			return nil, p.errAt(kv.keyN, "branches: name each branch by its address")
		}
		fields, err := p.mapping(kv.val, "branches."+kv.key, []string{"taken", "lanes", "warps"})
		if err != nil {
			return nil, err
		}
		var b Branch
		for _, f := range fields {
			switch f.key {
			case "taken":
				t, ok := unwrap(f.val).(*ast.BoolNode)
				if !ok {
					return nil, p.errAt(f.val, "taken: want true or false, got %s", describe(f.val))
				}
				b.Taken = t.Value
			case "lanes":
				if b.Lanes, err = p.str(f.val, "lanes (e.g. \"0-15\")"); err != nil {
					return nil, err
				}
				if _, perr := parseSet(b.Lanes, 32); perr != nil {
					return nil, p.errAt(f.val, "lanes %q: %v", b.Lanes, perr)
				}
			case "warps":
				if b.Warps, err = p.str(f.val, "warps (e.g. \"0\")"); err != nil {
					return nil, err
				}
				if _, perr := parseSet(b.Warps, 32); perr != nil {
					return nil, p.errAt(f.val, "warps %q: %v", b.Warps, perr)
				}
			}
		}
		out[kv.key] = b
	}
	return out, nil
}

func (p *wparser) accesses(n ast.Node, pos map[string]srcPos) (map[string]Access, Access, error) {
	var def Access
	kvs, err := p.entries(n, "access", pos)
	if err != nil {
		return nil, def, err
	}
	out := map[string]Access{}
	for _, kv := range kvs {
		fields, err := p.mapping(kv.val, "access."+kv.key, []string{"level", "stride", "broadcast"})
		if err != nil {
			return nil, def, err
		}
		var a Access
		for _, f := range fields {
			switch f.key {
			case "level":
				if a.Level, err = p.str(f.val, "level (l1, l2 or dram)"); err != nil {
					return nil, def, err
				}
				if _, ok := levelNames[strings.ToLower(a.Level)]; !ok {
					return nil, def, p.errAt(f.val, "level %q, want l1, l2 or dram", a.Level)
				}
			case "stride":
				if a.Stride, err = p.integer(f.val, "stride (elements between consecutive threads)", 1); err != nil {
					return nil, def, err
				}
				if a.Stride > 1024 {
					return nil, def, p.errAt(f.val, "stride %d, want 1 to 1024", a.Stride)
				}
			case "broadcast":
				b, ok := unwrap(f.val).(*ast.BoolNode)
				if !ok {
					return nil, def, p.errAt(f.val, "broadcast: want true or false, got %s", describe(f.val))
				}
				a.Broadcast = b.Value
			}
		}
		if a.Broadcast && a.Stride > 1 {
			return nil, def, p.errAt(kv.keyN, "broadcast and stride %d: give one of them", a.Stride)
		}
		if kv.key == "default" {
			def = a
			continue
		}
		out[kv.key] = a
	}
	return out, def, nil
}

// String describes a kernel for messages: its function and listing.
func (k *Kernel) String() string {
	if k == nil || k.Func == nil {
		return "kernel"
	}
	return fmt.Sprintf("%s (%s)", k.Func.Name, k.Listing)
}
