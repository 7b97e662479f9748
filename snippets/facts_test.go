package snippets

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/snippets/page"
)

// withFacts returns p's plan compiled with facts f (after a JSON round
// trip, as the browser kernel gets them) and its page-level problems.
func withFacts(t *testing.T, p *page.Page, f *Facts) (*plan, page.Diagnostics) {
	t.Helper()
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var g Facts
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	fs := &facts{m: map[string]*Fact{}}
	fs.add(&g)
	pl := testPlan(p)
	pl.facts = fs
	return pl, pl.compile()
}

// sameFolding says how two plans of a page differ in which sessions fold
// into a shared executable, "" when they do not.
func sameFolding(a, b *plan) string {
	for i, s := range a.sessions {
		if s.foldable != b.sessions[i].foldable {
			return fmt.Sprintf("session %d folds differently", i)
		}
	}
	return ""
}

// mustParse parses a page and stops the test on an error.
func mustParse(t *testing.T, path, src string) *page.Page {
	t.Helper()
	p, err := page.Parse(path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// corpusPages parses the page of every testdata/*.txtar case that parses
// and runs in the interpreter.
func corpusPages(t *testing.T) []*page.Page {
	t.Helper()
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/*.txtar: %v", err)
	}
	var pages []*page.Page
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name != "page.md" || strings.Contains(string(ar.Comment), "native:") {
				continue
			}
			if p, _ := page.Parse(filepath.Base(file)+"/page.md", f.Data); len(p.Diagnostics) == 0 {
				pages = append(pages, p)
			}
		}
	}
	return pages
}

// TestFactsBook: over every page of the test corpus and of the book (when
// the whole-book tests run, see booktest), compiling with the page's facts
// type-checks only the programs they do not cover (none on a book page)
// and gives the plan that type-checking gives: the same units, chunks (the
// interpreter's rewrites), diagnostics, cache keys, error= cell findings
// and folding.
func TestFactsBook(t *testing.T) {
	edits, errCells := 0, 0
	var book []*page.Page
	if booktest.Enabled() {
		book = bookPages(t)
	}
	for i, p := range append(book, corpusPages(t)...) {
		f := Compile(p, pkgsOf(p)).Facts
		for _, fact := range f.Programs {
			edits += len(fact.Edits)
			if fact.Error != "" {
				errCells++
			}
		}
		whole, wd := wholePlan(p)
		pl, d := withFacts(t, p, f)
		if want := whole.typeChecks - len(f.Programs); pl.typeChecks != want {
			t.Errorf("%s: compiled with its facts, it type-checked %d programs, want %d of %d", p.Path, pl.typeChecks, want, whole.typeChecks)
		}
		if i < len(book) && (!pl.known() || pl.typeChecks != 0) {
			t.Errorf("%s: its facts do not cover its programs", p.Path)
		}
		if diagText(d) != diagText(wd) {
			t.Errorf("%s: page problems %q, without facts %q", p.Path, diagText(d), diagText(wd))
		}
		if diff := prefixDiff(whole, pl); diff != "" {
			t.Errorf("%s: with facts: %s", p.Path, diff)
		}
		if diff := sameFolding(whole, pl); diff != "" {
			t.Errorf("%s: %s", p.Path, diff)
		}
	}
	// Rewrites and error= cells both occur: facts that recorded neither
	// would make this test pass for nothing.
	if edits == 0 || errCells == 0 {
		t.Errorf("the facts record %d rewrites and %d errors of error= cells", edits, errCells)
	}
}

// factPages are four pages of the test corpus that have Go cells, and
// four of the book when the whole-book tests run (see booktest).
func factPages(t *testing.T) []*page.Page {
	pages := withCells(corpusPages(t), 4)
	if booktest.Enabled() {
		pages = append(pages, withCells(bookPages(t), 4)...)
	}
	return pages
}

// withCells returns the first n of pages that have Go cells (a page of
// CUDA cells only has none).
func withCells(pages []*page.Page, n int) []*page.Page {
	var out []*page.Page
	for _, p := range pages {
		if len(p.Cells) > 0 && len(out) < n {
			out = append(out, p)
		}
	}
	return out
}

// TestFactsEdited: an edit changes the program of the edited cell's
// session, whose fact then misses: that session is type-checked, and the
// plan is what the edited page gives without facts. Facts of a page whose
// programs do not check record nothing for them, so its problems are
// found again.
func TestFactsEdited(t *testing.T) {
	for _, p := range factPages(t) {
		f := Compile(p, pkgsOf(p)).Facts
		c := p.Cells[0]
		src, err := p.WithCode(map[string]string{c.ID(): string(c.Code.Lines().Value(p.Source)) + "\nvar _ = 1\n"})
		if err != nil {
			t.Fatal(err)
		}
		q := mustParse(t, p.Path, string(src))
		whole, _ := wholePlan(q)
		pl, _ := withFacts(t, q, f)
		if pl.typeChecks == 0 {
			t.Errorf("%s: the edited page type-checked nothing with the book's facts", p.Path)
		}
		if diff := prefixDiff(whole, pl); diff != "" {
			t.Errorf("%s, edited: with facts: %s", p.Path, diff)
		}
	}
	const src = "# T\n\n```go run id=a\nvar x int = \"s\"\n_ = x\n```\n"
	p := mustParse(t, "t.md", src)
	f := Compile(p, pkgsOf(p)).Facts
	if len(f.Programs) != 0 {
		t.Errorf("facts of a page that does not type-check: %d programs recorded", len(f.Programs))
	}
	whole, _ := wholePlan(p)
	pl, _ := withFacts(t, p, f)
	if diff := prefixDiff(whole, pl); diff != "" || !strings.Contains(diagText(pl.units[0].diags), "cannot use") {
		t.Errorf("a type error with facts: %s; diagnostics %q", diff, diagText(pl.units[0].diags))
	}
}

// TestFactsForged: a fact whose rewrites do not fit the page's cells is
// not used: the session is type-checked instead. (The pages with error=
// cells are left out: the fact of such a cell has no rewrites to forge.)
func TestFactsForged(t *testing.T) {
	forged := 0
	for _, p := range factPages(t) {
		if slices.ContainsFunc(p.Cells, func(c *page.Cell) bool { return c.Attrs.Error != "" }) {
			continue
		}
		f := Compile(p, pkgsOf(p)).Facts
		for k := range f.Programs {
			f.Programs[k] = &Fact{Edits: []FactEdit{{Cell: 0, Start: 5, End: 1 << 30, Text: "x"}}}
			forged++
		}
		whole, _ := wholePlan(p)
		pl, _ := withFacts(t, p, f)
		if pl.typeChecks == 0 {
			t.Errorf("%s: forged facts were used", p.Path)
		}
		if diff := prefixDiff(whole, pl); diff != "" {
			t.Errorf("%s: with forged facts: %s", p.Path, diff)
		}
	}
	if forged == 0 {
		t.Error("no fact was forged: the test tests nothing")
	}
}
