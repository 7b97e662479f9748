package snippets

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"testing/fstest"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/warpbook/warpbook/snippets/symbols"
)

// workerEnv is set in the environment of a worker process.
const workerEnv = "WARPBOOK_SNIPPETS_WORKER"

// IsWorker reports whether this process was started as a snippet worker.
// Programs that run pages (the warpbook command, and test binaries through
// TestMain) must start with
//
//	if snippets.IsWorker() {
//		os.Exit(snippets.ServeWorker())
//	}
//
// because the kernel runs each page in a copy of the running executable.
func IsWorker() bool { return os.Getenv(workerEnv) == "1" }

// ServeWorker runs the job the parent writes on standard input and reports
// on standard output; it returns the exit code.
func ServeWorker() int {
	var j job
	if err := json.NewDecoder(os.Stdin).Decode(&j); err != nil {
		fmt.Fprintln(os.Stderr, "snippets worker: reading job:", err)
		return 2
	}
	if j.MemoryLimit > 0 {
		debug.SetMemoryLimit(j.MemoryLimit)
	}
	debug.SetMaxStack(maxStack)
	serve(&j, os.Stdout, os.Stderr)
	return 0
}

// maxStack is a worker's goroutine stack limit: runaway recursion fails
// fast and clearly instead of eating memory.
const maxStack = 64 << 20

// job is what a worker runs: units in order, each in its session.
type job struct {
	Nonce       string    `json:"nonce"`
	MemoryLimit int64     `json:"memoryLimit,omitempty"`
	Units       []jobUnit `json:"units"`
}

// jobUnit is one cell (Chunks) or checked value (Expr).
type jobUnit struct {
	U       int      `json:"u"`
	Session int      `json:"s"`
	Chunks  []string `json:"chunks,omitempty"`
	// Stmt says which chunks hold statements; a unit replayed after it
	// failed keeps only its declarations.
	Stmt []bool `json:"stmt,omitempty"`
	Expr string `json:"expr,omitempty"`
}

// event is one marker line of the worker protocol: "\x00NONCE {json}\n"
// on stdout, between the bytes the snippets print.
type event struct {
	U     int     `json:"u"`
	Ev    string  `json:"ev"` // ready, start, done, end
	Panic *string `json:"panic,omitempty"`
	Error *string `json:"error,omitempty"`
	Value *string `json:"value,omitempty"`
	// Chunk is the chunk (of the unit's) that failed to compile.
	Chunk int `json:"chunk,omitempty"`
}

// serve runs j, writing snippet output and markers to out.
func serve(j *job, out, errOut io.Writer) {
	mark := func(e event) {
		b, _ := json.Marshal(e)
		io.WriteString(out, "\x00"+j.Nonce+" "+string(b)+"\n")
	}
	sessions := map[int]*interp.Interpreter{}
	base := runtime.NumGoroutine()
	mark(event{U: -1, Ev: "ready"})
	for _, u := range j.Units {
		it := sessions[u.Session]
		if it == nil {
			var err error
			if it, err = newInterpreter(out, errOut); err != nil {
				msg := err.Error()
				mark(event{U: u.U, Ev: "start"})
				mark(event{U: u.U, Ev: "done", Error: &msg})
				continue
			}
			sessions[u.Session] = it
		}
		mark(event{U: u.U, Ev: "start"})
		done := event{U: u.U, Ev: "done"}
		if u.Expr != "" {
			v, err := eval(it, u.Expr)
			if err == nil {
				s := fmt.Sprint(valueOf(v))
				done.Value = &s
			}
			setErr(&done, err)
		} else {
			for i, c := range u.Chunks {
				if _, err := eval(it, c); err != nil {
					setErr(&done, err)
					done.Chunk = i
					break
				}
			}
		}
		mark(done)
		// Give goroutines the unit started a moment to end: one that is
		// panicking then crashes the process while this unit is still the
		// last one, rather than during the next.
		for i := 0; i < 100 && runtime.NumGoroutine() > base; i++ {
			time.Sleep(time.Millisecond)
		}
	}
	mark(event{U: -1, Ev: "end"})
}

func setErr(e *event, err error) {
	if err == nil {
		return
	}
	if p, ok := err.(interp.Panic); ok {
		msg := panicMessage(p.Value)
		e.Panic = &msg
		return
	}
	msg := err.Error()
	e.Error = &msg
}

func valueOf(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.CanInterface() {
		return v.Interface()
	}
	return v.String()
}

// panicMessage formats a recovered value as Go prints it after "panic: ".
func panicMessage(r any) string {
	if rv, ok := r.(reflect.Value); ok {
		r = valueOf(rv)
	}
	switch v := r.(type) {
	case error:
		return v.Error()
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(r)
}

// newInterpreter returns an interpreter that sees only the generated
// symbols: no GOPATH, no source file system, so an import that is not in
// the table fails.
func newInterpreter(out, errOut io.Writer) (*interp.Interpreter, error) {
	i := interp.New(interp.Options{
		Stdout:               out,
		Stderr:               errOut,
		Stdin:                eofReader{},
		Args:                 []string{"snippet"},
		Env:                  []string{},
		GoPath:               "/nonexistent",
		SourcecodeFilesystem: fstest.MapFS{},
	})
	if err := i.Use(symbols.Symbols); err != nil {
		return nil, fmt.Errorf("loading the engine symbols: %w", err)
	}
	return i, nil
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// eval evaluates src, turning an interpreter crash into an error.
func eval(i *interp.Interpreter, src string) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the interpreter failed: %v", r)
		}
	}()
	return i.Eval(src)
}
