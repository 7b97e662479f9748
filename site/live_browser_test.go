package site_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/figure"
	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/site/preview"
	"github.com/warpbook/warpbook/snippets"
	mdpage "github.com/warpbook/warpbook/snippets/page"
)

// liveBook builds a book with the browser kernel into a directory that
// lasts until the test binary ends.
func liveBook(dir string) (string, error) {
	cache, err := live.DefaultCacheDir()
	if err != nil {
		return "", err
	}
	b := &live.Builder{CacheDir: cache}
	s, err := site.Build(context.Background(), os.DirFS(dir), site.Options{Dir: dir, Live: b.Kernel})
	if err != nil {
		return "", fmt.Errorf("build %s: %w", dir, err)
	}
	if len(s.Warnings) > 0 {
		return "", fmt.Errorf("build %s warns: %v", dir, s.Warnings)
	}
	root, err := fixtureDir()
	if err != nil {
		return "", err
	}
	out := filepath.Join(root, "site")
	return out, s.Write(out)
}

var liveTestBook fixture[string]

// liveTestSite returns the directory of site/testdata/live's site, with
// the browser kernel, written once for the test binary.
func liveTestSite(t *testing.T) string {
	t.Helper()
	return liveTestBook.get(t, func() (string, error) { return liveBook("testdata/live") })
}

// runResult is what window.warpbook.run resolves to.
type runResult struct {
	Status       string `json:"status"`
	Stdout       string `json:"stdout"`
	Error        string `json:"error"`
	Diff         string `json:"diff"`
	Panic        string `json:"panic"`
	CompileError string `json:"compileError"`
	Values       []struct {
		ID, Text, Value, Error string
	} `json:"values"`
}

// run runs a cell through the page's scripting contract.
func (tb *tab) run(id string, source *string) runResult {
	tb.t.Helper()
	js := fmt.Sprintf(`window.warpbook.run(%q)`, id)
	if source != nil {
		js = fmt.Sprintf(`window.warpbook.run(%q, %q)`, id, *source)
	}
	return evalAsync[runResult](tb, js)
}

// bookPages parses every page of a book that has runnable cells.
func bookPages(t *testing.T, dir string) []*mdpage.Page {
	t.Helper()
	var pages []*mdpage.Page
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".md" {
			return err
		}
		src, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			return err
		}
		pg, err := mdpage.Parse(path.Join(dir, p), src)
		if err != nil {
			return err
		}
		if len(pg.Cells) > 0 {
			pages = append(pages, pg)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].Path < pages[j].Path })
	return pages
}

// htmlOf is the output path of a page of a book.
func htmlOf(dir string, p *mdpage.Page) string {
	rel := strings.TrimPrefix(p.Path, dir+"/")
	switch path.Base(rel) {
	case "README.md", "index.md":
		return path.Join(path.Dir(rel), "index.html")
	}
	return strings.TrimSuffix(rel, ".md") + ".html"
}

// native runs cell id of the page at path in the book in dir, with the
// edits, through the native kernel (worker processes, as warpbook test
// runs them) and returns what the cell printed and every problem of the
// run but a different output, printed as warpbook test prints them, with
// the page named as the site names it (by its path in the book).
func native(t *testing.T, dir, path string, edits map[string]string, id string) (stdout, errText string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, path))
	noErr(t, err)
	book, _ := mdpage.Parse(path, src)
	if src, err = book.WithCode(edits); err != nil {
		t.Fatal(err)
	}
	p, _ := mdpage.Parse(path, src)
	c := p.Cell(id)
	ids := []string{}
	for _, x := range p.Cells[:c.Index+1] {
		ids = append(ids, regexp.QuoteMeta(x.ID()))
	}
	for _, ch := range p.Checks {
		if ch.After <= c.Index+1 {
			ids = append(ids, regexp.QuoteMeta(ch.ID()))
		}
	}
	k := &snippets.Kernel{Filter: regexp.MustCompile("^(?:" + strings.Join(ids, "|") + ")$").MatchString}
	r := k.RunPage(context.Background(), p)
	var ds mdpage.Diagnostics
	ds = append(ds, r.Diagnostics...)
	for _, cr := range r.Cells {
		if cr == nil {
			continue
		}
		for _, d := range cr.Diagnostics {
			if !errors.Is(d, snippets.ErrOutput) {
				ds = append(ds, d)
			}
		}
	}
	var b strings.Builder
	ds.Sorted().Write(&b)
	if cr := r.Result(c); cr != nil {
		stdout = cr.Output
	}
	return stdout, b.String()
}

// codeOf is the code of cell id of the page at path in the book in dir,
// as its editor opens it.
func codeOf(t *testing.T, dir, path, id string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, path))
	noErr(t, err)
	p, _ := mdpage.Parse(path, src)
	c := p.Cell(id)
	if c == nil {
		t.Fatalf("%s has no cell %s", path, id)
	}
	return c.Source()
}

// resources lists the URLs the tab has asked for so far.
func (tb *tab) resources() string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return strings.Join(tb.requests, "\n")
}

