package main

import (
	"os"
	"testing"

	"github.com/warpbook/warpbook/snippets"
)

// TestMain lets the test binary serve as the snippet kernel's worker
// process (the kernel re-executes the running binary, as it re-executes
// warpbook itself), and as the warpbook command for the scripts of
// TestScripts. Put any other test setup below the hooks.
func TestMain(m *testing.M) {
	if snippets.IsWorker() {
		os.Exit(snippets.ServeWorker())
	}
	if os.Getenv(asCommand) == "1" {
		os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
