package occupancy_test

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// The golden files are results of NVIDIA's cuda_occupancy.h (CUDA 11.8),
// never of this code; testdata/README.md says how they were made.
const (
	sampleFile  = "testdata/occupancy_sample.csv.gz"
	suggestFile = "testdata/blocksize_suggest.csv.gz"
)

// goldenRow is one CSV row with its header, read by column name.
type goldenRow struct {
	line int
	col  map[string]int
	rec  []string
}

// s returns the named column, or "" when the file has no such column.
func (r goldenRow) s(name string) string {
	i, ok := r.col[name]
	if !ok {
		return ""
	}
	return r.rec[i]
}

func (r goldenRow) i(t testing.TB, name string) int {
	t.Helper()
	n, err := strconv.Atoi(r.s(name))
	if err != nil {
		t.Fatalf("line %d: column %s: %v", r.line, name, err)
	}
	return n
}

func (r goldenRow) String() string {
	return fmt.Sprintf("line %d: %s", r.line, strings.Join(r.rec, ","))
}

func readGolden(t testing.TB, path string) []goldenRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(z).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	rows := make([]goldenRow, 0, len(recs)-1)
	for i, rec := range recs[1:] {
		rows = append(rows, goldenRow{line: i + 2, col: col, rec: rec})
	}
	return rows
}

// goldenDevice returns the preset for the row's capability with the row's
// prop_override, if any, applied.
func goldenDevice(row goldenRow) (gpu.Device, error) {
	cc, err := gpu.ParseCC(row.s("cc"))
	if err != nil {
		return gpu.Device{}, err
	}
	d, err := gpu.ForCapability(cc)
	if err != nil {
		return gpu.Device{}, err
	}
	switch o := row.s("prop_override"); o {
	case "":
	case "numSms=0":
		d.SMs = 0
	case "regsPerBlock=0":
		d.RegistersPerBlock = 0
	case "warpSize=0":
		d.WarpSize = 0
	default:
		return gpu.Device{}, fmt.Errorf("unknown prop_override %q", o)
	}
	return d, nil
}

// goldenKernel converts the row's inputs. The second result is false when
// the row's func_max_threads is not positive: the reference rejects such a
// kernel, and Kernel has no way to hold it (zero means "no limit").
func goldenKernel(t testing.TB, row goldenRow) (occupancy.Kernel, bool) {
	t.Helper()
	k := occupancy.Kernel{
		BlockSize:        row.i(t, "block_size"),
		Registers:        row.i(t, "regs"),
		StaticSharedMem:  row.i(t, "static_smem"),
		DynamicSharedMem: row.i(t, "dynamic_smem"),
		Barriers:         row.i(t, "num_barriers"),
	}
	if c := row.i(t, "carveout"); c != -1 {
		k.Carveout = occupancy.CarveoutPercent(c)
	}
	if m := row.i(t, "max_dynamic_smem"); m == 0 {
		k.MaxDynamicSharedMem = occupancy.NoDynamicSharedMem
	} else {
		k.MaxDynamicSharedMem = m
	}
	k.CachePreference = map[string]occupancy.CachePreference{
		"none": occupancy.PreferNone, "prefer_shared": occupancy.PreferShared,
		"prefer_l1": occupancy.PreferL1, "prefer_equal": occupancy.PreferEqual,
	}[row.s("cache_config")]
	k.SharedMemLimit = map[string]occupancy.SharedMemLimit{
		"optin": occupancy.OptInLimit, "default": occupancy.DefaultLimit,
	}[row.s("shmem_limit_config")]
	k.PartitionedGC = map[string]occupancy.PartitionedGC{
		"off": occupancy.PartitionedGCOff, "on": occupancy.PartitionedGCOn, "on_strict": occupancy.PartitionedGCOnStrict,
	}[row.s("gc_config")]
	f := row.i(t, "func_max_threads")
	k.MaxThreadsPerBlock = f
	return k, f > 0
}

// limitText writes a Limit as the golden file does: INT_MAX for no limit.
func limitText(l occupancy.Limit) string {
	if l.Unlimited {
		return strconv.Itoa(math.MaxInt32)
	}
	return strconv.Itoa(l.Blocks)
}

