package snippets

import (
	"errors"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"
	"time"

	"github.com/warpbook/warpbook/snippets/page"
)

// A plan is a page prepared to run: its cells cut into top-level items,
// grouped into sessions (one interpreter each), with the Go program of each
// session for the type checker and the native build, and the units (cells
// and checked values, in document order) the worker runs.
type plan struct {
	page     *page.Page
	fset     *token.FileSet
	codes    []*cellCode // by cell index; nil for skipped cells
	sessions []*session
	units    []*unit
	// byCell and byCheck find a unit.
	byCell  map[*page.Cell]*unit
	byCheck map[*page.Check]*unit
	// errCells holds what type-checking each error= cell found.
	errCells map[*page.Cell]*errResult
	// facts, when set, stand in for the type checks they cover; record,
	// when set, receives the facts of the checks compile does (see
	// [Facts]).
	facts  *facts
	record *Facts
	// typeChecks counts the programs compile type-checked.
	typeChecks int
	// cuda is the declaration of the variable cuda (see cudaDecl); ""
	// for a page without CUDA cells.
	cuda string
	// pkgs are the book's packages the page's cells may import (nil:
	// none).
	pkgs *Packages
}

// cellCode is one cell's source cut into items.
type cellCode struct {
	cell    *page.Cell
	src     *snippetSource
	items   []item
	program bool // "package main": a whole program
}

// session is one interpreter: the page's shared session (id 0), or the own
// session of a fresh cell or a program.
type session struct {
	id      int
	program bool
	units   []*unit
	// mainGo is the generated program's first file; worker.HelperGo is the
	// other. key is its fact key, "" until sessionKey finds it.
	mainGo string
	key    string
	// foldable is set when the checked program initializes nothing of its
	// own, so that -native may build it as a package of a shared
	// executable (see [foldable]).
	foldable bool
	// broken is set when the session does not type-check; firstBad is the
	// index (in units) of the first unit with an error.
	broken   bool
	firstBad int
	// culprit, when set, is the unit whose code kept the whole session
	// from being checked (and so from running).
	culprit *unit
}

// unit is one thing the worker runs: a cell or a checked value.
type unit struct {
	index   int // in plan.units; the worker protocol's unit number
	session *session
	cell    *page.Cell
	check   *page.Check
	code    *cellCode
	chunks  []string   // what the interpreter evaluates, in order
	maps    []chunkMap // the Markdown position of each chunk's lines
	stmt    []bool     // whether each chunk holds statements (not declarations)
	expr    string     // a check's expression, with its position comment
	timeout time.Duration
	// diags are compile-time problems (type errors, sandbox, interpreter
	// limits); a unit with any does not run.
	diags page.Diagnostics
}

func (u *unit) id() string {
	if u.cell != nil {
		return u.cell.ID()
	}
	return u.check.ID()
}

func (u *unit) pos() page.Pos {
	if u.cell != nil {
		return u.cell.Pos
	}
	return u.check.Pos
}

// newPlan cuts the page's cells and builds its sessions and units. Cells
// with skip= or error= are not part of any session.
func newPlan(p *page.Page, timeout time.Duration) *plan {
	pl := &plan{page: p, fset: token.NewFileSet(), byCell: map[*page.Cell]*unit{}, byCheck: map[*page.Check]*unit{}, errCells: map[*page.Cell]*errResult{}, cuda: cudaDecl(p, true)}
	pl.codes = make([]*cellCode, len(p.Cells))
	for i, c := range p.Cells {
		if c.Attrs.Skip != "" {
			continue
		}
		s := newSnippetSource(c)
		cc := &cellCode{cell: c, src: s, program: s.isProgram()}
		if !cc.program {
			cc.items = s.split()
		}
		pl.codes[i] = cc
	}
	shared := &session{id: 0}
	pl.sessions = append(pl.sessions, shared)
	addUnit := func(s *session, u *unit) {
		u.index = len(pl.units)
		u.session = s
		pl.units = append(pl.units, u)
		s.units = append(s.units, u)
	}
	checks := p.Checks
	flushChecks := func(upTo int) {
		for len(checks) > 0 && checks[0].After <= upTo {
			k := checks[0]
			checks = checks[1:]
			u := &unit{check: k, timeout: timeout}
			if e := checkExpr(k); e != nil {
				// Not one expression: it must not reach the program it
				// would be pasted into.
				u.diags = append(u.diags, &page.Diagnostic{Pos: e.pos, ID: k.ID(), Msg: e.msg, Err: e.err})
			}
			pl.byCheck[k] = u
			addUnit(shared, u)
		}
	}
	for i, c := range p.Cells {
		flushChecks(i)
		cc := pl.codes[i]
		if cc == nil || c.Attrs.Error != "" {
			continue
		}
		u := &unit{cell: c, code: cc, timeout: timeout}
		if c.Attrs.Timeout > 0 {
			u.timeout = c.Attrs.Timeout
		}
		pl.byCell[c] = u
		if c.Attrs.Fresh || cc.program {
			s := &session{id: len(pl.sessions), program: cc.program}
			pl.sessions = append(pl.sessions, s)
			addUnit(s, u)
			continue
		}
		addUnit(shared, u)
	}
	flushChecks(len(p.Cells))
	for _, s := range pl.sessions {
		pl.generate(s)
	}
	return pl
}