// TestBrowserLive runs cells of site/testdata/live in the browser kernel,
// from file:// and over http, and through warpbook serve's preview server.
func TestBrowserLive(t *testing.T) {
	t.Parallel()
	bctx := browser(t)
	const book = "testdata/live"
	const page = "index.md" // as the site names it: in the book
	httpBase, fileBase := serve(t, liveTestSite(t))

	// Nothing of the kernel loads before the first Run; a click on Run
	// loads it and shows the verified output. (The first flow of each of
	// the two tabs below, one per transport.)
	lazy := func(t *testing.T, tb *tab) {
		before := tb.resources()
		if strings.Contains(before, "kernel") || strings.Contains(before, "assets/pages/") || strings.Contains(before, "editor.js") {
			t.Errorf("loaded before any Run:\n%s", before)
		}
		if evalJS[bool](tb, `typeof window.warpbookKernelData !== "undefined"`) {
			t.Errorf("the kernel is there before any Run")
		}
		tb.do(chromedp.Click(chromedp.CSS(`.cell[data-cell="a100"] .cell-run-button`)),
			chromedp.WaitVisible(chromedp.CSS(`.cell[data-cell="a100"] .cell-run pre.output`)))
		if got := evalJS[string](tb, `document.querySelector('.cell[data-cell="a100"] .cell-run pre.output').textContent`); got != "48 warps" {
			t.Errorf("Run shows %q, want 48 warps", got)
		}
		if got := evalJS[string](tb, `document.querySelector('.cell[data-cell="a100"] .run-verdict').textContent`); !strings.Contains(got, "verified output") {
			t.Errorf("verdict %q", got)
		}
		if after := tb.resources(); !strings.Contains(after, "assets/kernel-") {
			t.Errorf("the kernel did not load:\n%s", after)
		}
	}

	// An edit typed in the editor and run with Ctrl+Enter prints what the
	// native kernel prints for the same edit, with a diff against the
	// verified output, and the checked values follow it.
	edit := func(t *testing.T, tb *tab) {
		tb.do(chromedp.Click(chromedp.CSS(`.cell[data-cell="a100"] .cell-edit`)),
			chromedp.WaitVisible(chromedp.CSS(`.cell[data-cell="a100"] .cell-editor .cm-content`)))
		if evalJS[bool](tb, `document.querySelector('.cell[data-cell="a100"] pre.code').checkVisibility()`) {
			t.Error("the book's code is still shown beside the editor")
		}
		runAxeThemes(tb.t, tb, readAxe(t), "the editor open")

		// Type at the end of the code, then run with Ctrl+Enter.
		tb.do(chromedp.Focus(chromedp.CSS(`.cell[data-cell="a100"] .cm-content`)),
			chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(cdpCtrl)),
			chromedp.KeyEvent("\nfmt.Println(\"blocks:\", r.ActiveBlocks)"),
			chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(cdpCtrl)),
			chromedp.WaitVisible(chromedp.CSS(`.cell[data-cell="a100"] .run-diff`)))
		code := evalJS[string](tb, `window.warpbook.code("a100")`)
		if !strings.HasSuffix(strings.TrimSpace(code), `fmt.Println("blocks:", r.ActiveBlocks)`) {
			t.Fatalf("the editor holds %q", code)
		}
		edited := strings.TrimRight(code, "\n")
		wantOut, wantErr := native(t, book, page, map[string]string{"a100": edited}, "a100")
		got := evalJS[string](tb, `document.querySelector('.cell[data-cell="a100"] .cell-run pre.output').textContent`)
		if got+"\n" != wantOut || wantErr != "" {
			t.Errorf("the edited cell shows %q; the native kernel prints %q (problems %q)", got, wantOut, wantErr)
		}
		if d := evalJS[string](tb, `document.querySelector('.cell[data-cell="a100"] .run-diff pre').textContent`); !strings.Contains(d, "+blocks: 24") {
			t.Errorf("diff %q lacks +blocks: 24", d)
		}
		// The diff is coloured: the added line is marked as added.
		if add := evalJS[string](tb, `Array.from(document.querySelectorAll('.cell[data-cell="a100"] .run-diff .diff-add')).map(e => e.textContent).join("|")`); add != "+blocks: 24" {
			t.Errorf("the diff's added lines %q, want +blocks: 24", add)
		}

		// The example: 32 registers instead of 33 fill the SM, and
		// the prose says so beside the book's numbers.
		src32 := strings.Replace(edited, "Registers: 33", "Registers: 32", 1)
		r := tb.run("a100", &src32)
		wantOut, wantErr = native(t, book, page, map[string]string{"a100": src32}, "a100")
		if r.Stdout != wantOut || r.Error != wantErr || r.Status != "differs" {
			t.Errorf("32 registers: %s %q %q; the native kernel prints %q %q", r.Status, r.Stdout, r.Error, wantOut, wantErr)
		}
		marks := evalJS[string](tb, `Array.from(document.querySelectorAll(".checked.changed + ins.check-new")).map(e => e.previousElementSibling.textContent + " -> " + e.textContent).join("; ")`)
		if marks != "75 % -> 100 %; 48 -> 64" {
			t.Errorf("changed values %q, want 75 %% -> 100 %%; 48 -> 64", marks)
		}
		// The cell below runs in the edited session.
		if r := tb.run("twice", nil); r.Stdout != "128\n" || r.Status != "differs" {
			t.Errorf("twice after the edit: %s %q %q", r.Status, r.Stdout, r.Error)
		}
		// Reset restores the book's code, output and prose.
		tb.do(chromedp.Click(chromedp.CSS(`.cell[data-cell="a100"] .cell-reset`)))
		if evalJS[bool](tb, `document.querySelector(".check-new") !== null || !document.querySelector('.cell[data-cell="a100"] pre.code').checkVisibility()`) {
			t.Error("Reset left the edit's marks or hid the code")
		}
		if r := tb.run("twice", nil); r.Stdout != "96\n" || r.Status != "pass" {
			t.Errorf("twice after Reset: %s %q %q", r.Status, r.Stdout, r.Error)
		}
	}

	// The editor opens with the setup lines the book hides folded, and
	// numbers its lines as the code's own: a problem is said at the
	// editor's line, where it is marked inline, and shown whole.
	editor := func(t *testing.T, tb *tab) {
		src, _ := os.ReadFile(filepath.Join(book, page))
		pg, _ := mdpage.Parse(page, src)
		cell := pg.Cell("a100")
		hidden := 0
		for _, l := range cell.Lines {
			if l.Hidden {
				hidden++
			}
		}
		tb.do(chromedp.Click(chromedp.CSS(`.cell[data-cell="a100"] .cell-edit`)),
			chromedp.WaitVisible(chromedp.CSS(`.cell[data-cell="a100"] .cm-setupFold`)))
		if got, want := evalJS[string](tb, `document.querySelector('.cell[data-cell="a100"] .cm-setupFold').textContent`), fmt.Sprintf("⋯ %d lines of setup", hidden); got != want {
			t.Errorf("the fold says %q, want %q", got, want)
		}
		numbers := `Array.from(document.querySelectorAll('.cell[data-cell="a100"] .cm-lineNumbers .cm-gutterElement')).filter(e => e.textContent !== "" && e.getBoundingClientRect().height > 0).map(e => e.textContent).join(" ")`
		if got := evalJS[string](tb, numbers); !strings.HasPrefix(got, fmt.Sprintf("1 %d ", hidden+1)) {
			t.Errorf("line numbers with the setup folded: %q, want 1 then %d", got, hidden+1)
		}
		axe := readAxe(t)
		runAxeThemes(tb.t, tb, axe, "the editor open, its setup folded")

		long := strings.Repeat("veryLongUndefinedName", 8)
		bad := cell.Source() + "fmt.Println(" + long + ")\n"
		r := tb.run("a100", &bad)
		_, want := native(t, book, page, map[string]string{"a100": bad}, "a100")
		m := regexp.MustCompile(`^index\.md:(\d+):(\d+): (a100: .*)\n$`).FindStringSubmatch(want)
		if m == nil || r.Error != want {
			t.Fatalf("the run's problems %q; the native kernel's %q", r.Error, want)
		}
		mdLine, _ := strconv.Atoi(m[1])
		line := mdLine - cell.Lines[0].Pos.Line + 1
		shown := evalJS[string](tb, `document.querySelector('.cell[data-cell="a100"] .run-error').textContent`)
		if wantShown := fmt.Sprintf("line %d:%s: %s", line, m[2], m[3]); shown != wantShown {
			t.Errorf("the problem reads %q, want %q", shown, wantShown)
		}
		// Shown whole: the block is as wide as its box, its text wrapped.
		if evalJS[bool](tb, `(e => e.scrollWidth > e.clientWidth)(document.querySelector('.cell[data-cell="a100"] .run-error'))`) {
			t.Error("the problem overflows its block")
		}
		// The inline mark sits on the line the gutter numbers as the
		// problem's line.
		tb.do(chromedp.WaitVisible(chromedp.CSS(`.cell[data-cell="a100"] .cm-lintRange-error`)))
		at := evalJS[string](tb, `(() => {
			const mark = document.querySelector('.cell[data-cell="a100"] .cm-lintRange-error').getBoundingClientRect();
			const nums = Array.from(document.querySelectorAll('.cell[data-cell="a100"] .cm-lineNumbers .cm-gutterElement'));
			const n = nums.find(e => { const b = e.getBoundingClientRect(); return b.height > 0 && b.top <= mark.top + 1 && mark.top < b.bottom; });
			return n ? n.textContent : "";
		})()`)
		if at != strconv.Itoa(line) {
			t.Errorf("the inline mark is on editor line %q, want %d", at, line)
		}
		runAxeThemes(tb.t, tb, axe, "the editor open with a problem marked")
		// The book's code again, the editor closed, for the flows after
		// this one in its tab.
		tb.do(chromedp.Evaluate[chromedp.Void](`window.warpbook.reset("a100")`))
	}

	// Checked values after an edit: those the run re-checked show their
	// new value; those below a later cell are stale until a run reaches
	// them; a failed run leaves the book's values, marked not re-checked.
	values := func(t *testing.T, tb *tab) {
		marks := func() string {
			return evalJS[string](tb, `Array.from(document.querySelectorAll("[data-check]")).map(s => {
				const m = s.nextElementSibling && s.nextElementSibling.matches("ins.check-new") ? s.nextElementSibling : null;
				return s.textContent + (s.classList.contains("changed") ? " struck" : "") + (m ? " [" + m.textContent + "]" : "");
			}).join("; ")`)
		}
		// One note that the snippets run, however the page is scripted.
		if n := evalJS[int](tb, `window.warpbook.code("a100") && document.querySelectorAll(".live-note").length`); n != 1 {
			t.Errorf("%d notes that the snippets run, want 1", n)
		}
		src := strings.Replace(codeOf(t, book, page, "a100"), "Registers: 33", "Registers: 32", 1)
		tb.run("a100", &src)
		if got, want := marks(), "75 % struck [100 %]; 48 struck [64]; 96 [stale]"; got != want {
			t.Errorf("after a run of the edited a100: %s, want %s", got, want)
		}
		tb.run("twice", nil)
		if got, want := marks(), "75 % struck [100 %]; 48 struck [64]; 96 struck [128]"; got != want {
			t.Errorf("after a run of twice: %s, want %s", got, want)
		}
		bad := src + "fmt.Println(undefinedName)\n"
		if r := tb.run("a100", &bad); r.Status != "fail" {
			t.Fatalf("a100 with an undefined name: %s", r.Status)
		}
		if got, want := marks(), "75 % [not re-checked]; 48 [not re-checked]; 96 [stale]"; got != want {
			t.Errorf("after a failed run: %s, want %s", got, want)
		}
		runAxe(tb.t, tb, readAxe(t), "values marked after an edit")
		tb.do(chromedp.Evaluate[chromedp.Void](`window.warpbook.reset("a100")`))
		if got, want := marks(), "75 %; 48; 96"; got != want {
			t.Errorf("after Reset: %s, want %s", got, want)
		}
	}

	// Runs of edited cells, one after another in one tab (each tab loads
	// the kernel anew, which costs the browser more than the runs). An
	// endless loop stopped at its cell's own limit is in "stop", where
	// Allow longer runs one to it.
	runs := func(t *testing.T, tb *tab) {
		resetTwice := chromedp.Evaluate[chromedp.Void](`window.warpbook.reset("twice")`)

		// A forbidden import and a compile error get the native messages,
		// at the cell's line.
		for _, src := range []string{
			"import \"os/exec\"\n\nfmt.Println(exec.Command(\"true\").Run())\n",
			"fmt.Println(undefinedName)\n",
			"fmt.Println(2 * r.ActiveWarps\n",
		} {
			r := tb.run("twice", &src)
			_, want := native(t, book, page, map[string]string{"twice": src}, "twice")
			if r.Status != "fail" || r.Error != want || want == "" {
				t.Errorf("%q: %s %q, want the native %q", src, r.Status, r.Error, want)
			}
		}
		tb.do(resetTwice)
		if r := tb.run("boom", nil); r.Status != "pass" || !strings.Contains(r.Panic, "unknown GPU") {
			t.Errorf("boom: %s panic %q error %q", r.Status, r.Panic, r.Error)
		}

		// What a snippet writes to os.Stdout (kept by the worker and handed
		// to the kernel in chunks) comes out in order with what it prints
		// with fmt, as in the native kernel, in small writes and in large
		// ones, and through a tabwriter, fmt.Fprint and io.WriteString.
		for _, src := range []string{
			"import \"os\"\n\nfor i := 0; i < 3; i++ {\n\tfmt.Println(\"fmt\", i)\n\tos.Stdout.WriteString(\"os\\n\")\n}\nfmt.Print(\"end\\n\")\n",
			"import (\n\t\"os\"\n\t\"strings\"\n)\n\nline := strings.Repeat(\"x\", 999) + \"\\n\"\nfor i := 0; i < 300; i++ {\n\tos.Stdout.WriteString(line)\n\tif i%100 == 0 {\n\t\tfmt.Println(i)\n\t}\n}\n",
			// os.Stdout handed to the standard library is the kernel's
			// own output (see exports in snippets/internal/worker); what
			// is written to it directly still goes through the worker.
			"import (\n\t\"io\"\n\t\"os\"\n\t\"text/tabwriter\"\n)\n\nos.Stdout.WriteString(\"direct\\n\")\ntw := tabwriter.NewWriter(os.Stdout, 0, 0, 1, ' ', 0)\nfmt.Fprintf(tw, \"a\\tbb\\nccc\\td\\n\")\nfmt.Fprintln(os.Stdout, \"fprintln\")\nos.Stdout.WriteString(\"direct again\\n\")\ntw.Flush()\nio.WriteString(os.Stdout, \"io\\n\")\nfmt.Println(\"end\")\n",
		} {
			r := tb.run("twice", &src)
			want, wantErr := native(t, book, page, map[string]string{"twice": src}, "twice")
			if r.Stdout != want || r.Error != wantErr {
				t.Errorf("%q: prints %d bytes (%.60q...), problems %q; the native kernel prints %d bytes (%.60q...), problems %q", src, len(r.Stdout), r.Stdout, r.Error, len(want), want, wantErr)
			}
		}

		// A snippet that prints without end is stopped at the output
		// limit, with the native kernel's message, whether it prints with
		// fmt or writes to os.Stdout; the next run works. (In the cell with
		// the default time limit, as the runs above: on a loaded machine
		// the output limit could come after quick's two seconds.)
		for _, src := range []string{
			"import \"strings\"\n\nline := strings.Repeat(\"spam\", 2000)\nfor {\n\tfmt.Println(line)\n}\n",
			"import (\n\t\"os\"\n\t\"strings\"\n)\n\nline := strings.Repeat(\"spam\", 2000) + \"\\n\"\nfor {\n\tos.Stdout.WriteString(line)\n}\n",
		} {
			r := tb.run("twice", &src)
			_, wantErr := native(t, book, page, map[string]string{"twice": src}, "twice")
			if r.Status != "fail" || r.Error != wantErr {
				t.Errorf("%q: %s, problems %q; the native kernel's: %q", src, r.Status, r.Error, wantErr)
			}
		}
		again := "fmt.Println(\"again\", r.ActiveWarps)\n"
		if r := tb.run("twice", &again); r.Stdout != "again 48\n" || r.Error != "" {
			t.Errorf("after the flood: %s %q %q", r.Status, r.Stdout, r.Error)
		}
		tb.do(resetTwice)
	}

	// A runaway cell is stopped by Stop as soon as it is pressed and by the
	// page's time limit (10 s by default, below the book's 40 s; the test
	// sets 1 s rather than wait ten); the stopped edit is not replayed
	// above the next cell, whose Run gives its verified output; Allow
	// longer runs a cell to the book's limit.
	t.Run("stop", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, fileBase)
		tb.open("index.html")
		if r := tb.run("twice", nil); r.Status != "pass" || r.Stdout != "96\n" {
			t.Fatalf("twice, before: %s %q %q", r.Status, r.Stdout, r.Error)
		}
		stopAt := regexp.MustCompile(`^index\.md:5:1: a100: stopped after [0-9.]+m?s: you pressed Stop\n$`)
		limitAt := "index.md:5:1: a100: did not finish within 1s, the browser's time limit for a cell (an infinite loop? Allow longer lets it run to the book's limit)\n"
		next := func(what string) {
			t.Helper()
			start := time.Now()
			r := tb.run("twice", nil)
			t.Logf("twice after %s: %v", what, time.Since(start))
			if r.Status != "pass" || r.Stdout != "96\n" || r.Error != "" {
				t.Errorf("twice after %s: %s %q %q", what, r.Status, r.Stdout, r.Error)
			}
		}
		loop := "for {\n}\n"
		tb.do(chromedp.Evaluate[chromedp.Void](`window.stopRun = window.warpbook.run("a100", `+jsString(loop)+`)`),
			chromedp.Poll[chromedp.Void](`window.warpbook.running() === "a100"`, chromedp.WithPollingTimeout(5*time.Minute)))
		clicked := time.Now()
		tb.do(chromedp.Click(chromedp.CSS(`.cell[data-cell="a100"] .cell-stop`)))
		// The click ended the worker at once: nothing runs.
		if now := evalJS[any](tb, `window.warpbook.running()`); now != nil {
			t.Errorf("after Stop, the kernel still runs %v", now)
		}
		r := evalAsync[runResult](tb, `window.stopRun`)
		t.Logf("Stop: the diagnostic %v after the click", time.Since(clicked))
		if r.Status != "fail" || !stopAt.MatchString(r.Error) {
			t.Errorf("stopped: %s %q, want %v", r.Status, r.Error, stopAt)
		}
		if !evalJS[bool](tb, `document.querySelector('.cell[data-cell="a100"] .cell-stop').hidden`) {
			t.Error("Stop is still shown after the run")
		}
		next("Stop")

		if got := evalJS[float64](tb, `window.warpbook.timeLimit`); got != 10000 {
			t.Errorf("the page's default limit is %v ms, want 10000", got)
		}
		tb.do(chromedp.Evaluate[chromedp.Void](`window.warpbook.timeLimit = 1000`))
		start := time.Now()
		r = tb.run("a100", &loop)
		t.Logf("stopped by the page's limit after %v", time.Since(start))
		if r.Status != "fail" || r.Error != limitAt {
			t.Errorf("the page's limit: %s %q, want %q", r.Status, r.Error, limitAt)
		}
		if !evalJS[bool](tb, `!!document.querySelector('.cell[data-cell="a100"] .run-longer')`) {
			t.Error("no Allow longer after the page's limit")
		}
		next("the page's limit")

		// The page's limit is for edits: the book's own slow cell, which
		// sleeps 1.5 s, runs past a 1 s page limit to its verified output,
		// and the same code as an edit is stopped at the page's limit.
		if r := tb.run("slow", nil); r.Status != "pass" || r.Stdout != "slept\n" || r.Error != "" {
			t.Errorf("the book's slow cell under a 1 s page limit: %s %q %q", r.Status, r.Stdout, r.Error)
		}
		slow := "import \"time\"\n// ---\ntime.Sleep(1500 * time.Millisecond) // edited\nfmt.Println(\"slept\")\n"
		if r := tb.run("slow", &slow); r.Status != "fail" || !strings.Contains(r.Error, "slow: did not finish within 1s, the browser's time limit") {
			t.Errorf("the slow cell edited, under a 1 s page limit: %s %q %q", r.Status, r.Stdout, r.Error)
		}

		// With a page limit below quick's own (2 s), Allow longer runs it
		// to quick's limit, which stops it with the native message.
		r = tb.run("quick", &loop)
		if !strings.Contains(r.Error, "quick: did not finish within 1s, the browser's time limit") {
			t.Errorf("a 1 s page limit: %q", r.Error)
		}
		// An endless loop is stopped at the cell's own limit (timeout=500ms,
		// four times that as wall-clock time; short, since the loop burns
		// the CPU for as long), not before it, and the next run works.
		errText := `document.querySelector('.cell[data-cell="quick"] .run-error').textContent`
		start = time.Now()
		tb.do(chromedp.Click(chromedp.CSS(`.cell[data-cell="quick"] .run-longer`)),
			chromedp.Poll[chromedp.Void](`window.warpbook.running() === null && `+errText+`.indexOf("within 1s") < 0`, chromedp.WithPollingTimeout(5*time.Minute)))
		took := time.Since(start)
		if got, want := evalJS[string](tb, errText), "index.md:35:1: quick: did not finish within 2s (an infinite loop?)"; got != want {
			t.Errorf("allowed longer: %q, want %q", got, want)
		}
		if took < 2*time.Second {
			t.Errorf("allowed longer, stopped after %v, before its limit", took)
		}
		runAxe(tb.t, tb, readAxe(t), "a stopped cell")
		again := "fmt.Println(\"again\", r.ActiveWarps)\n"
		if r := tb.run("quick", &again); r.Stdout != "again 48\n" || r.Error != "" {
			t.Errorf("after the loop: %s %q %q", r.Status, r.Stdout, r.Error)
		}
	})

	// Runaway recursion stops as natively, with a stack overflow, and a
	// snippet that allocates without end stops at the memory limit, with
	// the native kernel's message, before the tab takes much more than
	// that limit; the next run works.
	limits := func(t *testing.T, tb *tab) {
		// The book's limits, as natively: not the page's shorter one,
		// which is back for the flows after this one in its tab.
		pageLimit := evalJS[float64](tb, `window.warpbook.timeLimit`)
		tb.do(chromedp.Evaluate[chromedp.Void](`window.warpbook.timeLimit = 0`))
		// The browser's memory is sampled while the snippets run: the
		// process that peaks may be gone when they are over.
		peaks := make(chan int64)
		stop := make(chan struct{})
		go func() {
			var most int64
			tick := time.NewTicker(50 * time.Millisecond)
			defer tick.Stop()
			for {
				if p, ok := browserPeak(); ok {
					most = max(most, p)
				}
				select {
				case <-stop:
					peaks <- most
					return
				case <-tick.C:
				}
			}
		}()
		// The first cell's limit is the default, 10 s: a loaded machine
		// still reaches the stack's limit natively within it.
		for _, c := range []struct{ cell, src, want string }{
			{"a100", "import \"fmt\"\n\nvar f func(int) int\nf = func(n int) int { return f(n+1) + 1 }\nfmt.Println(f(0))\n", "stack overflow"},
			{"a100", "import \"bytes\"\n\nvar keep [][]byte\nfor {\n\tkeep = append(keep, bytes.Repeat([]byte{1}, 64<<20))\n}\n", "memory limit of 1 GiB"},
		} {
			r := tb.run(c.cell, &c.src)
			_, want := native(t, book, page, map[string]string{c.cell: c.src}, c.cell)
			if r.Status != "fail" || r.Error != want || !strings.Contains(want, c.want) {
				t.Errorf("%q: %s %q; the native kernel's: %q", c.src, r.Status, r.Error, want)
			}
			tb.do(chromedp.Evaluate[chromedp.Void](`window.warpbook.reset(` + jsString(c.cell) + `)`))
			again := "fmt.Println(\"again\", r.ActiveWarps)\n"
			if r := tb.run("quick", &again); r.Stdout != "again 48\n" || r.Error != "" {
				t.Errorf("after %q: %s %q %q", c.want, r.Status, r.Stdout, r.Error)
			}
		}
		close(stop)
		peak := <-peaks
		t.Logf("the browser's processes peaked at %d MiB", peak>>20)
		if peak > 1536<<20 {
			t.Errorf("a browser process peaked at %d MiB of memory", peak>>20)
		}
		tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.warpbook.timeLimit = %v`, pageLimit)))
	}

	// A figure's inputs redraw it in the kernel with the figure package's
	// own code; Reset restores the built drawing.
	figure := func(t *testing.T, tb *tab) {
		built := evalJS[string](tb, `document.querySelector("figure svg").outerHTML`)
		tb.do(chromedp.SetValue(chromedp.CSS(`#figure-1-in-gpu`), "H100 SXM5"),
			chromedp.Click(chromedp.CSS(`form.fig-controls button[type=submit]`)))
		status := `document.querySelector("form.fig-controls .fig-status").textContent`
		tb.do(chromedp.Poll[chromedp.Void](status+` !== "" && !`+status+`.endsWith("…")`, chromedp.WithPollingTimeout(5*time.Minute)))
		if s := evalJS[string](tb, status); !strings.HasPrefix(s, "Redrawn") {
			t.Fatalf("figure status %q", s)
		}
		src, _ := os.ReadFile(filepath.Join(book, page))
		spec := regexp.MustCompile("(?s)```figure\n(.*?)```").FindSubmatch(src)[1]
		f, err := figure.DrawWith(spec, "figure-1", map[string]string{"gpu": "H100 SXM5"})
		noErr(t, err)
		got := evalJS[string](tb, `document.querySelector("figure svg").outerHTML`)
		if normSVG(got) != normSVG(f.SVG) {
			t.Errorf("redrawn figure differs from figure.DrawWith's:\n%s\n%s", got, f.SVG)
		}
		runAxe(tb.t, tb, readAxe(t), "a redrawn figure")
		tb.do(chromedp.Click(chromedp.CSS(`form.fig-controls button[type=reset]`)),
			chromedp.Poll[chromedp.Void](`!document.querySelector("figure").classList.contains("redrawn")`))
		if now := evalJS[string](tb, `document.querySelector("figure svg").outerHTML`); now != built {
			t.Error("Reset did not restore the built figure")
		}
	}

	// Flows that need only the page share a tab, one after another: a tab
	// that runs a cell compiles the kernel, which costs the browser more
	// than most flows. Each leaves the page as the next expects it (the
	// book's code, Reset). The flows of other tabs run meanwhile. Each
	// tab starts with lazy, over its own transport: from file:// the
	// editing flows, over http the kernel's limits and a figure.
	inOneTab(t, bctx, fileBase, "index.html", "editing", flow{"lazy", lazy}, flow{"editor", editor}, flow{"edit", edit},
		flow{"values", values}, flow{"runs", runs})
	inOneTab(t, bctx, httpBase, "index.html", "kernel", flow{"lazy", lazy}, flow{"limits", limits}, flow{"figure", figure})

	// warpbook serve serves the same kernel: a run over the preview server.
	t.Run("serve", func(t *testing.T) {
		t.Parallel()
		cache, _ := live.DefaultCacheDir()
		ps := &preview.Server{Dir: book, Options: site.Options{Live: (&live.Builder{CacheDir: cache}).Kernel}}
		noErr(t, ps.Rebuild(context.Background()))
		hs := httptest.NewServer(ps)
		t.Cleanup(hs.Close)
		tb := newTab(t, bctx, hs.URL+"/")
		tb.open("index.html")
		if r := tb.run("a100", nil); r.Status != "pass" || r.Stdout != "48 warps\n" {
			t.Errorf("over warpbook serve: %s %q %q", r.Status, r.Stdout, r.Error)
		}
	})
}

