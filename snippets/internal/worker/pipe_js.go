//go:build js && wasm

package worker

import (
	"context"
	"io"
	"os"
	"sync"
	"syscall/js"
)

// StdoutHook is the name of the function a WebAssembly worker sets on
// JavaScript's globalThis: the host's file system shim (the browser
// kernel's Web Worker) must call it with every chunk (a Uint8Array) that the
// module writes to file descriptor 1.
//
// WebAssembly has no pipes, and a snippet's os.Stdout must be a file (the
// interpreter gives snippets its standard output as os.Stdout only if it
// is one): so in-process jobs print to the module's standard output, and
// the host hands the bytes back, in order, through the hook.
const StdoutHook = "warpbookStdout"

var (
	hookOnce sync.Once
	hookPipe *memPipe
	// process is the Resident that runs InProcess jobs: the module has one
	// standard output, so they run one at a time.
	process = NewResident(false)
)

// residentStdout returns os.Stdout and a reader of what is written there,
// through the hook.
func residentStdout() (io.Reader, *os.File, error) {
	hookOnce.Do(func() {
		hookPipe = newMemPipe()
		js.Global().Set(StdoutHook, js.FuncOf(func(this js.Value, args []js.Value) any {
			if len(args) == 0 {
				return nil
			}
			b := make([]byte, args[0].Get("length").Int())
			js.CopyBytesToGo(b, args[0])
			hookPipe.write(b)
			return nil
		}))
	})
	return hookPipe, os.Stdout, nil
}

// inProcess runs an in-process job: in WebAssembly, through a Resident
// that keeps nothing, since every job prints to the module's one standard
// output.
func inProcess(j *Job, started func(u int)) (Proc, error) {
	return process.start(context.Background(), j, started)
}
