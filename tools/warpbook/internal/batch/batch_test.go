package batch_test

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/tools/warpbook/internal/batch"
)

// golden returns the reference sample (engine/occupancy/testdata; its
// README.md says where it comes from).
func golden(t testing.TB) []byte {
	t.Helper()
	f, err := os.Open("../../../../engine/occupancy/testdata/occupancy_sample.csv.gz")
	noErr(t, err)
	defer f.Close()
	z, err := gzip.NewReader(f)
	noErr(t, err)
	var b bytes.Buffer
	if _, err := b.ReadFrom(z); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readAll(t testing.TB, b []byte) ([]string, [][]string) {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	noErr(t, err)
	return recs[0], recs[1:]
}

func index(header []string) map[string]int {
	m := map[string]int{}
	for i, h := range header {
		m[h] = i
	}
	return m
}

// noErr fails t on err.
func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestGoldenSample feeds the whole reference sample through Run and
// compares every golden output column on every non-exempt row (exempt:
// group edge_other_cc and rows with a prop_override; the engine's own
// golden test says how those behave).
func TestGoldenSample(t *testing.T) {
	in := golden(t)
	var out bytes.Buffer
	noErr(t, batch.Run(bytes.NewReader(in), &out))
	compareGolden(t, in, out.Bytes())
}

// compareGolden compares out, the output of Run on the golden sample in,
// with in column by column. The CLI test uses the same comparison.
func compareGolden(t *testing.T, in, out []byte) {
	gh, grows := readAll(t, in)
	oh, orows := readAll(t, out)
	gi, oi := index(gh), index(oh)
	if len(grows) != len(orows) {
		t.Fatalf("%d rows in, %d out", len(grows), len(orows))
	}
	var outputs []string
	for _, c := range batch.OutputColumns() {
		if _, ok := gi[c]; ok {
			outputs = append(outputs, c)
		}
	}
	if len(outputs) != 17 {
		t.Fatalf("only %d of the golden output columns are produced: %v", len(outputs), outputs)
	}
	checked, bad := 0, 0
	for n, g := range grows {
		o := orows[n]
		// Input columns pass through.
		for _, c := range []string{"group", "device_id", "cc", "block_size", "regs"} {
			if g[gi[c]] != o[oi[c]] {
				t.Fatalf("row %d: column %s changed from %q to %q", n+2, c, g[gi[c]], o[oi[c]])
			}
		}
		if g[gi["group"]] == "edge_other_cc" || g[gi["prop_override"]] != "" {
			continue
		}
		checked++
		for _, c := range outputs {
			if g[gi[c]] != o[oi[c]] {
				bad++
				if bad <= 20 {
					t.Errorf("line %d (%s): %s = %q, reference %q (message %q)", n+2, strings.Join(g[:15], ","), c, o[oi[c]], g[gi[c]], o[oi["message"]])
				}
			}
		}
		if (g[gi["status"]] == "ok") != (o[oi["message"]] == "") {
			t.Errorf("line %d: status %s with message %q", n+2, o[oi["status"]], o[oi["message"]])
		}
	}
	if bad > 20 {
		t.Errorf("... %d mismatches in all", bad)
	}
	if checked < 23000 {
		t.Errorf("only %d rows checked", checked)
	}
}

func run(t *testing.T, in string) (map[string]int, [][]string) {
	t.Helper()
	var out bytes.Buffer
	noErr(t, batch.Run(strings.NewReader(in), &out))
	h, rows := readAll(t, out.Bytes())
	return index(h), rows
}

// TestDefaults checks that missing optional columns take the golden
// sample's defaults and that a gpu column works.
func TestDefaults(t *testing.T) {
	cols, rows := run(t, "gpu,cc,block_size,regs,note\nA100,,64,33,textbook\n,8.0,64,33,by cc\nh100 sxm,,128,0,\n")
	want := []struct{ blocks, limiter, note string }{
		{"24", "registers", "textbook"},
		{"24", "registers", "by cc"},
		{"16", "warps", ""},
	}
	for i, w := range want {
		r := rows[i]
		if r[cols["status"]] != "ok" || r[cols["active_blocks"]] != w.blocks || r[cols["limiter"]] != w.limiter || r[cols["note"]] != w.note {
			t.Errorf("row %d: %v", i, r)
		}
	}
	// 1 barrier is the default: on Hopper it allows 64 blocks.
	if got := rows[2][cols["limit_barriers"]]; got != "64" {
		t.Errorf("H100 limit_barriers = %s, want 64 (one barrier by default)", got)
	}
}

// TestBadRows checks that a bad row is marked and the rest still runs.
func TestBadRows(t *testing.T) {
	in := "cc,block_size,regs,carveout,cache_config,func_max_threads\n" +
		"8.0,256,32,-1,none,1024\n" +
		"8.0,abc,32,-1,none,1024\n" +
		"8.0,256,32,101,none,1024\n" +
		"8.0,256,32,-1,prefer_nothing,1024\n" +
		"8.0,256,32,-1,none,0\n" +
		"2.0,256,32,-1,none,1024\n" +
		"8.0,0,32,-1,none,1024\n" +
		"8.0,256,32\n" +
		"sm_86,256,32,-1,none,1024\n"
	cols, rows := run(t, in)
	want := []struct{ status, msg string }{
		{"ok", ""},
		{"invalid_input", `line 3: block_size "abc" is not a 32-bit integer`},
		{"invalid_input", "line 4: occupancy: carveout 101% is out of range"},
		{"invalid_input", `line 5: cache_config "prefer_nothing"`},
		{"invalid_input", "line 6: func_max_threads must be positive"},
		{"unknown_device", "line 7: gpu: no preset for compute capability 2.0"},
		{"invalid_input", "line 8: occupancy: block size must be positive"},
		{"invalid_input", "line 9: row has 3 fields, header has 6"},
		{"ok", ""},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows out, want %d", len(rows), len(want))
	}
	for i, w := range want {
		r := rows[i]
		if r[cols["status"]] != w.status || !strings.HasPrefix(r[cols["message"]], w.msg) {
			t.Errorf("row %d: status %q message %q; want %q, %q", i, r[cols["status"]], r[cols["message"]], w.status, w.msg)
		}
		if w.status != "ok" && r[cols["active_blocks"]] != "" {
			t.Errorf("row %d: failed row has results: %v", i, r)
		}
	}
}

func TestHeaderErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":                                  "line 1: empty input",
		"cc,regs\n8.0,32\n":                 `line 1: header has no "block_size" column`,
		"block_size,regs\n32,32\n":          `line 1: header has neither a "cc" nor a "gpu" column`,
		"cc,block\"_size,regs\n8.0,32,32\n": `line 1: column 9: malformed CSV header: bare " in non-quoted-field`,
	} {
		var out bytes.Buffer
		err := batch.Run(strings.NewReader(in), &out)
		var be *batch.Error
		if err == nil || !errors.As(err, &be) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Run(%q) = %v, want an *Error starting %q", in, err, want)
		}
	}
}