// cdpCtrl is the Control key modifier.
const cdpCtrl = chromedp.ModifierCtrl

// normSVG drops what the browser's serializer writes differently from Go
// (self-closing tags, the order of nothing else).
func normSVG(s string) string {
	s = regexp.MustCompile(`\s*/>`).ReplaceAllString(s, ">")
	s = regexp.MustCompile(`></(line|rect|path|circle|polyline|polygon|text|use)>`).ReplaceAllString(s, ">")
	// The browser writes an apostrophe in text as it is.
	s = strings.ReplaceAll(s, "&#39;", "'")
	return strings.TrimSpace(s)
}

// TestBrowserLiveSASS runs, in the browser kernel from file://, a cell
// that runs a compiled kernel's SASS on the simulator: the listing comes
// from the page's whole sass block, in the page's source. The book's
// cell gets its verified output; a reader's edit of the launch prints
// what the native kernel prints for the same edit; an architecture the
// page does not compile fails as it does natively, saying which kernels
// there are.
func TestBrowserLiveSASS(t *testing.T) {
	t.Parallel()
	bctx := browser(t)
	const book = "testdata/live-sass"
	const page = "index.md"
	dir, err := liveBook(book)
	noErr(t, err)
	_, fileBase := serve(t, dir)
	tb := newTab(t, bctx, fileBase)
	tb.open("index.html")
	if r := tb.run("chain", nil); r.Status != "pass" {
		t.Fatalf("the book's cell: %s %s%s", r.Status, r.Error, r.Diff)
	}
	src := evalJS[string](tb, `window.warpbook.code("chain")`)
	edit := strings.Replace(src, "blocks: 108}", "blocks: 864}", 1) // eight blocks per SM, not one
	if edit == src {
		t.Fatalf("the cell has no launch to edit:\n%s", src)
	}
	r := tb.run("chain", &edit)
	want, wantErr := native(t, book, page, map[string]string{"chain": edit}, "chain")
	if r.Stdout != want || wantErr != "" || !strings.Contains(want, "FFMA R0, R0, R5, c[0x0][0x16c]") {
		t.Errorf("the edited launch prints %q; the native kernel %q (problems %q)", r.Stdout, want, wantErr)
	}
	bad := strings.Replace(src, `"sm_80"`, `"sm_90"`, 1)
	r = tb.run("chain", &bad)
	if _, want := native(t, book, page, map[string]string{"chain": bad}, "chain"); r.Error != want || !strings.Contains(want, `no kernel "fma_chain" compiled for sm_90`) {
		t.Errorf("an architecture the page does not compile: %q; the native kernel's %q", r.Error, want)
	}
}

