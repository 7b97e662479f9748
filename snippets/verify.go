package snippets

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
)

// verify turns outcomes into results: it compares what each cell printed
// with its output block, its panic with panics=, and the native run with
// both.
func (k *Kernel) verify(pl *plan, r *PageResult, outcomes, native map[int]*worker.Outcome) {
	p := pl.page
	for _, c := range p.Cells {
		if !k.selected(c.ID()) {
			continue
		}
		cr := &CellResult{ID: c.ID()}
		r.Cells[c.Index] = cr
		fail := func(pos page.Pos, err error, format string, args ...any) *page.Diagnostic {
			d := &page.Diagnostic{Pos: pos, ID: c.ID(), Msg: fmt.Sprintf(format, args...), Err: err}
			cr.Diagnostics = append(cr.Diagnostics, d)
			cr.Status = StatusFail
			return d
		}
		switch {
		case c.Attrs.Skip != "":
			cr.Status, cr.Skip = StatusSkip, c.Attrs.Skip
			continue
		case c.Attrs.Error != "":
			e := pl.errCells[c]
			switch {
			case e == nil || e.msg == "":
				fail(c.Pos, ErrUnexpectedSuccess, "compiles, but error=%q expects a compile error", c.Attrs.Error)
			case !strings.Contains(e.msg, c.Attrs.Error):
				fail(e.pos, nil, "the compile error is %q, which does not contain error=%q", e.msg, c.Attrs.Error)
			default:
				cr.Error = e.msg
			}
			continue
		}
		u := pl.byCell[c]
		if len(u.diags) > 0 {
			cr.Status = StatusFail
			cr.Diagnostics = append(cr.Diagnostics, u.diags...)
			cr.Error = u.diags[0].Msg
			continue
		}
		o := outcomes[u.index]
		if o == nil || !o.Ran {
			cr.Status = StatusSkip
			cr.Skip = pl.notRunReason(u)
			continue
		}
		cr.Output = o.Output
		cr.Cached = o.Cached
		cr.Elapsed = o.Elapsed
		if o.Panic != nil {
			cr.Panic = *o.Panic
		}
		switch {
		case o.Fail != "":
			fail(c.Pos, limitErr(o), "%s", o.Fail)
			continue
		case o.Error != nil:
			pos, msg := u.mapError(o.Chunk, *o.Error, c.Pos)
			if stopped := stoppedAbove(u, outcomes); stopped != nil {
				// Its session lost what the unit that stopped declared
				// and did: not the interpreter's fault, nor the code's.
				fail(pos, nil, "could not run, because %s above (line %d) did not finish: %s", stopped.id(), stopped.pos().Line, msg)
				continue
			}
			fail(pos, ErrInterpreter, "the interpreter could not run this snippet, although Go compiles it: %s; rewrite it in plainer Go", msg)
			continue
		case c.Attrs.Panics != "" && o.Panic == nil:
			fail(c.Pos, ErrUnexpectedSuccess, "did not panic, but panics=%q expects a panic", c.Attrs.Panics)
		case c.Attrs.Panics != "" && !strings.Contains(*o.Panic, c.Attrs.Panics):
			fail(c.Pos, nil, "panicked with %q, which does not contain panics=%q", *o.Panic, c.Attrs.Panics)
		case c.Attrs.Panics == "" && o.Panic != nil:
			pos, where := panicAt(p, c, o.PanicLine)
			fail(pos, nil, "panicked%s: %s", where, *o.Panic)
		}
		if d := compareOutput(c, cr.Output); d != nil {
			cr.Diagnostics = append(cr.Diagnostics, d)
			cr.Status = StatusFail
		}
		if hasProcesses && native != nil {
			k.verifyNative(c, cr, o, native[u.index], fail)
		}
		if !Updatable(cr) {
			// Only offer the update command when it would fix the cell.
			for _, d := range cr.Diagnostics {
				d.Hint = ""
			}
		}
	}
	for _, ch := range p.Checks {
		if !k.selected(ch.ID()) {
			continue
		}
		res := &CheckResult{ID: ch.ID()}
		r.Checks[ch.Index] = res
		fail := func(pos page.Pos, err error, format string, args ...any) {
			res.Diagnostics = append(res.Diagnostics, &page.Diagnostic{Pos: pos, ID: ch.ID(), Msg: fmt.Sprintf(format, args...), Err: err})
			res.Status = StatusFail
		}
		u := pl.byCheck[ch]
		if len(u.diags) > 0 {
			res.Status = StatusFail
			res.Diagnostics = append(res.Diagnostics, u.diags...)
			continue
		}
		o := outcomes[u.index]
		if o == nil || !o.Ran {
			res.Status = StatusSkip
			continue
		}
		res.Cached = o.Cached
		switch {
		case o.Fail != "":
			fail(ch.Pos, limitErr(o), "%s", o.Fail)
		case o.Panic != nil:
			fail(ch.Pos, nil, "evaluating %s panicked: %s", ch.Expr, *o.Panic)
		case o.Error != nil:
			pos, msg := u.mapError(o.Chunk, *o.Error, ch.Pos)
			fail(pos, ErrInterpreter, "the interpreter could not evaluate %s: %s", ch.Expr, msg)
		case o.Value == nil:
			fail(ch.Pos, nil, "%s has no value", ch.Expr)
		default:
			res.Value = *o.Value
			if strings.TrimSpace(res.Value) != ch.Text {
				fail(ch.Pos, ErrOutput, "the text says %s, but %s is %s", ch.Text, ch.Expr, res.Value)
			}
		}
		if native != nil && res.Status == StatusPass {
			if no := native[u.index]; no.Finished() && no.Value != nil && *no.Value != res.Value {
				fail(ch.Pos, nil, "compiled with Go, %s is %s; the interpreter says %s", ch.Expr, *no.Value, res.Value)
			}
		}
	}
}

