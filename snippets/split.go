package snippets

import (
	"fmt"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
)

// itemKind classifies a top-level piece of a snippet.
type itemKind int

const (
	stmtItem   itemKind = iota // a statement (var declarations included)
	importItem                 // an import declaration
	declItem                   // a type, func (not a literal) or const declaration
)

// item is a top-level piece of a snippet: src[start:end] of the snippet's
// source. Items partition the source: comments and blank lines belong to
// the item before them.
type item struct {
	kind       itemKind
	start, end int
	tok        int // offset of the item's first token
	// block marks a statement that opens a block (for, if, switch,
	// select, a bare block, a labeled statement): it declares nothing the
	// session keeps.
	block bool
}

// snippetSource is a cell's code with what the kernel needs to map it back
// to Markdown: the offset of each line and the lines that start inside a
// multi-line token (a raw string or a block comment).
type snippetSource struct {
	cell  *page.Cell
	text  string
	lines []int        // offset of each line in text
	cont  map[int]bool // lines (0-based) that begin inside a token
	toks  []srcToken   // the tokens of text, comments left out
	// problems are what the kernel refuses in the code before any type
	// check: directives, and braces that close more than the cell opened.
	problems []posError
	// edits change the code the interpreter gets (see rewrite.go), sorted
	// by offset; the type checker and the native build get text as it is.
	edits []edit
}

// srcToken is one token of a snippet.
type srcToken struct {
	tok token.Token
	off int
	lit string
}

func newSnippetSource(c *page.Cell) *snippetSource {
	s := &snippetSource{cell: c, text: c.Source(), cont: map[int]bool{}}
	off := 0
	for _, l := range c.Lines {
		s.lines = append(s.lines, off)
		off += len(l.Text) + 1
	}
	s.scan()
	return s
}

// scan reads the snippet's tokens once, for isProgram and split, and
// records its problems.
func (s *snippetSource) scan() {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(s.text))
	var sc scanner.Scanner
	// A raw string or a block comment left open would take in the code
	// that follows the snippet; other scanner errors the type checker
	// reports.
	sc.Init(f, []byte(s.text), func(p token.Position, msg string) {
		if msg == "raw string literal not terminated" || msg == "comment not terminated" {
			s.problems = append(s.problems, posError{s.posAt(p.Offset), msg + " in the snippet", nil})
		}
	}, scanner.ScanComments)
	var open []srcToken // brackets not yet closed
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		off := f.Offset(pos)
		if (tok == token.COMMENT || (tok == token.STRING && strings.HasPrefix(lit, "`"))) && strings.Contains(lit, "\n") {
			first := s.lineOf(off)
			last := s.lineOf(off + len(lit) - 1)
			for l := first + 1; l <= last; l++ {
				s.cont[l] = true
			}
		}
		if tok == token.COMMENT {
			if msg := directive(lit); msg != "" {
				s.problems = append(s.problems, posError{s.posAt(off), msg, ErrForbidden})
			}
			continue
		}
		t := srcToken{tok, off, lit}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			open = append(open, t)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if len(open) == 0 {
				s.problems = append(s.problems, posError{s.posAt(off), fmt.Sprintf("unexpected %s: it closes more than the snippet opened", tok), nil})
				break
			}
			open = open[:len(open)-1]
		}
		s.toks = append(s.toks, t)
	}
	// Each snippet is cut into the generated program as a whole; one that
	// leaves a bracket open, or ends in the middle of a statement (its
	// last token one after which Go inserts no semicolon: "x :=", "1 +"),
	// would take in the code that follows it.
	if len(open) > 0 {
		t := open[len(open)-1]
		s.problems = append(s.problems, posError{s.posAt(t.off), fmt.Sprintf("this %s is never closed in the snippet", t.tok), nil})
	} else if n := len(s.toks); n > 0 && s.toks[n-1].tok != token.SEMICOLON {
		t := s.toks[n-1]
		s.problems = append(s.problems, posError{s.posAt(t.off), fmt.Sprintf("the snippet ends in the middle of a statement, after %s", t.tok), nil})
	}
}

// directive says why the kernel refuses a comment, or "" when it is an
// ordinary comment. A line directive would give code a position outside
// the snippet, and a //go: directive changes what the compiler does
// (//go:linkname, //go:embed, //go:build); neither has a use in a snippet.
func directive(comment string) string {
	switch {
	case strings.HasPrefix(comment, "//line") || strings.HasPrefix(comment, "/*line"):
		return "line directives are not allowed in snippets: the kernel maps every position to the page itself"
	case strings.HasPrefix(comment, "//go:"):
		name, _, _ := strings.Cut(comment[2:], " ")
		return fmt.Sprintf("compiler directives such as //%s are not allowed in snippets", name)
	}
	return ""
}

// posAt returns the Markdown position of offset off.
func (s *snippetSource) posAt(off int) page.Pos {
	l := s.lineOf(off)
	p := s.cell.Lines[l].Pos
	p.Col += off - s.lines[l]
	return p
}

// lineOf returns the 0-based line of offset off.
func (s *snippetSource) lineOf(off int) int {
	l := 0
	for i, start := range s.lines {
		if start <= off {
			l = i
		}
	}
	return l
}

// isProgram reports whether the snippet is a whole program ("package main").
func (s *snippetSource) isProgram() bool {
	return len(s.toks) > 0 && s.toks[0].tok == token.PACKAGE
}

