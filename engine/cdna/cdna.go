// Package cdna holds the vector-register rules of AMD's CDNA accelerators
// (Instinct MI100, MI200 and MI300) and the limit they put on wavefronts
// per SIMD, the AMD counterpart of engine/occupancy's register limit.
//
// A CDNA compute unit has four SIMDs; a wavefront of 64 work-items stays
// on one SIMD, whose vector register file is split between the waves
// resident on it. A wave's vector registers (VGPRs, plus on the MI200 and
// MI300 the matrix cores' accumulation registers, AGPRs, which share the
// file) are allocated in granules, and the SIMD holds at most a fixed
// number of waves:
//
//	waves = min(maximum, ⌊registers per lane ÷ allocation⌋)
//
// # Where the figures come from
//
// LLVM's AMDGPU back end, which compiles HIP for these parts
// (lib/Target/AMDGPU/Utils/AMDGPUBaseInfo.cpp: getTotalNumVGPRs,
// getVGPRAllocGranule, getMaxWavesPerEU, getNumWavesPerEUWithNumVGPRs):
// gfx90a (MI200) and gfx942 (MI300) have 512 registers per lane per SIMD,
// a granule of 8 and at most 8 waves per SIMD, and count a kernel's AGPRs
// after its VGPRs rounded up to 4 (the accumulation offset); gfx908
// (MI100) has 256 VGPRs per lane, a granule of 4, at most 10 waves, and
// its AGPRs in a separate file of the same size, so the larger of the two
// counts decides. The compiler's own reports agree: LLVM's test
// agpr-register-count.ll prints, for 40 VGPRs and 16 AGPRs, 56 total and
// 8 waves on gfx90a, 40 and 6 waves on gfx908 (see the tests). The ROCm
// Compute Profiler's documentation gives the same wave slots (8 on the
// MI200 and MI300, 10 on the MI100).
package cdna

import (
	"fmt"
	"sort"
	"strings"
)

// Target is one CDNA instruction-set target's register rules.
type Target struct {
	// Name is LLVM's name of the target ("gfx90a").
	Name string
	// Parts names the products built on it ("MI250X").
	Parts []string
	// Architecture is "CDNA 1", "CDNA 2" or "CDNA 3".
	Architecture string
	// WaveSize is the work-items of a wavefront (64).
	WaveSize int
	// SIMDs is the SIMD units of a compute unit (4).
	SIMDs int
	// RegistersPerLane is the vector register file of one SIMD, in 32-bit
	// registers per lane: VGPRs and AGPRs together when UnifiedAGPRs.
	RegistersPerLane int
	// Granule is the allocation unit of a wave's registers, per lane.
	Granule int
	// MaxWaves is the wavefront slots of one SIMD.
	MaxWaves int
	// UnifiedAGPRs reports that AGPRs come out of the same file as VGPRs
	// (gfx90a on); otherwise they are a file of their own, as large.
	UnifiedAGPRs bool
}

// targets lists the presets. See the package documentation for sources.
func targets() []Target {
	return []Target{
		{Name: "gfx908", Parts: []string{"MI100"}, Architecture: "CDNA 1", WaveSize: 64, SIMDs: 4, RegistersPerLane: 256, Granule: 4, MaxWaves: 10},
		{Name: "gfx90a", Parts: []string{"MI210", "MI250", "MI250X"}, Architecture: "CDNA 2", WaveSize: 64, SIMDs: 4, RegistersPerLane: 512, Granule: 8, MaxWaves: 8, UnifiedAGPRs: true},
		{Name: "gfx942", Parts: []string{"MI300X", "MI300A", "MI325X"}, Architecture: "CDNA 3", WaveSize: 64, SIMDs: 4, RegistersPerLane: 512, Granule: 8, MaxWaves: 8, UnifiedAGPRs: true},
	}
}

// Targets returns every preset target, oldest first.
func Targets() []Target { return targets() }

