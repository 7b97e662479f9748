package page

import (
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// mustParse parses a page and stops the test on an error.
func mustParse(t *testing.T, path, src string) *Page {
	t.Helper()
	p, err := Parse(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const samplePage = "---\ntitle: Sample\ntags: [a, b]\n---\n" +
	"# Sample\n\n" +
	"```go run id=first\n" +
	"import \"fmt\"\n" +
	"// ---\n" +
	"fmt.Println(\"hi\")\n" +
	"```\n" +
	"```output\n" +
	"hi\n" +
	"```\n\n" +
	"The answer is [42](= \"6*7\") and\n[hello](= 'fmt.Sprint(\"hello\")').\n\n" +
	"```go\n" +
	"display only\n" +
	"```\n\n" +
	"```go run panics=\"boom\" timeout=2s unordered fresh\n" +
	"panic(\"boom\")\n" +
	"```\n\n" +
	"| a | b |\n|---|---|\n| 1 | 2 |\n"

func TestParsePage(t *testing.T) {
	pg := mustParse(t, "book/sample.md", samplePage)
	if pg.FrontMatter == nil || string(pg.FrontMatter.Raw) != "title: Sample\ntags: [a, b]\n" || pg.FrontMatter.Line != 2 {
		t.Fatalf("front matter = %+v", pg.FrontMatter)
	}
	if fm := pg.FrontMatter; fm.Title != "Sample" || len(fm.Tags) != 2 || fm.KeyPos("tags").String() != "book/sample.md:3:1" {
		t.Fatalf("decoded front matter: %+v, tags at %s", fm, fm.KeyPos("tags"))
	}
	if len(pg.Cells) != 2 {
		t.Fatalf("got %d cells, want 2", len(pg.Cells))
	}
	c := pg.Cells[0]
	if c.ID() != "first" || c.Pos.String() != "book/sample.md:7:1" || c.Output == nil || c.Expected() != "hi\n" {
		t.Errorf("cell 0 = %+v", c)
	}
	if c.OutputPos.Line != 12 {
		t.Errorf("output at line %d, want 12", c.OutputPos.Line)
	}
	if !c.Lines[0].Hidden || !c.Lines[1].Hidden || c.Lines[2].Hidden || c.Lines[2].Pos.Line != 10 {
		t.Errorf("lines = %+v", c.Lines)
	}
	c = pg.Cells[1]
	want := Attrs{Panics: "boom", Timeout: 2e9, Unordered: true, Fresh: true}
	if c.ID() != "snippet-2" || c.Attrs != want || c.Output != nil {
		t.Errorf("cell 1 = %s %+v", c.ID(), c.Attrs)
	}
	if len(pg.Checks) != 2 {
		t.Fatalf("got %d checks, want 2", len(pg.Checks))
	}
	k := pg.Checks[0]
	if k.Text != "42" || k.Expr != "6*7" || k.After != 1 || k.Pos.String() != "book/sample.md:16:15" || k.ExprPos.String() != "book/sample.md:16:23" {
		t.Errorf("check 0 = %+v", k)
	}
	k = pg.Checks[1]
	if k.Text != "hello" || k.Expr != `fmt.Sprint("hello")` || k.ExprPos.String() != "book/sample.md:17:12" {
		t.Errorf("check 1 = %+v", k)
	}
	// The cells and checks are nodes of the AST, in place of what they
	// were written as.
	for _, c := range pg.Cells {
		n, ok := c.Code.Parent().(*CellNode)
		if !ok || n.Cell != c || n.FirstChild() != c.Code || (c.Output != nil && c.Code.NextSibling() != c.Output) {
			t.Errorf("%s: not in its CellNode", c.ID())
		}
	}
	checks := 0
	_ = ast.Walk(pg.Doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if c, ok := n.(*CheckNode); ok && entering {
			if c.Check != pg.Checks[checks] || c.FirstChild() == nil {
				t.Errorf("check node %d holds %+v", checks, c.Check)
			}
			checks++
		}
		if l, ok := n.(*ast.Link); ok && entering && string(l.Destination) == "=" {
			t.Error("a checked value is still a link")
		}
		return ast.WalkContinue, nil
	})
	if checks != len(pg.Checks) {
		t.Errorf("%d check nodes for %d checks", checks, len(pg.Checks))
	}
}

// TestDialect: one parse reads GitHub Flavored Markdown tables, footnotes,
// alerts, heading ids and front matter, and finds cells wherever they are
// (in a footnote too).
func TestDialect(t *testing.T) {
	src := "---\ntitle: T\n---\n# Top {#top}\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\n> [!NOTE]\n> Said.\n\nText[^1].\n\n[^1]: A note with a cell:\n\n    ```go run id=foot\n    import \"fmt\"\n    fmt.Println(1)\n    ```\n    ```output\n    2\n    ```\n"
	pg := mustParse(t, "x.md", src)
	kinds := map[ast.NodeKind]int{}
	var ids []string
	_ = ast.Walk(pg.Doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			kinds[n.Kind()]++
			if h, ok := n.(*ast.Heading); ok {
				id, _ := h.AttributeString("id")
				ids = append(ids, string(id.([]byte)))
			}
		}
		return ast.WalkContinue, nil
	})
	for _, k := range []ast.NodeKind{KindFrontMatter, extast.KindTable, extast.KindFootnote, KindAlert, KindCell} {
		if kinds[k] != 1 {
			t.Errorf("%d %s nodes, want 1", kinds[k], k)
		}
	}
	if len(ids) != 1 || ids[0] != "top" {
		t.Errorf("heading ids %q", ids)
	}
	if pg.FrontMatter == nil || string(pg.FrontMatter.Raw) != "title: T\n" {
		t.Errorf("front matter %+v", pg.FrontMatter)
	}
	if len(pg.Cells) != 1 || pg.Cells[0].ID() != "foot" || pg.Cells[0].Expected() != "2\n" || pg.Cells[0].Pos.String() != "x.md:17:5" {
		t.Fatalf("cells %+v", pg.Cells)
	}
}

