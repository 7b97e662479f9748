package snippets

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/warpbook/warpbook/snippets/cuda"
)

var toolkit struct {
	sync.Once
	tk  *cuda.Toolkit
	err error
}

// needToolkit returns the CUDA toolkit cuda.Find finds, or skips the test
// when there is none; with WARPBOOK_CUDA_REQUIRE set (CI) it fails
// instead. go test -short skips it: it runs the CUDA compiler.
func needToolkit(t *testing.T) *cuda.Toolkit {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the CUDA compiler; skipped with -short")
	}
	toolkit.Do(func() { toolkit.tk, toolkit.err = cuda.Find(context.Background()) })
	if toolkit.err != nil {
		if os.Getenv("WARPBOOK_CUDA_REQUIRE") != "" {
			t.Fatalf("WARPBOOK_CUDA_REQUIRE is set and there is no toolkit: %v", toolkit.err)
		}
		t.Skipf("no CUDA toolkit (run %s from the repository's root): %v", cuda.FetchCommand, toolkit.err)
	}
	return toolkit.tk
}
