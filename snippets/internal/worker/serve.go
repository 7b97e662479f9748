package worker

import (
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/warpbook/warpbook/snippets/symbols"
)

// MaxStack is a worker's goroutine stack limit: runaway recursion fails
// fast and clearly instead of eating memory.
const MaxStack = 64 << 20

// ServeStdio runs the jobs the parent writes on standard input, one JSON
// value after another, and reports on standard output, as a worker process
// does; it returns the exit code when standard input ends.
func ServeStdio() int {
	debug.SetMaxStack(MaxStack)
	// A worker's live heap is small (the interpreters and what the
	// snippets keep): collecting at five times the live heap rather than
	// twice halves the time spent in the collector, and the memory limit
	// still bounds it.
	debug.SetGCPercent(400)
	dec := json.NewDecoder(os.Stdin)
	for {
		var j Job
		if err := dec.Decode(&j); err == io.EOF {
			return 0
		} else if err != nil {
			fmt.Fprintln(os.Stderr, "snippets worker: reading job:", err)
			return 2
		}
		limit := int64(math.MaxInt64)
		if j.MemoryLimit > 0 {
			limit = j.MemoryLimit
		}
		debug.SetMemoryLimit(limit)
		Serve(&j, os.Stdout, os.Stderr)
		// The next job starts from a small resident set, so that the
		// parent's memory cap measures that job.
		debug.FreeOSMemory()
	}
}

// Serve runs j in yaegi interpreters (one a session), writing what the
// snippets print and the events to out. The process must run nothing but
// j: a unit that leaves goroutines running fails (see [Event].Leaked), and
// goroutines are counted process-wide.
func Serve(j *Job, out, errOut io.Writer) { serve(j, out, errOut, true, nil) }

// grace is how long a unit's goroutines get to end after the unit has.
const grace = time.Second

// serve is Serve; leaks says whether goroutine counts are the job's, and
// started, when not nil, is called just before each unit starts.
func serve(j *Job, out, errOut io.Writer, leaks bool, started func(u int)) {
	mark := func(e Event) { _ = WriteEvent(out, j.Nonce, e) }
	sessions := map[int]*Interpreter{}
	mark(Event{U: -1, Kind: Ready})
	for _, u := range j.Units {
		it := sessions[u.Session]
		if it == nil {
			var err error
			if it, err = NewInterpreter(out, errOut, j.Sources); err == nil {
				sessions[u.Session] = it
				err = prelude(it, &u)
			}
			if err != nil {
				msg := err.Error()
				mark(Event{U: u.U, Kind: Start})
				mark(Event{U: u.U, Kind: Done, Error: &msg})
				continue
			}
		}
		base := runtime.NumGoroutine()
		mark(Event{U: u.U, Kind: Start})
		if started != nil {
			started(u.U)
		}
		done := runUnit(it, &u, j.OutputLimit)
		// The goroutines the unit started get a moment to end, while it is
		// still the running unit: a panicking one crashes the process now,
		// and is blamed on this unit, not on the next.
		if leaks {
			done.Leaked = settle(base)
		}
		mark(done)
	}
	mark(Event{U: -1, Kind: End})
}

// runUnit evaluates a unit in it and returns its Done event.
func runUnit(it *Interpreter, u *Unit, limit int64) Event {
	done := Event{U: u.U, Kind: Done}
	if u.Expr != "" {
		v, err := eval(it, u.Expr)
		if err == nil {
			s := truncate(fmt.Sprint(valueOf(v)), limit)
			done.Value = &s
		}
		it.setErr(&done, err, limit)
		return done
	}
	for i, c := range u.Chunks {
		if _, err := eval(it, c); err != nil {
			it.setErr(&done, err, limit)
			done.Chunk = i
			break
		}
	}
	return done
}

// PanicText is the session variable in which the kernel's rewrite of a
// panic statement notes what Go prints for the value it panics with, when
// the interpreter cannot say it (a value of a type the session declares
// with an Error or String method; "" for others). An interpreter declares
// it when a chunk first uses it.
const PanicText = "_wbPanicText"

