package snippets

import (
	"os"

	"github.com/warpbook/warpbook/snippets/internal/worker"
)

// IsWorker reports whether this process was started as a snippet worker.
// Programs that run pages (the warpbook command, and test binaries through
// TestMain) must start with
//
//	if snippets.IsWorker() {
//		os.Exit(snippets.ServeWorker())
//	}
//
// because the kernel runs each page in a copy of the running executable.
func IsWorker() bool { return os.Getenv(worker.EnvVar) == "1" }

// ServeWorker runs the job the parent writes on standard input and reports
// on standard output; it returns the exit code.
func ServeWorker() int { return worker.ServeStdio() }
