//go:build js && wasm

package worker

import "context"

// process is the Resident that runs InProcess jobs in WebAssembly, where
// every job prints through the one stdoutMux: it keeps nothing.
var process = NewResident(false)

// inProcess runs an in-process job.
func inProcess(j *Job, started func(u int)) (Proc, error) {
	return process.start(context.Background(), j, started)
}