// PanicLine is the session variable in which the kernel's rewrite notes,
// before each statement of the session's cells, the page line of that
// statement, so that a runtime panic can be reported at its line (the
// interpreter says only which function panicked). An interpreter declares
// it when a chunk first uses it.
const PanicLine = "_wbPanicLine"

// panicLine returns the line the session noted last (0 when none).
func (i *Interpreter) panicLine() int {
	if !i.lines {
		return 0
	}
	v, err := i.it.Eval(PanicLine)
	if err != nil || !v.IsValid() || !v.CanInt() {
		return 0
	}
	return int(v.Int())
}

// panicText returns what the session noted for its last panic statement
// ("" when none, or when it did not know better than the value itself).
func (i *Interpreter) panicText() string {
	if !i.panics {
		return ""
	}
	v, err := i.it.Eval(PanicText)
	if err != nil || v.Kind() != reflect.String {
		return ""
	}
	return v.String()
}

// prelude evaluates the unit's prelude in a session's new interpreter.
func prelude(it *Interpreter, u *Unit) error {
	for _, c := range u.Prelude {
		if _, err := eval(it, c); err != nil {
			return fmt.Errorf("the kernel's prelude of the session: %w", err)
		}
	}
	return nil
}

// settle waits up to grace for the goroutines above base to end and
// returns how many are left.
func settle(base int) int {
	deadline := time.Now().Add(grace)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return max(0, runtime.NumGoroutine()-base)
}

// truncate cuts s to at most limit bytes (0: no limit), so that a huge
// panic message or value is not sent whole; the parent then fails the unit
// on the output limit.
func truncate(s string, limit int64) string {
	if limit > 0 && int64(len(s)) > limit+1 {
		return s[:limit+1]
	}
	return s
}

