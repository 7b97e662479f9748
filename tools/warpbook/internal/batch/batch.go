// Package batch runs the occupancy calculator over CSV rows: one kernel
// configuration per row in, the same row with its results appended out.
//
// The columns are those of the golden reference file
// (engine/occupancy/testdata/occupancy_sample.csv.gz), so that file can be fed in
// unchanged and the output compared column by column.
//
// # Input
//
// The first row is a header; columns are found by name, in any order.
// Required: block_size, regs, and either cc ("8.0", "sm_80": the preset
// that stands for that capability, see gpu.ForCapability) or gpu (a name
// gpu.Lookup accepts, such as "A100"; it wins over cc when not empty).
// Optional, with the golden file's defaults:
//
//	static_smem         0       bytes
//	dynamic_smem        0       bytes
//	carveout            -1      percent; -1 means no preference
//	cache_config        none    none, prefer_shared, prefer_l1, prefer_equal
//	shmem_limit_config  optin   optin or default
//	max_dynamic_smem    = dynamic_smem, bytes
//	gc_config           off     off, on, on_strict
//	num_barriers        1
//	func_max_threads    1024    must be positive
//
// Every other column is copied through unchanged.
//
// # Output
//
// The input columns (minus any that share a name with an output column, so
// a file that already holds results can be recomputed) followed by:
//
//	status                ok, invalid_input or unknown_device
//	active_blocks         resident blocks per SM
//	active_warps          active_blocks × warps per block
//	max_warps             warp slots per SM
//	occupancy_percent     100 × active_warps / max_warps, 4 decimals
//	limiter               limiting resources joined by |
//	limiter_mask          the same as a number (warps 1, registers 2,
//	                      shared_memory 4, blocks 8, barriers 16)
//	limit_warps, limit_regs, limit_smem, limit_blocks, limit_barriers
//	                      blocks each resource allows; 2147483647 means no
//	                      limit, as in the reference file
//	alloc_regs_per_block  registers allocated per block
//	alloc_smem_per_block  shared memory allocated per block, bytes
//	smem_pref_bytes       shared memory per SM the carveout asks for, bytes
//	gc_effective          partitioned global caching in effect
//	zero_reason           why not one block fits, when active_blocks is 0
//	message               what is wrong, when status is not ok
//
// A row that cannot be computed gets its status and message and empty
// result columns; the rows after it still run. So does a row that is not
// well-formed CSV (a bare or unclosed quote, a row longer than 64 KiB):
// its status is invalid_input, its message says what is wrong at which
// line and column, and its input columns are copied as far as they can be
// read. A quoted field may hold line breaks; a quote that never closes
// within 64 KiB is that row's error, and the next line starts the next
// row.
//
// # Limits
//
// A row is at most 64 KiB, line breaks in quoted fields included, and the
// whole input at most 64 MiB (the golden sample is 3.5 MB). Input past the
// second limit is an error of the whole input: Run stops there.
package batch

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// Status values of the status column.
const (
	StatusOK            = "ok"
	StatusInvalidInput  = "invalid_input"
	StatusUnknownDevice = "unknown_device"
)

// OutputColumns returns the names of the columns Run appends, in order.
func OutputColumns() []string {
	return []string{
		"status", "active_blocks", "active_warps", "max_warps", "occupancy_percent",
		"limiter", "limiter_mask",
		"limit_warps", "limit_regs", "limit_smem", "limit_blocks", "limit_barriers",
		"alloc_regs_per_block", "alloc_smem_per_block", "smem_pref_bytes",
		"gc_effective", "zero_reason", "message",
	}
}

// Error is a problem with the input as a whole (not with one row), with
// the line it was found on.
type Error struct {
	Line int   // 1-based line of the input
	Err  error // what is wrong
}

// Error returns "line N: " and the problem.
func (e *Error) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// Limits on the input (see the package documentation).
const (
	maxRowBytes   = 64 << 10
	maxInputBytes = 64 << 20
)

