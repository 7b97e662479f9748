package live

import (
	"os"
	"testing"

	"github.com/warpbook/warpbook/snippets"
)

// bookPage reads and parses a page of the book, by its path from the
// repository's root ("book/occupancy.md").
func bookPage(t testing.TB, page string) ([]byte, *snippets.Page) {
	t.Helper()
	src, err := os.ReadFile("../../" + page)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := snippets.Parse(page, src)
	return src, p
}
