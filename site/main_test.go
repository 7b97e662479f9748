package site_test

import (
	"os"
	"testing"

	"github.com/warpbook/warpbook/snippets"
)

// TestMain lets the test binary serve as the snippets kernel's worker
// process: the live book's tests compare the browser kernel with it.
func TestMain(m *testing.M) {
	if snippets.IsWorker() {
		os.Exit(snippets.ServeWorker())
	}
	os.Exit(m.Run())
}