// resultColumns renders r in the golden file's output columns.
func resultColumns(r occupancy.Result) map[string]string {
	return map[string]string{
		"active_blocks":        strconv.Itoa(r.ActiveBlocks),
		"active_warps":         strconv.Itoa(r.ActiveWarps),
		"max_warps":            strconv.Itoa(r.MaxWarps),
		"occupancy_percent":    strconv.FormatFloat(100*r.Occupancy, 'f', 4, 64),
		"limiter":              r.Limiters.String(),
		"limiter_mask":         strconv.Itoa(int(r.Limiters)),
		"limit_warps":          limitText(r.Limits.Warps),
		"limit_regs":           limitText(r.Limits.Registers),
		"limit_smem":           limitText(r.Limits.SharedMem),
		"limit_blocks":         limitText(r.Limits.Blocks),
		"limit_barriers":       limitText(r.Limits.Barriers),
		"alloc_regs_per_block": strconv.Itoa(r.RegistersPerBlock),
		"alloc_smem_per_block": strconv.Itoa(r.SharedMemPerBlock),
		"smem_pref_bytes":      strconv.Itoa(r.SharedMemPreference),
		"gc_effective":         r.PartitionedGC.String(),
		"zero_reason":          r.Obstacles.String(),
	}
}

// TestGoldenSample holds Compute to every row of the reference sample:
// every output column, on every row outside the exempt group
// edge_other_cc (see TestGoldenOtherCapabilities). Rows with a
// prop_override are exempt from the requirement, but they are
// checked here too: the override is applied to the preset, and Compute
// must reject the device just as the reference does.
func TestGoldenSample(t *testing.T) {
	rows := readGolden(t, sampleFile)
	if len(rows) != 23736 {
		t.Fatalf("golden sample has %d rows, want 23,736", len(rows))
	}
	checked, failures := 0, 0
	fail := func(row goldenRow, format string, args ...any) {
		t.Helper()
		failures++
		if failures <= 20 {
			t.Errorf("%v\n\t%s", row, fmt.Sprintf(format, args...))
		}
	}
	for _, row := range rows {
		if row.s("group") == "edge_other_cc" {
			continue
		}
		checked++
		want := row.s("status")
		d, err := goldenDevice(row)
		if err != nil {
			fail(row, "no device: %v", err)
			continue
		}
		k, ok := goldenKernel(t, row)
		if !ok {
			if want != "invalid_input" {
				fail(row, "func_max_threads ≤ 0 but the reference says %s", want)
			}
			continue
		}
		r, err := occupancy.Compute(d, k)
		if want != "ok" {
			if want != "invalid_input" {
				fail(row, "unexpected golden status %q", want)
			} else if err == nil {
				fail(row, "Compute accepted an input the reference rejects: %+v", r)
			}
			continue
		}
		if err != nil {
			fail(row, "Compute: %v", err)
			continue
		}
		for name, got := range resultColumns(r) {
			if w := row.s(name); got != w {
				fail(row, "%s = %q, reference %q", name, got, w)
			}
		}
	}
	if failures > 20 {
		t.Errorf("... and %d more mismatches", failures-20)
	}
	t.Logf("checked %d rows against the reference", checked)
}

// TestGoldenOtherCapabilities documents the exempt edge_other_cc rows. The
// reference (CUDA 11.8) knows 3.x and 5.0 to 9.0 by major number, so it
// computes made-up minors (7.3, 8.1, 9.1) and Kepler 3.5, and rejects 2.0,
// 4.0 and Blackwell. The presets instead know exactly the capabilities of
// real parts from 5.0 on: a capability without a preset is an error
// ("no preset for compute capability"), and Blackwell, which the reference
// cannot know, has presets from the CUDA programming guide. The Blackwell
// answers below were worked out by hand from those presets.
func TestGoldenOtherCapabilities(t *testing.T) {
	want := map[string]string{ // cc → our outcome
		"2.0":  "no preset",
		"3.5":  "no preset",
		"4.0":  "no preset",
		"7.3":  "no preset",
		"8.1":  "no preset",
		"9.1":  "no preset",
		"10.0": "8 blocks registers|warps", // 256 threads, 32 regs: 8 warps/block; 64 warps / 8; 16 warps per sub-partition × 4 / 8
		"12.0": "4 blocks registers",       // 256 threads, 64 regs: 8 per sub-partition × 4 = 32 warps / 8 = 4; warps allow 48/8 = 6
	}
	seen := 0
	for _, row := range readGolden(t, sampleFile) {
		if row.s("group") != "edge_other_cc" {
			continue
		}
		seen++
		cc := row.s("cc")
		w, ok := want[cc]
		if !ok {
			t.Errorf("%v: no expectation for capability %s", row, cc)
			continue
		}
		d, err := goldenDevice(row)
		if err != nil {
			if w != "no preset" || !strings.Contains(err.Error(), "no preset") {
				t.Errorf("%v: %v, want %s", row, err, w)
			}
			continue
		}
		k, _ := goldenKernel(t, row)
		r, err := occupancy.Compute(d, k)
		if err != nil {
			t.Errorf("%v: %v", row, err)
			continue
		}
		got := fmt.Sprintf("%d blocks %s", r.ActiveBlocks, limiterSorted(r.Limiters))
		if got != w {
			t.Errorf("%v: got %s, want %s", row, got, w)
		}
	}
	if seen == 0 {
		t.Skip("the sample holds no edge_other_cc rows")
	}
}