// Run reads CSV from in and writes the rows with their results to out.
// It returns an *Error when the input is not CSV or the header lacks a
// required column; bad values in a row only mark that row, and so does a
// row that is not well-formed CSV.
//
// Run writes as it goes: a caller that must not leave half-written output
// behind should write to a buffer and copy it on success.
func Run(in io.Reader, out io.Writer) error {
	rs := &records{br: bufio.NewReaderSize(in, 4096)}
	first, err := rs.next()
	if err == io.EOF {
		return &Error{Line: 1, Err: errors.New("empty input: want a CSV header line")}
	}
	if err != nil {
		return err
	}
	header, perr := first.fields()
	var m *malformed
	if errors.As(perr, &m) {
		msg := fmt.Sprintf("malformed CSV header: %v", m.err)
		if m.col > 0 {
			msg = fmt.Sprintf("column %d: %s", m.col, msg)
		}
		return &Error{Line: m.line, Err: errors.New(msg)}
	}
	if perr != nil {
		return &Error{Line: first.line, Err: perr}
	}
	cols := map[string]int{}
	for i, h := range header {
		cols[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"block_size", "regs"} {
		if _, ok := cols[need]; !ok {
			return &Error{Line: 1, Err: fmt.Errorf("header has no %q column", need)}
		}
	}
	_, hasCC := cols["cc"]
	_, hasGPU := cols["gpu"]
	if !hasCC && !hasGPU {
		return &Error{Line: 1, Err: errors.New(`header has neither a "cc" nor a "gpu" column`)}
	}

	outNames := OutputColumns()
	isOut := map[string]bool{}
	for _, n := range outNames {
		isOut[n] = true
	}
	var keep []int
	var outHeader []string
	for i, h := range header {
		if !isOut[strings.TrimSpace(h)] {
			keep = append(keep, i)
			outHeader = append(outHeader, h)
		}
	}
	outHeader = append(outHeader, outNames...)

	w := csv.NewWriter(out)
	if err := w.Write(outHeader); err != nil {
		return err
	}
	devices := map[deviceKey]deviceOrError{}
	row := make([]string, 0, len(outHeader))
	for {
		r, err := rs.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		rec, perr := r.fields()
		row = row[:0]
		for _, i := range keep {
			if i < len(rec) {
				row = append(row, rec[i])
			} else {
				row = append(row, "")
			}
		}
		var res []string
		switch {
		case errors.As(perr, &m):
			res = failed(StatusInvalidInput, perr.Error())
		case perr != nil:
			res = failed(StatusInvalidInput, fmt.Sprintf("line %d: %v", r.line, perr))
		case len(rec) != len(header):
			res = failed(StatusInvalidInput, fmt.Sprintf("line %d: row has %d fields, header has %d", r.line, len(rec), len(header)))
		default:
			res = compute(rec, cols, devices, r.line)
		}
		row = append(row, res...)
		if err := w.Write(row); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// A record is the text of one CSV row: one line, or several when a quoted
// field holds line breaks.
type record struct {
	text    []byte // the row, its line breaks included
	line    int    // the 1-based input line it starts on
	tooLong bool   // the row passed maxRowBytes; text is empty
}

// fields splits the record into its fields. A record that is not
// well-formed CSV gets an error saying where, at the input's line and
// column, and the fields as far as a lenient reading finds them.
func (r record) fields() ([]string, error) {
	if r.tooLong {
		return nil, fmt.Errorf("row longer than %d KiB, the limit", maxRowBytes>>10)
	}
	text := r.text
	if !bytes.ContainsRune(text, '"') {
		// No quotes: what encoding/csv would do, without its reader.
		text = bytes.TrimSuffix(text, []byte("\n"))
		text = bytes.TrimSuffix(text, []byte("\r"))
		return strings.Split(string(text), ","), nil
	}
	rec, err := readOne(text, false)
	if err == nil {
		return rec, nil
	}
	m := &malformed{line: r.line, err: err}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		m.line, m.col, m.err = r.line+pe.Line-1, pe.Column, pe.Err
	}
	lenient, _ := readOne(text, true)
	return lenient, m
}

// malformed is a row that is not well-formed CSV.
type malformed struct {
	line, col int // where, in the input; col 0 if unknown
	err       error
}

func (m *malformed) Error() string {
	if m.col == 0 {
		return fmt.Sprintf("line %d: malformed CSV: %v", m.line, m.err)
	}
	return fmt.Sprintf("line %d, column %d: malformed CSV: %v", m.line, m.col, m.err)
}

// readOne reads text as exactly one CSV record.
func readOne(text []byte, lazy bool) ([]string, error) {
	cr := csv.NewReader(bytes.NewReader(text))
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = lazy
	rec, err := cr.Read()
	if err != nil {
		return nil, err
	}
	if _, err := cr.Read(); err != io.EOF {
		return rec, errors.New("more than one row")
	}
	return rec, nil
}

// records splits CSV input into records, line by line, within the limits
// on a row and on the input.
type records struct {
	br    *bufio.Reader
	lines int       // lines taken from br
	bytes int64     // bytes taken from br
	ahead []rawLine // lines read past the current record, oldest first
	eof   bool
}

// A rawLine is one input line with its line break.
type rawLine struct {
	text    []byte
	line    int
	quotes  int  // number of '"' in text
	tooLong bool // longer than maxRowBytes; text is empty
}

// readLine returns the next input line, or io.EOF.
func (rs *records) readLine() (rawLine, error) {
	if len(rs.ahead) > 0 {
		l := rs.ahead[0]
		rs.ahead = rs.ahead[1:]
		return l, nil
	}
	if rs.eof {
		return rawLine{}, io.EOF
	}
	var text []byte
	tooLong := false
	for {
		chunk, err := rs.br.ReadSlice('\n')
		rs.bytes += int64(len(chunk))
		if rs.bytes > maxInputBytes {
			return rawLine{}, &Error{Line: rs.lines + 1, Err: fmt.Errorf("input larger than %d MiB, the limit", maxInputBytes>>20)}
		}
		if !tooLong {
			if len(text)+len(chunk) > maxRowBytes {
				tooLong, text = true, nil
			} else {
				text = append(text, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			rs.eof = true
			if len(text) == 0 && !tooLong {
				return rawLine{}, io.EOF
			}
		} else if err != nil {
			return rawLine{}, err
		}
		break
	}
	rs.lines++
	return rawLine{text: text, line: rs.lines, quotes: bytes.Count(text, []byte{'"'}), tooLong: tooLong}, nil
}

// next returns the next record, skipping empty lines as encoding/csv
// does, or io.EOF.
func (rs *records) next() (record, error) {
	var first rawLine
	for {
		l, err := rs.readLine()
		if err != nil {
			return record{}, err
		}
		if l.tooLong {
			return record{line: l.line, tooLong: true}, nil
		}
		if t := bytes.TrimSuffix(bytes.TrimSuffix(l.text, []byte("\n")), []byte("\r")); len(t) > 0 {
			first = l
			break
		}
	}
	if first.quotes%2 == 0 {
		return record{text: first.text, line: first.line}, nil
	}
	// A quote is open at the end of the line: a quoted field with a line
	// break, or a malformed row. Look ahead for the line that closes it,
	// within the limit on a row; what follows is kept for the next rows.
	var more []rawLine
	size, quotes := len(first.text), first.quotes
	for quotes%2 != 0 {
		l, err := rs.readLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return record{}, err
		}
		more = append(more, l)
		if l.tooLong || size+len(l.text) > maxRowBytes {
			break
		}
		size += len(l.text)
		quotes += l.quotes
	}
	if quotes%2 == 0 {
		text := append([]byte(nil), first.text...)
		for _, l := range more {
			text = append(text, l.text...)
		}
		if _, err := readOne(text, false); err == nil {
			return record{text: text, line: first.line}, nil
		}
	}
	// The quote never closes well: the line alone is the (malformed) row.
	rs.ahead = append(more, rs.ahead...)
	return record{text: first.text, line: first.line}, nil
}

// deviceKey is how a row names its device: a gpu name or a cc.
type deviceKey struct {
	byName bool // value is a gpu name (gpu.Lookup), else a capability
	value  string
}

type deviceOrError struct {
	d      gpu.Device
	status string
	err    error
}

// failed returns the result columns of a row that could not be computed.
func failed(status, msg string) []string {
	res := make([]string, len(OutputColumns()))
	res[0] = status
	res[len(res)-1] = msg
	return res
}

// compute parses one row and returns its result columns.
func compute(rec []string, cols map[string]int, devices map[deviceKey]deviceOrError, line int) []string {
	get := func(name string) (string, bool) {
		i, ok := cols[name]
		if !ok {
			return "", false
		}
		return strings.TrimSpace(rec[i]), true
	}
	bad := func(format string, args ...any) []string {
		return failed(StatusInvalidInput, fmt.Sprintf("line %d: ", line)+fmt.Sprintf(format, args...))
	}

	// The device.
	var key deviceKey
	if v, ok := get("gpu"); ok && v != "" {
		key = deviceKey{byName: true, value: v}
	} else if v, ok := get("cc"); ok && v != "" {
		key = deviceKey{value: v}
	} else {
		return bad("no gpu or cc given")
	}
	dev, seen := devices[key]
	if !seen {
		dev = lookupDevice(key)
		devices[key] = dev
	}
	if dev.err != nil {
		return failed(dev.status, fmt.Sprintf("line %d: %v", line, dev.err))
	}

	// The kernel.
	var k occupancy.Kernel
	var err error
	integer := func(name string, def int, dst *int) bool {
		v, ok := get(name)
		if !ok || v == "" {
			*dst = def
			return true
		}
		n, perr := strconv.ParseInt(v, 10, 64)
		if perr != nil || n > math.MaxInt32 || n < math.MinInt32 {
			err = fmt.Errorf("%s %q is not a 32-bit integer", name, v)
			return false
		}
		*dst = int(n)
		return true
	}
	var carveout, maxDyn, funcMax int
	maxDynText, _ := get("max_dynamic_smem")
	if !integer("block_size", 0, &k.BlockSize) ||
		!integer("regs", 0, &k.Registers) ||
		!integer("static_smem", 0, &k.StaticSharedMem) ||
		!integer("dynamic_smem", 0, &k.DynamicSharedMem) ||
		!integer("carveout", -1, &carveout) ||
		!integer("max_dynamic_smem", 0, &maxDyn) ||
		!integer("num_barriers", 1, &k.Barriers) ||
		!integer("func_max_threads", 1024, &funcMax) {
		return bad("%v", err)
	}
	if v, _ := get("block_size"); v == "" {
		return bad("block_size is empty")
	}
	if v, _ := get("regs"); v == "" {
		return bad("regs is empty")
	}
	if carveout != -1 {
		k.Carveout = occupancy.CarveoutPercent(carveout)
	}
	switch {
	case maxDynText == "": // absent or empty: the golden default, = dynamic_smem
	case maxDyn < 0:
		return bad("max_dynamic_smem must not be negative, got %d", maxDyn)
	case maxDyn == 0:
		k.MaxDynamicSharedMem = occupancy.NoDynamicSharedMem
	default:
		k.MaxDynamicSharedMem = maxDyn
	}
	if funcMax <= 0 {
		return bad("func_max_threads must be positive, got %d", funcMax)
	}
	k.MaxThreadsPerBlock = funcMax

	// The setting words are the ones occupancy's types print.
	words := []struct {
		name string
		dst  encoding.TextUnmarshaler
	}{
		{"cache_config", &k.CachePreference},
		{"shmem_limit_config", &k.SharedMemLimit},
		{"gc_config", &k.PartitionedGC},
	}
	for _, w := range words {
		if v, ok := get(w.name); ok && v != "" {
			if err := w.dst.UnmarshalText([]byte(v)); err != nil {
				return bad("%s %v", w.name, err)
			}
		}
	}

	r, cerr := occupancy.Compute(dev.d, k)
	if cerr != nil {
		return bad("%v", cerr)
	}
	return []string{
		StatusOK,
		strconv.Itoa(r.ActiveBlocks),
		strconv.Itoa(r.ActiveWarps),
		strconv.Itoa(r.MaxWarps),
		strconv.FormatFloat(100*r.Occupancy, 'f', 4, 64),
		r.Limiters.String(),
		strconv.Itoa(int(r.Limiters)),
		limit(r.Limits.Warps),
		limit(r.Limits.Registers),
		limit(r.Limits.SharedMem),
		limit(r.Limits.Blocks),
		limit(r.Limits.Barriers),
		strconv.Itoa(r.RegistersPerBlock),
		strconv.Itoa(r.SharedMemPerBlock),
		strconv.Itoa(r.SharedMemPreference),
		r.PartitionedGC.String(),
		r.Obstacles.String(),
		"",
	}
}

// limit writes a limit the way the reference file does: "no limit" is the
// C INT_MAX the reference returns.
func limit(l occupancy.Limit) string {
	if l.Unlimited {
		return strconv.Itoa(math.MaxInt32)
	}
	return strconv.Itoa(l.Blocks)
}

func lookupDevice(key deviceKey) deviceOrError {
	if key.byName {
		d, err := gpu.Lookup(key.value)
		if err != nil {
			return deviceOrError{status: StatusUnknownDevice, err: err}
		}
		return deviceOrError{d: d}
	}
	cc, err := gpu.ParseCC(key.value)
	if err != nil {
		return deviceOrError{status: StatusInvalidInput, err: err}
	}
	d, err := gpu.ForCapability(cc)
	if err != nil {
		return deviceOrError{status: StatusUnknownDevice, err: err}
	}
	return deviceOrError{d: d}
}