// TestBrowserLiveBook runs every snippet of the book in the browser
// kernel, from file://, and checks that each gets its verified output
// (the output block, which warpbook test checks natively). It is slow,
// so it runs only when WARPBOOK_LIVE_BOOK is set: "all", or part of a
// page's path.
func TestBrowserLiveBook(t *testing.T) {
	which := os.Getenv("WARPBOOK_LIVE_BOOK")
	if which == "" {
		t.Skip("set WARPBOOK_LIVE_BOOK=all (or part of a page's path) to run the book's snippets in the browser kernel")
	}
	bctx := browser(t)
	const book = "../book"
	dir, err := liveBook(book)
	noErr(t, err)
	base := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String()
	for _, p := range bookPages(t, book) {
		if which != "all" && !strings.Contains(p.Path, which) {
			continue
		}
		tb := newTab(t, bctx, base)
		tb.open(htmlOf(book, p))
		// The page's own limits, as a reader gets them: unedited cells
		// run to the book's limits, as warpbook test runs them.
		for _, c := range p.Cells {
			if c.Attrs.Skip != "" {
				continue
			}
			start := time.Now()
			r := tb.run(c.ID(), nil)
			t.Logf("%s %s %s %v", p.Path, c.ID(), r.Status, time.Since(start).Round(time.Millisecond))
			if r.Status != "pass" {
				t.Errorf("%s: %s: %s\n%s%s", c.Pos, c.ID(), r.Status, r.Error, r.Diff)
				continue
			}
			if want := strings.TrimRight(c.Expected(), "\n"); c.Attrs.Error == "" && !c.Attrs.Unordered && strings.TrimRight(r.Stdout, "\n") != want && normLines(r.Stdout) != normLines(want) {
				t.Errorf("%s: %s prints %q, the page says %q", c.Pos, c.ID(), r.Stdout, want)
			}
		}
	}
}

