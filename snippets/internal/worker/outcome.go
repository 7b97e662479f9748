package worker

import "time"

// Limit names the limit that stopped a unit.
type Limit int

// Limits a unit can hit.
const (
	NoLimit Limit = iota
	// TimeLimit: the unit's CPU time (or wall-clock time, or the
	// wall-clock backstop) ran out.
	TimeLimit
	// MemoryLimit: the process's resident memory passed the cap.
	MemoryLimit
	// OutputLimit: the job printed more than the cap.
	OutputLimit
)

// Outcome is what happened to one unit. The fields with JSON names are
// what a result cache keeps of a unit that ran and finished.
type Outcome struct {
	// Ran is set when the unit started.
	Ran bool `json:"-"`
	// Output is what the unit printed.
	Output string `json:"output"`
	// Panic is the message of the panic the unit raised.
	Panic *string `json:"panic,omitempty"`
	// PanicLine is the page line of the statement that panicked (0: not
	// known).
	PanicLine int `json:"panicLine,omitempty"`
	// Error is the interpreter's compile error, about chunk Chunk.
	Error *string `json:"error,omitempty"`
	Chunk int     `json:"chunk,omitempty"`
	// Value is a checked value's value.
	Value *string `json:"value,omitempty"`
	// Fail says why the unit did not finish (a limit, a crash); "" when it
	// finished. Limit is the limit behind it, if any.
	Fail  string `json:"-"`
	Limit Limit  `json:"-"`
	// Cached marks an outcome read from a cache.
	Cached bool `json:"-"`
	// Elapsed is the unit's wall-clock time; CPU its CPU time, where the
	// process's can be read.
	Elapsed time.Duration `json:"-"`
	CPU     time.Duration `json:"-"`
}

// Finished reports whether the unit ran to its end (a panic or compile
// error included), so that its outcome can be replayed or cached.
func (o *Outcome) Finished() bool { return o != nil && o.Ran && o.Fail == "" }
