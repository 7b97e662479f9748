package site

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/warpbook/warpbook/internal/booktest"
)

// TestGzipSize holds the search budget's estimate to within 2 % of what
// gzip at the default level makes of the real book's text.
func TestGzipSize(t *testing.T) {
	booktest.Require(t)
	files, err := filepath.Glob("../book/*/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no pages in ../book: %v", err)
	}
	var data []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, b...)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
	zw.Write(data)
	zw.Close()
	got, want := gzipSize(data), gz.Len()
	if d := float64(got-want) / float64(want); d < -0.02 || d > 0.02 {
		t.Errorf("gzipSize of %d bytes = %d, gzip makes %d (%.2f %% off)", len(data), got, want, 100*d)
	}
	t.Logf("gzipSize of %d bytes = %d, gzip makes %d", len(data), got, want)
}
