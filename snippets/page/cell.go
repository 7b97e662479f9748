package page

import (
	"fmt"
	"go/scanner"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/yuin/goldmark/ast"
)

// Cell is one runnable snippet: a fenced block whose info string starts with
// "go run", and the output block right after it.
type Cell struct {
	// Index is the cell's place among the page's cells, from 0.
	Index int
	// Pos is the position of the opening fence.
	Pos Pos
	// Code is the snippet's fenced block, a child of the cell's [CellNode].
	Code *ast.FencedCodeBlock
	// Output is the output block that follows it (the node's second
	// child), nil if there is none.
	Output *ast.FencedCodeBlock
	// OutputPos is the position of the output block's opening fence.
	OutputPos Pos
	// Attrs are the parsed attributes.
	Attrs Attrs
	// Lines are the snippet's lines, hidden ones included.
	Lines []Line
	// DrillPos is the position of the drill= attribute; zero without one.
	DrillPos Pos
	// src is the page's source, which Code and Output index into.
	src []byte
}

// ID is the id= attribute, or "snippet-N" (N = Index+1) without one: the
// anchor the site uses and what -run filters on.
func (c *Cell) ID() string {
	if c.Attrs.ID != "" {
		return c.Attrs.ID
	}
	return "snippet-" + strconv.Itoa(c.Index+1)
}

// Expected is the body of the output block ("" without one): what the
// cell must print.
func (c *Cell) Expected() string {
	if c.Output == nil {
		return ""
	}
	return string(c.Output.Lines().Value(c.src))
}

// KindCell is the node kind of [CellNode].
var KindCell = ast.NewNodeKind("Cell")

// CellNode is a runnable snippet in a page's AST, in place of its "go run"
// block and the output block after it, which are its children.
type CellNode struct {
	ast.BaseBlock
	// Cell is the snippet.
	Cell *Cell
}

// Kind implements ast.Node.
func (n *CellNode) Kind() ast.NodeKind { return KindCell }

// Dump implements ast.Node.
func (n *CellNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"ID": n.Cell.ID()}, nil)
}

// Line is one line of a snippet.
type Line struct {
	// Text is the line without its newline.
	Text string
	// Pos is where the line starts in the Markdown file.
	Pos Pos
	// Hidden marks setup lines, those above the cell's [SetupSeparator]
	// line and that line itself: rendered collapsed, still run.
	Hidden bool
}

