package page

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
	var edits []splice
	for _, id := range sortedKeys(code) {
		c := p.Cell(id)
		if c == nil {
			return nil, fmt.Errorf("%s: no snippet with id %q", p.Path, id)
		}
		nl, prefix := p.lineEnd(c.Pos.Line), p.indent(c.Pos)
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
		edits = append(edits, splice{p.lineStart(c.Pos.Line + 1), p.lineStart(closing), b.String()})
	}
	return p.apply(edits), nil
}

// WithOutputs returns the page's source with the output block of each
// cell named in out (by id) holding out[id] instead (a cell that has no
// output block gets one, right after it): what "warpbook test -update"
// writes. Every other byte is kept, and each new line gets the prefix of
// the block's fence line, as in [Page.WithCode]. Output with a line that
// would close its block, a cell that is never closed and an id the page
// has no runnable cell for are errors.
func (p *Page) WithOutputs(out map[string]string) ([]byte, error) {
	for _, id := range sortedKeys(out) {
		if p.Cell(id) == nil {
			return nil, fmt.Errorf("%s: no snippet with id %q", p.Path, id)
		}
	}
	var edits []splice
	for _, c := range p.Cells {
		id := c.ID()
		if _, ok := out[id]; !ok || p.Cell(id) != c {
			continue
		}
		open, fence := c.Pos, "```"
		if c.Output != nil {
			open, fence = c.OutputPos, p.fenceAt(c.Output.Pos())
		}
		nl, prefix := p.lineEnd(open.Line), p.indent(open)
		var b strings.Builder
		if body := out[id]; body != "" {
			lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
			if i := writePrefixed(&b, lines, prefix, nl, fence); i >= 0 {
				return nil, fmt.Errorf("%s: %s: cannot update: the output has a line that would close its output block: %q", c.Pos, id, strings.TrimSpace(lines[i]))
			}
		}
		if c.Output != nil {
			closing, ok := p.closingFence(c.Output)
			if !ok {
				return nil, fmt.Errorf("%s: %s: cannot update: the output block is never closed", c.OutputPos, id)
			}
			edits = append(edits, splice{p.lineStart(c.OutputPos.Line + 1), p.lineStart(closing), b.String()})
			continue
		}
		closing, ok := p.closingFence(c.Code)
		if !ok {
			return nil, fmt.Errorf("%s: %s: cannot update: the snippet is never closed", c.Pos, id)
		}
		at := p.lineStart(closing + 1)
		text := prefix + "```output" + nl + b.String() + prefix + "```" + nl
		if at == len(p.Source) && !bytes.HasSuffix(p.Source, []byte("\n")) {
			text = nl + text
		}
		edits = append(edits, splice{at, at, text})
	}
	return p.apply(edits), nil
}

// splice replaces Source[start:end] by text.
type splice struct {
	start, end int
	text       string
}

// apply returns a copy of the page's source with edits made; they do not
// overlap.
func (p *Page) apply(edits []splice) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := bytes.Clone(p.Source)
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out
}

// sortedKeys returns m's keys in order, so that errors come in the same
// order on every run.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// lineEnd returns the line ending of 1-based line n: "\r\n" or "\n".
func (p *Page) lineEnd(n int) string {
	if bytes.HasSuffix(p.Source[p.lineStart(n):p.lineStart(n+1)], []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// indent returns what stands before a block's fence at pos on its line:
// a list's indentation, a quote's "> ".
func (p *Page) indent(pos Pos) string {
	start := p.lineStart(pos.Line)
	return string(p.Source[start : start+pos.Col-1])
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
