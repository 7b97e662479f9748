package snippets

import (
	"os"
	"testing"
)

// TestMain lets the test binary serve as the kernel's worker process: the
// kernel re-executes the running binary to run each page.
func TestMain(m *testing.M) {
	if IsWorker() {
		os.Exit(ServeWorker())
	}
	os.Exit(m.Run())
}
