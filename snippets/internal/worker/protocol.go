// Package worker is the kernel's side of running snippets in another
// process: the job a process is given, the events it reports, and the
// parent's state machine that turns a process's output into one [Outcome]
// per unit under time, memory and output limits.
//
// # Protocol
//
// A process runs a [Job]: units (a cell's interpreter chunks, or a checked
// value's expression) in order, each in its session. It writes what the
// snippets print to standard output, and between those bytes one marker
// line per [Event]:
//
//	"\x00" NONCE " " JSON "\n"
//
// where NONCE is the job's random nonce (so that a snippet cannot forge a
// marker it cannot read) and JSON an Event. An interpreter worker
// ([Serve]) and a natively compiled session (the scaffolding [HelperGo])
// speak it alike; a whole program compiled natively has no markers, and
// all its output belongs to its one unit.
//
// # Limits
//
// [Run] enforces a time limit per unit, counted in the process's CPU time
// where it can be read (Linux's /proc), with a wall-clock backstop of
// [WallFactor] times the limit; elsewhere the limit is wall-clock time. It
// caps the process's resident memory and the bytes a job may print (panic
// messages and checked values included). A unit that leaves goroutines
// running when it ends fails, so that what they print or a panic they
// raise later is not blamed on another unit.
package worker

import (
	"encoding/json"
	"fmt"
	"io"
)

// Job is what one process runs.
type Job struct {
	// Nonce marks the process's event lines.
	Nonce string `json:"nonce"`
	// MemoryLimit is a soft memory limit for the process (bytes; 0: none).
	MemoryLimit int64 `json:"memoryLimit,omitempty"`
	// OutputLimit is the most bytes the job may print; a worker truncates
	// panic messages and values to it.
	OutputLimit int64 `json:"outputLimit,omitempty"`
	// Units run in order.
	Units []Unit `json:"units"`
	// Sources are the book's packages the units may import (see
	// snippets.Packages), by their path in a GOPATH tree
	// ("src/IMPORT/PATH/file.go"): the interpreter interprets them from
	// source, and reads no other file.
	Sources map[string]string `json:"sources,omitempty"`
}

// Unit is one cell (Chunks) or checked value (Expr) of a job.
type Unit struct {
	// U is the unit's number in its page's plan.
	U int `json:"u"`
	// Session is the interpreter session the unit runs in.
	Session int `json:"s"`
	// Chunks are what the interpreter evaluates, in order.
	Chunks []string `json:"chunks,omitempty"`
	// Stmt says which chunks hold statements; a unit replayed after it
	// failed keeps only its declarations.
	Stmt []bool `json:"stmt,omitempty"`
	// Expr is a checked value's expression.
	Expr string `json:"expr,omitempty"`
	// Prelude is what a new interpreter of the unit's session evaluates
	// before the unit: declarations the kernel gives every session of the
	// page (the variable cuda of a page with CUDA cells). Every unit of a
	// session carries the same prelude.
	Prelude []string `json:"prelude,omitempty"`
	// Packages is the hash of the book's packages the unit runs with (see
	// [Job].Sources): a kept interpreter that ran other sources does not
	// go on.
	Packages string `json:"packages,omitempty"`
}

// Kind is what an [Event] reports.
type Kind int

// Event kinds.
const (
	// Ready: the process has started and runs its first unit next.
	Ready Kind = iota + 1
	// Start: unit U starts; what is printed until its Done is its output.
	Start
	// Done: unit U has ended, with its panic, compile error or value.
	Done
	// End: every unit has run.
	End
)

var kindNames = map[Kind]string{Ready: "ready", Start: "start", Done: "done", End: "end"}

// String returns the kind's name as the protocol writes it.
func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) {
	if _, ok := kindNames[k]; !ok {
		return nil, fmt.Errorf("worker: unknown event kind %d", int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a kind's name.
func (k *Kind) UnmarshalText(b []byte) error {
	for kk, n := range kindNames {
		if n == string(b) {
			*k = kk
			return nil
		}
	}
	return fmt.Errorf("worker: unknown event kind %q", b)
}

// Event is one marker line.
type Event struct {
	// U is the unit the event is about (-1 for Ready and End).
	U int `json:"u"`
	// Kind is what happened.
	Kind Kind `json:"ev"`
	// Panic is the message of the panic the unit raised.
	Panic *string `json:"panic,omitempty"`
	// PanicLine is the page line of the statement that panicked, as the
	// kernel's rewrite noted it in [PanicLine] (0: not known).
	PanicLine int `json:"panicLine,omitempty"`
	// Error is the interpreter's compile error.
	Error *string `json:"error,omitempty"`
	// Value is a checked value's value, as fmt.Sprint prints it.
	Value *string `json:"value,omitempty"`
	// Chunk is the chunk (of the unit's) that failed to compile.
	Chunk int `json:"chunk,omitempty"`
	// Leaked is how many goroutines the unit left running.
	Leaked int `json:"leaked,omitempty"`
}

// WriteEvent writes e as a marker line of the job with the given nonce.
func WriteEvent(w io.Writer, nonce string, e Event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "\x00"+nonce+" "+string(b)+"\n")
	return err
}
