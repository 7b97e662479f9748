package snippets

import (
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets/page"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // kind:text of each item, text trimmed
	}{
		{"statements", "x := 1\nfmt.Println(x)\n", []string{"s:x := 1", "s:fmt.Println(x)"}},
		{"imports and decls", "import \"fmt\"\n\ntype T int\nconst c = 1\nfunc f() {}\nfunc (T) M() {}\n", []string{"i:import \"fmt\"", "d:type T int", "d:const c = 1", "d:func f() {}", "d:func (T) M() {}"}},
		{"func literal is a statement", "func() {\n\tx++\n}()\nfunc(a int) int { return a }(1)\n", []string{"s:func() {\n\tx++\n}()", "s:func(a int) int { return a }(1)"}},
		{"for header semicolons", "for i := 0; i < 3; i++ {\n\tx += i\n}\nx++\n", []string{"b:for i := 0; i < 3; i++ {\n\tx += i\n}", "s:x++"}},
		{"if with init, else", "if v, err := f(); err != nil {\n} else {\n}\n", []string{"b:if v, err := f(); err != nil {\n} else {\n}"}},
		{"var is a statement", "var x = 1\nvar (\n\ty = 2\n)\n", []string{"s:var x = 1", "s:var (\n\ty = 2\n)"}},
		{"labeled loop", "outer:\nfor {\n\tbreak outer\n}\n", []string{"b:outer:\nfor {\n\tbreak outer\n}"}},
		{"one line, two statements", "a := 1; b := 2\n", []string{"s:a := 1; b := 2"}},
		{"comments stay", "// lead\nx := 1 // trail\n/* block\n   comment */\ny := 2\n", []string{"s:// lead\nx := 1 // trail\n/* block\n   comment */", "s:y := 2"}},
		{"raw string", "s := `a\nb`\n", []string{"s:s := `a\nb`"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &page.Cell{Pos: page.Pos{File: "x.md", Line: 1, Col: 1}}
			for i, l := range strings.Split(strings.TrimSuffix(tc.src, "\n"), "\n") {
				c.Lines = append(c.Lines, page.Line{Text: l, Pos: page.Pos{File: "x.md", Line: i + 2, Col: 1}})
			}
			s := newSnippetSource(c)
			var got []string
			for _, it := range s.split() {
				k := map[itemKind]string{stmtItem: "s", importItem: "i", declItem: "d"}[it.kind]
				if it.block {
					k = "b"
				}
				got = append(got, k+":"+strings.TrimSpace(s.text[it.start:it.end]))
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestLocated checks the position comments that map generated Go back to
// Markdown, for an indented fence with a raw string spanning lines.
func TestLocated(t *testing.T) {
	c := &page.Cell{Pos: page.Pos{File: "x.md", Line: 9, Col: 4}}
	for i, l := range []string{"x := `a", "b`", "y := 1"} {
		c.Lines = append(c.Lines, page.Line{Text: l, Pos: page.Pos{File: "x.md", Line: 10 + i, Col: 4}})
	}
	s := newSnippetSource(c)
	s.split()
	got := s.located(0, len(s.text))
	want := "/*line " + pageFile + ":10:4*/x := `a\nb`\n/*line " + pageFile + ":12:4*/y := 1\n"
	if got != want {
		t.Errorf("located:\n%q\nwant\n%q", got, want)
	}
}
