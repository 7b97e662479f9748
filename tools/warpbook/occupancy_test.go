package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"os"
	"strings"
	"testing"
)

// goldenSample is NVIDIA's reference sample (see
// engine/occupancy/testdata/README.md).
const goldenSample = "../../engine/occupancy/testdata/occupancy_sample.csv.gz"

// TestOccupancyBatchGolden is the acceptance check:
// "warpbook occupancy --batch < occupancy_sample.csv" reproduces every
// golden output column on every non-exempt row (exempt: group
// edge_other_cc and rows with a prop_override, see the engine's golden
// test).
func TestOccupancyBatchGolden(t *testing.T) {
	f, err := os.Open(goldenSample)
	noErr(t, err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	noErr(t, err)
	var in bytes.Buffer
	if _, err := in.ReadFrom(z); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, in.String(), "occupancy", "--batch")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden, err := csv.NewReader(bytes.NewReader(in.Bytes())).ReadAll()
	noErr(t, err)
	got, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	noErr(t, err)
	if len(got) != len(golden) {
		t.Fatalf("%d lines out, %d in", len(got), len(golden))
	}
	gi, oi := map[string]int{}, map[string]int{}
	for i, h := range golden[0] {
		gi[h] = i
	}
	for i, h := range got[0] {
		oi[h] = i
	}
	outputs := []string{"status", "active_blocks", "active_warps", "max_warps", "occupancy_percent", "limiter",
		"limiter_mask", "limit_warps", "limit_regs", "limit_smem", "limit_blocks", "limit_barriers",
		"alloc_regs_per_block", "alloc_smem_per_block", "smem_pref_bytes", "gc_effective", "zero_reason"}
	for _, c := range outputs {
		if _, ok := oi[c]; !ok {
			t.Fatalf("output has no %s column", c)
		}
	}
	checked, bad := 0, 0
	for n := 1; n < len(golden); n++ {
		g, o := golden[n], got[n]
		if g[gi["group"]] == "edge_other_cc" || g[gi["prop_override"]] != "" {
			continue
		}
		checked++
		for _, c := range outputs {
			if g[gi[c]] != o[oi[c]] {
				bad++
				if bad <= 10 {
					t.Errorf("line %d: %s = %q, reference %q", n+1, c, o[oi[c]], g[gi[c]])
				}
			}
		}
	}
	if bad > 0 || checked < 23000 {
		t.Errorf("%d mismatches over %d rows checked", bad, checked)
	}
}
