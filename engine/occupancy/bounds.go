package occupancy

import (
	"fmt"

	"github.com/warpbook/warpbook/engine/gpu"
)

// RegisterCap returns the most registers per thread at which minBlocks
// blocks of k (its BlockSize, shared memory and the rest; its Registers
// is ignored) are resident on one SM of d: the occupancy calculation run
// backwards, which is how the compiler turns
// __launch_bounds__(maxThreadsPerBlock, minBlocksPerMultiprocessor) into
// a register limit. It is at most 255, the most nvcc allocates; 0 when no
// register count lets minBlocks blocks fit.
func RegisterCap(d gpu.Device, k Kernel, minBlocks int) (int, error) {
	if minBlocks < 1 {
		return 0, fmt.Errorf("occupancy: minimum blocks per SM must be positive, got %d", minBlocks)
	}
	top := min(255, d.MaxRegistersPerThread)
	for regs := top; regs > 0; regs-- {
		k.Registers = regs
		r, err := Compute(d, k)
		if err != nil {
			return 0, err
		}
		if r.ActiveBlocks >= minBlocks {
			return regs, nil
		}
	}
	return 0, nil
}

// WaveCount is how a grid of blocks runs on a whole GPU in waves: each
// wave fills every SM with as many blocks as occupancy allows.
type WaveCount struct {
	// PerWave is the blocks one wave holds: active blocks per SM × SMs.
	PerWave int `json:"per_wave"`
	// Waves is the waves the grid takes, the last one possibly partial.
	Waves int `json:"waves"`
	// LastWave is the blocks of the last wave (PerWave when the grid
	// divides evenly).
	LastWave int `json:"last_wave"`
}

// Waves returns how a grid of blocks of kernel k runs on d in waves,
// with r = Compute(d, k). A launch that cannot run (r.ActiveBlocks 0) or
// an empty grid is an error.
func Waves(d gpu.Device, r Result, blocks int) (WaveCount, error) {
	if blocks < 1 {
		return WaveCount{}, fmt.Errorf("occupancy: a grid must have at least one block, got %d", blocks)
	}
	if r.ActiveBlocks < 1 || d.SMs < 1 {
		return WaveCount{}, fmt.Errorf("occupancy: no block of this launch fits on %s", d.Name)
	}
	per := r.ActiveBlocks * d.SMs
	w := WaveCount{PerWave: per, Waves: (blocks + per - 1) / per}
	w.LastWave = blocks - (w.Waves-1)*per
	return w, nil
}

// ExplainWaves returns Waves' arithmetic in words.
func ExplainWaves(d gpu.Device, r Result, blocks int) ([]string, error) {
	w, err := Waves(d, r, blocks)
	if err != nil {
		return nil, err
	}
	steps := []string{
		fmt.Sprintf("a wave is %s %s per SM × %s SMs = %s blocks", num(r.ActiveBlocks), plural(r.ActiveBlocks, "block", "blocks"), num(d.SMs), num(w.PerWave)),
		fmt.Sprintf("%s blocks ÷ %s = %s, rounded up: %s %s", num(blocks), num(w.PerWave), fmt.Sprintf("%.2f", float64(blocks)/float64(w.PerWave)), num(w.Waves), plural(w.Waves, "wave", "waves")),
	}
	if w.LastWave == w.PerWave {
		steps = append(steps, "the grid divides evenly: the last wave is full")
	} else {
		steps = append(steps, fmt.Sprintf("the last wave holds %s − %s × %s = %s blocks, %s of a full wave",
			num(blocks), num(w.Waves-1), num(w.PerWave), num(w.LastWave), percent(float64(w.LastWave)/float64(w.PerWave))))
	}
	return steps, nil
}

// Warpgroup register rules of setmaxnreg (PTX ISA, compute capability
// 9.0): a count is a multiple of 8 from 24 to 256 registers per thread.
const (
	// SetMaxNRegMin is the fewest registers setmaxnreg may set.
	SetMaxNRegMin = 24
	// SetMaxNRegMax is the most registers setmaxnreg may set.
	SetMaxNRegMax = 256
	// SetMaxNRegStep is the multiple every count must be.
	SetMaxNRegStep = 8
)

