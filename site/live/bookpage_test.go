package live

import (
	"os"
	"testing"

	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/snippets/page"
)

// bookPage reads and parses a page of the book, by its path from the
// repository's root ("book/occupancy.md").
func bookPage(t testing.TB, path string) ([]byte, *page.Page) {
	t.Helper()
	booktest.Require(t)
	src, err := os.ReadFile("../../" + path)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := page.Parse(path, src)
	return src, p
}
