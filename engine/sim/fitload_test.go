package sim

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var (
	fitLoad     = flag.String("fitload", "", "grid-fit the loadCurve of this preset (volta, ampere, h800) to its Ernst copy curve (TestFitLoadCurve)")
	fitLoadGrid = flag.String("fitgrid", "1.8,2,2.2;0,0.03,0.06;0.06,0.08,0.1;1,2,3", "the grid of TestFitLoadCurve: ratios;services;costs;backlogs, each a comma-separated list")
)

// TestFitLoadCurve is how the presets' loadCurves were fitted: run with
// -fitload volta (and -fitgrid), it tries every loadCurve of the grid on
// the part's Ernst copy curve and logs the best 20, most points in band
// first, then least squared distance from the bands' middles. Without
// -fitload it is skipped.
func TestFitLoadCurve(t *testing.T) {
	if *fitLoad == "" {
		t.Skip("no -fitload preset")
	}
	i := slices.IndexFunc(ernstParts, func(e ernstPart) bool { return e.arch == *fitLoad && e.fitted })
	if i < 0 {
		t.Fatalf("-fitload %q: no Ernst table that preset was fitted to", *fitLoad)
	}
	e := ernstParts[i]
	axes := strings.Split(*fitLoadGrid, ";")
	if len(axes) != 4 {
		t.Fatalf("-fitgrid %q: want four ;-separated lists", *fitLoadGrid)
	}
	var grid [4][]float64
	for k, axis := range axes {
		for _, f := range strings.Split(axis, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				t.Fatalf("-fitgrid: %v", err)
			}
			grid[k] = append(grid[k], v)
		}
	}
	type trial struct {
		c    loadCurve
		in   int
		sq   float64
		line string
	}
	var trials []trial
	for _, r := range grid[0] {
		for _, s := range grid[1] {
			for _, c := range grid[2] {
				for _, b := range grid[3] {
					curve := loadCurve{ratio: r, service: s, cost: c, backlog: b}
					p := e
					p.preset = func() Machine {
						m := e.preset()
						withLoadedMemory(&m, m.DRAMLatency, m.BlockLaunch, m.StoreRetire, curve)
						return m
					}
					m := p.machine(t)
					x := trial{c: curve}
					for _, b := range []int{64, 128, 256, 384, 512, 768} {
						lo, hi := e.band(b)
						v := math3(p.copyShare(t, m, b))
						if v >= lo && v <= hi {
							x.in++
						}
						x.sq += math.Pow(v-(lo+hi)/2, 2)
						x.line += fmt.Sprintf(" %d:%.3f[%.3f-%.3f]", b, v, lo, hi)
					}
					trials = append(trials, x)
				}
			}
		}
	}
	slices.SortFunc(trials, func(a, b trial) int {
		return cmp.Or(cmp.Compare(b.in, a.in), cmp.Compare(a.sq, b.sq))
	})
	for _, x := range trials[:min(20, len(trials))] {
		t.Logf("%+v: %d in band, %.5f%s", x.c, x.in, x.sq, x.line)
	}
}
