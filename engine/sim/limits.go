package sim

import (
	"bytes"
	"fmt"
	"io"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/scanner"
	"github.com/goccy/go-yaml/token"
)

// Limits on the YAML that [ParseWorkload] and [ParseProgram] read. Workload
// files come from pull requests as often as from their authors, so input
// past a limit fails at once with a file:line:col error that names the
// limit, before anything big is built from it.
const (
	// MaxSourceBytes is the largest workload file or program source, in
	// bytes. A workload is a few hundred bytes; this leaves a thousand times
	// that. goccy/go-yaml's scanner makes a token of up to about 250 bytes
	// per source byte before anything can be checked, so the worst a file
	// inside this limit costs is about 64 MB and a fraction of a second.
	MaxSourceBytes = 256 << 10
	// MaxNesting is how deep YAML lists and mappings may nest. The deepest
	// program the simulator runs (loops and branches nested 16 deep) needs
	// about 36 levels. goccy/go-yaml's parser takes time and memory that
	// grow with the square of the depth (200 KB of nested lists took it
	// about 15 GB), so the depth is checked on the tokens, before the parser
	// runs.
	MaxNesting = 64
	// MaxExpandedNodes bounds the YAML nodes of a document with every
	// alias replaced by what its anchor names, counted on the parsed tree
	// before anything is decoded: a few hundred bytes of nested aliases
	// (a "billion laughs") would otherwise stand for billions of nodes.
	// Workload files do not accept aliases at all; the count makes that
	// refusal cheap whatever the aliases would expand to.
	MaxExpandedNodes = 100_000
)

// parseYAML parses src as goccy/go-yaml's parser.ParseBytes does (the same
// scanner, the same parser), checking MaxSourceBytes first, MaxNesting on
// the tokens as they are scanned and MaxNesting and MaxExpandedNodes on the
// tree the parser returns.
func (p *wparser) parseYAML(src []byte) (*ast.File, error) {
	if len(src) > MaxSourceBytes {
		line := 1 + bytes.Count(src[:MaxSourceBytes], []byte("\n"))
		col := MaxSourceBytes - bytes.LastIndexByte(src[:MaxSourceBytes], '\n')
		return nil, &Error{File: p.file, Line: line, Col: col,
			Msg: fmt.Sprintf("the file is %d bytes, more than the size limit of %d bytes", len(src), MaxSourceBytes)}
	}
	var s scanner.Scanner
	s.Init(string(src))
	var toks token.Tokens
	var nest nesting
	for {
		sub, err := s.Scan()
		if err == io.EOF {
			break
		}
		// Like lexer.Tokenize, keep going after an invalid token: the
		// parser reports the first one.
		for _, tk := range sub {
			if nest.add(tk) > MaxNesting {
				return nil, p.nestingError(tk)
			}
		}
		toks.Add(sub...)
	}
	f, err := parser.Parse(toks, 0)
	if err != nil {
		return nil, err
	}
	c := &yamlCount{p: p, anchors: map[string]expansion{}}
	for _, d := range f.Docs {
		if d != nil && d.Body != nil {
			c.err = nil
			ast.Walk(visitor{c: c}, d.Body)
			if c.err != nil {
				return nil, c.err
			}
		}
	}
	return f, nil
}

func (p *wparser) nestingError(tk *token.Token) error {
	e := &Error{File: p.file, Msg: fmt.Sprintf("lists and mappings nested more than %d deep, the nesting limit", MaxNesting)}
	e.Line, e.Col = p.pos(tk)
	return e
}

// nesting follows how deep the tokens scanned so far nest: flow
// collections by their brackets, block collections by the columns of their
// entries ("-") and keys (the token before ":" or "?"). It is the depth the
// parser will find, give or take a level for odd layouts (a single-pair
// mapping inside a flow list counts no level), which is all a guard
// against quadratic parsing needs; the tree is checked exactly afterwards.
type nesting struct {
	flow  int
	block []blockLevel
	prev  *token.Token // the last token that is not a comment
}

type blockLevel struct {
	col int
	seq bool // a list's entries; false: a mapping's keys
}