// checkExpr returns what is wrong with a checked value's expression: it
// must be one Go expression, with no directive in its comments.
func checkExpr(k *page.Check) *posError {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(k.Expr))
	var sc scanner.Scanner
	sc.Init(f, []byte(k.Expr), func(token.Position, string) {}, scanner.ScanComments)
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if msg := directive(lit); tok == token.COMMENT && msg != "" {
			return &posError{k.ExprPos, msg, ErrForbidden}
		}
	}
	if _, err := parser.ParseExpr(k.Expr); err != nil {
		msg := err.Error()
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			msg = list[0].Msg
		}
		return &posError{k.ExprPos, fmt.Sprintf("%s is not one Go expression: %s", k.Expr, msg), nil}
	}
	return nil
}

// chunkMap maps the lines of an interpreter chunk to Markdown: line
// first (1-based) of the chunk is pos[0], and so on.
type chunkMap struct {
	first int
	pos   []page.Pos
}

// importSpec is one import of a snippet, with its Markdown position.
type importSpec struct {
	name, path string
	pos        page.Pos
	text       string // "/*line*/name \"path\""
}

// imports parses the import specs of an import item; ok is false when the
// item does not parse (the type checker will say why).
func (cc *cellCode) imports(it item) (specs []importSpec, ok bool) {
	text := cc.src.text[it.start:it.end]
	const head = "package p\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", head+text, parser.ImportsOnly)
	if err != nil {
		return nil, false
	}
	for _, s := range f.Imports {
		off := fset.Position(s.Pos()).Offset - len(head) + it.start
		sp := importSpec{path: s.Path.Value, pos: cc.src.posAt(off)}
		if s.Name != nil {
			sp.name = s.Name.Name
		}
		sp.text = lineComment(sp.pos.Line, sp.pos.Col)
		if sp.name != "" {
			sp.text += sp.name + " "
		}
		sp.text += sp.path
		specs = append(specs, sp)
	}
	return specs, true
}

// generate writes the session's Go program and its units' interpreter
// chunks.
func (pl *plan) generate(s *session) {
	s.key = ""
	s.mainGo = pl.write(s, nil)
}