// SetMaxNReg returns the most registers per thread that each of the
// consumers warpgroups (128 threads each) of a block can claim with
// setmaxnreg.inc once its producers warpgroups have released down to
// producerRegs with setmaxnreg.dec, in a block of (producers + consumers)
// warpgroups launched at launchRegs registers per thread on d. The
// registers a block holds are fixed at launch (its warps' allocations,
// rounded to the allocation unit); setmaxnreg only moves them between its
// warpgroups, so the consumers share what the producers give back, in
// steps of 8, and no count passes 256. The block must fit d at launch.
func SetMaxNReg(d gpu.Device, launchRegs, producers, producerRegs, consumers int) (int, error) {
	if d.CC.Less(gpu.CC{Major: 9}) {
		return 0, fmt.Errorf("occupancy: setmaxnreg needs compute capability 9.0 or later, %s is %s", d.Name, d.CC)
	}
	if producers < 1 || consumers < 1 {
		return 0, fmt.Errorf("occupancy: want at least one producer and one consumer warpgroup, got %d and %d", producers, consumers)
	}
	if producerRegs < SetMaxNRegMin || producerRegs > SetMaxNRegMax || producerRegs%SetMaxNRegStep != 0 {
		return 0, fmt.Errorf("occupancy: setmaxnreg %d: want a multiple of %d from %d to %d", producerRegs, SetMaxNRegStep, SetMaxNRegMin, SetMaxNRegMax)
	}
	k := Kernel{BlockSize: 128 * (producers + consumers), Registers: launchRegs}
	r, err := Compute(d, k)
	if err != nil {
		return 0, err
	}
	if r.ActiveBlocks == 0 {
		return 0, fmt.Errorf("occupancy: a block of %d threads at %d registers does not fit %s (%s)", k.BlockSize, launchRegs, d.Name, r.Obstacles)
	}
	pool := r.RegistersPerBlock
	left := pool - producers*128*producerRegs
	per := left / (consumers * 128) / SetMaxNRegStep * SetMaxNRegStep
	per = min(per, SetMaxNRegMax)
	if per < SetMaxNRegMin {
		return 0, fmt.Errorf("occupancy: the producers at %d registers leave the consumers %d each, fewer than setmaxnreg's %d", producerRegs, per, SetMaxNRegMin)
	}
	return per, nil
}

// ExplainSetMaxNReg returns SetMaxNReg's arithmetic in words.
func ExplainSetMaxNReg(d gpu.Device, launchRegs, producers, producerRegs, consumers int) ([]string, error) {
	per, err := SetMaxNReg(d, launchRegs, producers, producerRegs, consumers)
	if err != nil {
		return nil, err
	}
	r, _ := Compute(d, Kernel{BlockSize: 128 * (producers + consumers), Registers: launchRegs})
	left := r.RegistersPerBlock - producers*128*producerRegs
	steps := []string{
		fmt.Sprintf("at launch each of the block's %s warps is allocated %s registers (%s × 32, %s-register granularity): %s for the block",
			num(r.WarpsPerBlock), num(r.RegistersPerWarp), num(launchRegs), num(d.RegisterAllocUnit), num(r.RegistersPerBlock)),
		fmt.Sprintf("the %s producer %s release down to %s: %s × 128 × %s = %s registers, leaving %s",
			num(producers), plural(producers, "warpgroup", "warpgroups"), num(producerRegs), num(producers), num(producerRegs), num(producers*128*producerRegs), num(left)),
		fmt.Sprintf("%s ÷ (%s × 128 threads) = %s per consumer thread, down to a multiple of %d", num(left), num(consumers), fmt.Sprintf("%.1f", float64(left)/float64(consumers*128)), SetMaxNRegStep),
	}
	if left/(consumers*128)/SetMaxNRegStep*SetMaxNRegStep > SetMaxNRegMax {
		steps = append(steps, fmt.Sprintf("setmaxnreg stops at %d: %d registers per consumer thread", SetMaxNRegMax, per))
	} else {
		steps = append(steps, fmt.Sprintf("each consumer warpgroup can claim %d registers per thread", per))
	}
	return steps, nil
}
