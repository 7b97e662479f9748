package worker

import (
	"testing"
	"testing/fstest"
)

// TestMemFS checks MemFS with testing/fstest's checker of fs.FS
// implementations.
func TestMemFS(t *testing.T) {
	fsys := MemFS(map[string]string{
		"src/example.com/m/h/h.go":       "package h\n",
		"src/example.com/m/h/inner/i.go": "package inner\n",
		"src/example.com/m/g/g.go":       "",
	})
	if err := fstest.TestFS(fsys, "src/example.com/m/h/h.go", "src/example.com/m/h/inner/i.go", "src/example.com/m/g/g.go"); err != nil {
		t.Fatal(err)
	}
}