// Source returns the snippet's code, hidden lines included: what runs.
func (c *Cell) Source() string {
	var b strings.Builder
	for _, l := range c.Lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// Attrs are a cell's attributes, written after "go run" in the info string
// as key=value (value bare or a double-quoted Go string) or bare flags.
type Attrs struct {
	// ID is id=NAME: a stable anchor and -run target ([A-Za-z0-9_-]+);
	// "" without one (see [Cell.ID]).
	ID string
	// Panics is panics="text": the snippet must panic with a message
	// containing text.
	Panics string
	// Error is error="text": the snippet must fail to compile with an error
	// containing text. It is type-checked, never run.
	Error string
	// Unordered compares output lines as a multiset.
	Unordered bool
	// Skip is skip="reason": the snippet is not run (reason required).
	Skip string
	// Timeout is timeout=DURATION, overriding the kernel's per-snippet limit.
	Timeout time.Duration
	// Fresh runs the snippet in its own interpreter instead of the page's
	// session. A snippet that starts with "package main" is always fresh.
	Fresh bool
	// NoDrill keeps the snippet off the practice page's predict-the-output
	// drills.
	NoDrill bool
	// Drill is drill="prompt": the line the practice page asks above the
	// snippet's code instead of "What does this print?". It makes the
	// snippet a drill whatever the length of its output; one that prints
	// nothing fails the build.
	Drill string
}

// MaxTimeout is the largest timeout= a snippet may ask for.
const MaxTimeout = 5 * time.Minute

var idRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// infoToken is one word of an info string; col is its 1-based byte column
// within the info string.
type infoToken struct {
	text  string // the whole token as written
	key   string // before '=' (the whole token for a flag)
	value string // after '=', unquoted
	isKV  bool
	col   int
}

type infoError struct {
	col int
	msg string
}

// splitInfo splits an info string into space-separated tokens; values may be
// double-quoted Go strings containing spaces.
func splitInfo(info string) ([]infoToken, *infoError) {
	var toks []infoToken
	i := 0
	for i < len(info) {
		if info[i] == ' ' || info[i] == '\t' {
			i++
			continue
		}
		start := i
		t := infoToken{col: start + 1}
		for i < len(info) && info[i] != ' ' && info[i] != '\t' && info[i] != '=' && info[i] != '"' {
			i++
		}
		t.key = info[start:i]
		if i < len(info) && info[i] == '"' {
			return nil, &infoError{i + 1, "unexpected quote: write key=\"value\""}
		}
		if i < len(info) && info[i] == '=' {
			t.isKV = true
			i++
			if i < len(info) && info[i] == '"' {
				j := i + 1
				for j < len(info) && info[j] != '"' {
					if info[j] == '\\' {
						j++
					}
					j++
				}
				if j >= len(info) {
					return nil, &infoError{i + 1, "unterminated quoted value"}
				}
				v, err := strconv.Unquote(info[i : j+1])
				if err != nil {
					return nil, &infoError{i + 1, fmt.Sprintf("bad quoted value %s: %v", info[i:j+1], err)}
				}
				t.value = v
				i = j + 1
				if i < len(info) && info[i] != ' ' && info[i] != '\t' {
					return nil, &infoError{i + 1, "missing space after quoted value"}
				}
			} else {
				vs := i
				for i < len(info) && info[i] != ' ' && info[i] != '\t' {
					if info[i] == '"' {
						return nil, &infoError{i + 1, "quote inside a bare value: quote the whole value"}
					}
					i++
				}
				t.value = info[vs:i]
			}
		}
		t.text = info[start:i]
		toks = append(toks, t)
	}
	return toks, nil
}

// newCell builds a cell from a "go run" block; attrs are the tokens after
// "go run".
func (pg *Page) newCell(n *ast.FencedCodeBlock, info string, infoPos Pos, attrs []infoToken, diags *Diagnostics) *Cell {
	c := &Cell{
		Index: len(pg.Cells),
		Pos:   pg.Pos(n.Pos()),
		Code:  n,
		src:   pg.Source,
	}
	bad := func(t infoToken, format string, args ...any) {
		*diags = append(*diags, &Diagnostic{Pos: shift(infoPos, t.col), ID: c.Attrs.ID, Msg: fmt.Sprintf(format, args...)})
	}
	seen := map[string]bool{}
	for _, t := range attrs {
		if seen[t.key] {
			bad(t, "attribute %s given twice", t.key)
			continue
		}
		seen[t.key] = true
		needValue := func() bool {
			if !t.isKV || t.value == "" {
				bad(t, "%s needs a value: %s", t.key, attrUsage[t.key])
				return false
			}
			return true
		}
		isFlag := func() bool {
			if t.isKV {
				bad(t, "%s is a flag and takes no value", t.key)
				return false
			}
			return true
		}
		switch t.key {
		case "id":
			if needValue() {
				if !idRE.MatchString(t.value) {
					bad(t, "id %q: use letters, digits, '-' and '_'", t.value)
				} else {
					c.Attrs.ID = t.value
				}
			}
		case "hide":
			bad(t, "hide= is gone: put the setup lines first and a %q line under them; the lines above it are hidden", SetupSeparator)
		case "panics", "error", "skip":
			if needValue() {
				*map[string]*string{"panics": &c.Attrs.Panics, "error": &c.Attrs.Error, "skip": &c.Attrs.Skip}[t.key] = t.value
			}
		case "timeout":
			if needValue() {
				d, err := time.ParseDuration(t.value)
				switch {
				case err != nil:
					bad(t, "timeout %q is not a duration such as 2s or 500ms", t.value)
				case d <= 0 || d > MaxTimeout:
					bad(t, "timeout %s must be above 0 and at most %s", d, MaxTimeout)
				default:
					c.Attrs.Timeout = d
				}
			}
		case "unordered", "fresh", "nodrill":
			if isFlag() {
				*map[string]*bool{"unordered": &c.Attrs.Unordered, "fresh": &c.Attrs.Fresh, "nodrill": &c.Attrs.NoDrill}[t.key] = true
			}
		case "drill":
			if needValue() {
				if strings.ContainsAny(t.value, "\n\r") {
					bad(t, "drill= is one line: the prompt the practice page asks")
				} else {
					c.Attrs.Drill = strings.TrimSpace(t.value)
					c.DrillPos = shift(infoPos, t.col)
				}
			}
		default:
			if near := Nearest(t.key, knownAttrs); near != "" {
				bad(t, "unknown attribute %q: did you mean %s? (known: %s)", t.key, near, strings.Join(knownAttrs, ", "))
			} else {
				bad(t, "unknown attribute %q (known: %s)", t.key, strings.Join(knownAttrs, ", "))
			}
		}
	}
	if c.Attrs.NoDrill && c.Attrs.Drill != "" {
		*diags = append(*diags, &Diagnostic{Pos: c.DrillPos, ID: c.ID(), Msg: "a snippet cannot be both nodrill and a drill (drill=): drop one"})
	}
	if c.Attrs.Skip != "" && c.Attrs.Drill != "" {
		*diags = append(*diags, &Diagnostic{Pos: c.DrillPos, ID: c.ID(), Msg: "a skipped snippet never runs, so a drill of it has no verified answer: drop drill= or skip="})
	}
	if c.Attrs.Panics != "" && c.Attrs.Error != "" {
		*diags = append(*diags, &Diagnostic{Pos: c.Pos, ID: c.ID(), Msg: "a snippet cannot both panic (panics=) and fail to compile (error=)"})
	}
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		txt := strings.TrimRight(string(seg.Value(pg.Source)), "\r\n")
		c.Lines = append(c.Lines, Line{Text: txt, Pos: pg.Pos(seg.Start)})
	}
	if msg := hideSetup(c.Lines); msg != "" {
		*diags = append(*diags, &Diagnostic{Pos: c.Pos, ID: c.ID(), Msg: msg})
	}
	if !pg.closed(n) {
		*diags = append(*diags, &Diagnostic{Pos: c.Pos, ID: c.ID(), Msg: "snippet is never closed (its fence runs to the end of the page)"})
	}
	return c
}

