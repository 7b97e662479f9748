package site

import (
	"go/scanner"
	"go/token"
	"maps"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
)

// A predict card asks a reader to work an answer out. What the simulator
// prints (cycle counts, stall ratios of a run) is no such answer: nobody
// predicts it without running the model. simUse finds, on a page, the
// snippets and checked values whose results come from engine/sim, so that
// the practice page leaves them out of its automatic predict cards (a
// snippet's drill= still makes one, marked as simulated) and marks the
// simulated values it keeps.
//
// It reads tokens, not types: a top-level statement uses the simulator
// when it names package sim, a function that does (found over every
// function of the page, whatever the order) or a variable that a
// statement using the simulator last set, in reading order. That errs
// towards "simulated": a name reused for something else is clean again
// only once a statement that does not use the simulator declares it anew.
type simUse struct {
	cells  map[int]bool      // by cell index
	before []map[string]bool // the simulated names after each cell: before[i] holds after cells[:i]
}

// stmt is one top-level statement of a cell: the names it refers to, the
// names it declares at the top level, and the names it assigns anywhere.
type stmt struct {
	refs, decls, sets []string
	fn                string // the function or type it declares, if one
}

// newSimUse analyses the cells of p.
func newSimUse(p *page.Page) *simUse {
	u := &simUse{cells: map[int]bool{}}
	var cells [][]stmt
	for _, c := range p.Cells {
		var lines []string
		for _, l := range c.Lines {
			lines = append(lines, l.Text)
		}
		cells = append(cells, statements(strings.Join(lines, "\n")))
	}
	// Functions first, to a fixed point: one that calls a simulated one
	// is simulated, wherever it is declared.
	simulated := map[string]bool{"sim": true}
	for changed := true; changed; {
		changed = false
		for _, ss := range cells {
			for _, s := range ss {
				if s.fn != "" && !simulated[s.fn] && anyIn(s.refs, simulated) {
					simulated[s.fn] = true
					changed = true
				}
			}
		}
	}
	// Then the variables, in reading order.
	u.before = append(u.before, maps.Clone(simulated))
	for i, ss := range cells {
		for _, s := range ss {
			if s.fn != "" {
				continue
			}
			if anyIn(s.refs, simulated) {
				u.cells[i] = true
				for _, n := range append(s.decls, s.sets...) {
					simulated[n] = true
				}
				continue
			}
			for _, n := range s.decls {
				delete(simulated, n)
			}
		}
		for _, s := range ss {
			if s.fn != "" && simulated[s.fn] {
				u.cells[i] = true
			}
		}
		u.before = append(u.before, maps.Clone(simulated))
	}
	return u
}

// cell reports whether cell c uses the simulator.
func (u *simUse) cell(c *page.Cell) bool { return u.cells[c.Index] }

// check reports whether checked value ch is computed from the simulator.
func (u *simUse) check(ch *page.Check) bool {
	at := min(max(ch.After, 0), len(u.before)-1)
	return slices.ContainsFunc(statements(ch.Expr), func(s stmt) bool { return anyIn(s.refs, u.before[at]) })
}

func anyIn(names []string, set map[string]bool) bool {
	return slices.ContainsFunc(names, func(n string) bool { return set[n] })
}

// statements splits Go source (a cell's declarations and statements)
// into top-level statements, reading tokens only. Source that does not
// scan still gives what was read of it.
func statements(src string) []stmt {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(f, []byte(src), func(token.Position, string) {}, 0)
	var out []stmt
	var cur []scanTok
	depth := 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, makeStmt(cur))
		}
		cur = nil
	}
	for {
		_, t, lit := sc.Scan()
		if t == token.EOF {
			break
		}
		switch t {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
		}
		if t == token.SEMICOLON && depth <= 0 {
			flush()
			continue
		}
		cur = append(cur, scanTok{t, lit})
	}
	flush()
	return out
}

// scanTok is one token of a statement.
type scanTok struct {
	t   token.Token
	lit string
}

// makeStmt reads one statement's tokens.
func makeStmt(toks []scanTok) stmt {
	var s stmt
	ident := func(i int) bool {
		return i >= 0 && i < len(toks) && toks[i].t == token.IDENT && (i == 0 || toks[i-1].t != token.PERIOD)
	}
	if len(toks) == 0 {
		return s
	}
	switch toks[0].t {
	case token.FUNC:
		i := 1
		if i < len(toks) && toks[i].t == token.LPAREN { // a method: skip the receiver
			d := 0
			for ; i < len(toks); i++ {
				if toks[i].t == token.LPAREN {
					d++
				} else if toks[i].t == token.RPAREN {
					if d--; d == 0 {
						i++
						break
					}
				}
			}
		}
		if i < len(toks) && toks[i].t == token.IDENT {
			s.fn = toks[i].lit
		}
	case token.TYPE:
		if len(toks) > 1 && toks[1].t == token.IDENT {
			s.fn = toks[1].lit
		}
	case token.IMPORT:
		return s
	case token.VAR, token.CONST:
		for i := 1; i < len(toks) && toks[i].t != token.ASSIGN; i++ {
			if ident(i) {
				s.decls = append(s.decls, toks[i].lit)
			}
		}
	}
	// Assignments at any depth: the names before the operator, back to
	// the start of the statement or block they are in. A name that is
	// only being declared or given a value is no use of it.
	lhs := map[int]bool{}
	depth := 0
	for i, t := range toks {
		switch t.t {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
		}
		if !isAssign(t.t) {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			k := toks[j].t
			if k == token.SEMICOLON || k == token.LBRACE || k == token.RBRACE || k == token.COLON && depth > 0 || k == token.FOR || k == token.IF || k == token.SWITCH {
				break
			}
			if ident(j) {
				if t.t == token.DEFINE && depth == 0 {
					s.decls = append(s.decls, toks[j].lit)
				} else {
					s.sets = append(s.sets, toks[j].lit)
				}
				if (t.t == token.DEFINE || t.t == token.ASSIGN) && (j+1 == i || toks[j+1].t == token.COMMA) {
					lhs[j] = true
				}
			}
		}
	}
	for i := range toks {
		if ident(i) && !lhs[i] {
			s.refs = append(s.refs, toks[i].lit)
		}
	}
	return s
}

func isAssign(t token.Token) bool {
	switch t {
	case token.ASSIGN, token.DEFINE, token.INC, token.DEC,
		token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.QUO_ASSIGN, token.REM_ASSIGN,
		token.AND_ASSIGN, token.OR_ASSIGN, token.XOR_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN, token.AND_NOT_ASSIGN:
		return true
	}
	return false
}