// stoppedAbove returns the unit of u's session above u that did not
// finish (a time or memory limit, a crash), whose declarations the
// session then lacks; nil when every one finished.
func stoppedAbove(u *unit, outcomes map[int]*worker.Outcome) *unit {
	for _, v := range u.session.units {
		if v == u {
			break
		}
		if o := outcomes[v.index]; o != nil && o.Ran && o.Fail != "" {
			return v
		}
	}
	return nil
}

// limitErr is the sentinel behind a unit that did not finish.
func limitErr(o *worker.Outcome) error {
	switch o.Limit {
	case worker.TimeLimit:
		return ErrTimeout
	case worker.MemoryLimit, worker.OutputLimit:
		return ErrLimit
	}
	return nil
}

// notRunReason says why a unit of a session did not run.
func (pl *plan) notRunReason(u *unit) string {
	s := u.session
	if s.culprit != nil {
		return fmt.Sprintf("not run: the session cannot be checked because of %s (line %d)", s.culprit.id(), s.culprit.pos().Line)
	}
	if s.firstBad < len(s.units) && slices.Index(s.units, u) >= s.firstBad {
		return fmt.Sprintf("not run: %s above does not compile", s.units[s.firstBad].id())
	}
	return "not run"
}

// verifyNative compares a cell's native outcome with the interpreter's.
func (k *Kernel) verifyNative(c *page.Cell, cr *CellResult, o, no *worker.Outcome, fail func(page.Pos, error, string, ...any) *page.Diagnostic) {
	if no == nil || !no.Ran {
		return
	}
	nr := &NativeResult{Ran: true, Output: no.Output}
	if no.Panic != nil {
		nr.Panic = *no.Panic
	}
	cr.Native = nr
	switch {
	case no.Fail != "":
		fail(c.Pos, limitErr(no), "compiled with Go: %s", no.Fail)
		return
	case c.Attrs.Panics != "" && no.Panic == nil:
		fail(c.Pos, nil, "compiled with Go, it does not panic; panics=%q expects a panic", c.Attrs.Panics)
	case c.Attrs.Panics != "" && !strings.Contains(*no.Panic, c.Attrs.Panics):
		fail(c.Pos, nil, "compiled with Go, it panics with %q, which does not contain panics=%q", *no.Panic, c.Attrs.Panics)
	case c.Attrs.Panics == "" && no.Panic != nil && o.Panic == nil:
		fail(c.Pos, nil, "compiled with Go, it panics: %s; the interpreter does not", *no.Panic)
	}
	if normalize(nr.Output, c.Attrs.Unordered) != normalize(cr.Output, c.Attrs.Unordered) {
		d := fail(c.Pos, ErrInterpreter, "compiled with Go, it prints something else than in the interpreter")
		d.Diff = udiff.Unified("interpreter", "go", normalize(cr.Output, false), normalize(nr.Output, false))
	}
}