// add takes the next token and returns the depth after it.
func (n *nesting) add(tk *token.Token) int {
	prev := n.prev
	if tk.Type != token.CommentType {
		n.prev = tk
	}
	switch tk.Type {
	case token.SequenceStartType, token.MappingStartType:
		n.flow++
	case token.SequenceEndType, token.MappingEndType:
		n.flow = max(0, n.flow-1)
	case token.DocumentHeaderType, token.DocumentEndType:
		n.flow, n.block = 0, n.block[:0]
	case token.SequenceEntryType:
		if n.flow == 0 && tk.Position != nil {
			n.level(tk.Position.Column, true)
		}
	case token.MappingKeyType:
		if n.flow == 0 && tk.Position != nil {
			n.level(tk.Position.Column, false)
		}
	case token.MappingValueType:
		if n.flow == 0 && prev != nil && prev.Position != nil && prev.Type != token.MappingKeyType {
			n.level(prev.Position.Column, false)
		}
	}
	return n.flow + len(n.block)
}

// level records a block entry (seq) or key at column col: collections
// indented deeper than col have ended; a list written at the column of the
// key it belongs to is inside that key's mapping, and a key at the column
// of such a list ends the list.
func (n *nesting) level(col int, seq bool) {
	for len(n.block) > 0 {
		top := n.block[len(n.block)-1]
		if top.col > col || (top.col == col && top.seq && !seq) {
			n.block = n.block[:len(n.block)-1]
			continue
		}
		break
	}
	if k := len(n.block); k > 0 && n.block[k-1].col == col && n.block[k-1].seq == seq {
		return
	}
	n.block = append(n.block, blockLevel{col: col, seq: seq})
}

// expansion is what an anchor stands for: its nodes and how deep they nest.
type expansion struct {
	nodes int64
	depth int
}

// yamlCount counts a document's nodes with aliases expanded.
type yamlCount struct {
	p       *wparser
	anchors map[string]expansion // by anchor name: the latest definition so far
	nodes   int64
	depth   int // deepest nesting seen
	err     error
}

// visitor walks one tree for a yamlCount; depth is the collections around
// the node it visits, inMap whether its parent is a mapping node (whose
// key-value pairs are no level of their own).
type visitor struct {
	c     *yamlCount
	depth int
	inMap bool
}

func (v visitor) Visit(n ast.Node) ast.Visitor {
	c := v.c
	if c.err != nil {
		return nil
	}
	c.add(1, v.depth, n)
	switch t := n.(type) {
	case *ast.AliasNode:
		e := c.anchors[nameOf(t.Value)]
		c.add(e.nodes, v.depth+e.depth, n)
		return nil
	case *ast.AnchorNode:
		sub := &yamlCount{p: c.p, anchors: c.anchors}
		ast.Walk(visitor{c: sub}, t.Value)
		if sub.err != nil {
			c.err = sub.err
			return nil
		}
		c.anchors[nameOf(t.Name)] = expansion{nodes: sub.nodes, depth: sub.depth}
		c.add(sub.nodes, v.depth+sub.depth, n)
		return nil
	case *ast.MappingNode:
		c.add(0, v.depth+1, n)
		return visitor{c: c, depth: v.depth + 1, inMap: true}
	case *ast.MappingValueNode:
		if v.inMap {
			return visitor{c: c, depth: v.depth}
		}
		c.add(0, v.depth+1, n)
		return visitor{c: c, depth: v.depth + 1}
	case *ast.SequenceNode:
		c.add(0, v.depth+1, n)
		return visitor{c: c, depth: v.depth + 1}
	}
	return visitor{c: c, depth: v.depth}
}

// add counts nodes more nodes, nesting depth deep, found at n, and records
// the first limit they pass.
func (c *yamlCount) add(nodes int64, depth int, n ast.Node) {
	c.nodes = min(c.nodes+nodes, MaxExpandedNodes+1) // saturate: no overflow
	c.depth = max(c.depth, depth)
	if c.err != nil {
		return
	}
	switch {
	case depth > MaxNesting:
		c.err = c.p.errAt(n, "lists and mappings nested more than %d deep, the nesting limit", MaxNesting)
	case c.nodes > MaxExpandedNodes:
		c.err = c.p.errAt(n, "aliases expand to more than %d YAML nodes, the alias expansion limit (workload files take no aliases)", MaxExpandedNodes)
	}
}

func nameOf(n ast.Node) string {
	if n == nil || n.GetToken() == nil {
		return ""
	}
	return n.GetToken().Value
}
