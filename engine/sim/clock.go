package sim

import "math"

// AtClock returns m run at an SM clock of mhz MHz instead of ClockMHz.
// The SM's own figures (pipes, shared memory and L1, the memory queue and
// L1TEX stages, FetchLatency) are cycles of the SM clock and stay as they
// are; the memory system and the grid's front end keep their time in
// nanoseconds, so L2Latency, L2FarLatency, L2LoadedLatency, DRAMLatency,
// DRAMLoadedLatency, DRAMServiceCycles, TurnaroundBacklog, StoreRetire and
// BlockLaunch scale with the clock and the L2 and DRAM bytes per
// cycle scale against it. A machine whose ClockMHz is 0 (toy) or an mhz
// of 0 or less comes back unchanged.
//
// NVIDIA quotes a part's peaks at different clocks: the H100 SXM's dense
// FP16 tensor peak of 989 TFLOPS holds at 1.83 GHz (TensorClockMHz), its
// boost clock is 1.98 GHz (ClockMHz); Hopper().AtClock(1830) is the part
// as it runs at that peak.
func (m Machine) AtClock(mhz int) Machine {
	if m.ClockMHz <= 0 || mhz <= 0 || mhz == m.ClockMHz {
		return m
	}
	f := float64(mhz) / float64(m.ClockMHz)
	scale := func(cycles int) int {
		if cycles <= 0 {
			return cycles
		}
		return max(1, int(math.Round(float64(cycles)*f)))
	}
	m.L2Latency, m.DRAMLatency = scale(m.L2Latency), scale(m.DRAMLatency)
	m.L2FarLatency, m.L2LoadedLatency = scale(m.L2FarLatency), scale(m.L2LoadedLatency)
	m.DRAMLoadedLatency, m.DRAMServiceCycles = scale(m.DRAMLoadedLatency), scale(m.DRAMServiceCycles)
	m.StoreRetire, m.BlockLaunch = scale(m.StoreRetire), scale(m.BlockLaunch)
	m.TurnaroundBacklog = scale(m.TurnaroundBacklog)
	m.L2BytesPerCycle /= f
	m.DRAMBytesPerCycle /= f
	m.ClockMHz = mhz
	return m
}