// compareOutput compares what a cell printed with its output block.
// Trailing whitespace on each line and trailing blank lines do not count.
func compareOutput(c *page.Cell, actual string) *page.Diagnostic {
	want := normalize(c.Expected(), c.Attrs.Unordered)
	got := normalize(actual, c.Attrs.Unordered)
	if want == got {
		return nil
	}
	d := &page.Diagnostic{ID: c.ID(), Err: ErrOutput, Hint: UpdateCommand(c)}
	if c.Output == nil {
		d.Pos = c.Pos
		d.Msg = "prints output, but has no output block"
	} else {
		d.Pos = c.OutputPos
		d.Msg = "output differs from the output block"
		if c.Attrs.Unordered {
			d.Msg = "output differs from the output block (compared as unordered lines)"
		}
	}
	d.Diff = udiff.Unified("expected", "actual", normalize(c.Expected(), false), normalize(actual, false))
	return d
}

// UpdateCommand is the command that rewrites c's output block, written
// for a POSIX shell.
func UpdateCommand(c *page.Cell) string {
	return fmt.Sprintf("warpbook test -update -run '^%s$' %s", c.ID(), shellQuote(c.Pos.File))
}

// RunCommand is the command that runs the page at file as a notebook up to
// and including cell c: "warpbook run FILE -run '^ID$'". file names the
// page as the reader's shell sees it (the site gives its path in the
// repository).
func RunCommand(c *page.Cell, file string) string {
	return fmt.Sprintf("warpbook run %s -run '^%s$'", shellQuote(file), c.ID())
}

// TestCommand is the command that runs and checks every snippet and
// checked value of the page at file.
func TestCommand(file string) string {
	return "warpbook test " + shellQuote(file)
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./+-]+$`)

// shellQuote quotes s for a POSIX shell unless it needs no quotes, so that
// a page path with spaces or quotes in it can be pasted as it is printed.
func shellQuote(s string) string {
	if plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// normalize trims trailing whitespace from each line and drops trailing
// blank lines; unordered sorts the lines.
func normalize(s string, unordered bool) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if unordered {
		sort.Strings(lines)
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

var yaegiPos = regexp.MustCompile(`^(?:[^\s:]*:)?(\d+):(\d+): `)

// mapError turns the position in an interpreter error ("_.go:2:5: msg" or
// "2:5: msg") into a Markdown position through the chunk's map.
func (u *unit) mapError(chunk int, msg string, def page.Pos) (page.Pos, string) {
	m := yaegiPos.FindStringSubmatch(msg)
	if m == nil || chunk < 0 || chunk >= len(u.maps) {
		return def, msg
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	cm := u.maps[chunk]
	i := line - cm.first
	if i < 0 || i >= len(cm.pos) {
		return def, msg[len(m[0]):]
	}
	p := cm.pos[i]
	p.Col += col - 1
	return p, msg[len(m[0]):]
}

// panicAt returns where the cell c panicked, from the page line the
// session noted (0: not known, then the cell's start), and how to say it:
// " on line K of the snippet", or " on line K of snippet ID" when the line
// is in another cell (a function declared above).
func panicAt(p *page.Page, c *page.Cell, line int) (page.Pos, string) {
	for _, cc := range p.Cells {
		for k, l := range cc.Lines {
			if l.Pos.Line != line {
				continue
			}
			pos := l.Pos
			pos.Col += len(l.Text) - len(strings.TrimLeft(l.Text, " \t"))
			if cc == c {
				return pos, fmt.Sprintf(" on line %d of the snippet", k+1)
			}
			return pos, fmt.Sprintf(" on line %d of snippet %s", k+1, cc.ID())
		}
	}
	return c.Pos, ""
}
