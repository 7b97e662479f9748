//go:build simref

package sim

// A change to the simulator that must not change its results (a faster
// scheduler, a data structure) is checked against the code before it:
// TestReferenceDigests runs the same generated workloads and SASS kernels
// on both and compares a digest of each run's complete result. Run it on
// an export of the reference commit (it only needs this file copied in),
// then on the change:
//
//	git archive main | tar -x -C /tmp/ref
//	cp engine/sim/reference_test.go /tmp/ref/engine/sim/
//	(cd /tmp/ref && WARPBOOK_SIM_DIGESTS=/tmp/ref.txt go test -tags simref -run TestReferenceDigests -count 1 ./engine/sim)
//	WARPBOOK_SIM_REFERENCE=/tmp/ref.txt go test -tags simref -run TestReferenceDigests -count 1 ./engine/sim
//
// WARPBOOK_SIM_RUNS sets the number of generated workloads (default 1200;
// each is run whole, over a random window and over its steady state) and
// WARPBOOK_SIM_SASS_RUNS the runs of each function of every listing
// under engine/sass/testdata (default 4). Both sides must use the same
// numbers.

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/sass"
)

// refDigest is a digest of everything a run returned: every field of its
// Result, unexported ones included, its trace, or its error.
func refDigest(res *Result, err error) string {
	if err != nil {
		return fmt.Sprintf("%x err", sha256.Sum256([]byte(err.Error())))
	}
	c := *res
	tr := c.Trace
	c.Trace = nil
	s := fmt.Sprintf("%+v", c)
	if tr != nil {
		s += fmt.Sprintf("\ntrace %+v", *tr)
	}
	return fmt.Sprintf("%x", sha256.Sum256([]byte(s)))
}

// refRuns collects the digests of the runs, in order.
type refRuns struct {
	names, digests []string
}

func (r *refRuns) add(name string, res *Result, err error) {
	r.names = append(r.names, name)
	r.digests = append(r.digests, refDigest(res, err))
}

// three runs w whole (with a trace now and then), over a random window of
// its run (a trace of the window now and then) and over its steady state.
func (r *refRuns) three(name string, rnd *rand.Rand, m Machine, w Workload) {
	cfg := Config{Machine: &m}
	if m.MaxWarps*20000 <= MaxTraceCells && rnd.IntN(2) == 0 {
		cfg.Trace = Window{From: rnd.IntN(50), To: 20000}
	}
	res, err := cfg.Run(w)
	r.add(name+"/whole", res, err)
	if err != nil {
		return
	}
	a := rnd.IntN(res.RunCycles)
	b := a + 1 + rnd.IntN(res.RunCycles-a)
	wc := Config{Machine: &m, Measure: Window{From: a, To: b}}
	if rnd.IntN(2) == 0 && m.MaxWarps*(b-a) <= MaxTraceCells {
		wc.Trace = Window{From: a, To: b}
	}
	res, err = wc.Run(w)
	r.add(name+"/window", res, err)
	res, err = Config{Machine: &m, Steady: true}.Run(w)
	r.add(name+"/steady", res, err)
}

func refEnv(t *testing.T, key string, def int) int {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q, want a count", key, v)
	}
	return n
}

