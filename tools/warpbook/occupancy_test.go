package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// goldenSample is a gzip copy of ../../shared/golden/occupancy_sample.csv,
// NVIDIA's reference figures.
const goldenSample = "../../engine/occupancy/testdata/occupancy_sample.csv.gz"

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := dispatch(append([]string{"occupancy"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestOccupancyBatchGolden is the acceptance check:
// "warpbook occupancy --batch < occupancy_sample.csv" reproduces every
// golden output column on every non-exempt row (exempt: group
// edge_other_cc and rows with a prop_override, see the engine's golden
// test).
func TestOccupancyBatchGolden(t *testing.T) {
	f, err := os.Open(goldenSample)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var in bytes.Buffer
	if _, err := in.ReadFrom(z); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCLI(t, in.String(), "--batch")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden, err := csv.NewReader(bytes.NewReader(in.Bytes())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
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

func TestOccupancySingle(t *testing.T) {
	code, out, stderr := runCLI(t, "", "--gpu", "A100", "--threads", "64", "--regs", "33")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"GPU        A100 SXM4 (sm_80, 108 SMs)\n",
		"occupancy  24 blocks per SM, 48 of 64 warps, 75.00 %, limited by registers\n",
		"registers: 33 regs × 32 lanes = 1,056 → 1,280 per warp (256-register granularity); 16,384 per sub-partition ÷ 1,280 = 12 warps; × 4 sub-partitions = 48 warps = 24 blocks of 2 warps\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// --cc picks the capability's preset part.
	code, out2, _ := runCLI(t, "", "--cc", "sm_80", "--threads", "64", "--regs", "33")
	if code != 0 || out2 != out {
		t.Errorf("--cc sm_80 differs from --gpu A100:\n%s", out2)
	}
}

func TestOccupancyJSON(t *testing.T) {
	code, out, stderr := runCLI(t, "", "--gpu", "h100", "--threads", "32", "--barriers", "16", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		GPU struct {
			Name string `json:"name"`
			CC   string `json:"cc"`
		} `json:"gpu"`
		Result struct {
			ActiveBlocks int             `json:"active_blocks"`
			Limiters     []string        `json:"limiters"`
			Limits       map[string]*int `json:"limits"`
		} `json:"result"`
		Explanation []struct {
			Resource string `json:"resource"`
			Text     string `json:"text"`
		} `json:"explanation"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if v.GPU.Name != "H100 SXM5" || v.GPU.CC != "9.0" || v.Result.ActiveBlocks != 4 ||
		strings.Join(v.Result.Limiters, ",") != "blocks,barriers" || v.Result.Limits["registers"] != nil ||
		v.Result.Limits["barriers"] == nil || *v.Result.Limits["barriers"] != 4 || len(v.Explanation) != 6 {
		t.Errorf("unexpected JSON:\n%s", out)
	}
}

func TestOccupancySuggest(t *testing.T) {
	code, out, stderr := runCLI(t, "", "--gpu", "H100", "--suggest", "--regs", "72")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "block size 896 threads\n") || !strings.Contains(out, "at least 132 blocks") {
		t.Errorf("unexpected suggestion:\n%s", out)
	}
	code, out, _ = runCLI(t, "", "--gpu", "RTX 4090", "--suggest", "--regs", "32", "--dyn-smem-per-thread", "64")
	if code != 0 || !strings.Contains(out, "block size 768 threads\n") || !strings.Contains(out, "2 blocks per SM") {
		t.Errorf("unexpected suggestion with shared memory per thread:\n%s", out)
	}
}

func TestOccupancyErrors(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		code  int
		want  string
	}{
		{[]string{"--threads", "64"}, "", 2, "which GPU?"},
		{[]string{"--gpu", "A100"}, "", 2, "--threads must be a positive block size"},
		{[]string{"--gpu", "A100", "--cc", "8.0", "--threads", "64"}, "", 2, "not both"},
		{[]string{"--gpu", "A1000", "--threads", "64"}, "", 1, "did you mean A100 SXM4"},
		{[]string{"--cc", "8.1", "--threads", "64"}, "", 1, "no preset for compute capability 8.1"},
		{[]string{"--gpu", "A100", "--threads", "64", "--carveout", "150"}, "", 1, "carveout 150% is out of range"},
		{[]string{"--gpu", "A100", "--threads", "64", "--cache", "big"}, "", 2, `--cache "big"`},
		{[]string{"--gpu", "A100", "--threads", "64", "extra"}, "", 2, `unexpected argument "extra"`},
		{[]string{"--nope"}, "", 2, "flag provided but not defined"},
		{[]string{"--batch"}, "cc,block_size\n8.0,64\n", 1, `stdin:1: header has no "regs" column`},
		{[]string{"--batch"}, "", 1, "stdin:1: empty input"},
	}
	for _, tt := range tests {
		code, out, stderr := runCLI(t, tt.stdin, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, tt.code, tt.want)
		}
		if code != 0 && out != "" {
			t.Errorf("%v: failed but wrote to stdout: %q", tt.args, out)
		}
	}
}
