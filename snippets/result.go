package snippets

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/warpbook/warpbook/snippets/page"
)

// Sentinel errors wrapped by the kernel's diagnostics; callers branch on them with
// [errors.Is].
var (
	// ErrTimeout: a snippet ran past its time limit.
	ErrTimeout = errors.New("time limit exceeded")
	// ErrUnexpectedSuccess: a snippet marked panics= or error= did not
	// panic or did not fail to compile.
	ErrUnexpectedSuccess = errors.New("unexpected success")
	// ErrForbidden: a snippet imports or uses something the sandbox does
	// not allow.
	ErrForbidden = errors.New("not allowed in snippets")
	// ErrOutput: what a snippet printed differs from its output block.
	ErrOutput = errors.New("output differs")
	// ErrLimit: a snippet used more memory or printed more than the
	// kernel allows.
	ErrLimit = errors.New("resource limit exceeded")
)

// Status is the outcome of a cell or checked value.
type Status int

// Statuses. The zero value is StatusPass so that a zero CellResult is not
// mistaken for a skip.
const (
	StatusPass Status = iota
	StatusFail
	StatusSkip
)

var statusNames = [...]string{"pass", "fail", "skip"}

// String returns "pass", "fail" or "skip".
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// MarshalText encodes s as its name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes a status name.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if n == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown status %q", b)
}

// CellResult is what running and verifying one cell found.
type CellResult struct {
	// ID is the cell's id.
	ID string `json:"id"`
	// Status is pass, fail or skip.
	Status Status `json:"status"`
	// Output is what the cell printed in the interpreter (for a cell that
	// panicked, what it printed before).
	Output string `json:"output"`
	// Panic is the message of the panic the cell raised, "" if none. For a
	// passing panics= cell it is the verified message shown to readers.
	Panic string `json:"panic,omitempty"`
	// Error is the compile error the cell produced, "" if none. For a
	// passing error= cell it is the verified message shown to readers.
	Error string `json:"error,omitempty"`
	// Skip is the reason a skipped cell did not run.
	Skip string `json:"skip,omitempty"`
	// Native is what the cell printed when compiled with the Go toolchain
	// (only with native runs).
	Native *NativeResult `json:"native,omitempty"`
	// Diagnostics say what is wrong when Status is fail.
	Diagnostics page.Diagnostics `json:"-"`
	// Cached reports that the outcome came from the cache, not a run.
	Cached bool `json:"cached,omitempty"`
	// Elapsed is how long the cell ran (0 when cached).
	Elapsed time.Duration `json:"elapsed,omitempty"`
}

// NativeResult is a cell's outcome as a compiled Go program.
type NativeResult struct {
	// Output is what the compiled cell printed.
	Output string `json:"output"`
	// Panic is the message of its panic, "" if none.
	Panic string `json:"panic,omitempty"`
	// Ran is false when the program stopped before reaching the cell.
	Ran bool `json:"ran"`
}

// CheckResult is the outcome of one checked prose value.
type CheckResult struct {
	// ID is the check's id ("value-N").
	ID string `json:"id"`
	// Status is pass or fail (skip when the page was not run).
	Status Status `json:"status"`
	// Value is fmt.Sprint of the expression's value, "" if it did not
	// evaluate.
	Value string `json:"value"`
	// Diagnostics say what is wrong when Status is fail.
	Diagnostics page.Diagnostics `json:"-"`
	// Cached reports that the value came from the cache, not a run.
	Cached bool `json:"cached,omitempty"`
}

// Verifier says what verified a page: shown by the site as its "verified"
// mark and part of every cache key.
type Verifier struct {
	// Tool is the warpbook version, with a hash of the running executable.
	Tool string `json:"tool"`
	// Engine is the fingerprint of the engine packages the snippets ran
	// against (a hash of their source).
	Engine string `json:"engine"`
	// Go is the Go version the tool was built with.
	Go string `json:"go"`
	// Native is the version of the Go toolchain that compiled the snippets
	// natively, "" without -native.
	Native string `json:"native,omitempty"`
}

// PageResult is the outcome of running one page.
type PageResult struct {
	// Page is the page that ran.
	Page *page.Page `json:"-"`
	// Cells has one result per cell of the page, in order; cells a -run
	// filter left out are nil.
	Cells []*CellResult `json:"cells"`
	// Checks has one result per checked value, in order (nil when left out).
	Checks []*CheckResult `json:"checks"`
	// CUDA has one result per CUDA cell of the page, in order (nil when
	// left out).
	CUDA []*CUDAResult `json:"cuda,omitempty"`
	// Diagnostics are problems that belong to no single cell (a parse
	// error, a worker that would not start).
	Diagnostics page.Diagnostics `json:"-"`
	// Verifier says what verified the page.
	Verifier Verifier `json:"verifier"`
}

// Failed reports whether anything on the page failed.
func (r *PageResult) Failed() bool {
	return len(r.Diagnostics) > 0 ||
		slices.ContainsFunc(r.Cells, func(c *CellResult) bool { return c != nil && c.Status == StatusFail }) ||
		slices.ContainsFunc(r.Checks, func(c *CheckResult) bool { return c != nil && c.Status == StatusFail }) ||
		slices.ContainsFunc(r.CUDA, func(c *CUDAResult) bool { return c != nil && c.Status == StatusFail })
}

// Result returns the result for cell c, or nil.
func (r *PageResult) Result(c *page.Cell) *CellResult {
	if c == nil || c.Index >= len(r.Cells) {
		return nil
	}
	return r.Cells[c.Index]
}

// AllDiagnostics returns every diagnostic of the page in document order:
// page-level ones, then each cell's and check's.
func (r *PageResult) AllDiagnostics() page.Diagnostics {
	var all page.Diagnostics
	all = append(all, r.Diagnostics...)
	for _, c := range r.Cells {
		if c != nil {
			all = append(all, c.Diagnostics...)
		}
	}
	for _, c := range r.Checks {
		if c != nil {
			all = append(all, c.Diagnostics...)
		}
	}
	for _, c := range r.CUDA {
		if c != nil {
			all = append(all, c.Diagnostics...)
		}
	}
	all.Sort()
	return all
}
