package sim

import (
	"cmp"
	"strings"
	"testing"
)

// issueCycles runs w on m with a trace and returns, per warp of the
// first block, the cycles at which it issued op.
func issueCycles(t *testing.T, m Machine, w Workload, op string) map[int][]int {
	t.Helper()
	m.SMs = 1
	w.Launch.Blocks = cmp.Or(w.Launch.Blocks, 1)
	r := runWith(t, Config{Machine: &m, Trace: Window{From: 0, To: 200000}}, w)
	out := map[int][]int{}
	for _, is := range r.Trace.Issues {
		if is.Op == op && is.Block == 0 {
			out[is.Warp] = append(out[is.Warp], is.Cycle)
		}
	}
	return out
}

// TestWarpStartInterval: new warps start one at a time across the SM,
// WarpStartInterval cycles apart, the sub-partitions taking turns.
func TestWarpStartInterval(t *testing.T) {
	m := Toy()
	m.Schedulers, m.WarpStartInterval = 2, 3
	first := issueCycles(t, m, Workload{Name: "start", Policy: "gto", Launch: Launch{Block: 128}, Program: NewProgram().Op("MOV", "r0", "r1").Op("MOV", "r2", "r3")}, "MOV")
	// gto starts the oldest first: warps 0 (sub-partition 0), 1 (1),
	// 2 (0), 3 (1), three cycles apart.
	for w := 0; w < 4; w++ {
		if got := first[w][0]; got != 3*w {
			t.Errorf("warp %d first issued at cycle %d, want %d", w, got, 3*w)
		}
	}
	m.WarpStartInterval = 0
	first = issueCycles(t, m, Workload{Name: "free", Policy: "gto", Launch: Launch{Block: 128}, Program: NewProgram().Op("MOV", "r0", "r1").Op("MOV", "r2", "r3")}, "MOV")
	if first[1][0] != 0 {
		t.Errorf("without WarpStartInterval warp 1 first issued at %d, want 0 (its own sub-partition)", first[1][0])
	}
}

// TestNamedBarrier: BAR waits until its Threads have arrived, BAR.ARV
// arrives without waiting, and a named barrier's count ignores warps
// elsewhere.
func TestNamedBarrier(t *testing.T) {
	// Warp 0 sleeps, then arrives at barrier 1 without waiting; warp 1
	// waits there for 64 threads; warp 2 never comes.
	p := NewProgram().
		BranchWarps("0", NewProgram().NANOSLEEP(200).Add(Inst{Op: "BAR.ARV", Barrier: 1, Threads: 64}).Op("MOV", "r0", "r1"), nil).
		BranchWarps("1", NewProgram().Add(Inst{Op: "BAR", Barrier: 1, Threads: 64}).Op("MOV", "r2", "r3"), nil)
	mov := issueCycles(t, Toy(), Workload{Name: "named", Launch: Launch{Block: 96}, Program: p}, "MOV")
	arv := issueCycles(t, Toy(), Workload{Name: "named", Launch: Launch{Block: 96}, Program: p}, "BAR.ARV")
	if len(arv[0]) != 1 || len(mov[1]) != 1 {
		t.Fatalf("BAR.ARV issues %v, waiter's MOV %v", arv, mov)
	}
	// The release takes BarrierLatency; the one scheduler serves warp 0's
	// MOV and EXIT first.
	if mov[1][0] <= arv[0][0] || mov[1][0] > arv[0][0]+6 {
		t.Errorf("warp 1 went on at cycle %d; warp 0 arrived at %d: want just after", mov[1][0], arv[0][0])
	}
	if mov[0][0] != arv[0][0]+1 {
		t.Errorf("warp 0 issued its next instruction at %d, %d cycles after BAR.ARV; want the next cycle", mov[0][0], mov[0][0]-arv[0][0])
	}
	// A named barrier that nobody else reaches is a deadlock with a clear
	// message.
	m := Toy()
	m.SMs = 1
	_, err := Config{Machine: &m}.Run(Workload{Name: "stuck", Launch: Launch{Block: 64, Blocks: 1}, Program: NewProgram().Add(Inst{Op: "BAR", Barrier: 2, Threads: 96})})
	if err == nil || !strings.Contains(err.Error(), "deadlock") {
		t.Errorf("a named barrier waiting for 96 threads of a 64-thread block: %v, want a deadlock", err)
	}
}

