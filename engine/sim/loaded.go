package sim

import "math"

// The memory system under load: where the presets' loaded DRAM latency,
// store retirement, block launch cost, L2 bandwidth and L1TEX issue rate
// come from, and the one function that sets them.

// ernstBenches is where the Ernst measurements were read.
const ernstBenches = "D. Ernst (Erlangen National High Performance Computing Center), gpu-benches, " +
	"github.com/te42kyfo/gpu-benches"

// ernstStream describes the bandwidth-against-occupancy tables of
// gpu-benches that the loaded figures were fitted to and are held to.
const ernstStream = ernstBenches + " gpu-stream (cuda-stream for the H100 PCIe): kernels that move one " +
	"double per thread (init stores it, read loads it, scale loads, multiplies and stores it), a grid of " +
	"2^27 elements, two resident blocks per SM (a shared-memory spoiler), the block size stepping 32 to " +
	"1024 threads, so occupancy 3.1 to 100 %; the tables gpu-stream/v100.txt and gpu-stream/a100_40.txt " +
	"(commit a7dc559c) and cuda-stream/h100_pcie.txt (commit cdcc732d)"

// loadedSources says where withLoadedMemory's figures come from; the
// preset's own Sources give its numbers.
const loadedSources = "Memory under load. DRAMLatency is the unloaded latency of a random pointer chase " +
	"over a footprint far beyond L2 (" + ernstBenches + ", cuda-latency and gpu-latency tables, the " +
	"largest footprints). DRAMLoadedLatency is twice it and DRAMServiceCycles 0.03 times it: " +
	"the rise with the channel's load was fitted once, to the A100 40GB scale column of " + ernstStream +
	" (of ratios 1.5 to 2.2 and 0 to 0.1, the pair that put most of its points at 6.25 to 75 % occupancy " +
	"inside their band, then with the least squared error, by the first half of issue 27), and is carried " +
	"over to the other presets unchanged, so that their curves are held out. The load is a moving " +
	"average of the bytes per cycle asked of the channel over eight DRAM latencies. " +
	"BlockLaunch and StoreRetire were fitted per part to the same source's one-warp blocks (32 threads): " +
	"the init kernel's block lifetime (two blocks per SM: 2 × 256 bytes over the measured bytes per " +
	"cycle) is BlockLaunch + its few instructions + StoreRetire, the read kernel's is BlockLaunch + its " +
	"instructions + the load's latency, the scale kernel's both; the three lifetimes give BlockLaunch, " +
	"StoreRetire and the load's latency (close to the pointer chase's, which supports the split). A " +
	"retiring block does not wait for its stores to reach DRAM: the write-back L2 takes them. L2 and " +
	"DRAM latencies, BlockLaunch and StoreRetire keep their time in nanoseconds when a machine runs at " +
	"another clock (AtClock). Bus turnarounds: a stream that mixes reads and writes costs the channel " +
	"TurnaroundCost 0.08 more time per byte with no backlog, half that with a backlog of two DRAM " +
	"latencies (TurnaroundBacklog), both fitted to the same A100 40GB scale column, together with the " +
	"rest of the loaded latency above (of costs 0.06 to 0.12 and backlogs of 1 to 3 latencies, the " +
	"only pair that put all six points in their bands); the table's init (stores alone) and read " +
	"(loads alone) kernels, which reach about 97 % of the pins where the copy reaches 89 %, are what " +
	"the mechanism stands on. DRAMBytesPerCycle stays each preset's published sustained bandwidth, " +
	"taken as the channel's rate with a deep backlog: the model's kernel of the published kind at full " +
	"occupancy moves 0.06 to 0.5 % less, the turnarounds its stores still cost there."

// withLoadedMemory sets m's memory-under-load figures: the unloaded DRAM
// latency chase (cycles of m's clock), the block launch and store
// retirement, and the rise of the DRAM latency with load fitted on the
// A100 (twice the unloaded latency at full use, a queue's wait with a service time of 0.03× the
// unloaded latency).
func withLoadedMemory(m *Machine, chase, launch, storeRetire int) {
	m.DRAMLatency = chase
	m.DRAMLoadedLatency = 2 * chase
	m.DRAMServiceCycles = int(math.Round(0.03 * float64(chase)))
	m.BlockLaunch, m.StoreRetire = launch, storeRetire
	m.TurnaroundCost, m.TurnaroundBacklog = turnaroundCost, turnaroundBacklog*chase
}

// The write batching fitted on the A100 40GB's copy curve (see
// loadedSources): a copy's mixed reads and writes cost 8 % more channel
// time with no backlog, half that with two DRAM latencies of backlog.
const (
	turnaroundCost    = 0.08
	turnaroundBacklog = 2
)

// atClock converts cycles measured at clock from MHz to cycles of clock to.
func atClock(cycles, from, to int) int {
	return int(math.Round(float64(cycles) * float64(to) / float64(from)))
}