// limiterSorted lists limiter words alphabetically, so expectations read
// the same whatever the bit order.
func limiterSorted(l occupancy.Limiter) string {
	words := strings.Split(l.String(), "|")
	slices.Sort(words)
	return strings.Join(words, "|")
}

// TestGoldenSuggest holds SuggestBlockSize and SuggestBlockSizeFunc to
// every row of the reference's cudaOccMaxPotentialOccupancyBlockSize
// results. No row is exempt.
func TestGoldenSuggest(t *testing.T) {
	rows := readGolden(t, suggestFile)
	if len(rows) != 836 {
		t.Fatalf("golden suggestions: %d rows, want 836", len(rows))
	}
	for _, row := range rows {
		d, err := goldenDevice(row)
		if err != nil {
			t.Errorf("%v: %v", row, err)
			continue
		}
		if d.SMs != row.i(t, "num_sms") {
			t.Errorf("%v: preset has %d SMs, reference %s", row, d.SMs, row.s("num_sms"))
		}
		k := occupancy.Kernel{
			Registers:          row.i(t, "regs"),
			StaticSharedMem:    row.i(t, "static_smem"),
			MaxThreadsPerBlock: row.i(t, "func_max_threads"),
			Barriers:           1,
		}
		if c := row.i(t, "carveout"); c != -1 {
			k.Carveout = occupancy.CarveoutPercent(c)
		}
		var s occupancy.Suggestion
		switch rule := row.s("dynamic_smem"); rule {
		case "8*block_size", "64*block_size", "1024*ceil(block_size/32)":
			// With a rule, the reference's kernel had opted in to the
			// device's whole per-block limit.
			k.MaxDynamicSharedMem = d.SharedMemPerBlockOptIn
			f := map[string]func(int) int{
				"8*block_size":             func(b int) int { return 8 * b },
				"64*block_size":            func(b int) int { return 64 * b },
				"1024*ceil(block_size/32)": func(b int) int { return 1024 * ((b + 31) / 32) },
			}[rule]
			s, err = occupancy.SuggestBlockSizeFunc(d, k, f)
		default:
			n, perr := strconv.Atoi(rule)
			if perr != nil {
				t.Fatalf("%v: dynamic_smem %q", row, rule)
			}
			k.DynamicSharedMem = n
			s, err = occupancy.SuggestBlockSize(d, k)
		}
		if row.s("status") != "ok" {
			if err == nil {
				t.Errorf("%v: accepted an input the reference rejects", row)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", row, err)
			continue
		}
		got := []int{s.MinGridSize, s.BlockSize, s.Result.ActiveBlocks, s.Result.ActiveWarps, s.Result.MaxWarps}
		want := []int{row.i(t, "min_grid_size"), row.i(t, "block_size"), row.i(t, "active_blocks_at_block_size"), row.i(t, "active_warps"), row.i(t, "max_warps")}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%v:\n\tgot  min grid, block, blocks, warps, max warps = %v\n\twant %v", row, got, want)
		}
		if p := strconv.FormatFloat(100*s.Result.Occupancy, 'f', 4, 64); p != row.s("occupancy_percent") {
			t.Errorf("%v: occupancy %s%%, want %s%%", row, p, row.s("occupancy_percent"))
		}
	}
}