// TestDrillDirectives reads what authors write for the practice page: the
// nodrill flag and drill= prompt of a snippet, and the comments after a
// checked value; other comments are left alone.
func TestDrillDirectives(t *testing.T) {
	src := "```go run id=a nodrill\nx\n```\n\n```go run id=b drill=\"How many warps?\"\nx\n```\n\n" +
		"A [4](= \"2+2\")<!-- nodrill --> and [5](= \"2+3\")<!--drill:  What is\ntwo plus three? --> and [6](= \"3+3\")<!-- a note --> and [7](= \"3+4\").\n"
	pg := mustParse(t, "x.md", src)
	if a := pg.Cells[0].Attrs; !a.NoDrill || a.Drill != "" {
		t.Errorf("cell a: %+v", a)
	}
	if c := pg.Cells[1]; c.Attrs.NoDrill || c.Attrs.Drill != "How many warps?" || c.DrillPos.String() != "x.md:5:16" {
		t.Errorf("cell b: %+v at %s", c.Attrs, c.DrillPos)
	}
	type got struct {
		NoDrill bool
		Drill   string
		Pos     string
	}
	want := []got{{true, "", "x.md:9:15"}, {false, "What is two plus three?", "x.md:9:48"}, {false, "", ""}, {false, "", ""}}
	for i, c := range pg.Checks {
		if g := (got{c.NoDrill, c.Drill, c.DrillPos.String()}); g != want[i] {
			t.Errorf("value %s: %+v, want %+v", c.Text, g, want[i])
		}
	}
}

