package snippets

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// WithCode returns the page's source with the code of the cells named in
// code (by id) replaced: what a reader's edits in the browser make of the
// page, and what "warpbook test" would run had the author made the same
// edits. Every other byte is kept. Each new
// line gets the prefix of the cell's fence line (a list's indentation, a
// quote's "> "). Code with a line that would close the cell's fence, and
// an id the page has no runnable cell for, are errors.
func (p *Page) WithCode(code map[string]string) ([]byte, error) {
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	ids := make([]string, 0, len(code))
	for id := range code {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := p.Cell(id)
		if c == nil {
			return nil, fmt.Errorf("%s: no snippet with id %q", p.Path, id)
		}
		open := p.lineStart(c.Pos.Line)
		nl := "\n"
		if bytes.HasSuffix(p.Source[open:p.lineStart(c.Pos.Line+1)], []byte("\r\n")) {
			nl = "\r\n"
		}
		prefix := string(p.Source[open : open+c.Pos.Col-1])
		fenceChar := p.Source[c.Code.Pos()]
		fenceLen := 0
		for i := c.Code.Pos(); i < len(p.Source) && p.Source[i] == fenceChar; i++ {
			fenceLen++
		}
		closing, ok := p.closingFence(c.Code)
		if !ok {
			return nil, fmt.Errorf("%s: %s: the snippet is never closed", c.Pos, id)
		}
		var b strings.Builder
		src := strings.ReplaceAll(code[id], "\r\n", "\n")
		src = strings.TrimSuffix(src, "\n")
		for i, l := range strings.Split(src, "\n") {
			t := strings.TrimLeft(l, " ")
			if len(l)-len(t) < 4 && strings.HasPrefix(t, strings.Repeat(string(fenceChar), fenceLen)) {
				return nil, fmt.Errorf("%s: %s: line %d of the new code, %q, would close the snippet's fence", c.Pos, id, i+1, strings.TrimSpace(l))
			}
			if l == "" {
				b.WriteString(strings.TrimRight(prefix, " \t"))
			} else {
				b.WriteString(prefix)
			}
			b.WriteString(l)
			b.WriteString(nl)
		}
		edits = append(edits, edit{p.lineStart(c.Pos.Line + 1), p.lineStart(closing), b.String()})
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := bytes.Clone(p.Source)
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out, nil
}
