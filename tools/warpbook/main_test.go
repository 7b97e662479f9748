package main

import (
	"os"
	"testing"

	"github.com/warpbook/warpbook/snippets"
)

// TestMain lets the test binary serve as the snippet kernel's worker
// process (the kernel re-executes the running binary, as it re-executes
// warpbook itself). Put any other test setup below the hook.
func TestMain(m *testing.M) {
	if snippets.IsWorker() {
		os.Exit(snippets.ServeWorker())
	}
	os.Exit(m.Run())
}
