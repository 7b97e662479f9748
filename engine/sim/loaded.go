package sim

import (
	"math"
	"strconv"
)

// The memory system under load: where the presets' loaded DRAM latency,
// store retirement, block launch cost, L2 bandwidth and L1TEX issue rate
// come from, and the one function that sets them.

// ernstBenches is where the Ernst measurements were read.
const ernstBenches = "D. Ernst (Erlangen National High Performance Computing Center), gpu-benches, " +
	"github.com/te42kyfo/gpu-benches"

// ernstStream describes the bandwidth-against-occupancy tables of
// gpu-benches that the loaded figures were fitted to.
const ernstStream = ernstBenches + " gpu-stream (cuda-stream for the H100 PCIe): kernels that move one " +
	"double per thread (init stores it, read loads it, scale loads, multiplies and stores it), a grid of " +
	"2^27 elements, two resident blocks per SM (a shared-memory spoiler), the block size stepping 32 to " +
	"1024 threads, so occupancy 3.1 to 100 %; the tables gpu-stream/v100.txt and gpu-stream/a100_40.txt " +
	"(commit a7dc559c) and cuda-stream/h100_pcie.txt (commit cdcc732d); gpu-stream/a100_80.txt (commit " +
	"a7dc559c), an A100 80GB, is held out"

// loadedSources says where withLoadedMemory's figures come from; the
// preset's own Sources give its numbers and say which part's loadCurve
// it takes.
const loadedSources = "Memory under load. DRAMLatency is the unloaded latency of a random pointer chase " +
	"over a footprint far beyond L2 (" + ernstBenches + ", cuda-latency and gpu-latency tables, the " +
	"largest footprints). DRAMLoadedLatency, DRAMServiceCycles, TurnaroundCost and TurnaroundBacklog " +
	"(multiples of that latency but the cost) are a loadCurve fitted to one part's scale column of " +
	ernstStream + ": on a grid of the four, the set that put most of the part's points at 6.25 to 75 % " +
	"occupancy inside their band (the range of the table's three copy kernels' shares of their own " +
	"full-occupancy bandwidth), then with the least squared error; the A100 40GB's in the first half " +
	"of issue 27, the V100 PCIe's and H100 PCIe's later on their own tables, once the A100's carried " +
	"over had left four and two of their points outside (docs/fidelity.md), so those points are " +
	"input-consistency too. The load is a moving average of the bytes per cycle asked of the channel " +
	"over eight DRAM latencies. " +
	"BlockLaunch and StoreRetire were fitted per part to the same source's one-warp blocks (32 threads): " +
	"the init kernel's block lifetime (two blocks per SM: 2 × 256 bytes over the measured bytes per " +
	"cycle) is BlockLaunch + its few instructions + StoreRetire, the read kernel's is BlockLaunch + its " +
	"instructions + the load's latency, the scale kernel's both; the three lifetimes give BlockLaunch, " +
	"StoreRetire and the load's latency (close to the pointer chase's, which supports the split). A " +
	"retiring block does not wait for its stores to reach DRAM: the write-back L2 takes them. L2 and " +
	"DRAM latencies, BlockLaunch and StoreRetire keep their time in nanoseconds when a machine runs at " +
	"another clock (AtClock). Bus turnarounds: a stream that mixes reads and writes costs the channel " +
	"TurnaroundCost more time per byte with no backlog, half that with a backlog of TurnaroundBacklog; " +
	"the tables' init (stores alone) and read (loads alone) kernels, which reach 95-99 % of the pins " +
	"where the copy reaches 84-89 %, are what the mechanism stands on. DRAMBytesPerCycle stays each " +
	"preset's published sustained bandwidth, taken as the channel's rate with a deep backlog: the " +
	"model's kernel of the published kind at full occupancy moves a little less, the turnarounds its " +
	"stores still cost there."

// A loadCurve is how one part's DRAM latency and turnaround grow with
// load, fitted to that part's copy bandwidth against occupancy (see
// loadedSources): the loaded latency and the queue's service time as
// multiples of the unloaded latency, the turnaround's cost with no
// backlog, and the backlog that halves it in unloaded latencies.
type loadCurve struct {
	ratio, service, cost, backlog float64
}

// The fitted loadCurves. a100Load was fitted on the A100 40GB (of ratios
// 1.5 to 2.2, services 0 to 0.1, costs 0.06 to 0.12 and backlogs of 1 to
// 3 latencies); v100Load and h100PCIeLoad on the V100 PCIe's and H100
// PCIe's own tables (docs/fidelity.md gives their grids).
var (
	a100Load     = loadCurve{ratio: 2, service: 0.03, cost: 0.08, backlog: 2}
	v100Load     = loadCurve{ratio: 2.25, service: 0.02, cost: 0.09, backlog: 0.1}
	h100PCIeLoad = loadCurve{ratio: 2.05, service: 0.005, cost: 0.16, backlog: 0.25}
)

// fitted says, for a preset's Sources, that its loadCurve is c, fitted
// to table.
func (c loadCurve) fitted(table string) string {
	g := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	return "This preset's loadCurve was fitted to " + table + ": a loaded latency " + g(c.ratio) +
		" times the chase, a service time of " + g(c.service) + " of it, a turnaround cost of " +
		g(c.cost) + " halved by a backlog of " + g(c.backlog) + " chases"
}

// withLoadedMemory sets m's memory-under-load figures: the unloaded DRAM
// latency chase (cycles of m's clock), the block launch and store
// retirement, and the rise of the DRAM latency and of the bus
// turnaround's cost with load that curve gives.
func withLoadedMemory(m *Machine, chase, launch, storeRetire int, curve loadCurve) {
	in := func(f float64) int { return int(math.Round(f * float64(chase))) }
	m.DRAMLatency = chase
	m.DRAMLoadedLatency = in(curve.ratio)
	m.DRAMServiceCycles = in(curve.service)
	m.BlockLaunch, m.StoreRetire = launch, storeRetire
	m.TurnaroundCost, m.TurnaroundBacklog = curve.cost, in(curve.backlog)
}

// atClock converts cycles measured at clock from MHz to cycles of clock to.
func atClock(cycles, from, to int) int {
	return int(math.Round(float64(cycles) * float64(to) / float64(from)))
}
