package sim

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// shape is a matrix multiply-accumulate shape m×n×k.
type shape struct{ m, n, k int }

// parseShape parses "m16n8k16": the shapes of mma.sync (m8n8k4, m16n8k8,
// m16n8k16) and of a warpgroup's HGMMA (m64nNk16, N a multiple of 8 from 8
// to 256).
func parseShape(s string) (shape, error) {
	var sh shape
	rest, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(s)), "m")
	var mS, nS, kS string
	if ok {
		mS, rest, ok = strings.Cut(rest, "n")
	}
	if ok {
		nS, kS, ok = strings.Cut(rest, "k")
	}
	var err1, err2, err3 error
	if ok {
		sh.m, err1 = strconv.Atoi(mS)
		sh.n, err2 = strconv.Atoi(nS)
		sh.k, err3 = strconv.Atoi(kS)
	}
	if !ok || err1 != nil || err2 != nil || err3 != nil {
		return shape{}, fmt.Errorf("%q is not a shape such as m16n8k16", s)
	}
	switch {
	case sh == shape{8, 8, 4}, sh == shape{16, 8, 8}, sh == shape{16, 8, 16}:
	case sh.m == 64 && sh.k == 16 && sh.n >= 8 && sh.n <= 256 && sh.n%8 == 0:
	default:
		return shape{}, fmt.Errorf("shape %q, want m8n8k4, m16n8k8, m16n8k16 or (HGMMA) m64nNk16 with N a multiple of 8 up to 256", s)
	}
	return sh, nil
}

// fma returns the multiply-adds one warp does for the shape: an mma.sync
// m8n8k4 computes four 8×8×4 products (one per quad pair), a warpgroup's
// m64nNk16 is shared by its four warps.
func (sh shape) fma() int {
	switch {
	case sh == shape{8, 8, 4}:
		return 4 * 8 * 8 * 4
	case sh.m == 64:
		return 16 * sh.n * sh.k
	}
	return sh.m * sh.n * sh.k
}

// defaultHGMMA is the shape of an HGMMA that names none.
const defaultHGMMA = "m64n128k16"

// bind fills in the compiled program's machine-dependent timings for m:
// latencies and intervals that differ from their pipe's, wavefronts and
// sectors of memory instructions, the cycles width adds. It reports an
// instruction m cannot run at its position in file.
func (p *compiled) bind(m Machine, file string) error {
	for i := range p.code {
		in := &p.code[i]
		switch {
		case in.need == needAsyncCopy && !m.AsyncCopy:
			return p.machineError(in, file, "%s needs asynchronous copies (cp.async, compute capability 8.0 and later); %s has none", in.op, m.Name)
		case in.need == needTMA && !m.TMA:
			return p.machineError(in, file, "%s needs the tensor memory accelerator and mbarriers (compute capability 9.0); %s has none", in.op, m.Name)
		case in.need == needAsyncMMA && !m.AsyncMMA:
			return p.machineError(in, file, "%s needs warpgroup MMA (compute capability 9.0); %s has none", in.op, m.Name)
		case (in.need == needCluster || in.level == levelDSMEM) && m.MaxCluster == 0:
			return p.machineError(in, file, "%s needs thread block clusters and distributed shared memory (compute capability 9.0); %s has none", in.op, m.Name)
		}
		if in.act == actAsyncCopy || in.act == actWaitGroup || in.act == actCommit || in.act == actGMMA {
			p.async = true
		}
		switch in.op {
		case "IMAD":
			in.lat, in.ivl = int32(m.IMAD.Latency), int32(m.IMAD.Interval)
		case "DADD", "DMUL":
			in.lat = int32(m.DADDLatency)
		case "FFMA", "FADD", "FMUL":
			in.alt = true
		}
		if in.pipe == pipeTensor {
			if err := p.bindTensor(in, m, file); err != nil {
				return err
			}
		}
		switch in.act {
		case actShared:
			in.waves = int32(wavefronts(int(in.width), int(in.stride)))
			if !in.store {
				in.extra = int32(writeback(int(in.width), m.SharedWriteback))
			}
			if m.QueueModel {
				// A conflict's extra passes come before the last data:
				// each one the banks take beyond a contiguous access of
				// the same width delays the access by a pass's latency.
				pass := m.ConflictPassLatency
				if pass == 0 {
					pass = m.MIOInterval
				}
				in.replays = max(0, in.waves-int32(wavefronts(int(in.width), 1)))
				in.extra += in.replays * int32(pass)
			}
		case actGlobal:
			in.waves = int32(sectors(int(in.width), int(in.stride)))
			if !in.store {
				in.extra = int32(writeback(int(in.width), m.LoadWriteback))
			}
		case actAsyncCopy:
			in.waves = int32(sectors(int(in.width), int(in.stride)))
			in.extra = int32(m.AsyncCopyExtra)
		case actBulkCopy:
			in.waves = in.arg / 32
		}
	}
	return nil
}

