package sim

import (
	"fmt"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// occupancyInfo is how many blocks the simulated SM runs and holds at once.
type occupancyInfo struct {
	limit      int    // resident blocks per SM that occupancy allows
	limiter    string // what sets limit
	resident   int    // resident blocks used: min(limit, Launch.Resident, blocksOnSM)
	blocksOnSM int    // blocks of the grid dealt to the simulated SM
	source     string // how limit was found
}

// residency decides the resident blocks of a launch on m: engine/occupancy
// on the machine's part when engine/gpu knows it, the machine's warp and
// block slots otherwise.
func residency(m Machine, l Launch) (occupancyInfo, error) {
	wpb := (l.Block + 31) / 32
	if wpb > m.MaxWarps {
		return occupancyInfo{}, fmt.Errorf("a block of %d threads (%d warps) does not fit in %s's %d warp slots", l.Block, wpb, m.Name, m.MaxWarps)
	}
	info := occupancyInfo{blocksOnSM: (l.Blocks + m.SMs - 1) / m.SMs}
	info.limit, info.limiter, info.source = presetLimit(m, wpb)
	if m.Part != "" {
		if d, err := gpu.Lookup(m.Part); err == nil {
			r, err := occupancy.Compute(d, occupancy.Kernel{BlockSize: l.Block, Registers: l.Regs, StaticSharedMem: l.Smem})
			if err != nil {
				return occupancyInfo{}, fmt.Errorf("occupancy on %s: %w", d.Name, err)
			}
			if r.ActiveBlocks == 0 {
				return occupancyInfo{}, fmt.Errorf("no block of this launch fits on a %s SM: %v", d.Name, r.Obstacles)
			}
			// The machine may have been edited to hold fewer warps than the
			// part: its slots still bound what can be resident.
			if r.ActiveBlocks <= info.limit {
				info.limit = r.ActiveBlocks
				info.limiter = r.Limiters.String()
			}
			info.source = "engine/occupancy on " + d.Name
		} else {
			info.source = fmt.Sprintf("%s's warp and block slots (engine/gpu has no %q; registers and shared memory not counted)", m.Name, m.Part)
		}
	}
	info.resident = info.limit
	if l.Resident > 0 && l.Resident < info.resident {
		info.resident = l.Resident
	}
	info.resident = min(info.resident, info.blocksOnSM)
	return info, nil
}

// presetLimit is the resident-block limit from the machine's warp and block
// slots alone.
func presetLimit(m Machine, wpb int) (int, string, string) {
	src := m.Name + "'s warp and block slots (registers and shared memory not counted)"
	byWarps := m.MaxWarps / wpb
	if m.MaxBlocks <= byWarps {
		return m.MaxBlocks, "blocks", src
	}
	return byWarps, "warps", src
}