// normLines trims each line's trailing blanks, as the kernel compares.
func normLines(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.Join(lines, "\n")
}

// browserPeak returns the most memory (peak resident set, VmHWM) any
// process this test started and that is still running has used: the
// browsers and their tabs and workers. ok is false where /proc cannot
// say.
func browserPeak() (peak int64, ok bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	parent := map[int]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 {
			if f := strings.Fields(string(stat[i+1:])); len(f) > 1 {
				parent[pid], _ = strconv.Atoi(f[1])
			}
		}
	}
	self := os.Getpid()
	for pid := range parent {
		p := pid
		for p > 1 && p != self {
			p = parent[p]
		}
		if p != self || pid == self {
			continue
		}
		status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if v, found := strings.CutPrefix(line, "VmHWM:"); found {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				peak, ok = max(peak, kb<<10), true
			}
		}
	}
	return peak, ok
}

// sweepJS sweeps the controls of the figure form at index i through the
// values each offers (a select's choices; a number's least, value and
// most, as bounded by the choice that bounds it), one at a time and, when
// pairs, in pairs of controls, redrawing for each and resetting the form
// between; it resolves to the redraws that failed and how many there
// were.
const sweepJS = `(async (i, pairs) => {
	const form = document.querySelectorAll("form.fig-controls")[i];
	const fig = form.closest("figure");
	const status = form.querySelector(".fig-status");
	const inputs = Array.from(form.querySelectorAll("[data-template]"));
	const offered = inp => {
		if (inp.tagName === "SELECT") return Array.from(inp.options).map(o => o.value);
		if (inp.type === "number") {
			const lo = Number(inp.min), hi = Number(inp.max);
			return [...new Set([lo, Math.min(Math.max(Number(inp.value), lo), hi), hi])].map(String);
		}
		return [inp.value];
	};
	const set = (inp, v) => { inp.value = v; inp.dispatchEvent(new Event("change", {bubbles: true})); };
	const settled = () => new Promise(ok => {
		const done = () => !status.textContent.endsWith("…");
		if (done()) return ok();
		const o = new MutationObserver(() => { if (done()) { o.disconnect(); ok(); } });
		o.observe(status, {childList: true, characterData: true, subtree: true});
	});
	const reset = () => new Promise(ok => { form.reset(); setTimeout(ok, 0); });
	// Focus on the form loads the page's live code, which takes it over.
	form.querySelector("[data-template]").focus();
	await new Promise(ok => { const taken = () => form.warpbookLive ? ok() : requestAnimationFrame(taken); taken(); });
	const failures = [];
	let n = 0;
	const redraw = async what => {
		n++;
		form.requestSubmit();
		await settled();
		const s = status.textContent;
		if (s === "") return; // the book's own inputs: the built drawing
		if (!s.startsWith("Redrawn") || fig.classList.contains("fig-failed") || !fig.querySelector("figcaption").textContent.includes("redrawn for your inputs")) {
			failures.push(what + ": " + s);
		}
	};
	for (const a of inputs) {
		for (const v of offered(a)) {
			await reset();
			set(a, v);
			await redraw(a.name + "=" + v);
		}
	}
	if (pairs) {
		// Every pair when one input bounds the other (a machine and its
		// warps); else each value of either beside one of the other's, in
		// turn (as TestControlsOffered's pairsOf).
		const bounds = (a, b) => b.getAttribute("data-limit-by") === a.name;
		for (let x = 0; x < inputs.length; x++) {
			for (let y = x + 1; y < inputs.length; y++) {
				let a = inputs[x], b = inputs[y];
				if (bounds(b, a)) [a, b] = [b, a];
				if (bounds(a, b)) {
					for (const va of offered(a)) {
						await reset();
						set(a, va);
						for (const vb of offered(b)) {
							set(b, vb);
							await redraw(a.name + "=" + va + " " + b.name + "=" + vb);
						}
					}
					continue;
				}
				await reset();
				const as = offered(a), bs = offered(b);
				for (let k = 0; k < Math.max(as.length, bs.length); k++) {
					await reset();
					set(a, as[k % as.length]);
					set(b, bs[k % bs.length]);
					await redraw(a.name + "=" + a.value + " " + b.name + "=" + b.value);
				}
			}
		}
	}
	await reset();
	return {failures, n};
})`