func (i *Interpreter) setErr(e *Event, err error, limit int64) {
	if err == nil {
		return
	}
	if p, ok := err.(interp.Panic); ok {
		msg := panicMessage(p.Value)
		if text := i.panicText(); text != "" && !compiledMessage(p.Value) {
			msg = text
		}
		msg = truncate(msg, limit)
		e.Panic = &msg
		e.PanicLine = i.panicLine()
		return
	}
	msg := truncate(err.Error(), limit)
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

// compiledMessage reports whether the panic value r says itself what Go
// prints for it: an error or a Stringer (a runtime error, the engine's),
// or a value of a named type of compiled code. Only a value of a type the
// session declares (which the interpreter hands over as a value of an
// unnamed type, or of the basic type beneath) needs what its panic
// statement noted ([PanicText]); a runtime error after a recovered panic
// keeps its own message.
func compiledMessage(r any) bool {
	if rv, ok := r.(reflect.Value); ok {
		r = valueOf(rv)
	}
	switch r.(type) {
	case error, fmt.Stringer, nil:
		return true
	}
	switch reflect.TypeOf(r).Kind() {
	case reflect.Struct, reflect.Pointer, reflect.Slice, reflect.Map, reflect.Array, reflect.Func, reflect.Chan:
		return reflect.TypeOf(r).PkgPath() != ""
	}
	return false
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

// Interpreter is a yaegi interpreter that sees only the generated symbols,
// and is given each allowed package's symbol table when a chunk it
// evaluates first imports the package (with the tables the package's API
// needs, see [symbols.Symbols]). Since only allowed packages have tables,
// an import outside the allow-list fails as it would if every table were
// given; and every import yaegi reads has been given its table before
// yaegi reads it.
type Interpreter struct {
	it          *interp.Interpreter
	sources     fs.FS // the book's packages, in a GOPATH tree
	out, errOut io.Writer
	given       map[string]bool // the tables given, by symbols.Symbols's key
	panics      bool            // PanicText is declared
	lines       bool            // PanicLine is declared
}

// NewInterpreter returns an interpreter that sees only the generated
// symbols and sources, the book's packages by their path in a GOPATH tree
// ("src/IMPORT/PATH/file.go"; nil: none): no other file, no environment,
// so an import that is neither in the tables nor in sources fails.
func NewInterpreter(out, errOut io.Writer, sources map[string]string) (*Interpreter, error) {
	var fsys fs.FS = noSources{}
	if len(sources) > 0 {
		fsys = MemFS(sources)
	}
	return &Interpreter{
		it: interp.New(interp.Options{
			Stdout:               out,
			Stderr:               errOut,
			Stdin:                eofReader{},
			Args:                 []string{"snippet"},
			Env:                  []string{},
			GoPath:               ".",
			SourcecodeFilesystem: fsys,
		}),
		sources: fsys,
		out:     out,
		errOut:  errOut,
		given:   map[string]bool{},
	}, nil
}

// sourceImports returns paths and what the book's packages among them
// import, transitively (the interpreter reads those from source, and
// needs the tables of the compiled packages they import).
func (i *Interpreter) sourceImports(paths []string) []string {
	if _, ok := i.sources.(noSources); ok {
		return paths
	}
	seen := map[string]bool{}
	var out []string
	var walk func(p string)
	walk = func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
		ents, err := fs.ReadDir(i.sources, "src/"+p)
		if err != nil {
			return
		}
		for _, e := range ents {
			b, err := fs.ReadFile(i.sources, "src/"+p+"/"+e.Name())
			if err != nil {
				continue
			}
			for _, q := range imports(string(b)) {
				walk(q)
			}
		}
	}
	for _, p := range paths {
		walk(p)
	}
	return out
}

// use gives the interpreter the tables in syms it does not have yet.
func (i *Interpreter) use(syms interp.Exports) error {
	for k := range syms {
		if i.given[k] {
			delete(syms, k)
		}
	}
	if len(syms) == 0 {
		return nil
	}
	if err := i.it.Use(exports(syms, i.out, i.errOut)); err != nil {
		return fmt.Errorf("loading the engine symbols: %w", err)
	}
	for k := range syms {
		i.given[k] = true
	}
	return nil
}

// Eval evaluates src, a chunk as yaegi's Eval reads it, after giving the
// interpreter the tables of the packages src imports.
func (i *Interpreter) Eval(src string) (reflect.Value, error) {
	if err := i.use(symbols.Symbols(i.sourceImports(imports(src))...)); err != nil {
		return reflect.Value{}, err
	}
	if !i.panics && strings.Contains(src, PanicText) {
		if _, err := i.it.Eval("package main\nvar " + PanicText + " string\n"); err != nil {
			return reflect.Value{}, fmt.Errorf("declaring %s: %w", PanicText, err)
		}
		i.panics = true
	}
	if !i.lines && strings.Contains(src, PanicLine) {
		if _, err := i.it.Eval("package main\nvar " + PanicLine + " int\n"); err != nil {
			return reflect.Value{}, fmt.Errorf("declaring %s: %w", PanicLine, err)
		}
		i.lines = true
	}
	return i.it.Eval(src)
}

// imports returns the import paths src imports, read as yaegi reads a
// chunk: a file, or declarations without a package clause (statements,
// which yaegi wraps in a function, cannot import). Of a chunk that does
// not parse, it returns the imports before the error, if any: yaegi then
// fails on the error.
func imports(src string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ImportsOnly)
	if err != nil && (f == nil || f.Package == token.NoPos) {
		f, _ = parser.ParseFile(fset, "", "package main;"+src, parser.ImportsOnly)
	}
	if f == nil {
		return nil
	}
	var paths []string
	for _, s := range f.Imports {
		if p, err := strconv.Unquote(s.Path.Value); err == nil {
			paths = append(paths, p)
		}
	}
	return paths
}

