// Package batch runs the occupancy calculator over CSV rows: one kernel
// configuration per row in, the same row with its results appended out.
//
// The columns are those of the golden reference file
// (../../shared/golden/occupancy_sample.csv), so that file can be fed in
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
// result columns; the rows after it still run.
package batch

import (
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

// Run reads CSV from in and writes the rows with their results to out.
// It returns an *Error when the input is not CSV or the header lacks a
// required column; bad values in a row only mark that row.
//
// Run writes as it goes: a caller that must not leave half-written output
// behind should write to a buffer and copy it on success.
func Run(in io.Reader, out io.Writer) error {
	r := csv.NewReader(in)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	header, err := r.Read()
	if err == io.EOF {
		return &Error{Line: 1, Err: errors.New("empty input: want a CSV header line")}
	}
	if err != nil {
		return csvError(err)
	}
	header = append([]string(nil), header...)
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
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return csvError(err)
		}
		line, _ := r.FieldPos(0)
		row = row[:0]
		for _, i := range keep {
			if i < len(rec) {
				row = append(row, rec[i])
			} else {
				row = append(row, "")
			}
		}
		var res []string
		if len(rec) != len(header) {
			res = failed(StatusInvalidInput, fmt.Sprintf("line %d: row has %d fields, header has %d", line, len(rec), len(header)))
		} else {
			res = compute(rec, cols, devices, line)
		}
		row = append(row, res...)
		if err := w.Write(row); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{Line: pe.Line, Err: pe.Err}
	}
	return err
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