// split cuts the snippet into top-level items. It never fails: a snippet
// the scanner cannot read is one statement item, and the type checker
// reports what is wrong with it.
func (s *snippetSource) split() []item {
	toks := s.toks
	all := make([]token.Token, len(toks))
	for i, t := range toks {
		all[i] = t.tok
	}
	var items []item
	depth := 0
	atStart := true
	for i, t := range toks {
		if atStart && t.tok != token.SEMICOLON {
			kind := stmtItem
			switch t.tok {
			case token.IMPORT:
				kind = importItem
			case token.TYPE, token.CONST:
				kind = declItem
			case token.FUNC:
				if isFuncDecl(all[i+1:]) {
					kind = declItem
				}
			}
			start := t.off
			if len(items) == 0 {
				start = 0
			}
			if n := len(items); n > 0 {
				items[n-1].end = start
			}
			block := false
			switch t.tok {
			case token.FOR, token.IF, token.SWITCH, token.SELECT, token.LBRACE:
				block = true
			case token.IDENT:
				block = i+1 < len(all) && all[i+1] == token.COLON
			}
			items = append(items, item{kind: kind, start: start, end: len(s.text), tok: t.off, block: block})
			atStart = false
		}
		switch t.tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		case token.SEMICOLON:
			// Only a line end ends an item: the semicolons of a header
			// ("for i := 0; i < n; i++ {") and of "a := 1; b := 2" do not.
			if depth <= 0 && t.lit == "\n" {
				atStart = true
			}
		}
	}
	if len(items) == 0 && strings.TrimSpace(s.text) != "" {
		items = append(items, item{kind: stmtItem, start: 0, end: len(s.text)})
	}
	return items
}

// isFuncDecl reports whether the tokens after "func" make a declaration:
// "func Name" or "func (recv) Name(", rather than a literal "func(...) {".
func isFuncDecl(rest []token.Token) bool {
	if len(rest) == 0 {
		return false
	}
	tok := func(i int) token.Token { return rest[i] }
	switch tok(0) {
	case token.IDENT:
		return true
	case token.LPAREN:
		depth := 0
		for j := 0; j < len(rest); j++ {
			switch tok(j) {
			case token.LPAREN:
				depth++
			case token.RPAREN:
				depth--
				if depth == 0 {
					return j+2 < len(rest) && tok(j+1) == token.IDENT && tok(j+2) == token.LPAREN
				}
			}
		}
	}
	return false
}

// located returns src[start:end] of the snippet with position comments, so
// that positions in Go (type checker, interpreter, compiler) are Markdown
// positions: a /*line*/ comment before the first byte and before every line
// whose Markdown column is not 1 (fences indented in a list).
func (s *snippetSource) located(start, end int) string {
	var b strings.Builder
	first := s.lineOf(start)
	for l := first; l < len(s.lines); l++ {
		ls := s.lines[l]
		if ls >= end {
			break
		}
		from := max(ls, start)
		le := ls + len(s.cell.Lines[l].Text) + 1
		to := min(le, end)
		p := s.cell.Lines[l].Pos
		if l == first || (p.Col != 1 && !s.cont[l]) {
			b.WriteString(lineComment(p.Line, p.Col+from-ls))
		}
		b.WriteString(s.text[from:to])
	}
	out := b.String()
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out
}

// plain returns src[start:end] of the snippet as it is, and the Markdown
// position of the first byte of each of its lines: the interpreter gets
// plain code (it keys imports by file name, which position comments would
// change), and its error positions are mapped back with the positions.
func (s *snippetSource) plain(start, end int) (string, []page.Pos) {
	text := s.edited(start, end)
	var pos []page.Pos
	for l := s.lineOf(start); l < len(s.lines) && s.lines[l] < end; l++ {
		p := s.cell.Lines[l].Pos
		p.Col += max(s.lines[l], start) - s.lines[l]
		// A line note (see rewrite) goes before the statement that starts
		// the line: the interpreter's columns on the line count it.
		for _, e := range s.edits {
			if e.start == e.end && e.start >= max(s.lines[l], start) && e.start < end && s.lineOf(e.start) == l && strings.HasPrefix(e.text, worker.PanicLine+" = ") {
				p.Col -= len(e.text)
			}
		}
		pos = append(pos, p)
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text, pos
}

// edited returns src[start:end] of the snippet with the edits inside it
// applied (an insertion at end belongs to the text after it).
func (s *snippetSource) edited(start, end int) string {
	var b strings.Builder
	at := start
	for _, e := range s.edits {
		if e.start < at || e.start >= end || e.end > end {
			continue
		}
		b.WriteString(s.text[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(s.text[at:end])
	return b.String()
}

// pageFile is the file name that the generated programs' /*line*/
// directives give the page. It is a constant, not the page's path: a path
// can hold "*/" (which would end the comment and let the rest of the name
// run as code), and go/scanner cleans the names it reads ("./a.md" becomes
// "a.md"), so a path could not be matched back. [plan.pos] maps it to
// [page.Page.Path].
const pageFile = "_wbpage.md"

// scaffoldFile is the file name of the generated programs' own code: the
// main file is parsed under it, and a /*line*/ directive gives it back to
// every piece of scaffolding that follows a snippet's code, so that a
// position says whether it is the page's or the kernel's.
const scaffoldFile = "_wbscaffold.go"

// scaffold is the directive that starts a piece of scaffolding.
const scaffold = "/*line " + scaffoldFile + ":1:1*/"

// lineComment is a /*line*/ directive for line:col of the page.
func lineComment(line, col int) string {
	return "/*line " + pageFile + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col) + "*/"
}
