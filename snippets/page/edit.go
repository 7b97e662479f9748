package page

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
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
	for _, id := range slices.Sorted(maps.Keys(code)) {
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
	return p.WithVerified(Verified{Outputs: out})
}

// Verified is what "warpbook test -update" writes into a page's verified
// blocks: the bodies of output blocks, by Go cell id; of resources
// blocks, by CUDA cell id; of sass blocks, by [SASSBlock.Index].
type Verified struct {
	Outputs   map[string]string
	Resources map[string]string
	SASS      map[int]string
}

// WithVerified returns the page's source with the verified blocks that v
// names holding v's text instead: a Go cell without an output block gets
// one after it, a CUDA cell without a resources block one after its code.
// Every other byte is kept, and each new line gets the prefix of the
// block's fence line (a list's indentation, a quote's "> "). Text with a
// line that would close its block, a block that is never closed, and an
// id or index the page has no cell or block for are errors.
func (p *Page) WithVerified(v Verified) ([]byte, error) {
	for _, id := range slices.Sorted(maps.Keys(v.Outputs)) {
		if p.Cell(id) == nil {
			return nil, fmt.Errorf("%s: no snippet with id %q", p.Path, id)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(v.Resources)) {
		if p.cudaCell(id) == nil {
			return nil, fmt.Errorf("%s: no CUDA cell with id %q", p.Path, id)
		}
	}
	for i := range v.SASS {
		if i < 0 || i >= len(p.SASS) {
			return nil, fmt.Errorf("%s: no sass block %d", p.Path, i)
		}
	}
	var edits []splice
	add := func(e splice, err error) error {
		if err == nil {
			edits = append(edits, e)
		}
		return err
	}
	for _, c := range p.Cells {
		body, ok := v.Outputs[c.ID()]
		if !ok || p.Cell(c.ID()) != c {
			continue
		}
		if err := add(p.rewriteBlock(c.ID(), c.Code, c.Pos, c.Output, c.OutputPos, "output", body)); err != nil {
			return nil, err
		}
	}
	for _, c := range p.CUDA {
		body, ok := v.Resources[c.ID()]
		if !ok || p.cudaCell(c.ID()) != c {
			continue
		}
		if err := add(p.rewriteBlock(c.ID(), c.Code, c.Pos, c.Resources, c.ResourcesPos, "resources", body)); err != nil {
			return nil, err
		}
	}
	for _, i := range slices.Sorted(maps.Keys(v.SASS)) {
		s := p.SASS[i]
		if err := add(p.rewriteBlock(s.ID(), nil, s.Pos, s.Block, s.Pos, "sass", v.SASS[i])); err != nil {
			return nil, err
		}
	}
	return p.apply(edits), nil
}

// rewriteBlock returns the splice that makes block (whose fence is at
// open) hold body; with no block, the splice that adds a block of the
// given info string after owner (whose fence is at ownerPos).
func (p *Page) rewriteBlock(id string, owner *ast.FencedCodeBlock, ownerPos Pos, block *ast.FencedCodeBlock, open Pos, info, body string) (splice, error) {
	fence := "```"
	if block != nil {
		fence = p.fenceAt(block.Pos())
	} else {
		open = ownerPos
	}
	nl, prefix := p.lineEnd(open.Line), p.indent(open)
	var b strings.Builder
	if body != "" {
		lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
		if i := writePrefixed(&b, lines, prefix, nl, fence); i >= 0 {
			what := map[string]string{"output": "output", "resources": "resource table", "sass": "SASS excerpt"}[info]
			return splice{}, fmt.Errorf("%s: %s: cannot update: the %s has a line that would close its %s block: %q", ownerPos, id, what, info, strings.TrimSpace(lines[i]))
		}
	}
	if block != nil {
		closing, ok := p.closingFence(block)
		if !ok {
			return splice{}, fmt.Errorf("%s: %s: cannot update: the %s block is never closed", open, id, info)
		}
		return splice{p.lineStart(open.Line + 1), p.lineStart(closing), b.String()}, nil
	}
	closing, ok := p.closingFence(owner)
	if !ok {
		return splice{}, fmt.Errorf("%s: %s: cannot update: the cell is never closed", ownerPos, id)
	}
	at := p.lineStart(closing + 1)
	text := prefix + "```" + info + nl + b.String() + prefix + "```" + nl
	if at == len(p.Source) && !bytes.HasSuffix(p.Source, []byte("\n")) {
		text = nl + text
	}
	return splice{at, at, text}, nil
}

// cudaCell returns the CUDA cell with the given id, or nil.
func (p *Page) cudaCell(id string) *CUDACell {
	for _, c := range p.CUDA {
		if c.ID() == id {
			return c
		}
	}
	return nil
}

// splice replaces Source[start:end] by text.
type splice struct {
	start, end int
	text       string
}

// apply returns a copy of the page's source with edits made; they do not
// overlap.
func (p *Page) apply(edits []splice) []byte {
	slices.SortFunc(edits, func(a, b splice) int { return cmp.Compare(b.start, a.start) })
	out := bytes.Clone(p.Source)
	for _, e := range edits {
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	return out
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
