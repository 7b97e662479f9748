package snippets

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
	"github.com/warpbook/warpbook/snippets/symbols"
)

// prefixDiff says how a prefix plan differs from the whole page's plan
// (compiled): "" when its units are the whole plan's first units, in the
// same sessions, with the same work, time limits, diagnostics, cache keys
// and the same answer to whether they run, and its error= cells found the
// same errors.
func prefixDiff(whole, pp *plan) string {
	n := len(pp.page.Cells)
	var want []*unit
	for _, u := range whole.units {
		if u.cell != nil && u.cell.Index < n || u.check != nil && u.check.After <= n {
			want = append(want, u)
		}
	}
	if len(want) != len(pp.units) {
		return fmt.Sprintf("%d units, the whole page has %d above the cut", len(pp.units), len(want))
	}
	v := Verifier{Tool: "t", Engine: "e", Go: "g"}
	wk, pk := whole.keys(v, "interp"), pp.keys(v, "interp")
	runs := func(u *unit) string {
		s := u.session
		i := slices.Index(s.units, u)
		culprit := ""
		if s.culprit != nil {
			culprit = s.culprit.id()
		}
		return fmt.Sprintf("runs=%v culprit=%q", i < s.firstBad, culprit)
	}
	for i, a := range want {
		b := pp.units[i]
		switch {
		case a.index != b.index || a.session.id != b.session.id || a.id() != b.id():
			return fmt.Sprintf("unit %d is %s (session %d), the whole page's is %s (session %d)", b.index, b.id(), b.session.id, a.id(), a.session.id)
		case !slices.Equal(a.chunks, b.chunks):
			return fmt.Sprintf("%s: chunks %q, the whole page's %q", a.id(), b.chunks, a.chunks)
		case !slices.Equal(a.stmt, b.stmt) || a.expr != b.expr || a.timeout != b.timeout || !reflect.DeepEqual(a.maps, b.maps):
			return fmt.Sprintf("%s: stmt, expr, time limit or position maps differ", a.id())
		case diagText(a.diags) != diagText(b.diags):
			return fmt.Sprintf("%s: diagnostics %q, the whole page's %q", a.id(), diagText(b.diags), diagText(a.diags))
		case runs(a) != runs(b):
			return fmt.Sprintf("%s: %s, in the whole page %s", a.id(), runs(b), runs(a))
		case wk[a] != pk[b]:
			return fmt.Sprintf("%s: cache key differs", a.id())
		}
	}
	for c, e := range pp.errCells {
		if w := whole.errCells[c]; w == nil || *w != *e {
			return fmt.Sprintf("%s: error= cell found %+v, the whole page %+v", c.ID(), e, w)
		}
	}
	return ""
}

func diagText(ds page.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s|%s|%s\n", d.Error(), d.Hint, d.Diff)
	}
	return b.String()
}

// wholePlan returns p's plan, compiled, with its page-level diagnostics.
func wholePlan(p *page.Page) (*plan, page.Diagnostics) {
	pl := testPlan(p)
	return pl, pl.compile()
}

// rawPrefix is the plan of p's first n cells compiled without asking
// whether it is exact: what prefixPlan would use without its fallback.
func rawPrefix(p *page.Page, n int) (*plan, page.Diagnostics) {
	pl := testPlan(upTo(p, n))
	return pl, pl.compile()
}

// bookPackages are the book's own Go packages (book.yaml's packages:,
// book/lib/wb), which its pages import; read once for the test binary.
var bookPackages = sync.OnceValues(func() (*Packages, page.Diagnostics) { return ReadPackages("../book") })

// pkgsOf returns the packages p's cells may import: the book's for a page
// of the book, none for the corpus's.
func pkgsOf(p *page.Page) *Packages {
	if !strings.HasPrefix(p.Path, "book/") {
		return nil
	}
	ps, ds := bookPackages()
	if len(ds) > 0 {
		panic(fmt.Sprintf("the book's packages: %v", ds))
	}
	return ps
}

// testPlan is newPlan with the packages p's cells may import.
func testPlan(p *page.Page) *plan {
	pl := newPlan(p, DefaultTimeout)
	pl.pkgs = pkgsOf(p)
	return pl
}