// TestMalformedRows checks that a row that is not well-formed CSV is that
// row's error, at its line and column, and that every other row is still
// computed: before, one bad quote stopped the whole batch.
func TestMalformedRows(t *testing.T) {
	long := "8.0,256,32," + strings.Repeat("x", 70000) + "\n"
	in := "cc,block_size,regs,note\n" +
		"8.0,256,32,first\n" +
		"8.0,25\"6,32,bare quote\n" +
		"8.0,256,32,\"a quoted\nline break\"\n" +
		"8.0,\"256\"x,32,extraneous quote\n" +
		"\n" +
		"8.0,256,32,after an empty line\r\n" +
		long +
		"8.0,\"256,32,never closed\n" +
		"8.0,128,32,last\n"
	cols, rows := run(t, in)
	want := []struct{ status, msg, note string }{
		{"ok", "", "first"},
		{"invalid_input", `line 3, column 7: malformed CSV: bare " in non-quoted-field`, "bare quote"},
		{"ok", "", "a quoted\nline break"},
		{"invalid_input", `line 6, column 9: malformed CSV: extraneous or missing " in quoted-field`, ""},
		{"ok", "", "after an empty line"},
		{"invalid_input", "line 9: row longer than 64 KiB, the limit", ""},
		{"invalid_input", `line 10, column 26: malformed CSV: extraneous or missing " in quoted-field`, ""},
		{"ok", "", "last"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows out, want %d: %q", len(rows), len(want), rows)
	}
	for i, w := range want {
		r := rows[i]
		if r[cols["status"]] != w.status || r[cols["message"]] != w.msg || w.note != "" && r[cols["note"]] != w.note {
			t.Errorf("row %d: status %q message %q note %q; want %q, %q, %q", i, r[cols["status"]], r[cols["message"]], r[cols["note"]], w.status, w.msg, w.note)
		}
		if w.status == "ok" && r[cols["active_blocks"]] == "" {
			t.Errorf("row %d: no result: %v", i, r)
		}
	}
	// The lenient reading keeps what it can of a malformed row's columns.
	if got := rows[1][cols["cc"]]; got != "8.0" {
		t.Errorf("malformed row's cc column = %q, want 8.0", got)
	}
}

// zeros reads as an endless stream of zero bytes, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestEndlessInput checks that input without end (/dev/zero) stops at the
// limit on the input with an error, instead of filling memory.
func TestEndlessInput(t *testing.T) {
	for name, in := range map[string]io.Reader{
		"header":    zeros{},
		"after one": io.MultiReader(strings.NewReader("cc,block_size,regs\n8.0,256,32\n"), zeros{}),
	} {
		err := batch.Run(in, io.Discard)
		var be *batch.Error
		if !errors.As(err, &be) || !strings.Contains(err.Error(), "input larger than 64 MiB, the limit") {
			t.Errorf("%s: Run = %v, want the input limit", name, err)
		}
	}
}

// FuzzRun runs arbitrary CSV through Run: it must return (an *Error or
// nil, never a panic), and when it returns nil every input row has one
// output row with a status.
func FuzzRun(f *testing.F) {
	sample := golden(f)
	lines := strings.SplitAfter(string(sample), "\n")
	f.Add([]byte(strings.Join(lines[:8], "")))
	f.Add([]byte(lines[0] + strings.Join(lines[5000:5003], "")))
	f.Add([]byte("gpu,cc,block_size,regs,note\nA100,,64,33,\"a\nb\"\n,8.0,6\"4,33,x\n"))
	f.Add([]byte("cc,block_size,regs\n8.0,\"256,32\n8.0,256,32\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		err := batch.Run(bytes.NewReader(in), &out)
		if err != nil {
			var be *batch.Error
			if !errors.As(err, &be) {
				t.Fatalf("error %T %v, want a *batch.Error", err, err)
			}
			return
		}
		recs, err := csv.NewReader(&out).ReadAll()
		if err != nil {
			t.Fatalf("output is not CSV: %v", err)
		}
		st := index(recs[0])["status"]
		for i, r := range recs[1:] {
			switch r[st] {
			case batch.StatusOK, batch.StatusInvalidInput, batch.StatusUnknownDevice:
			default:
				t.Fatalf("row %d: status %q", i+1, r[st])
			}
		}
	})
}

// TestDeterministic checks that the same input gives the same bytes.
func TestDeterministic(t *testing.T) {
	in := golden(t)[:200000]
	in = in[:bytes.LastIndexByte(in, '\n')+1]
	var a, b bytes.Buffer
	noErr(t, batch.Run(bytes.NewReader(in), &a))
	noErr(t, batch.Run(bytes.NewReader(in), &b))
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two runs over the same input differ")
	}
}

// BenchmarkGoldenSample runs the whole sample through the CSV path: parse,
// compute, format.
func BenchmarkGoldenSample(b *testing.B) {
	in := golden(b)
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		if err := batch.Run(bytes.NewReader(in), &out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*23736)/b.Elapsed().Seconds(), "rows/s")
}
