package sim

import (
	"bytes"
	"fmt"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"

	"github.com/warpbook/warpbook/internal/yamlguard"
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
	// about 15 GB), so the depth is checked on the tokens before the parser
	// runs (to within twice the limit) and exactly on the tree it returns.
	MaxNesting = 64
	// MaxExpandedNodes bounds the YAML nodes (scalars, lists and mappings)
	// of a document with every alias replaced by what its anchor names,
	// counted on the parsed tree before anything is decoded: a few hundred
	// bytes of nested aliases (a "billion laughs") would otherwise stand for
	// billions of nodes. Workload files do not accept aliases at all; the
	// count makes that refusal cheap whatever the aliases would expand to.
	MaxExpandedNodes = 100_000
)

// parseYAML parses src as goccy/go-yaml's parser.ParseBytes does (the same
// scanner, the same parser), checking MaxSourceBytes first, MaxNesting on
// the tokens as they are scanned and MaxNesting and MaxExpandedNodes on the
// tree the parser returns.
func (p *wparser) parseYAML(src []byte) (*ast.File, error) {
	const nestingMsg = "lists and mappings nested more than %d deep, the nesting limit"
	if len(src) > MaxSourceBytes {
		line := 1 + bytes.Count(src[:MaxSourceBytes], []byte("\n"))
		col := MaxSourceBytes - bytes.LastIndexByte(src[:MaxSourceBytes], '\n')
		return nil, &Error{File: p.file, Line: line, Col: col,
			Msg: fmt.Sprintf("the file is %d bytes, more than the size limit of %d bytes", len(src), MaxSourceBytes)}
	}
	toks, deep := yamlguard.Tokenize(string(src), MaxNesting)
	if deep != nil {
		e := &Error{File: p.file, Msg: fmt.Sprintf(nestingMsg, MaxNesting)}
		e.Line, e.Col = p.pos(deep)
		return nil, e
	}
	f, err := parser.Parse(toks, 0)
	if err != nil {
		return nil, err
	}
	// Every scalar, list and mapping is one node.
	limits := yamlguard.Limits{Depth: MaxNesting, Size: MaxExpandedNodes, Weight: func(ast.Node) int64 { return 1 }}
	switch n, deep := limits.Check(f); {
	case n == nil:
		return f, nil
	case deep:
		return nil, p.errAt(n, nestingMsg, MaxNesting)
	default:
		return nil, p.errAt(n, "aliases expand to more than %d YAML nodes, the alias expansion limit (workload files take no aliases)", MaxExpandedNodes)
	}
}