// TestReferenceDigests writes (WARPBOOK_SIM_DIGESTS) or checks
// (WARPBOOK_SIM_REFERENCE) the digests of generated workloads, on every
// preset with and without the queue model, Turing's warp-start gate put
// on other presets, machines of up to 256 warps on one or two schedulers,
// and every policy, and of every SASS kernel of engine/sass/testdata at
// random launches, trip counts and policies.
func TestReferenceDigests(t *testing.T) {
	write, ref := os.Getenv("WARPBOOK_SIM_DIGESTS"), os.Getenv("WARPBOOK_SIM_REFERENCE")
	if write == "" && ref == "" {
		t.Skip("set WARPBOOK_SIM_DIGESTS to write digests or WARPBOOK_SIM_REFERENCE to check them")
	}
	var runs refRuns
	presets := Presets()
	pols := []string{"", "gto", "gty", "lrr", "oldest", "two_level:2", "two_level:5"}
	for i := range refEnv(t, "WARPBOOK_SIM_RUNS", 1200) {
		rnd := rand.New(rand.NewPCG(uint64(i), 31))
		m := genMachine(rnd, presets[i%len(presets):][:1])
		if rnd.IntN(4) == 0 {
			m.WarpStartInterval = rnd.IntN(5)
		}
		block := 1 + rnd.IntN(min(m.MaxThreadsPerBlock, 320))
		blocks := 1 + rnd.IntN(4)
		if rnd.IntN(6) == 0 {
			// Many warps on few schedulers: warp sets of several words.
			m.Schedulers = 1 + rnd.IntN(2)
			m.MaxWarps = 64 * (1 + rnd.IntN(4))
			m.MaxBlocks = max(m.MaxBlocks, 8)
			block = 32 * (1 + rnd.IntN(32))
			blocks = 1 + rnd.IntN(8)
		}
		pol := pols[rnd.IntN(len(pols))]
		w := Workload{
			Name:    fmt.Sprintf("gen%d", i),
			Policy:  pol,
			Launch:  Launch{Block: block, Blocks: blocks, Regs: 16 * rnd.IntN(4), Resident: rnd.IntN(3)},
			Program: genProgram(rnd, m, 2, true),
		}
		if !issues(w.Program) {
			continue
		}
		clusterLaunch(rnd, &w)
		runs.three(fmt.Sprintf("gen%d %s %q %d schedulers %d warps", i, m.Name, pol, m.Schedulers, m.MaxWarps), rnd, m, w)
	}
	files, err := filepath.Glob(filepath.Join("..", "sass", "testdata", "*.sass"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	k := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		l, err := sass.Parse(filepath.Base(file), b)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range l.Functions {
			g, ok := PresetForArch(fn.Arch)
			if !ok {
				continue
			}
			for rep := range refEnv(t, "WARPBOOK_SIM_SASS_RUNS", 4) {
				k++
				rnd := rand.New(rand.NewPCG(uint64(k), 77))
				kern := &Kernel{Listing: l.File, Func: fn, Loops: map[string]int{}}
				for _, h := range loopHeads(fn) {
					kern.Loops[addrKey(h)] = rnd.IntN(6)
				}
				m, err := Preset(g)
				if err != nil {
					t.Fatal(err)
				}
				m.SMs = 1
				m.QueueModel = rnd.IntN(2) == 0
				if rnd.IntN(4) == 0 {
					m.WarpStartInterval = rnd.IntN(4)
				}
				regs, smem := 0, 0
				if fn.Resources != nil {
					regs, smem = fn.Resources.Regs, fn.Resources.Shared
				}
				w := Workload{Name: fn.Name, Policy: pols[rnd.IntN(len(pols))], Kernel: kern,
					Launch: Launch{Block: 32 * (1 + rnd.IntN(32)), Blocks: 1 + rnd.IntN(8), Regs: regs, Smem: smem}}
				runs.three(fmt.Sprintf("%s %s %d %q", filepath.Base(file), fn.Name, rep, w.Policy), rnd, m, w)
			}
		}
	}
	if write != "" {
		var sb strings.Builder
		for i, name := range runs.names {
			fmt.Fprintf(&sb, "%s\t%s\n", runs.digests[i], name)
		}
		if err := os.WriteFile(write, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%d runs written to %s", len(runs.names), write)
		return
	}
	f, err := os.Open(ref)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	i, diff := 0, 0
	for ; sc.Scan(); i++ {
		digest, name, _ := strings.Cut(sc.Text(), "\t")
		switch {
		case i >= len(runs.names):
			t.Fatalf("%s:%d: %s: the reference has more runs than the %d here", ref, i+1, name, len(runs.names))
		case name != runs.names[i]:
			t.Fatalf("%s:%d: run %q, here %q: generated with other settings", ref, i+1, name, runs.names[i])
		case digest != runs.digests[i]:
			if diff++; diff <= 20 {
				t.Errorf("%s: the result differs from the reference's", name)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if i != len(runs.names) {
		t.Fatalf("%s: %d runs, here %d", ref, i, len(runs.names))
	}
	if diff > 0 {
		t.Fatalf("%d of %d runs differ from the reference", diff, i)
	}
	t.Logf("%d runs identical to %s", i, ref)
}