// TestMbarrierArrivals: a phase of an mbarrier set up for two arrivals
// completes at the second ARRIVE; a SYNCS waiting on it goes on then.
func TestMbarrierArrivals(t *testing.T) {
	p := NewProgram().Add(Inst{Op: "MBARINIT", Bar: "empty", Arrivals: 2}).
		BranchWarps("0", NewProgram().Add(Inst{Op: "ARRIVE", Bar: "empty"}), nil).
		BranchWarps("1", NewProgram().NANOSLEEP(300).Add(Inst{Op: "ARRIVE", Bar: "empty"}), nil).
		BranchWarps("2", NewProgram().Add(Inst{Op: "SYNCS", Bar: "empty"}).Op("MOV", "r0", "r1"), nil)
	w := Workload{Name: "arrivals", Launch: Launch{Block: 96}, Program: p}
	arrive := issueCycles(t, H800(), w, "ARRIVE")
	mov := issueCycles(t, H800(), w, "MOV")
	last := arrive[1][0]
	if len(mov[2]) != 1 || mov[2][0] <= last || mov[2][0] > last+4 {
		t.Errorf("the consumer went on at %v; the second arrival came at %d: want just after", mov[2], last)
	}
}

// TestClusterLaunch: clusters need a machine with them, a grid of whole
// clusters, and a program that uses DSMEM needs a cluster.
func TestClusterLaunch(t *testing.T) {
	lds := NewProgram().Add(Inst{Op: "LDS", Dst: "r0", Src: []string{"r1"}, Level: "dsmem"})
	for _, c := range []struct {
		m    Machine
		l    Launch
		p    *Program
		want string
	}{
		{Ampere(), Launch{Block: 32, Blocks: 2, Cluster: 2}, NewProgram().Op("MOV", "r0", "r1"), "has no thread block clusters"},
		{H800(), Launch{Block: 32, Blocks: 3, Cluster: 2}, lds, "not a multiple of the cluster size"},
		{H800(), Launch{Block: 32, Blocks: 32, Cluster: 32}, lds, "want at most 16"},
		{H800(), Launch{Block: 32, Blocks: 2}, lds, "launch it with cluster"},
		{Ampere(), Launch{Block: 32, Blocks: 2}, lds, "needs thread block clusters"},
	} {
		m := c.m
		if _, err := (Config{Machine: &m}).Run(Workload{Name: "w", Launch: c.l, Program: c.p}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want an error containing %q", m.Name, c.l, err, c.want)
		}
	}
}

// TestClusterBarrier: BAR.CLUSTER releases the block one SM-to-SM
// latency after its last warp arrives.
func TestClusterBarrier(t *testing.T) {
	p := NewProgram().Add(Inst{Op: "BAR.CLUSTER"}).Op("MOV", "r0", "r1")
	m := H800()
	bar := issueCycles(t, m, Workload{Name: "cbar", Launch: Launch{Block: 64, Blocks: 2, Cluster: 2}, Program: p}, "BAR.CLUSTER")
	mov := issueCycles(t, m, Workload{Name: "cbar", Launch: Launch{Block: 64, Blocks: 2, Cluster: 2}, Program: p}, "MOV")
	last := max(bar[0][0], bar[1][0])
	if got := mov[0][0] - last; got != m.DSMEMLatency {
		t.Errorf("BAR.CLUSTER released %d cycles after the last arrival, want DSMEMLatency %d", got, m.DSMEMLatency)
	}
}

// TestTMAUnit: a bulk copy takes its level's latency, TMALatency and its
// bytes at TMABytesPerCycle; two copies in flight together overlap.
func TestTMAUnit(t *testing.T) {
	m := H800()
	m.SMs = 1
	one := func(copies int) int {
		p := NewProgram()
		for range copies {
			p.Add(Inst{Op: "UBLKCP", Src: []string{"a"}, Bytes: 8192, Bar: "full", Level: "l2"})
		}
		for range copies {
			p.Add(Inst{Op: "SYNCS", Bar: "full"})
		}
		r, err := Config{Machine: &m}.Run(Workload{Name: "tma", Launch: Launch{Block: 32, Blocks: 1}, Program: p})
		if err != nil {
			t.Fatal(err)
		}
		return r.RunCycles
	}
	stream := int(8192 / m.TMABytesPerCycle)
	a, b := one(1), one(2)
	if a < m.L2Latency+m.TMALatency+stream || a > m.L2Latency+m.TMALatency+stream+20 {
		t.Errorf("one 8 KB copy from L2 took %d cycles, want the L2's %d, the TMA's %d and %d to stream it", a, m.L2Latency, m.TMALatency, stream)
	}
	if d := b - a; d > 4 {
		t.Errorf("a second copy in flight with the first added %d cycles, want them to overlap", d)
	}
}

