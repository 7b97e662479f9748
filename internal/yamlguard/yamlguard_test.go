package yamlguard

import (
	"fmt"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// TestCheck: aliases count as their anchor's value, deep and wide, and the
// error is at the first node past a limit. (engine/sim and snippets/page
// test Tokenize and Check on hostile YAML with their own limits.)
func TestCheck(t *testing.T) {
	// deep nests 5 levels at *a; wide has 13 nodes, the second *a the 11th to 13th.
	const deep, wide = "a: &a [[1]]\nb: [[*a]]\n", "a: &a [x, x]\nb: [*a, *a]\n"
	for _, c := range []struct {
		src         string
		depth, size int
		want        string
	}{
		{deep, 4, 100, "2:6 deep"}, {deep, 5, 100, ""},
		{wide, 5, 12, "2:9"}, {wide, 5, 13, ""},
	} {
		f, err := parser.ParseBytes([]byte(c.src), 0)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if n, deep := (Limits{Depth: c.depth, Size: int64(c.size), Weight: func(ast.Node) int64 { return 1 }}).Check(f); n != nil {
			got = fmt.Sprintf("%d:%d", n.GetToken().Position.Line, n.GetToken().Position.Column) + map[bool]string{true: " deep"}[deep]
		}
		if got != c.want {
			t.Errorf("Check(%q) with Depth %d, Size %d = %q, want %q", c.src, c.depth, c.size, got, c.want)
		}
	}
}