// knownAttrs are the attributes of a snippet, in the order messages list
// them.
var knownAttrs = []string{"id", "panics", "error", "unordered", "skip", "timeout", "fresh", "nodrill", "drill"}

var attrUsage = map[string]string{
	"id":      "id=NAME",
	"panics":  `panics="part of the panic message"`,
	"error":   `error="part of the compile error"`,
	"skip":    `skip="why it does not run"`,
	"timeout": "timeout=2s",
	"drill":   `drill="the question the practice page asks"`,
}

// SetupSeparator is the line that ends a snippet's hidden setup: the
// lines above it, and the line itself, are rendered collapsed and still
// run. Being part of the code, it moves with the setup it closes, so
// adding a line above cannot hide the wrong ones. It counts only as a
// comment alone on its line: the same text inside a raw string is code.
const SetupSeparator = "// ---"

// hideSetup marks the lines up to the first SetupSeparator hidden and
// returns what is wrong with the cell's separators, if anything.
func hideSetup(lines []Line) string {
	sep := -1
	for _, i := range separatorLines(lines) {
		if sep >= 0 {
			return fmt.Sprintf("line %d of the snippet is a second %q line: only one ends the hidden setup (line %d does)", i+1, SetupSeparator, sep+1)
		}
		sep = i
	}
	switch {
	case sep == 0:
		return fmt.Sprintf("the snippet starts with %q, which hides the lines above it: there are none", SetupSeparator)
	case sep >= 0 && sep == len(lines)-1:
		return fmt.Sprintf("the snippet ends with %q, which would hide all of it: put the code a reader should see under it", SetupSeparator)
	}
	for i := 0; i <= sep; i++ {
		lines[i].Hidden = true
	}
	return ""
}

// separatorLines returns the indexes of the lines that are a
// SetupSeparator comment and nothing else. The code is scanned as Go, so
// that a line of a raw string or of a /* */ comment that reads "// ---"
// is not one; the scan needs no complete program and goes on past
// errors, which the type check reports.
func separatorLines(lines []Line) []int {
	var src strings.Builder
	for _, l := range lines {
		src.WriteString(l.Text)
		src.WriteByte('\n')
	}
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, src.Len())
	var s scanner.Scanner
	s.Init(f, []byte(src.String()), func(token.Position, string) {}, scanner.ScanComments)
	var seps []int
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return seps
		}
		if tok != token.COMMENT || strings.TrimRight(lit, " \t") != SetupSeparator {
			continue
		}
		if i := f.Line(pos) - 1; strings.TrimSpace(lines[i].Text) == strings.TrimRight(lit, " \t") {
			seps = append(seps, i)
		}
	}
}