// bindTensor sets an HMMA's or HGMMA's interval and latency for its shape.
func (p *compiled) bindTensor(in *inst, m Machine, file string) error {
	name := in.shape
	if name == "" {
		name = m.TensorShape
		if in.act == actGMMA {
			name = defaultHGMMA
		}
	}
	if name == "" || m.TensorFMA == 0 {
		return nil // the Tensor pipe as it is
	}
	sh, err := parseShape(name)
	if err != nil {
		return p.machineError(in, file, "%v", err)
	}
	ivl := ceilDiv(sh.fma(), m.TensorFMA)
	base := m.Tensor.Interval
	if def, err := parseShape(m.TensorShape); err == nil {
		base = ceilDiv(def.fma(), m.TensorFMA)
	}
	in.ivl = int32(ivl)
	if in.act == actGMMA {
		if m.GMMALatency == 0 {
			// A warpgroup MMA is ready when the tensor pipe is done
			// with its tile, and no sooner than the pipe's latency.
			in.lat = int32(max(m.Tensor.Latency, ivl))
			return nil
		}
		// It takes the longer of its tile's time on the tensor pipe
		// and the time to read its operands from shared memory (A
		// 64×16 halves unless it is in registers, B N×16 halves) at
		// the banks' 128 bytes a cycle, and at least GMMALatency; it
		// holds the pipe that long (Luo et al., Table X: below N = 64
		// an HGMMA takes its latency on the pipe).
		bytes := 2 * 16 * sh.n
		if !in.rs {
			bytes += 2 * 64 * 16
		}
		fetch := ceilDiv(bytes, 128/max(1, m.MIOInterval))
		t := max(m.GMMALatency, ivl, fetch)
		in.lat, in.ivl = int32(t), int32(t)
		return nil
	}
	// The pipe's latency is its default shape's; a longer shape adds the
	// cycles it holds the pipe longer.
	in.lat = int32(max(1, m.Tensor.Latency+ivl-base))
	return nil
}

func (p *compiled) machineError(in *inst, file, format string, args ...any) error {
	return &Error{File: file, Line: int(in.pos.line), Col: int(in.pos.col), Msg: fmt.Sprintf(format, args...)}
}

// writeback returns the cycles a load of width bytes per thread waits
// beyond a 4-byte one when its data moves into registers at bytes per
// cycle (0: never).
func writeback(width, bytes int) int {
	if bytes == 0 {
		return 0
	}
	return max(0, ceilDiv(32*width, bytes)-ceilDiv(128, bytes))
}

// sectors returns the 32-byte sectors a warp's access touches when thread
// t reads width bytes at byte t·stride·width.
func sectors(width, stride int) int {
	var seen [64]int
	n := 0
	for t := 0; t < 32; t++ {
		a := t * stride * width
		for _, sec := range [2]int{a / 32, (a + width - 1) / 32} {
			if !slices.Contains(seen[:n], sec) {
				seen[n] = sec
				n++
			}
		}
	}
	return n
}

// wavefronts returns the passes over the 32 four-byte banks of shared
// memory a warp's access takes when thread t accesses width bytes at byte
// t·stride·width: the threads are served in phases of 128 bytes (32
// threads of 4 bytes, 16 of 8, 8 of 16), and within a phase a bank that
// holds k distinct words takes k passes (a k-way conflict); threads that
// read the same word share it, and a broadcast (stride 0) takes one pass.
func wavefronts(width, stride int) int {
	if stride == 0 {
		return 1 // a broadcast: every thread reads the same bytes
	}
	words := max(1, width/4)
	perPhase := 32 / words
	total := 0
	for p := 0; p < 32; p += perPhase {
		var ws [128]int
		n := 0
		for t := p; t < p+perPhase; t++ {
			base := t * stride * width / 4
			for k := 0; k < words; k++ {
				if !slices.Contains(ws[:n], base+k) {
					ws[n] = base + k
					n++
				}
			}
		}
		var banks [32]int
		ways := 1
		for _, word := range ws[:n] {
			b := word % 32
			banks[b]++
			ways = max(ways, banks[b])
		}
		total += ways
	}
	return total
}
