package snippets

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets/page"
	"github.com/yuin/goldmark/ast"
)

// TestWritingExample runs the complete example page of docs/writing.md:
// the documentation must be true.
func TestWritingExample(t *testing.T) {
	src, err := os.ReadFile("../docs/writing.md")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := page.Parse("writing.md", src)
	var example string
	_ = ast.Walk(doc.Doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if fb, ok := n.(*ast.FencedCodeBlock); ok && entering && example == "" && string(fb.Language(src)) == "markdown" {
			if text := string(fb.Lines().Value(src)); strings.Contains(text, "```go run") {
				example = text
			}
		}
		return ast.WalkContinue, nil
	})
	if example == "" {
		t.Fatal("docs/writing.md has no example page (a ````markdown block with go run snippets)")
	}
	p := mustParse(t, "writing-example.md", example)
	if len(p.Cells) < 3 || len(p.Checks) < 1 || p.FrontMatter == nil {
		t.Errorf("the example should show front matter, several snippets and a checked value: %d cells, %d checks", len(p.Cells), len(p.Checks))
	}
	r := (&Kernel{}).RunPage(context.Background(), p)
	for _, d := range r.AllDiagnostics() {
		var b strings.Builder
		_ = page.Diagnostics{d}.Write(&b)
		t.Errorf("%s", b.String())
	}
	for _, c := range r.Cells {
		if c.Status != StatusPass {
			t.Errorf("%s: %s", c.ID, c.Status)
		}
	}
}
