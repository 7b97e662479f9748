package snippets

import (
	"context"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// TestCheckAboveFailsClosed: when the cells above a cell that does not
// parse do not check on their own either (testdata/parse-cut.txtar),
// they do not run, and they say which cell keeps them from it.
func TestCheckAboveFailsClosed(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/parse-cut.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range ar.Files {
		if f.Name == "page.md" {
			src = f.Data
		}
	}
	p, err := Parse("page.md", src)
	if err != nil {
		t.Fatal(err)
	}
	k := &Kernel{InProcess: true, Timeout: 5 * time.Second}
	r := k.RunPage(context.Background(), p)
	cut := r.Result(p.Cell("cut"))
	if cut == nil || cut.Status != StatusSkip || !strings.Contains(cut.Skip, "cannot be checked because of rest") {
		t.Errorf("cell cut: %+v", cut)
	}
}
