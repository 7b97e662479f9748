package problems

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"

	"github.com/warpbook/warpbook/internal/num"
)

// occupancyGPUs are the parts occupancy problems are asked on, by the
// names "warpbook occupancy --gpu" takes.
var occupancyGPUs = []string{
	"A100 SXM4", "H100 SXM5", "GeForce RTX 4090", "Tesla T4", "Tesla V100 SXM2", "GeForce RTX 3090",
	"L4", "B200", "GeForce RTX 5090", "Tesla P100 SXM2", "GeForce GTX 1080", "A10",
}

var blockSizes = []int{64, 96, 128, 160, 192, 256, 288, 320, 384, 448, 512, 640, 768, 1024}

var staticSmem = []int{0, 0, 0, 1024, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 20480, 24576, 32768, 36864, 40960, 49152}

// drawRegs draws a register count as ptxas reports them: mostly 16 to
// 128, sometimes up to 255.
func drawRegs(r *rng) int {
	if r.chance(1, 6) {
		return r.between(129, 255)
	}
	if r.chance(1, 2) {
		return 8 * r.between(3, 16) // a round count
	}
	return r.between(16, 128)
}

// device returns the preset part named in params.
func device(in Values) (gpu.Device, error) {
	name := in.Str("gpu")
	if name == "" {
		return gpu.Device{}, fmt.Errorf("problems: no gpu given")
	}
	return gpu.Lookup(name)
}

// kernelOf reads a launch from params: threads, regs, smem (static),
// dyn-smem. Barriers is 1, as for a kernel with __syncthreads and as
// "warpbook occupancy" assumes.
func kernelOf(in Values) occupancy.Kernel {
	return occupancy.Kernel{
		BlockSize:        in.Int("threads"),
		Registers:        in.Int("regs"),
		StaticSharedMem:  in.Int("smem"),
		DynamicSharedMem: in.Int("dyn-smem"),
		Barriers:         1,
	}
}

// launch reads a launch from params and computes its occupancy.
func launch(in Values) (gpu.Device, occupancy.Kernel, occupancy.Result, error) {
	d, err := device(in)
	if err != nil {
		return d, occupancy.Kernel{}, occupancy.Result{}, err
	}
	k := kernelOf(in)
	res, err := occupancy.Compute(d, k)
	return d, k, res, err
}

// deviceFacts states the model's figures of d that the occupancy
// calculation uses.
func deviceFacts(d gpu.Device) []string {
	facts := []string{
		fmt.Sprintf("The model's %s (%s, %s SMs): %d warp slots and %d block slots per SM.", d.Name, d.CC.SM(), num.Int(d.SMs), d.MaxWarpsPerSM(), d.MaxBlocksPerSM),
		fmt.Sprintf("%s registers per SM, split evenly between %d sub-partitions; a warp's registers are allocated in units of %s (at most %d per thread, %s per block).",
			num.Int(d.RegistersPerSM), d.SubPartitions, num.Int(d.RegisterAllocUnit), min(255, d.MaxRegistersPerThread), num.Int(d.RegistersPerBlock)),
	}
	smem := fmt.Sprintf("%s of shared memory per SM", kb(d.SharedMemPerSM))
	if d.SharedMemCapacities != nil {
		smem += " (with no carveout preference the SM takes all of it)"
	}
	if d.ReservedSharedMemPerBlock > 0 {
		smem += fmt.Sprintf("; a block is allocated its shared memory plus %s bytes the driver reserves, in units of %s bytes", num.Int(d.ReservedSharedMemPerBlock), num.Int(d.SharedMemAllocUnit))
	} else {
		smem += fmt.Sprintf("; a block's shared memory is allocated in units of %s bytes", num.Int(d.SharedMemAllocUnit))
	}
	smem += fmt.Sprintf("; at most %s per block", kb(d.SharedMemPerBlock))
	if d.SharedMemPerBlockOptIn > d.SharedMemPerBlock {
		smem += fmt.Sprintf(", %s for a kernel that opts in", kb(d.SharedMemPerBlockOptIn))
	}
	return append(facts, smem+".")
}