// bookPages parses every page of the book that has cells. It skips t
// unless the whole-book tests run (see booktest).
func bookPages(t *testing.T) []*page.Page {
	t.Helper()
	booktest.Require(t)
	var pages []*page.Page
	err := filepath.WalkDir("../book", func(file string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(file, ".md") {
			return err
		}
		src, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		p, _ := page.Parse(strings.TrimPrefix(file, "../"), src)
		if len(p.Cells) > 0 && len(p.Diagnostics) == 0 {
			pages = append(pages, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 10 {
		t.Fatalf("found %d pages with cells in ../book", len(pages))
	}
	return pages
}

// TestPrefixBook: over every page of the book and every cut (the first n
// cells), the prefix plan a run would use is the whole plan's beginning;
// and the first run of book/occupancy.md's first cell compiles only a
// prefix (what issue 12's first Run needs).
func TestPrefixBook(t *testing.T) {
	cuts, used := 0, 0
	for _, p := range bookPages(t) {
		whole, pageDiags := wholePlan(p)
		for n := 0; n < len(p.Cells); n++ {
			cuts++
			pp := prefixPlan(testPlan(p), n, DefaultTimeout)
			if pp == nil {
				continue
			}
			used++
			if len(pageDiags) > 0 {
				t.Errorf("%s, first %d cells: a prefix plan, but the whole page has page-level problems %v", p.Path, n, pageDiags)
			}
			if d := prefixDiff(whole, pp); d != "" {
				t.Errorf("%s, first %d cells: %s", p.Path, n, d)
			}
		}
		if p.Path == "book/occupancy.md" {
			k := &Kernel{Filter: func(id string) bool { return id == "first" }}
			if pp := prefixPlan(testPlan(p), k.cut(p), DefaultTimeout); pp == nil || len(pp.page.Cells) >= len(p.Cells) {
				t.Errorf("%s: the run of cell first does not compile a prefix of the page", p.Path)
			}
		}
	}
	t.Logf("%d of %d cuts of the book compile a prefix", used, cuts)
}

// TestPrefixRuns runs every cell of every page of the book as the browser
// kernel's first Run does (a prefix plan where it is exact: the Resident's
// compiled pages are dropped before each run, its interpreters kept), then
// again with the whole page compiled, in the same interpreters, and
// compares the results: the same outputs, statuses and diagnostics. The
// second run replays what the first evaluated only where the units are
// the same work, so this also checks that a run after a prefix run reuses
// only what is valid.
func TestPrefixRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole book; skipped with -short")
	}
	for _, p := range bookPages(t) {
		t.Run(strings.TrimSuffix(p.Path, ".md"), func(t *testing.T) {
			r := NewResident()
			k := &Kernel{Resident: r}
			for _, c := range p.Cells {
				k.Filter = cellFilter(p, c).MatchString
				r.mu.Lock()
				r.plans = nil
				r.mu.Unlock()
				got := resultText(k.RunPage(context.Background(), p))
				r.plan(p, k.timeout(), len(p.Cells), nil)
				if want := resultText(k.RunPage(context.Background(), p)); got != want {
					t.Errorf("run of %s: with a prefix plan\n%s\nwith the whole page\n%s", c.ID(), got, want)
				}
			}
		})
	}
}

// cellFilter selects what the browser kernel's Run of c selects: the cells
// up to c and the checked values before the next cell.
func cellFilter(p *page.Page, c *page.Cell) *regexp.Regexp {
	var ids []string
	for _, d := range p.Cells[:c.Index+1] {
		ids = append(ids, regexp.QuoteMeta(d.ID()))
	}
	for _, ch := range p.Checks {
		if ch.After <= c.Index+1 {
			ids = append(ids, regexp.QuoteMeta(ch.ID()))
		}
	}
	return regexp.MustCompile("^(?:" + strings.Join(ids, "|") + ")$")
}

// resultText is everything a run's result says but its timings.
func resultText(r *PageResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "page: %s", diagText(r.Diagnostics))
	for _, c := range r.Cells {
		if c != nil {
			fmt.Fprintf(&b, "%s %s out=%q panic=%q error=%q skip=%q\n%s", c.ID, c.Status, c.Output, c.Panic, c.Error, c.Skip, diagText(c.Diagnostics))
		}
	}
	for _, c := range r.Checks {
		if c != nil {
			fmt.Fprintf(&b, "%s %s value=%q\n%s", c.ID, c.Status, c.Value, diagText(c.Diagnostics))
		}
	}
	return b.String()
}

// TestPrefixCorpus: for every testdata/*.txtar page and every cut, a
// prefix plan is used only where it is the whole plan's beginning, and a
// run of each cell (in process, as "warpbook test -run" runs one) reports
// what the run of the whole page reports for it. The prefix-*.txtar pages
// each hold one way the cells below a cut change the cells above it: for
// each, the prefix compiled without the fallback differs from the whole
// page at some cut, so that these tests fail if the fallback misses it.
func TestPrefixCorpus(t *testing.T) {
	prefixCases := 0
	for _, p := range corpusPages(t) {
		name := strings.TrimSuffix(filepath.Dir(p.Path), ".txtar")
		t.Run(name, func(t *testing.T) {
			whole, pageDiags := wholePlan(p)
			differs := false
			for n := 0; n < len(p.Cells); n++ {
				raw, rawDiags := rawPrefix(p, n)
				if prefixDiff(whole, raw) != "" || diagText(rawDiags) != diagText(pageDiags) {
					differs = true
				}
				pp := prefixPlan(testPlan(p), n, DefaultTimeout)
				if pp == nil {
					continue
				}
				if len(pageDiags) > 0 {
					t.Errorf("first %d cells: a prefix plan, but the whole page has page-level problems %v", n, pageDiags)
				}
				if d := prefixDiff(whole, pp); d != "" {
					t.Errorf("first %d cells: %s", n, d)
				}
			}
			if strings.HasPrefix(name, "prefix-") {
				prefixCases++
				if !differs {
					t.Errorf("no cut of the page compiles differently on its own: the case tests nothing")
				}
				for _, c := range p.Cells {
					f := cellFilter(p, c)
					kp := &Kernel{InProcess: true, Timeout: 5 * time.Second, Filter: f.MatchString}
					kw := &Kernel{InProcess: true, Timeout: 5 * time.Second}
					got := resultText(kp.RunPage(context.Background(), p))
					all := kw.RunPage(context.Background(), p)
					for i, cr := range all.Cells {
						if cr != nil && !f.MatchString(cr.ID) {
							all.Cells[i] = nil
						}
					}
					for i, cr := range all.Checks {
						if cr != nil && !f.MatchString(cr.ID) {
							all.Checks[i] = nil
						}
					}
					if want := resultText(all); got != want {
						t.Errorf("run of %s: with -run\n%s\nin the whole page's run\n%s", c.ID(), got, want)
					}
				}
			}
		})
	}
	if prefixCases < 8 {
		t.Errorf("found %d testdata/prefix-*.txtar cases", prefixCases)
	}
}

// TestAllowedPackageNames: every package the sandbox allows is named after
// the last element of its path, the name plan.separable gives an import
// without a name.
func TestAllowedPackageNames(t *testing.T) {
	paths := symbols.Std()
	for _, p := range []string{"github.com/warpbook/warpbook/engine/gpu", "github.com/warpbook/warpbook/engine/occupancy", "github.com/warpbook/warpbook/engine/sim"} {
		paths = append(paths, p)
	}
	pkgs, err := symbols.TypesOf(paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < len(paths) {
		t.Fatalf("TypesOf(%d paths) returned %d packages", len(paths), len(pkgs))
	}
	for p, pkg := range pkgs {
		if pkg.Name() != path.Base(p) {
			t.Errorf("package %s is named %s", p, pkg.Name())
		}
	}
}

// TestScaffoldingNames: every name the helper declares, and every name
// the scaffolding of a session's program mentions, starts with _wb or is
// "any", as plan.separable assumes of a later cell that mentions one.
func TestScaffoldingNames(t *testing.T) {
	fset := token.NewFileSet()
	helper, err := parser.ParseFile(fset, helperFile, worker.HelperStub, 0)
	if err != nil {
		t.Fatal(err)
	}
	for name := range helper.Scope.Objects {
		if !strings.HasPrefix(name, "_wb") {
			t.Errorf("the helper declares %s", name)
		}
	}
	src := "```go run\nimport \"fmt\"\n\nx := 1\nfmt.Println(x)\n```\n\nIt is [1](= 'x').\n\n```go run panics=\"boom\"\npanic(\"boom\")\n```\n"
	p, _ := page.Parse("page.md", []byte(src))
	pl := testPlan(p)
	f, err := parser.ParseFile(fset, scaffoldFile, pl.sessions[0].mainGo, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && fset.Position(id.Pos()).Filename != pageFile && id.Name != "main" {
			names[id.Name] = true
		}
		return true
	})
	for _, want := range []string{"_wbStart", "_wbDone", "_wbPanics", "_wbCheck", "any"} {
		if !names[want] {
			t.Errorf("the scaffolding of\n%s\ndoes not mention %s", pl.sessions[0].mainGo, want)
		}
	}
	for name := range names {
		if name != "any" && !strings.HasPrefix(name, "_wb") {
			t.Errorf("the scaffolding mentions %s", name)
		}
	}
}