// TestL2FarAndLoaded: a far partition's hit takes L2FarLatency, and an
// L2 hit's latency rises with the L2's load when L2LoadedLatency is set.
func TestL2FarAndLoaded(t *testing.T) {
	m := loadedToy()
	m.L2FarLatency, m.L2BytesPerCycle = 350, 16
	if got := chase(t, m, "l2far"); got != 350 {
		t.Errorf("a far L2 chase: %v cycles per load, want 350", got)
	}
	m.L2LoadedLatency = 400
	stream := NewProgram().Loop(400, NewProgram().Add(Inst{Op: "LDG", Dst: "v", Src: []string{"a"}, Level: "l2", ILP: 4}))
	l2 := func(m Machine) float64 {
		p := NewProgram().BranchWarps("0", NewProgram().Loop(40, NewProgram().Add(Inst{Op: "LDG", Dst: "p", Src: []string{"p"}, Level: "l2"})), stream)
		m.SMs = 1
		r, err := Config{Machine: &m}.Run(Workload{Name: "l2 load", Launch: Launch{Block: 32 * 9, Blocks: 1}, Program: p})
		if err != nil {
			t.Fatal(err)
		}
		return float64(r.RunCycles)
	}
	flat := m
	flat.L2LoadedLatency = 0
	if loaded, unloaded := l2(m), l2(flat); loaded <= unloaded*1.1 {
		t.Errorf("an L2 chase beside streaming warps: %v cycles with L2LoadedLatency, %v without; want it slower", loaded, unloaded)
	}
}

// TestTurnaround: a stream that mixes reads and writes moves fewer bytes
// than reads alone when TurnaroundCost is set, the fewer the shallower
// its backlog.
func TestTurnaround(t *testing.T) {
	rate := func(m Machine, stores bool, warps int) float64 {
		body := NewProgram().ILP(4, "LDG", "v", "a")
		if stores {
			for _, v := range []string{"v", "v~1", "v~2", "v~3"} {
				body.Add(Inst{Op: "STG", Src: []string{"a", v}})
			}
		}
		m.SMs = 1
		p := NewProgram().Loop(100, body)
		r, err := Config{Machine: &m}.Run(Workload{Name: "stream", Launch: Launch{Block: 32 * warps, Blocks: 1}, Program: p})
		if err != nil {
			t.Fatal(err)
		}
		per := 4.0
		if stores {
			per = 8
		}
		return float64(warps) * 100 * per * 128 / float64(r.RunCycles)
	}
	m := loadedToy()
	m.TurnaroundCost, m.TurnaroundBacklog = 0.5, 400
	reads, copies := rate(m, false, 32), rate(m, true, 32)
	if copies >= 0.97*reads {
		t.Errorf("with TurnaroundCost 0.5 a copy moves %.2f bytes per cycle, reads alone %.2f: want the copy slower", copies, reads)
	}
	flat := m
	flat.TurnaroundCost = 0
	if got := rate(flat, true, 32); got < 0.97*reads {
		t.Errorf("without TurnaroundCost a copy moves %.2f bytes per cycle, reads alone %.2f: want about the same", got, reads)
	}
}

// TestReplayInterval: each pass a conflict adds holds the banks
// ReplayInterval cycles.
func TestReplayInterval(t *testing.T) {
	per := func(r float64) float64 {
		m := H800()
		m.SMs, m.ReplayInterval = 1, r
		p := NewProgram().Loop(400, NewProgram().Add(Inst{Op: "LDS", Dst: "v", Src: []string{"p"}, Stride: 32}))
		res, err := Config{Machine: &m, Steady: true}.Run(Workload{Name: "conflict", Launch: Launch{Block: 1024, Blocks: 2}, Program: p})
		if err != nil {
			t.Fatal(err)
		}
		return float64(res.Cycles) / float64(res.Instructions)
	}
	if got := per(0); got < 31.9 || got > 32.1 {
		t.Errorf("a 32-way conflict at one pass a cycle: %.2f cycles per warp load, want 32", got)
	}
	if got, want := per(2), 1+31*2.0; got < want-0.3 || got > want+0.3 {
		t.Errorf("a 32-way conflict at ReplayInterval 2: %.2f cycles per warp load, want %v", got, want)
	}
}