// ptxasLine is the line ptxas -v prints for a kernel's resources.
func ptxasLine(regs, smem int) string {
	return fmt.Sprintf("ptxas info    : Used %d registers, %d bytes smem, 384 bytes cmem[0]", regs, smem)
}

// explainLines is occupancy.Explain as lines.
func explainLines(d gpu.Device, k occupancy.Kernel) []string {
	s, err := occupancy.Explain(d, k)
	if err != nil {
		return []string{err.Error()}
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// limiterWords names a result's limiting resources as the choices do.
func limiterWords(l occupancy.Limiter) []string {
	var out []string
	for _, c := range []struct {
		bit  occupancy.Limiter
		word string
	}{{occupancy.LimitWarps, "warps"}, {occupancy.LimitRegisters, "registers"}, {occupancy.LimitSharedMem, "shared memory"}, {occupancy.LimitBlocks, "blocks"}} {
		if l.Has(c.bit) {
			out = append(out, c.word)
		}
	}
	return out
}

var limiterChoices = []string{"warps", "registers", "shared memory", "blocks"}

func occupancyFamily() Family {
	return Family{
		Name: "occupancy", Code: "occ", Tags: []string{"occupancy", "registers", "shared-memory"}, Title: "Occupancy and its limiter, from a launch and a ptxas line",
		Section: "occupancy-calculator.md#putting-it-together",
		draw: func(r *rng) Values {
			g := pick(r, occupancyGPUs)
			in := Values{{"gpu", g}, {"threads", pick(r, blockSizes)}, {"regs", drawRegs(r)}, {"smem", pick(r, staticSmem)}}
			if d, err := gpu.Lookup(g); err == nil && d.SharedMemPerBlockOptIn > d.SharedMemPerBlock && r.chance(1, 6) {
				// A kernel that opts in to more than 48 KB, at launch.
				in = in.With("smem", 0).With("dyn-smem", 1024*r.between(49, d.SharedMemPerBlockOptIn/1024-1))
			}
			return in
		},
		make: makeOccupancy,
	}
}

func makeOccupancy(in Values) (*Problem, error) {
	d, k, res, err := launch(in)
	if err != nil {
		return nil, err
	}
	if res.ActiveBlocks == 0 {
		return nil, fmt.Errorf("problems: this launch cannot run on %s (%s)", d.Name, res.Obstacles)
	}
	launch := fmt.Sprintf("%d threads per block", k.BlockSize)
	if k.DynamicSharedMem > 0 {
		launch += fmt.Sprintf(" and %s bytes of dynamic shared memory per block (it opts in to them)", num.Int(k.DynamicSharedMem))
	}
	words := limiterWords(res.Limiters)
	occ := round(100*res.Occupancy, 2)
	return &Problem{
		Params:   in,
		Question: fmt.Sprintf("A kernel is launched on the %s with %s; ptxas -v reports the line below. What is its theoretical occupancy, and which resource limits it?", d.Name, launch),
		Data:     ptxasLine(k.Registers, k.StaticSharedMem),
		Given:    deviceFacts(d),
		Parts: []Part{
			numberPart("occupancy", "Theoretical occupancy (%)", "%", occ, 2, func() (float64, bool, string) { return within(0.5) }),
			choicePart("limiter", "What limits it?", limiterChoices, words...),
		},
		Answer:   Values{{"occupancy", occ}, {"limiter", strings.Join(words, ", ")}},
		Solution: explainLines(d, k),
	}, nil
}

func blockSizeFamily() Family {
	return Family{
		Name: "block-size", Code: "bsz", Tags: []string{"occupancy"}, Title: "The block size that maximises occupancy",
		Section: "occupancy-calculator.md#choosing-a-block-size",
		draw: func(r *rng) Values {
			in := Values{{"gpu", pick(r, occupancyGPUs)}, {"regs", drawRegs(r)}, {"smem", pick(r, staticSmem)}}
			if r.chance(1, 3) {
				in = in.With("dyn-smem-per-thread", pick(r, []int{4, 8, 16, 24, 32, 48, 64}))
			}
			return in
		},
		make: makeBlockSize,
	}
}

func makeBlockSize(in Values) (*Problem, error) {
	d, err := device(in)
	if err != nil {
		return nil, err
	}
	k := occupancy.Kernel{Registers: in.Int("regs"), StaticSharedMem: in.Int("smem"), Barriers: 1}
	perThread := in.Int("dyn-smem-per-thread")
	var s occupancy.Suggestion
	if perThread > 0 {
		s, err = occupancy.SuggestBlockSizeFunc(d, k, func(b int) int { return perThread * b })
	} else {
		s, err = occupancy.SuggestBlockSize(d, k)
	}
	if err != nil {
		return nil, err
	}
	if s.BlockSize == 0 {
		return nil, fmt.Errorf("problems: no block size lets this kernel run on %s", d.Name)
	}
	kernel := fmt.Sprintf("A kernel uses %d registers per thread and %s bytes of static shared memory per block", k.Registers, num.Int(k.StaticSharedMem))
	if perThread > 0 {
		kernel += fmt.Sprintf(", plus %d bytes of dynamic shared memory per thread of the block", perThread)
	}
	occ := round(100*s.Result.Occupancy, 2)
	var ties []float64
	for _, t := range s.Ties {
		ties = append(ties, float64(t))
	}
	at := k
	at.BlockSize = s.BlockSize
	at.DynamicSharedMem = perThread * s.BlockSize
	sol := []string{
		fmt.Sprintf("cudaOccupancyMaxPotentialBlockSize tries every multiple of %d up to %s threads and keeps the size with the most resident threads per SM (the largest of equals)", d.WarpSize, num.Int(d.MaxThreadsPerBlock)),
	}
	for _, b := range []int{128, 256, 512, 1024} {
		if b > d.MaxThreadsPerBlock {
			continue
		}
		t := k
		t.BlockSize, t.DynamicSharedMem = b, perThread*b
		if r, err := occupancy.Compute(d, t); err == nil {
			sol = append(sol, fmt.Sprintf("at %s threads: %s %s per SM, %s resident threads", num.Int(b), num.Int(r.ActiveBlocks), plural(r.ActiveBlocks, "block", "blocks"), num.Int(b*r.ActiveBlocks)))
		}
	}
	best := fmt.Sprintf("the most resident threads, %s, come with %s threads per block", num.Int(s.BlockSize*s.Result.ActiveBlocks), num.Int(s.BlockSize))
	if len(s.Ties) > 0 {
		var ts []string
		for _, t := range s.Ties {
			ts = append(ts, num.Int(t))
		}
		best += ", the largest size that reaches them (" + strings.Join(ts, ", ") + " threads reach as many, and count as right)"
	}
	sol = append(sol, best)
	sol = append(sol, explainLines(d, at)...)
	return &Problem{
		Params:   in,
		Question: fmt.Sprintf("%s. On the %s, which block size does cudaOccupancyMaxPotentialBlockSize choose, and what theoretical occupancy does the kernel reach with it?", kernel, d.Name),
		Given:    deviceFacts(d),
		Parts: []Part{
			numberPart("threads", "Block size (threads)", "threads", float64(s.BlockSize), 0, exactly, ties...),
			numberPart("occupancy", "Theoretical occupancy at that size (%)", "%", occ, 2, func() (float64, bool, string) { return within(0.5) }),
		},
		Answer:   Values{{"threads", s.BlockSize}, {"occupancy", occ}},
		Solution: sol,
	}, nil
}

func wavesFamily() Family {
	return Family{
		Name: "waves", Code: "wave", Tags: []string{"occupancy"}, Title: "Waves and the tail of a grid",
		Section: "occupancy-is-not-throughput.md#achieved-occupancy-and-the-tail",
		draw: func(r *rng) Values {
			in := Values{{"gpu", pick(r, occupancyGPUs)}, {"threads", pick(r, blockSizes)}, {"regs", drawRegs(r)}, {"smem", pick(r, staticSmem)}}
			blocks := 1000 * r.between(1, 20)
			if d, _, res, err := launch(in); err == nil && res.ActiveBlocks > 0 {
				per := res.ActiveBlocks * d.SMs
				blocks = per*r.between(1, 5) + r.between(1, per-1)
			}
			return in.With("blocks", blocks)
		},
		make: makeWaves,
	}
}

func makeWaves(in Values) (*Problem, error) {
	d, k, res, err := launch(in)
	if err != nil {
		return nil, err
	}
	blocks := in.Int("blocks")
	w, err := occupancy.Waves(d, res, blocks)
	if err != nil {
		return nil, err
	}
	sol := explainLines(d, k)
	more, _ := occupancy.ExplainWaves(d, res, blocks)
	sol = append(sol, more...)
	return &Problem{
		Params:   in,
		Question: fmt.Sprintf("A grid of %s blocks of %d threads is launched on the %s; ptxas -v reports the line below. In how many waves does the grid run, and how many blocks does the last wave hold?", num.Int(blocks), k.BlockSize, d.Name),
		Data:     ptxasLine(k.Registers, k.StaticSharedMem),
		Given:    deviceFacts(d),
		Parts: []Part{
			numberPart("waves", "Waves", "waves", float64(w.Waves), 0, exactly),
			numberPart("last", "Blocks in the last wave", "blocks", float64(w.LastWave), 0, exactly),
		},
		Answer:   Values{{"waves", w.Waves}, {"last", w.LastWave}},
		Solution: sol,
	}, nil
}

func launchBoundsFamily() Family {
	return Family{
		Name: "launch-bounds", Code: "lb", Tags: []string{"occupancy", "registers", "launch-bounds"}, Title: "The register cap of __launch_bounds__",
		Section: "occupancy.md#capping-registers",
		draw: func(r *rng) Values {
			g := pick(r, occupancyGPUs)
			threads := pick(r, []int{64, 96, 128, 192, 256, 384, 512, 768, 1024})
			most := 8
			if d, err := gpu.Lookup(g); err == nil {
				most = min(8, d.MaxBlocksPerSM, d.MaxWarpsPerSM()/((threads+31)/32))
			}
			return Values{{"gpu", g}, {"threads", threads}, {"min-blocks", r.between(1, max(1, most))}}
		},
		make: makeLaunchBounds,
	}
}

func makeLaunchBounds(in Values) (*Problem, error) {
	d, err := device(in)
	if err != nil {
		return nil, err
	}
	threads, minBlocks := in.Int("threads"), in.Int("min-blocks")
	k := occupancy.Kernel{BlockSize: threads, Barriers: 1}
	c, err := occupancy.RegisterCap(d, k, minBlocks)
	if err != nil {
		return nil, err
	}
	if c == 0 {
		return nil, fmt.Errorf("problems: %d blocks of %d threads never fit %s", minBlocks, threads, d.Name)
	}
	at := k
	at.Registers = c
	sol := []string{fmt.Sprintf("the compiler needs the most registers per thread at which %d %s of %d threads fit one SM: the occupancy calculation run backwards", minBlocks, plural(minBlocks, "block", "blocks"), threads)}
	sol = append(sol, "at "+strconv.Itoa(c)+" registers: "+stepText(d, at, "registers"))
	sol = append(sol, "at "+strconv.Itoa(c)+" registers: "+stepText(d, at, "result"))
	if c < min(255, d.MaxRegistersPerThread) {
		above := k
		above.Registers = c + 1
		sol = append(sol, "at "+strconv.Itoa(c+1)+" registers: "+stepText(d, above, "registers"))
	}
	return &Problem{
		Params:   in,
		Question: fmt.Sprintf("A kernel is declared __launch_bounds__(%d, %d) and compiled for the %s. What is the most registers per thread ptxas may use?", threads, minBlocks, d.Name),
		Given:    deviceFacts(d)[:2],
		Parts:    []Part{numberPart("regs", "Registers per thread", "registers", float64(c), 0, exactly)},
		Answer:   Values{{"regs", c}},
		Solution: sol,
	}, nil
}

// stepText returns the text of one step of occupancy.ExplainSteps.
func stepText(d gpu.Device, k occupancy.Kernel, resource string) string {
	steps, err := occupancy.ExplainSteps(d, k)
	if err != nil {
		return err.Error()
	}
	for _, s := range steps {
		if s.Resource == resource {
			return s.Text
		}
	}
	return ""
}

var setMaxNRegGPUs = []string{"H100 SXM5", "H100 PCIe", "H200", "B200"}

func setMaxNRegFamily() Family {
	return Family{
		Name: "setmaxnreg", Code: "smr", Tags: []string{"hopper", "registers", "warp-specialization"}, Title: "Register budget under setmaxnreg",
		Section: "hopper-blackwell.md#setmaxnreg-moving-registers-to-the-consumers",
		draw: func(r *rng) Values {
			g := pick(r, setMaxNRegGPUs)
			consumers := r.between(1, 3)
			threads := 128 * (1 + consumers)
			regs := 8 * r.between(12, 21)
			if d, err := gpu.Lookup(g); err == nil {
				if c, err := occupancy.RegisterCap(d, occupancy.Kernel{BlockSize: threads}, 1); err == nil && c > 0 {
					regs = min(c, regs)
					if r.chance(1, 2) {
						regs = c
					}
				}
			}
			return Values{{"gpu", g}, {"threads", threads}, {"regs", regs}, {"producer-regs", pick(r, []int{24, 32, 40, 48, 56})}}
		},
		make: makeSetMaxNReg,
	}
}

func makeSetMaxNReg(in Values) (*Problem, error) {
	d, err := device(in)
	if err != nil {
		return nil, err
	}
	threads, regs, producer := in.Int("threads"), in.Int("regs"), in.Int("producer-regs")
	if threads%128 != 0 || threads < 256 {
		return nil, fmt.Errorf("problems: a warp-specialized block is whole warpgroups, one producer and at least one consumer: 256, 384 or 512 threads, not %d", threads)
	}
	consumers := threads/128 - 1
	per, err := occupancy.SetMaxNReg(d, regs, 1, producer, consumers)
	if err != nil {
		return nil, err
	}
	sol, err := occupancy.ExplainSetMaxNReg(d, regs, 1, producer, consumers)
	if err != nil {
		return nil, err
	}
	return &Problem{
		Params: in,
		Question: fmt.Sprintf("A warp-specialized kernel on the %s launches blocks of %d threads (one producer warpgroup and %d consumer %s) compiled for %d registers per thread. The producer calls setmaxnreg.dec to %d. What is the most registers per thread each consumer warpgroup can then claim with setmaxnreg.inc?",
			d.Name, threads, consumers, plural(consumers, "warpgroup", "warpgroups"), regs, producer),
		Given: append(deviceFacts(d)[1:2],
			fmt.Sprintf("setmaxnreg takes a multiple of %d from %d to %d; it moves registers between a block's warpgroups, never beyond what the block was allocated at launch.", occupancy.SetMaxNRegStep, occupancy.SetMaxNRegMin, occupancy.SetMaxNRegMax)),
		Parts:    []Part{numberPart("regs", "Registers per consumer thread", "registers", float64(per), 0, exactly)},
		Answer:   Values{{"regs", per}},
		Solution: sol,
	}, nil
}

// kb writes a size in bytes as KB when it is a whole number of them.
func kb(n int) string {
	if n%1024 == 0 {
		return num.Int(n/1024) + " KB"
	}
	return num.Int(n) + " bytes"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// round rounds x to prec decimals.
func round(x float64, prec int) float64 {
	p := math.Pow(10, float64(prec))
	return math.Round(x*p) / p
}