// TestBrowserFigureSweep sweeps every control of every live figure
// through the values its form offers, in the browser kernel, one at a
// time and in pairs: every redraw succeeds, captioned for the reader's
// inputs. It sweeps site/testdata/live's figure, and with
// WARPBOOK_WHOLE_BOOK=1 every figure of the book, and checks the book's
// occupancy.html as a reader first meets it (see calm).
func TestBrowserFigureSweep(t *testing.T) {
	t.Parallel()
	whole := booktest.Enabled()
	bctx := browser(t)
	books := []string{"testdata/live"}
	if whole {
		books = append(books, "../book")
	}
	for _, book := range books {
		var dir string
		if book == "testdata/live" {
			dir = liveTestSite(t)
		} else {
			var err error
			if dir, err = liveBook(book); err != nil {
				t.Fatal(err)
			}
		}
		base := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String()
		pages, _ := filepath.Glob(filepath.Join(dir, "*.html"))
		sort.Strings(pages)
		for _, p := range pages {
			name := filepath.Base(p)
			src, _ := os.ReadFile(p)
			forms := bytes.Count(src, []byte(`<form class="fig-controls"`))
			if forms == 0 {
				continue
			}
			tb := newTab(t, bctx, base)
			tb.open(name)
			if book == "../book" && name == "occupancy.html" {
				calm(t, tb)
			}
			for i := range forms {
				type sweep struct {
					Failures []string `json:"failures"`
					N        int      `json:"n"`
				}
				start := time.Now()
				r, err := chromedp.Run(tb.ctx, chromedp.Evaluate[sweep](fmt.Sprintf("%s(%d, true)", sweepJS, i), chromedp.EvalAwaitPromise))
				if err != nil {
					t.Fatalf("%s figure %d: %v", name, i+1, err)
				}
				t.Logf("%s figure %d: %d redraws in %v", name, i+1, r.N, time.Since(start).Round(time.Millisecond))
				if r.N == 0 {
					t.Errorf("%s figure %d: nothing swept", name, i+1)
				}
				for _, f := range r.Failures {
					t.Errorf("%s figure %d: %s", name, i+1, f)
				}
			}
		}
	}
}

