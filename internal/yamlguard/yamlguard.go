// Package yamlguard checks YAML from pull requests against limits before
// goccy/go-yaml spends memory or time on it: how deep its lists and
// mappings nest, checked on the tokens before the parser runs (the parser
// takes time and memory that grow with the square of the depth), and how
// big it is with every alias replaced by what its anchor names, checked on
// the parsed tree before anything is decoded (a few hundred bytes of nested
// aliases, a "billion laughs", stand for billions of nodes).
//
// engine/sim (workload files) and snippets/page (front matter, figure
// blocks, book.yaml) use it with limits and error messages of their own.
package yamlguard

import (
	"io"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/scanner"
	"github.com/goccy/go-yaml/token"
)

// Tokenize returns src's tokens as goccy/go-yaml's lexer.Tokenize does, or
// stops at the first token that nests lists and mappings more than
// maxDepth deep and returns it as deep. Flow collections count their
// brackets; block collections count the columns of the indicators ("-",
// "?", a key's ":") open above a token, which may count a list indented as
// far as its key once for both: the parser never sees more than twice
// maxDepth, and [Limits.Check] measures the tree exactly.
func Tokenize(src string, maxDepth int) (toks token.Tokens, deep *token.Token) {
	var s scanner.Scanner
	s.Init(src)
	flow := 0
	var block []int // columns of the open block collections
	for {
		sub, err := s.Scan()
		if err == io.EOF {
			return toks, nil
		}
		// Like lexer.Tokenize, keep going after an invalid token: the
		// parser reports the first one.
		toks.Add(sub...)
		for _, tk := range sub {
			if tk.Position == nil {
				continue
			}
			switch tk.Type {
			case token.SequenceStartType, token.MappingStartType:
				flow++
			case token.SequenceEndType, token.MappingEndType:
				flow = max(flow-1, 0)
			case token.DocumentHeaderType, token.DocumentEndType:
				flow, block = 0, block[:0]
			case token.SequenceEntryType, token.MappingKeyType, token.MappingValueType:
				if flow > 0 {
					continue
				}
				col := tk.Position.Column
				if tk.Type == token.MappingValueType && tk.Prev != nil && tk.Prev.Position != nil && tk.Prev.Position.Line == tk.Position.Line {
					col = tk.Prev.Position.Column // the key's column
				}
				for len(block) > 0 && block[len(block)-1] > col {
					block = block[:len(block)-1]
				}
				if len(block) > 0 && block[len(block)-1] == col {
					continue
				}
				block = append(block, col)
			default:
				continue
			}
			if flow+len(block) > maxDepth {
				return nil, tk
			}
		}
	}
}

// Limits bound a parsed document with its aliases expanded.
type Limits struct {
	// Depth is how deep lists and mappings may nest.
	Depth int
	// Size bounds the sum of Weight over the document's nodes, an alias
	// counting as all the nodes of its anchor's value.
	Size int64
	// Weight is what one node, a scalar or a list or mapping without its
	// contents, counts toward Size.
	Weight func(ast.Node) int64
}

// Check returns the first node of f at which f, with its aliases
// expanded, nests deeper than l.Depth (deep is true) or passes l.Size
// (deep is false), or nil. A node past both limits is reported as deep.
func (l Limits) Check(f *ast.File) (n ast.Node, deep bool) {
	w := &walker{Limits: l, anchors: map[string]expansion{}}
	for _, d := range f.Docs {
		if d != nil {
			w.walk(d.Body, 0, false)
		}
		if w.over != nil {
			return w.over, w.deep
		}
	}
	return nil, false
}

// expansion is what an anchor stands for: its Weight and how deep it nests.
type expansion struct {
	size  int64
	depth int
}

// walker measures a file's documents with their aliases expanded.
type walker struct {
	Limits
	anchors map[string]expansion // by anchor name: the latest definition so far
	total   int64                // the Weight counted so far
	over    ast.Node             // the node that passed a limit
	deep    bool                 // whether that was the depth limit
}

// walk measures n, inside depth lists and mappings (inMap: directly inside
// a mapping, whose key-value pairs are no level of their own). It adds to
// w.total what is not counted already (an anchor's value is counted where
// it stands, and again at each alias) and returns n's expansion.
func (w *walker) walk(n ast.Node, depth int, inMap bool) (e expansion) {
	if n == nil || w.over != nil {
		return expansion{}
	}
	var values []ast.Node
	switch t := n.(type) {
	case *ast.CommentGroupNode, *ast.CommentNode, *ast.DirectiveNode:
		return expansion{}
	case *ast.TagNode:
		return w.walk(t.Value, depth, false)
	case *ast.MappingKeyNode:
		return w.walk(t.Value, depth, false)
	case *ast.AnchorNode:
		e = w.walk(t.Value, depth, false)
		w.anchors[nameOf(t.Name)] = e
		return e
	case *ast.AliasNode:
		e = w.anchors[nameOf(t.Value)]
		w.count(n, e.size, depth+e.depth)
		return e
	case *ast.MappingValueNode:
		if inMap {
			k, v := w.walk(t.Key, depth, false), w.walk(t.Value, depth, false)
			return expansion{size: k.size + v.size, depth: max(k.depth, v.depth)}
		}
		values = []ast.Node{t} // a single key-value pair is a mapping of its own
	case *ast.MappingNode:
		for _, v := range t.Values {
			values = append(values, v)
		}
	case *ast.SequenceNode:
		values = t.Values
	default: // a scalar
		e.size = w.Weight(n)
		w.count(n, e.size, depth)
		return e
	}
	e = expansion{size: w.Weight(n), depth: 1}
	w.count(n, e.size, depth+1)
	_, seq := n.(*ast.SequenceNode)
	for _, v := range values {
		ve := w.walk(v, depth+1, !seq)
		e.size += ve.size
		e.depth = max(e.depth, 1+ve.depth)
	}
	return e
}

// count adds size to the total at n, depth deep, and records the first
// limit passed.
func (w *walker) count(n ast.Node, size int64, depth int) {
	if w.over != nil {
		return
	}
	w.total += size
	switch {
	case depth > w.Depth:
		w.over, w.deep = n, true
	case w.total > w.Size:
		w.over = n
	}
}

func nameOf(n ast.Node) string {
	if n == nil || n.GetToken() == nil {
		return ""
	}
	return n.GetToken().Value
}
