//go:build js && wasm

package worker

import (
	"io"
	"runtime"
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
// stream keeps the order in which the job printed.
//
// WebAssembly runs one goroutine at a time and never preempts one, so a
// snippet that prints without end would keep the runner, which enforces
// the output limit, from ever reading what it printed. The module yields
// to the runner every 64 KiB printed (each call of StdoutHook, and as many
// bytes of fmt's output), so that the runner stops the job at the limit
// as natively; once the job is stopped, what goes on printing is parked
// for good: in Go, or, where StdoutHook returns true, by the shim, which
// then completes no more writes to file descriptor 1 until StdoutTake is
// called with true as the next job begins.
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
	unread int      // bytes of fmt's output since the runner last ran
}

// yieldEvery is how many bytes a job prints between two turns of the
// runner: the shim's chunk.
const yieldEvery = 64 << 10

func newMux() (*stdoutMux, error) {
	m := &stdoutMux{takeFn: js.Global().Get(StdoutTake)}
	if m.takeFn.Type() != js.TypeFunction {
		m.takeFn = js.Undefined()
	}
	js.Global().Set(StdoutHook, js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		if !m.write(bytesOf(args[0])) {
			return true // the job was stopped: the shim parks the writer
		}
		runtime.Gosched()
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

// take returns what the shim kept of file descriptor 1, and forgets it;
// with begin set it also lets the shim complete writes again.
func (m *stdoutMux) take(begin bool) []byte {
	if m.takeFn.IsUndefined() {
		return nil
	}
	v := m.takeFn.Invoke(begin)
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return bytesOf(v)
}

// flush hands the running job what the shim kept.
func (m *stdoutMux) flush() {
	if b := m.take(false); len(b) > 0 {
		m.write(b)
	}
}

// write hands b to the running job; it reports false when no job is
// running (the job that printed b was stopped).
func (m *stdoutMux) write(b []byte) bool {
	m.mu.Lock()
	job := m.cur
	m.mu.Unlock()
	if job == nil {
		return false
	}
	job.pipe.write(b)
	return true
}

func (m *stdoutMux) begin(job *residentJob) {
	m.take(true) // what was printed between jobs is no job's
	m.mu.Lock()
	m.cur = job
	m.mu.Unlock()
}

type muxWriter struct{ m *stdoutMux }

// Write is called only on the running job's goroutine.
func (w muxWriter) Write(b []byte) (int, error) {
	w.m.flush()
	if !w.m.write(append([]byte(nil), b...)) {
		select {} // the job was stopped: park what goes on printing
	}
	if w.m.unread += len(b); w.m.unread >= yieldEvery {
		w.m.unread = 0
		runtime.Gosched()
	}
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
