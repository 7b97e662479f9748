package snippets

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"github.com/warpbook/warpbook/snippets/page"
)

// Facts are what type-checking a page's generated programs found, written
// down so that a later compile of the same programs can skip the type
// check: the build records them ([Compile]) and the browser kernel,
// given them with the page ([Resident.Know]), runs the book's code as it
// stands without loading the type checker's code and the engine's type
// data, which are most of its first run.
//
// A fact is keyed by a hash of the program it was found for, so it can
// only stand in for a check of that very source: an edit that changes a
// session's program misses and is type-checked as ever. Only programs
// whose check found nothing wrong are recorded, with what the check
// decided besides (the interpreter's rewrites, and whether the program
// folds into a shared executable); so is what the check of each error=
// cell found. A fact never adds or removes a diagnostic: a program that
// has one is checked again.
//
// Facts are trusted as the code that carries them is: the browser kernel
// gets them from the site's own page scripts, which run in the reader's
// browser anyway; the native kernel never reads them, so a page from a
// pull request cannot bring its own.
type Facts struct {
	// Programs are the facts by program (see [Facts]).
	Programs map[string]*Fact `json:"programs"`
}

// Fact is what the type check of one program decided.
type Fact struct {
	// Foldable is the session's foldable (see plan).
	Foldable bool `json:"foldable,omitempty"`
	// Edits are the interpreter's rewrites, by cell.
	Edits []FactEdit `json:"edits,omitempty"`
	// Error, Line and Col are, for the check of an error= cell, the first
	// error located in the cell ("" if none) and its position.
	Error string `json:"error,omitempty"`
	Line  int    `json:"line,omitempty"`
	Col   int    `json:"col,omitempty"`
}

// FactEdit is one rewrite of a cell's code (see rewrite).
type FactEdit struct {
	Cell  int    `json:"cell"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
}

// factKey returns the key of a program: its kind ("session" or "error"),
// whether the helper file is checked with it, and its source.
func factKey(kind, mainGo string, withHelper bool) string {
	h := sha256.New()
	h.Write([]byte(kind))
	if withHelper {
		h.Write([]byte{0, 1, 0})
	} else {
		h.Write([]byte{0, 0, 0})
	}
	h.Write([]byte(mainGo))
	return hex.EncodeToString(h.Sum(nil))
}

// A Compiled page is a page type-checked once, as the kernel does, with
// what the check found: the site writes the page's facts and its cells'
// programs ([Compiled.Program]) from it.
type Compiled struct {
	// Facts are the facts of the page's programs (see [Facts]); a page
	// with parse problems has none.
	Facts *Facts
	pl    *plan // nil for a page with parse problems
}

// Compile type-checks page p as the kernel does, with the book's packages
// pkgs (nil: none), and records its facts.
func Compile(p *page.Page, pkgs *Packages) *Compiled {
	c := &Compiled{Facts: &Facts{Programs: map[string]*Fact{}}}
	if len(p.Diagnostics) > 0 {
		return c
	}
	c.pl = newPlan(p, DefaultTimeout)
	c.pl.pkgs = pkgs
	c.pl.record = c.Facts
	c.pl.compile()
	return c
}

// known reports whether facts cover every type check that compiling pl
// needs for its sessions.
func (pl *plan) known() bool {
	if pl.facts == nil {
		return false
	}
	for _, s := range pl.sessions {
		if len(s.units) > 0 && pl.facts.get(pl.sessionKey(s)) == nil {
			return false
		}
	}
	return true
}

// keyed reports whether compiling pl needs the programs' fact keys: when
// it has facts to use or to record.
func (pl *plan) keyed() bool { return pl.facts != nil || pl.record != nil }

// sessionKey returns the fact key of session s's program.
func (pl *plan) sessionKey(s *session) string {
	if s.key == "" {
		s.key = factKey("session"+pl.pkgsKey(s.mainGo), s.mainGo, !s.program)
	}
	return s.key
}

// pkgsKey returns what a fact key adds for a program that imports the
// book's packages (their hash), or "".
func (pl *plan) pkgsKey(mainGo string) string {
	if !pl.pkgs.importsBook(mainGo) {
		return ""
	}
	return " " + pl.pkgs.Hash()
}

// facts are the facts a Resident was given, shared by its plans.
type facts struct {
	mu sync.Mutex
	m  map[string]*Fact
}

// maxFacts bounds how many facts a Resident keeps: a worker is given
// those of the pages the reader runs, a few dozen programs each.
const maxFacts = 4096

func (fs *facts) get(key string) *Fact {
	if fs == nil {
		return nil
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.m[key]
}

func (fs *facts) add(f *Facts) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.m)+len(f.Programs) > maxFacts {
		fs.m = map[string]*Fact{}
	}
	for k, v := range f.Programs {
		if v != nil {
			fs.m[k] = v
		}
	}
}

// Know gives the Resident the facts of a page (see [Facts]): its compiles
// of the same programs use them instead of type-checking.
func (r *Resident) Know(f *Facts) {
	if f == nil {
		return
	}
	r.facts.add(f)
}

// fact returns the fact recorded for a program, or nil.
func (pl *plan) fact(key string) *Fact {
	return pl.facts.get(key)
}

// rewriteRecorded rewrites session s (see rewrite) and returns the edits
// it made.
func (pl *plan) rewriteRecorded(s *session, ck *checked) []FactEdit {
	before := make([]int, len(pl.codes))
	for i, cc := range pl.codes {
		if cc != nil {
			before[i] = len(cc.src.edits)
		}
	}
	pl.rewrite(s, ck)
	var out []FactEdit
	for i, cc := range pl.codes {
		if cc == nil {
			continue
		}
		for _, e := range cc.src.edits[before[i]:] {
			out = append(out, FactEdit{Cell: i, Start: e.start, End: e.end, Text: e.text})
		}
	}
	return out
}

// applyEdits makes the rewrites a fact recorded. It reports false, having
// made none, when one does not fit the page's cells.
func (pl *plan) applyEdits(edits []FactEdit) bool {
	for _, e := range edits {
		if e.Cell < 0 || e.Cell >= len(pl.codes) || pl.codes[e.Cell] == nil || e.Start < 0 || e.Start > e.End || e.End > len(pl.codes[e.Cell].src.text) {
			return false
		}
	}
	for _, e := range edits {
		src := pl.codes[e.Cell].src
		src.edits = append(src.edits, edit{e.Start, e.End, e.Text})
	}
	return true
}
