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
		fence := p.fenceAt(c.Code.Pos())
		closing, ok := p.closingFence(c.Code)
		if !ok {
			return nil, fmt.Errorf("%s: %s: the snippet is never closed", c.Pos, id)
		}
		var b strings.Builder
		src := strings.ReplaceAll(code[id], "\r\n", "\n")
		lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
		if i := writePrefixed(&b, lines, prefix, nl, fence); i >= 0 {
			return nil, fmt.Errorf("%s: %s: line %d of the new code, %q, would close the snippet's fence", c.Pos, id, i+1, strings.TrimSpace(lines[i]))
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

// fenceAt returns the fence that opens at offset pos of the page: its run
// of backticks or tildes.
func (p *Page) fenceAt(pos int) string {
	end := pos
	for end < len(p.Source) && p.Source[end] == p.Source[pos] {
		end++
	}
	return string(p.Source[pos:end])
}

// writePrefixed writes lines to b, each after prefix (a blank line after
// prefix without its trailing blanks) and ending in nl, as a block inside
// a list or a quote is written. It returns the index of the first line
// that would close a block fenced with fence, having written the lines
// before it, or -1.
func writePrefixed(b *strings.Builder, lines []string, prefix, nl, fence string) int {
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		if len(l)-len(t) < 4 && strings.HasPrefix(t, fence) {
			return i
		}
		if l == "" {
			b.WriteString(strings.TrimRight(prefix, " \t"))
		} else {
			b.WriteString(prefix)
		}
		b.WriteString(l)
		b.WriteString(nl)
	}
	return -1
}
