package page_test

import (
	"slices"
	"testing"

	"github.com/warpbook/warpbook/snippets/page"
	"github.com/yuin/goldmark/ast"
)

func TestRefsAndCaptions(t *testing.T) {
	src := "# P\n\nSee @fig-cliffs, (@tbl-x) and @fig-a_b-2. Not x@fig-y, not @figure, not `@fig-z`, mail a@fig-b.com.\n\n" +
		"| a | b |\n|---|---|\n| 1 | 2 |\n\nTable: The *limits* by part {#tbl-limits}\n\n" +
		"| c |\n|---|\n| 3 |\n\nTable: No id.\n\n" +
		"Table: not after a table {#tbl-no}\n"
	p, err := page.Parse("p.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	var caps []*page.Caption
	ast.Walk(p.Doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *page.Ref:
			refs = append(refs, n.Target)
		case *page.Caption:
			caps = append(caps, n)
		}
		return ast.WalkContinue, nil
	})
	if want := []string{"fig-cliffs", "tbl-x", "fig-a_b-2"}; !slices.Equal(refs, want) {
		t.Errorf("refs %q, want %q", refs, want)
	}
	if len(caps) != 2 {
		t.Fatalf("%d captions, want 2 (a \"Table:\" paragraph not after a table is a paragraph)", len(caps))
	}
	text := func(n ast.Node) string {
		var b []byte
		ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if t, ok := c.(*ast.Text); ok && entering {
				b = append(b, t.Segment.Value(p.Source)...)
			}
			return ast.WalkContinue, nil
		})
		return string(b)
	}
	if caps[0].ID != "tbl-limits" || text(caps[0]) != "The limits by part" {
		t.Errorf("first caption %q, text %q", caps[0].ID, text(caps[0]))
	}
	if caps[1].ID != "" || text(caps[1]) != "No id." {
		t.Errorf("second caption %q, text %q", caps[1].ID, text(caps[1]))
	}
}
