package page

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// proseNumber finds a number in prose: "1,280", "62.5", "75 %".
var proseNumber = regexp.MustCompile(`(?:^|[^\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+)( ?%|×)?`)

// distinctive reports whether a number, written v (without thousands
// separators) and followed by unit, is worth checking: one a reader would
// take from a computation (1,280, 62.5 %, 3.272), not a round constant a
// page names in passing (a warp's 32 lanes, 256 threads, a capability's
// 7.5).
func distinctive(v, unit string) bool {
	if i := strings.IndexByte(v, '.'); i >= 0 {
		// d.d is a compute capability unless it is a share or a ratio.
		return unit != "" || len(v) != 3 || i != 1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 100 {
		return false
	}
	return n&(n-1) != 0 && n%100 != 0
}

// lintNumbers warns about numbers typed in the page's prose that one of
// its snippets prints: an engine change would leave them stale, where a
// checked value ([1280](= "r.RegistersPerWarp")) would fail. Numbers the
// front matter lists in prose_numbers are meant as prose.
func (pg *Page) lintNumbers() Diagnostics {
	printed := map[string]*Cell{}
	for _, c := range pg.Cells {
		for _, m := range proseNumber.FindAllStringSubmatch(c.Expected(), -1) {
			if v := strings.ReplaceAll(m[1], ",", ""); printed[v] == nil {
				printed[v] = c
			}
		}
	}
	if len(printed) == 0 {
		return nil
	}
	var meant []string
	if pg.FrontMatter != nil {
		for _, n := range pg.FrontMatter.ProseNumbers {
			meant = append(meant, strings.ReplaceAll(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(n), "%×")), ",", ""))
		}
	}
	var ws Diagnostics
	_ = ast.Walk(pg.Doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *CellNode, *CheckNode, *FrontMatterNode, *ast.FencedCodeBlock, *ast.CodeBlock, *ast.CodeSpan, *ast.Link, *ast.AutoLink, *ast.HTMLBlock, *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		case *ast.Text:
			text := n.Segment.Value(pg.Source)
			if !bytes.ContainsAny(text, "0123456789") {
				return ast.WalkContinue, nil
			}
			for _, m := range proseNumber.FindAllSubmatchIndex(text, -1) {
				written := string(text[m[2]:m[3]])
				unit := ""
				if m[4] >= 0 {
					unit = strings.TrimSpace(string(text[m[4]:m[5]]))
				}
				v := strings.ReplaceAll(written, ",", "")
				c := printed[v]
				if c == nil || !distinctive(v, unit) || slices.Contains(meant, v) {
					continue
				}
				ws = append(ws, &Diagnostic{Pos: pg.Pos(n.Segment.Start + m[2]),
					Msg: fmt.Sprintf("%s is typed in prose and printed by %s (line %d): make it a checked value, [%s](= \"...\"), or list it in the front matter's prose_numbers", written, c.ID(), c.Pos.Line, written)})
			}
		}
		return ast.WalkContinue, nil
	})
	return ws
}
