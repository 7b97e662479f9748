//go:build js && wasm

package worker

import (
	"io"
	"sync"
	"syscall/js"
)

// StdoutHook is the name of the function a WebAssembly worker sets on
// JavaScript's globalThis: the host's file system shim (the browser
// kernel's Web Worker) must call it, synchronously, with every chunk (a
// Uint8Array) that the program writes to file descriptor 1.
//
// WebAssembly has no pipes, and a snippet's os.Stdout must be a file (the
// interpreter gives snippets its own standard output as os.Stdout only if
// it is one), so snippets that write to os.Stdout write to the module's,
// and the host hands the bytes back through the hook, into the running
// job's stream, in order with what the job writes in Go.
const StdoutHook = "warpbookStdout"

// stdoutMux hands the running job what is printed: in Go (events, fmt's
// output) through out, and on file descriptor 1 through the hook.
type stdoutMux struct {
	jobMu sync.Mutex // held by the running job
	mu    sync.Mutex // guards cur
	cur   *residentJob
}

func newMux() (*stdoutMux, error) {
	m := &stdoutMux{}
	js.Global().Set(StdoutHook, js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		b := make([]byte, args[0].Get("length").Int())
		js.CopyBytesToGo(b, args[0])
		m.write(b)
		return nil
	}))
	return m, nil
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
	m.mu.Lock()
	m.cur = job
	m.mu.Unlock()
}

type muxWriter struct{ m *stdoutMux }

func (w muxWriter) Write(b []byte) (int, error) {
	w.m.write(append([]byte(nil), b...))
	return len(b), nil
}

func (m *stdoutMux) out() io.Writer { return muxWriter{m} }

func (m *stdoutMux) end(job *residentJob) {
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