// TestSetupSeparatorIsAComment checks that only a "// ---" comment alone
// on its line ends the hidden setup: the same text inside a raw string or
// a block comment, or after code, hides nothing.
func TestSetupSeparatorIsAComment(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		hidden     int // how many lines are hidden
	}{
		{"separator", "x := 1\n  // ---  \nfmt.Println(x)\n", 2},
		{"in a raw string", "s := `\n// ---\n`\nfmt.Print(s)\n", 0},
		{"in a block comment", "/*\n// ---\n*/\nfmt.Println()\n", 0},
		{"after code", "x := 1 // ---\nfmt.Println(x)\n", 0},
		{"after a raw string", "s := `\n// ---\n`\n// ---\nfmt.Print(s)\n", 4},
		{"unterminated string above", "s := \"a\n// ---\nfmt.Print(s)\n", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pg := mustParse(t, "x.md", "```go run\n"+tc.code+"```\n")
			hidden := 0
			for _, l := range pg.Cells[0].Lines {
				if l.Hidden {
					hidden++
				}
			}
			if hidden != tc.hidden {
				t.Errorf("%d lines hidden, want %d: %+v", hidden, tc.hidden, pg.Cells[0].Lines)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	testParseErrors(t, []parseError{
		{"unknown attribute", "```go run colour=red\nx\n```\n", `x.md:1:11: unknown attribute "colour"`},
		{"orphan output", "text\n\n```output\nx\n```\n", "x.md:3:1: output block with no go run snippet right before it"},
		{"output after display go", "```go\nx\n```\n```output\nx\n```\n", "x.md:4:1: output block follows a display-only go block"},
		{"duplicate id", "```go run id=a\n```\n\n```go run id=a\n```\n", `x.md:4:1: a: duplicate snippet id "a" (first used at line 1)`},
		{"skip needs reason", "```go run skip\n```\n", "x.md:1:11: skip needs a value"},
		{"bad timeout", "```go run timeout=soon\n```\n", `x.md:1:11: timeout "soon" is not a duration`},
		{"hide attribute", "```go run hide=1-5\nx\n```\n", `x.md:1:11: hide= is gone: put the setup lines first and a "// ---" line under them`},
		{"separator last", "```go run\nx\n// ---\n```\n", `x.md:1:1: snippet-1: the snippet ends with "// ---", which would hide all of it`},
		{"flag with value", "```go run fresh=yes\n```\n", "x.md:1:11: fresh is a flag"},
		{"display go attrs", "```go id=x\n```\n", "x.md:1:7: a display-only go block takes no attributes"},
		{"unclosed", "```go run\nx\n", "x.md:1:1: snippet-1: snippet is never closed"},
		{"error with output", "```go run error=\"undefined\"\nx\n```\n```output\n```\n", "x.md:4:1: snippet-1: a snippet with error= does not compile"},
		{"empty check", "see [42](=)\n", "x.md:1:5: checked value [42](=) has no expression"},
		{"unterminated quote", "```go run panics=\"boom\n```\n", "x.md:1:18: unterminated quoted value"},
		{"both panics and error", "```go run panics=\"a\" error=\"b\"\n```\n", "x.md:1:1: snippet-1: a snippet cannot both panic"},
		{"bad byline", "---\nbyline:\n  status: finished\n---\n# A\n", `x.md:3:3: front matter: byline status must be draft, review or published, not "finished"`},
		{"bad tag", "---\ntitle: t\ntags: [Occupancy]\n---\n# A\n", `x.md:3:1: front matter: tag "Occupancy": use lower-case letters`},
		{"unknown key", "---\ntitel: t\n---\n# A\n", `x.md:2:1: front matter: unknown field "titel"`},
		{"unclosed front matter", "---\ntitle: x\n\n# Page\n\n```go run\nx\n```\n", "x.md:1:1: front matter opened on line 1 is never closed"},
		{"empty drill prompt", "```go run drill=\"\"\n```\n", "x.md:1:11: drill needs a value"},
		{"nodrill with a value", "```go run nodrill=yes\n```\n", "x.md:1:11: nodrill is a flag"},
		{"nodrill and drill", "```go run nodrill drill=\"Why?\"\n```\n", "x.md:1:19: snippet-1: a snippet cannot be both nodrill and a drill"},
		{"drill of a skipped snippet", "```go run skip=\"later\" drill=\"Why?\"\n```\n", "x.md:1:24: snippet-1: a skipped snippet never runs"},
		{"drill comment without a prompt", "It is [4](= \"2+2\")<!-- drill: --> here.\n", "x.md:1:19: the drill comment has no prompt"},
		{"unknown drill comment", "It is [4](= \"2+2\")<!-- drill how many -->.\n", `x.md:1:19: unknown drill comment "<!-- drill how many -->"`},
	})
}

// parseError is a page x.md that does not parse, with a part of its error.
type parseError struct{ name, src, want string }

// testParseErrors checks that each page fails to parse with an error that
// contains want.
func testParseErrors(t *testing.T, cases []parseError) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.md", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error:\n%v\nwant it to contain:\n%s", err, tc.want)
			}
		})
	}
}