// Lookup returns the target named by an LLVM target ("gfx942") or a part
// ("MI300X", "mi250x"), ignoring case and spaces.
func Lookup(name string) (Target, error) {
	key := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(name), " ", ""))
	var known []string
	for _, t := range targets() {
		if t.Name == key {
			return t, nil
		}
		known = append(known, t.Name)
		for _, p := range t.Parts {
			if strings.ToLower(p) == key {
				return t, nil
			}
			known = append(known, p)
		}
	}
	sort.Strings(known)
	return Target{}, fmt.Errorf("cdna: unknown target %q (known: %s)", name, strings.Join(known, ", "))
}

// Allocated returns the registers per lane a wave of a kernel using vgprs
// VGPRs and agprs AGPRs is allocated: with unified AGPRs, the VGPRs
// rounded up to 4, plus the AGPRs; otherwise the larger count; then
// rounded up to the granule (at least one granule).
func (t Target) Allocated(vgprs, agprs int) (int, error) {
	if vgprs < 0 || agprs < 0 {
		return 0, fmt.Errorf("cdna: register counts must not be negative, got %d VGPRs and %d AGPRs", vgprs, agprs)
	}
	limit := t.RegistersPerLane
	if t.UnifiedAGPRs {
		limit /= 2
	}
	if vgprs > limit || agprs > limit {
		return 0, fmt.Errorf("cdna: %s allows at most %d VGPRs and %d AGPRs, got %d and %d", t.Name, limit, limit, vgprs, agprs)
	}
	total := max(vgprs, agprs)
	if t.UnifiedAGPRs {
		total = roundUp(vgprs, 4) + agprs
		if agprs == 0 {
			total = vgprs
		}
	}
	return max(t.Granule, roundUp(total, t.Granule)), nil
}

// Waves returns the wavefronts one SIMD can hold as far as vector
// registers allow.
func (t Target) Waves(vgprs, agprs int) (int, error) {
	a, err := t.Allocated(vgprs, agprs)
	if err != nil {
		return 0, err
	}
	return min(t.MaxWaves, t.RegistersPerLane/a), nil
}

// ExplainWaves returns Waves' arithmetic in words, one step per line.
func (t Target) ExplainWaves(vgprs, agprs int) ([]string, error) {
	a, err := t.Allocated(vgprs, agprs)
	if err != nil {
		return nil, err
	}
	var steps []string
	switch {
	case t.UnifiedAGPRs && agprs > 0:
		steps = append(steps, fmt.Sprintf("%s counts AGPRs in the VGPR file, after the VGPRs rounded up to 4: %d + %d = %d registers per lane",
			t.Name, roundUp(vgprs, 4), agprs, roundUp(vgprs, 4)+agprs))
	case !t.UnifiedAGPRs && agprs > 0:
		steps = append(steps, fmt.Sprintf("%s keeps AGPRs in a file of their own: the larger of %d VGPRs and %d AGPRs, %d, decides", t.Name, vgprs, agprs, max(vgprs, agprs)))
	default:
		steps = append(steps, fmt.Sprintf("%d VGPRs per lane", vgprs))
	}
	steps = append(steps, fmt.Sprintf("allocated in granules of %d: %d registers per lane per wave", t.Granule, a))
	n := t.RegistersPerLane / a
	w := min(n, t.MaxWaves)
	if n > t.MaxWaves {
		steps = append(steps, fmt.Sprintf("%d ÷ %d = %d, more than the SIMD's %d wave slots: %d waves per SIMD", t.RegistersPerLane, a, n, t.MaxWaves, w))
	} else {
		steps = append(steps, fmt.Sprintf("%d registers per lane ÷ %d = %d waves per SIMD (of %d slots)", t.RegistersPerLane, a, w, t.MaxWaves))
	}
	return steps, nil
}

func roundUp(n, unit int) int { return (n + unit - 1) / unit * unit }
