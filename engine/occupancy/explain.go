package occupancy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/engine/gpu"

	numfmt "github.com/warpbook/warpbook/internal/num"
)

// Step is one step of an explanation: the arithmetic behind one limit, in
// words a reader can follow.
type Step struct {
	// Resource names what the step is about, as Result.Limits and
	// Limiter name it: "warps", "registers", "shared_mem", "blocks",
	// "barriers", or "result" for the last step. (Explain writes
	// "shared memory".)
	Resource string `json:"resource"`
	// Text is the arithmetic, one sentence or a few joined by "; ".
	Text string `json:"text"`
	// Limit is the number of blocks per SM the resource allows; for the
	// result step, the answer.
	Limit Limit `json:"limit"`
}

// Explain returns the arithmetic of Compute(d, k) in plain words, one line
// per resource and a last line with the answer, such as
//
//	registers: 33 regs × 32 lanes = 1,056 → 1,280 per warp (256-register granularity); 16,384 per sub-partition ÷ 1,280 = 12 warps; × 4 sub-partitions = 48 warps = 24 blocks of 2 warps
//
// It returns Compute's error for an invalid device or kernel.
func Explain(d gpu.Device, k Kernel) (string, error) {
	steps, err := ExplainSteps(d, k)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, s := range steps {
		b.WriteString(resourceWords(s.Resource))
		b.WriteString(": ")
		b.WriteString(s.Text)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// resourceWords is a step's resource as Explain writes it.
func resourceWords(r string) string {
	if r == "shared_mem" {
		return "shared memory"
	}
	return r
}

// ExplainSteps is Explain as data: one Step per resource, in the order
// warps, registers, shared memory, blocks, barriers, then the result.
func ExplainSteps(d gpu.Device, k Kernel) ([]Step, error) {
	r, err := Compute(d, k)
	if err != nil {
		return nil, err
	}
	steps := []Step{
		{"warps", explainWarps(d, k, r), r.Limits.Warps},
		{"registers", explainRegisters(d, k, r), r.Limits.Registers},
		{"shared_mem", explainSharedMem(d, k, r), r.Limits.SharedMem},
		{"blocks", fmt.Sprintf("the SM holds at most %s blocks", num(d.MaxBlocksPerSM)), r.Limits.Blocks},
		{"barriers", explainBarriers(d, k, r), r.Limits.Barriers},
		{"result", explainResult(r), Blocks(r.ActiveBlocks)},
	}
	return steps, nil
}

func explainWarps(d gpu.Device, k Kernel, r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s threads ÷ %d = %s %s per block", num(k.BlockSize), d.WarpSize, num(r.WarpsPerBlock), plural(r.WarpsPerBlock, "warp", "warps"))
	if k.BlockSize%d.WarpSize != 0 {
		b.WriteString(" (rounded up: a partial warp takes a whole warp slot)")
	}
	switch {
	case r.Obstacles.Has(BlockTooLarge):
		fmt.Fprintf(&b, "; a block of %s threads is over the device's limit of %s threads per block: 0 blocks", num(k.BlockSize), num(d.MaxThreadsPerBlock))
	case r.PartitionedGC != PartitionedGCOff:
		half := r.MaxWarps / 2
		fmt.Fprintf(&b, "; partitioned global caching confines a block to half the SM: %s warp slots per half ÷ %s = %s, × 2 halves = %s blocks",
			num(half), num(r.WarpsPerBlock), num(half/r.WarpsPerBlock), r.Limits.Warps)
	default:
		fmt.Fprintf(&b, "; %s warp slots per SM ÷ %s = %s blocks", num(r.MaxWarps), num(r.WarpsPerBlock), r.Limits.Warps)
	}
	return b.String()
}

func explainRegisters(d gpu.Device, k Kernel, r Result) string {
	if k.Registers > d.MaxRegistersPerThread {
		return fmt.Sprintf("%s registers per thread is over the device's maximum of %s: 0 blocks", num(k.Registers), num(d.MaxRegistersPerThread))
	}
	if k.Registers == 0 {
		return "the kernel uses no registers: no limit"
	}
	var b strings.Builder
	raw := k.Registers * d.WarpSize
	fmt.Fprintf(&b, "%s regs × %d lanes = %s", num(k.Registers), d.WarpSize, num(raw))
	if raw == r.RegistersPerWarp {
		fmt.Fprintf(&b, " per warp (a multiple of the %s-register granularity)", num(d.RegisterAllocUnit))
	} else {
		fmt.Fprintf(&b, " → %s per warp (%s-register granularity)", num(r.RegistersPerWarp), num(d.RegisterAllocUnit))
	}
	switch {
	case r.Obstacles.Has(TooManyRegistersPerBlock):
		fmt.Fprintf(&b, "; × %s warps = %s per block, over the limit of %s registers per block: 0 blocks",
			num(r.WarpsPerBlock), num(r.RegistersPerBlock), num(d.RegistersPerBlock))
		return b.String()
	case r.Obstacles.Has(SubPartitionRounding):
		rounded := roundUp(r.WarpsPerBlock, d.SubPartitions)
		fmt.Fprintf(&b, "; × %s warps = %s per block fits the limit of %s registers per block, but the hardware checks it with the warps rounded up to a multiple of %d sub-partitions: %s × %s = %s, over the limit: 0 blocks",
			num(r.WarpsPerBlock), num(r.RegistersPerBlock), num(d.RegistersPerBlock), d.SubPartitions,
			num(rounded), num(r.RegistersPerWarp), num(rounded*r.RegistersPerWarp))
		return b.String()
	}
	perSub := d.RegistersPerSM / d.SubPartitions
	warpsPerSub := perSub / r.RegistersPerWarp
	fmt.Fprintf(&b, "; %s per sub-partition ÷ %s = %s %s", num(perSub), num(r.RegistersPerWarp), num(warpsPerSub), plural(warpsPerSub, "warp", "warps"))
	if r.PartitionedGC != PartitionedGCOff || r.Obstacles.Has(PartitionedGCHalfSM) {
		half := d.SubPartitions / 2
		fmt.Fprintf(&b, "; partitioned global caching confines a block to half the SM: × %d sub-partitions = %s warps per half ÷ %s = %s, × 2 halves = %s blocks",
			half, num(warpsPerSub*half), num(r.WarpsPerBlock), num(warpsPerSub*half/r.WarpsPerBlock), r.Limits.Registers)
	} else {
		warps := warpsPerSub * d.SubPartitions
		fmt.Fprintf(&b, "; × %d sub-partitions = %s warps = %s %s of %s %s",
			d.SubPartitions, num(warps), num(warps/r.WarpsPerBlock), plural(warps/r.WarpsPerBlock, "block", "blocks"),
			num(r.WarpsPerBlock), plural(r.WarpsPerBlock, "warp", "warps"))
		if k.PartitionedGC != PartitionedGCOff && d.PartitionedGlobalCaching {
			b.WriteString(" (partitioned global caching was turned off: not one block fits in half an SM)")
		}
	}
	if r.Obstacles.Has(GP10xCrossCheck) {
		b.WriteString("; but with the 4 sub-partitions of the other Pascal chips not one block fits, and the reference refuses what would not run on every Pascal part: 0 blocks")
	}
	return b.String()
}

func explainSharedMem(d gpu.Device, k Kernel, r Result) string {
	var b strings.Builder
	total := k.StaticSharedMem + d.ReservedSharedMemPerBlock + k.DynamicSharedMem
	fmt.Fprintf(&b, "%s static + %s reserved + %s dynamic = %s bytes", num(k.StaticSharedMem), num(d.ReservedSharedMemPerBlock), num(k.DynamicSharedMem), num(total))
	switch {
	case total == 0:
		b.WriteString(" per block")
	case total == r.SharedMemPerBlock:
		fmt.Fprintf(&b, " per block (a multiple of the %s-byte granularity)", num(d.SharedMemAllocUnit))
	default:
		fmt.Fprintf(&b, " → %s per block (%s-byte granularity)", num(r.SharedMemPerBlock), num(d.SharedMemAllocUnit))
	}
	switch {
	case r.Obstacles.Has(DynamicSharedMemOverAttribute):
		fmt.Fprintf(&b, "; the launch's %s bytes of dynamic shared memory are over the kernel's maximum dynamic shared memory attribute of %s bytes: 0 blocks",
			num(k.DynamicSharedMem), num(k.maxDynamic()))
		return b.String()
	case r.Obstacles.Has(SharedMemPerBlockExceeded):
		limit, optIn := sharedMemBlockLimit(&d, &k)
		which := "default"
		if optIn {
			which = "opt-in"
		}
		fmt.Fprintf(&b, "; over the %s per-block limit of %s + %s reserved = %s bytes: 0 blocks",
			which, num(limit), num(d.ReservedSharedMemPerBlock), num(limit+d.ReservedSharedMemPerBlock))
		return b.String()
	}
	b.WriteString("; ")
	b.WriteString(explainPreference(d, k, r))
	if r.SharedMemConfig != r.SharedMemPreference {
		fmt.Fprintf(&b, "; that is too small for one block, so the SM is configured with the smallest size that holds one, %s bytes", num(r.SharedMemConfig))
	}
	if r.SharedMemPerBlock == 0 {
		b.WriteString("; a block uses none: no limit")
		return b.String()
	}
	fmt.Fprintf(&b, "; %s ÷ %s = %s blocks", num(r.SharedMemConfig), num(r.SharedMemPerBlock), r.Limits.SharedMem)
	return b.String()
}

func explainPreference(d gpu.Device, k Kernel, r Result) string {
	if d.SharedMemCapacities == nil {
		return fmt.Sprintf("the SM has a fixed %s bytes of shared memory", num(d.SharedMemPerSM))
	}
	pct, set := k.carveout()
	if !set {
		return fmt.Sprintf("no carveout preference: the SM is configured with its largest size, %s bytes", num(r.SharedMemPreference))
	}
	source := fmt.Sprintf("carveout %d%%", pct)
	if _, explicit := k.Carveout.Percent(); !explicit {
		source = fmt.Sprintf("cache preference %s (%s)", k.CachePreference, source)
	}
	asked := pct * d.SharedMemPerSM / 100
	if asked == r.SharedMemPreference {
		return fmt.Sprintf("%s of %s = %s bytes per SM, a supported size", source, num(d.SharedMemPerSM), num(asked))
	}
	return fmt.Sprintf("%s of %s = %s bytes per SM, rounded up to the supported size %s", source, num(d.SharedMemPerSM), num(asked), num(r.SharedMemPreference))
}

func explainBarriers(d gpu.Device, k Kernel, r Result) string {
	switch {
	case d.BarriersPerSM == 0:
		return "barriers do not limit occupancy on this architecture: no limit"
	case k.Barriers == 0:
		return "the kernel uses no block barriers: no limit"
	}
	return fmt.Sprintf("%s barriers per SM ÷ %s per block = %s blocks", num(d.BarriersPerSM), num(k.Barriers), r.Limits.Barriers)
}

func explainResult(r Result) string {
	if r.ActiveBlocks == 0 {
		var why []string
		for i, w := range obstacleWords {
			if r.Obstacles&(1<<i) != 0 {
				why = append(why, w)
			}
		}
		return "not one block fits (" + strings.Join(why, "; ") + "): 0 % occupancy"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the smallest limit is %s %s, set by %s; %s × %s %s = %s of %s warp slots = %s occupancy",
		num(r.ActiveBlocks), plural(r.ActiveBlocks, "block", "blocks"), limiterWords(r), num(r.ActiveBlocks), num(r.WarpsPerBlock),
		plural(r.WarpsPerBlock, "warp", "warps"), num(r.ActiveWarps), num(r.MaxWarps), percent(r.Occupancy))
	return b.String()
}

// obstacleWords describes each Obstacle bit, in bit order.
var obstacleWords = []string{
	"the block is larger than the device allows",
	"too many registers per thread",
	"too many registers per block",
	"too many registers per block once warps are rounded to the sub-partitions",
	"too many registers for the other Pascal chips",
	"partitioned global caching leaves only half an SM",
	"too much shared memory per block",
	"more dynamic shared memory than the kernel's attribute allows",
	"more barriers than an SM has",
}

// limiterWords names the limiting resources, noting the reference's stale
// flags when barriers lowered the answer.
func limiterWords(r Result) string {
	words := strings.Split(strings.ReplaceAll(r.Limiters.String(), "_", " "), "|")
	if r.Limiters.Has(LimitBarriers) && r.Limits.Barriers.less(r.Limits.beforeBarriers()) {
		var stale []string
		for _, w := range words {
			if w != "barriers" {
				stale = append(stale, w)
			}
		}
		if len(stale) > 0 {
			return "barriers (the reference also flags " + strings.Join(stale, " and ") + ", set before barriers lowered the answer)"
		}
	}
	return strings.Join(words, " and ")
}

// percent formats a fraction as a percentage with at most two decimals:
// "75 %", "37.5 %", "78.13 %".
func percent(f float64) string {
	s := strconv.FormatFloat(100*f, 'f', 2, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	return s + " %"
}

// num formats n with thousands separators, 16,384.
func num(n int) string { return numfmt.Int(n) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
