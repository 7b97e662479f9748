//go:build js && wasm

package worker

import (
	"io"
	"sync"
	"syscall/js"
)

// StdoutHook and StdoutTake are the names of two functions on
// JavaScript's globalThis: the module sets StdoutHook, and the host's file
// system shim (the browser kernel's Web Worker) sets StdoutTake. The shim
// keeps what the program writes to file descriptor 1 and hands it over in
// large chunks, not one crossing into Go per write: StdoutTake returns the
// bytes kept (a Uint8Array, or null for none) and forgets them; when it
// keeps more than a limit (64 KiB in site/assets/live.js) the shim calls
// StdoutHook with them, synchronously, from inside the write.
//
// WebAssembly has no pipes, and a snippet's os.Stdout must be a file (the
// interpreter gives snippets its own standard output as os.Stdout only if
// it is one), so snippets that write to os.Stdout write to the module's,
// and the host hands the bytes back, into the running job's stream. The
// module takes what the shim kept before everything it writes to the
// stream in Go (events, fmt's output) and before the job ends, so the
// stream keeps the order in which the job printed; and it hands the
// running job at least every 64 KiB, so the output limit still stops a
// snippet that prints without end.
const (
	StdoutHook = "warpbookStdout"
	StdoutTake = "warpbookStdoutTake"
)

// stdoutMux hands the running job what is printed: in Go (events, fmt's
// output) through out, and on file descriptor 1 through the shim.
type stdoutMux struct {
	jobMu  sync.Mutex // held by the running job
	mu     sync.Mutex // guards cur
	cur    *residentJob
	takeFn js.Value // StdoutTake, or undefined where the host has none
}

func newMux() (*stdoutMux, error) {
	m := &stdoutMux{takeFn: js.Global().Get(StdoutTake)}
	if m.takeFn.Type() != js.TypeFunction {
		m.takeFn = js.Undefined()
	}
	js.Global().Set(StdoutHook, js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		m.write(bytesOf(args[0]))
		return nil
	}))
	return m, nil
}

// bytesOf copies a Uint8Array into Go.
func bytesOf(v js.Value) []byte {
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

// take returns what the shim kept of file descriptor 1, and forgets it.
func (m *stdoutMux) take() []byte {
	if m.takeFn.IsUndefined() {
		return nil
	}
	v := m.takeFn.Invoke()
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return bytesOf(v)
}

// flush hands the running job what the shim kept.
func (m *stdoutMux) flush() {
	if b := m.take(); len(b) > 0 {
		m.write(b)
	}
}

func (m *stdoutMux) write(b []byte) {
	m.mu.Lock()
	job := m.cur
	m.mu.Unlock()
	if job != nil {
		job.pipe.write(b)
	}
}

func (m *stdoutMux) begin(job *residentJob) {
	m.take() // what was printed between jobs is no job's
	m.mu.Lock()
	m.cur = job
	m.mu.Unlock()
}

type muxWriter struct{ m *stdoutMux }

func (w muxWriter) Write(b []byte) (int, error) {
	w.m.flush()
	w.m.write(append([]byte(nil), b...))
	return len(b), nil
}

func (m *stdoutMux) out() io.Writer { return muxWriter{m} }

func (m *stdoutMux) end(job *residentJob) {
	m.flush()
	m.drop(job)
	job.pipe.closeWrite()
}

func (m *stdoutMux) drop(job *residentJob) {
	m.mu.Lock()
	if m.cur == job {
		m.cur = nil
	}
	m.mu.Unlock()
}