// fmtKey is the key under which an interpreter is given package fmt: not
// "fmt/fmt", although it names the same import path and package, because
// yaegi's Use, when given "fmt/fmt", also compiles its generic stdlib
// sources (cmp, maps and slices, some 18 KB of Go that snippets may not
// import) in every interpreter, which is most of the cost of creating
// one. What else Use does for "fmt/fmt" that snippets need, exports does:
// fmt's Print functions print to the interpreter's output and its Scan
// functions read nothing (yaegi would give them the real standard input,
// which is a worker's job stream); os.Stdout and os.Stderr are the
// interpreter's streams where those are files.
const fmtKey = "fmt/./fmt"

// exports returns the symbol tables an interpreter is given: syms (any of
// the tables), with fmt under fmtKey and the standard streams replaced.
//
// os.Stdout, handed to fmt's Fprint functions, io.WriteString or a
// tabwriter, stands for the interpreter's output: in the browser kernel
// the two differ (os.Stdout is the module's file descriptor 1, the output
// a Go writer that keeps the order of both), and each write to file
// descriptor 1 there crosses into JavaScript and back through the Go
// scheduler, which costs far more than the write itself: a table printed
// through a tabwriter, a write per cell, would take visible time. Elsewhere
// the two are the same file.
func exports(syms interp.Exports, out, errOut io.Writer) interp.Exports {
	stdout := reflect.ValueOf(&os.Stdout).Elem()
	if s, ok := out.(*os.File); ok {
		stdout = reflect.ValueOf(&s).Elem()
	}
	toOut := func(w io.Writer) io.Writer {
		if f, ok := w.(*os.File); ok && f != nil && f == stdout.Interface() {
			return out
		}
		return w
	}
	e := make(interp.Exports, len(syms))
	for k, v := range syms {
		switch k {
		case "os/os":
			v = maps.Clone(v)
			v["Stdout"] = stdout
			if s, ok := errOut.(*os.File); ok {
				v["Stderr"] = reflect.ValueOf(&s).Elem()
			}
		case "fmt/fmt":
			v = maps.Clone(v)
			v["Print"] = reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fprint(out, a...) })
			v["Printf"] = reflect.ValueOf(func(format string, a ...any) (int, error) { return fmt.Fprintf(out, format, a...) })
			v["Println"] = reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fprintln(out, a...) })
			v["Fprint"] = reflect.ValueOf(func(w io.Writer, a ...any) (int, error) { return fmt.Fprint(toOut(w), a...) })
			v["Fprintf"] = reflect.ValueOf(func(w io.Writer, format string, a ...any) (int, error) {
				return fmt.Fprintf(toOut(w), format, a...)
			})
			v["Fprintln"] = reflect.ValueOf(func(w io.Writer, a ...any) (int, error) { return fmt.Fprintln(toOut(w), a...) })
			v["Scan"] = reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fscan(eofReader{}, a...) })
			v["Scanf"] = reflect.ValueOf(func(format string, a ...any) (int, error) { return fmt.Fscanf(eofReader{}, format, a...) })
			v["Scanln"] = reflect.ValueOf(func(a ...any) (int, error) { return fmt.Fscanln(eofReader{}, a...) })
			k = fmtKey
		case "io/io":
			v = maps.Clone(v)
			v["WriteString"] = reflect.ValueOf(func(w io.Writer, s string) (int, error) { return io.WriteString(toOut(w), s) })
		case "text/tabwriter/tabwriter":
			v = maps.Clone(v)
			v["NewWriter"] = reflect.ValueOf(func(w io.Writer, minwidth, tabwidth, padding int, padchar byte, flags uint) *tabwriter.Writer {
				return tabwriter.NewWriter(toOut(w), minwidth, tabwidth, padding, padchar, flags)
			})
		}
		e[k] = v
	}
	return e
}

// noSources is the interpreter's source file system: it holds nothing, so
// that only the symbol tables' packages can be imported.
type noSources struct{}

func (noSources) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// eval evaluates src, turning an interpreter crash into an error.
func eval(i *Interpreter, src string) (v reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the interpreter failed: %v", r)
		}
	}()
	return i.Eval(src)
}