// calm checks a chapter of the book as a reader first meets it, at 1366
// px: one note near the top says the snippets run and can be edited; the
// help lists Ctrl/Cmd+Enter; every code block fits its box or scrolls
// inside it, and no copy button covers code; an arrow key on a focused
// output does not leave the page.
func calm(t *testing.T, tb *tab) {
	t.Helper()
	tb.do(chromedp.EmulateViewport(1366, 768))
	if n := evalJS[int](tb, `document.querySelectorAll(".live-note").length`); n != 1 {
		t.Errorf("%d notes that the snippets run, want 1", n)
	}
	if !evalJS[bool](tb, `document.querySelector("#wb-help").textContent.includes("Enter")`) {
		t.Error("the help does not list Ctrl/Cmd+Enter")
	}
	// A block overflows when its content is wider than the block and it
	// does not scroll, or when the block is wider than the text column.
	over := evalJS[[]string](tb, `Array.from(document.querySelectorAll("main pre, article pre")).filter(p => {
		const cs = getComputedStyle(p), col = p.parentElement.getBoundingClientRect();
		const scrolls = cs.overflowX === "auto" || cs.overflowX === "scroll";
		return (p.scrollWidth > p.clientWidth && !scrolls) || p.getBoundingClientRect().right > col.right + 1;
	}).map(p => p.textContent.slice(0, 40))`)
	if len(over) > 0 {
		t.Errorf("%d code blocks overflow at 1366 px: %q", len(over), over)
	}
	// The copy button lies in the block's right padding, clear of its code.
	covered := evalJS[int](tb, `Array.from(document.querySelectorAll("pre > .copy")).filter(b => {
		const code = b.parentElement.querySelector("code");
		if (!code) return false;
		const r = b.getBoundingClientRect(), pre = b.parentElement, cs = getComputedStyle(pre);
		const codeRight = pre.getBoundingClientRect().right - parseFloat(cs.paddingRight) - parseFloat(cs.borderRightWidth);
		return r.left < codeRight;
	}).length`)
	if covered > 0 {
		t.Errorf("%d copy buttons lie over code", covered)
	}
	before := evalJS[string](tb, `location.href`)
	tb.do(chromedp.Focus(chromedp.CSS(`.cell pre.code`)), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowLeft))
	if after := evalJS[string](tb, `location.href`); after != before {
		t.Errorf("an arrow key on a focused snippet left the page for %s", after)
	}
}