// write returns a Go program of session s: the kernel's (scaffolding
// around each unit, position comments mapping every line to the page),
// writing its units' interpreter chunks too, when alone is nil; else the
// program a reader runs on its own (see [Compiled.Program]), which changes
// nothing of the plan.
func (pl *plan) write(s *session, alone *standalone) string {
	if s.program {
		u := s.units[0]
		src := u.code.src
		if alone != nil {
			return src.text
		}
		plain, pos := src.plain(0, len(src.text))
		u.chunks = []string{plain}
		u.maps = []chunkMap{{first: 1, pos: pos}}
		u.stmt = []bool{true}
		return src.located(0, len(src.text))
	}
	var imports, decls, body strings.Builder
	imported := map[string]bool{} // name + " " + path
	if pl.cuda != "" {
		// The kernel's declaration of cuda comes first; a cell's own
		// import of ptxas is then the same import, made once.
		imported[" "+strconv.Quote(ptxasPath)] = true
		if alone != nil {
			fmt.Fprintf(&imports, "import %q\n", ptxasPath)
			decls.WriteString("// cuda holds the kernels of the page's CUDA cells, as ptxas compiled them\n// (the page's resources blocks).\n")
			if usesSASS(s, alone.upTo) {
				decls.WriteString(pl.cuda)
			} else {
				// Built here, not with the plan: only a copied program
				// leaves the listings out.
				decls.WriteString(cudaDecl(pl.page, false))
			}
		} else {
			fmt.Fprintf(&imports, "import /*line %s:1:1*/%q\n", cudaFile, ptxasPath)
			fmt.Fprintf(&decls, "/*line %s:1:1*/%s", cudaFile, pl.cuda)
		}
	}
	depth := 0
	var block map[string]bool // names declared in the innermost block (alone)
	for _, u := range s.units {
		if u.check != nil {
			if len(u.diags) > 0 || alone != nil {
				continue
			}
			k := u.check
			u.expr = k.Expr
			u.maps = []chunkMap{{first: 1, pos: []page.Pos{k.ExprPos}}}
			located := lineComment(k.ExprPos.Line, k.ExprPos.Col) + k.Expr
			fmt.Fprintf(&body, "%s\t_wbCheck(%d, func() any {\n\t\treturn %s\n%s\t})\n", scaffold, u.index, located, scaffold)
			continue
		}
		cc := u.code
		if alone == nil {
			u.chunks, u.maps, u.stmt = nil, nil, nil
		}
		var stmts strings.Builder
		// Consecutive items of the same kind make one interpreter chunk.
		var run strings.Builder
		var runPos []page.Pos
		runKind := itemKind(-1)
		endRun := func() {
			if run.Len() == 0 || alone != nil {
				return
			}
			head := "package main\n"
			if runKind == stmtItem {
				head = ";\n" // forces statement mode; code starts on line 2
			}
			u.chunks = append(u.chunks, head+run.String())
			u.maps = append(u.maps, chunkMap{first: 2, pos: runPos})
			u.stmt = append(u.stmt, runKind == stmtItem)
			run.Reset()
			runPos = nil
		}
		for _, it := range cc.items {
			text := cc.src.located(it.start, it.end)
			if alone != nil {
				text = cc.src.text[it.start:it.end]
			}
			switch it.kind {
			case importItem:
				specs, ok := cc.imports(it)
				if !ok {
					imports.WriteString(text)
					continue
				}
				var fresh []importSpec
				for _, sp := range specs {
					k := sp.name + " " + sp.path
					if imported[k] {
						continue
					}
					imported[k] = true
					fresh = append(fresh, sp)
					switch {
					case alone == nil:
						fmt.Fprintf(&imports, "import %s\n", sp.text)
					case !alone.drop[k]:
						fmt.Fprintf(&imports, "import %s\n", strings.TrimSpace(k))
					}
				}
				if len(fresh) > 0 && alone == nil {
					endRun()
					var b strings.Builder
					m := chunkMap{first: 3}
					b.WriteString("package main\nimport (\n")
					for _, sp := range fresh {
						b.WriteString(strings.TrimSpace(sp.name + " " + sp.path))
						b.WriteString("\n")
						m.pos = append(m.pos, sp.pos)
					}
					b.WriteString(")\n")
					u.chunks = append(u.chunks, b.String())
					u.maps = append(u.maps, m)
					u.stmt = append(u.stmt, false)
				}
				continue
			case declItem:
				decls.WriteString(text)
			case stmtItem:
				stmts.WriteString(text)
			}
			if it.kind != runKind {
				endRun()
				runKind = it.kind
			}
			plain, pos := cc.src.plain(it.start, it.end)
			if it.block {
				// yaegi v0.16.1 loses all but the first variable of
				// "a, b := f()" inside a block at the top level of a
				// session; the same statement in a function literal runs
				// as Go does, and declares nothing the session keeps.
				plain = "func() {\n" + plain + "}()\n"
				pos = append(append([]page.Pos{pos[0]}, pos...), pos[len(pos)-1])
			}
			run.WriteString(plain)
			runPos = append(runPos, pos...)
		}
		endRun()
		if alone != nil {
			// The reader's program: each cell opens a block only where it
			// declares again a name the block already holds, as the
			// session allows; what the cells above the chosen one print
			// is hidden.
			names, ok := declared(stmts.String())
			if u != s.units[0] && (!ok || overlaps(block, names)) {
				body.WriteString("{\n")
				depth++
				block = nil
			}
			if block == nil {
				block = map[string]bool{}
			}
			for _, n := range names {
				block[n] = true
			}
			if u == alone.upTo {
				if u != s.units[0] {
					body.WriteString("showOutput()\n\n")
				}
				fmt.Fprintf(&body, "// %s\n", alone.label(u.cell))
			} else {
				fmt.Fprintf(&body, "// %s, run first\n", alone.label(u.cell))
			}
			alone.begin(u, &body)
			if u.cell.Attrs.Panics != "" && u != alone.upTo {
				// Its panic is what the page shows; the cells after it run.
				fmt.Fprintf(&body, "func() {\ndefer func() { _ = recover() }()\n%s}()\n", stmts.String())
			} else {
				body.WriteString(stmts.String())
			}
			for _, v := range alone.unused[u] {
				fmt.Fprintf(&body, "_ = %s\n", v)
			}
			alone.end(u, &body)
			if u == alone.upTo {
				break
			}
			body.WriteString("\n")
			continue
		}
		// Each cell opens a block inside the previous one: it sees the
		// variables above it and may redeclare them, as in the session.
		if depth > 0 || u != s.units[0] {
			body.WriteString(scaffold + "\t{\n")
			depth++
		}
		if u.cell.Attrs.Panics != "" {
			fmt.Fprintf(&body, "%s\t_wbPanics(%d, func() {\n%s%s\t})\n", scaffold, u.index, stmts.String(), scaffold)
		} else {
			fmt.Fprintf(&body, "%s\t_wbStart(%d)\n%s%s\t_wbDone(%d)\n", scaffold, u.index, stmts.String(), scaffold, u.index)
		}
	}
	var b strings.Builder
	if alone != nil {
		alone.assemble(&b, s, imports.String(), decls.String(), body.String(), depth)
		return b.String()
	}
	b.WriteString("package main\n\n")
	b.WriteString(imports.String())
	b.WriteString("\n")
	b.WriteString(decls.String())
	b.WriteString("\n" + scaffold + "func _wbCells() {\n")
	b.WriteString(body.String())
	b.WriteString(scaffold + strings.Repeat("\t}\n", depth))
	b.WriteString("}\n")
	return b.String()
}
