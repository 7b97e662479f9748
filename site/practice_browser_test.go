package site_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/snippets"
)

// screenshot rewrites the pictures of the site in the documentation:
// docs/practice.png, the practice page, and docs/occupancy.png, a chapter.
// go test ./site -run TestPracticeBrowser/http -screenshot
var screenshot = flag.Bool("screenshot", false, "rewrite docs/practice.png and docs/occupancy.png")

// practiceCard is what window.warpbook.practice.cards() returns for one card.
type practiceCard struct {
	ID, Kind, Chapter, Difficulty string
	Tags                          []string
	Number, Tolerance             *float64
	Choices                       []string
}

// schedule is the part of a card's stored FSRS state the tests read.
type schedule struct {
	Due   string  `json:"due"`
	Reps  int     `json:"reps"`
	State int     `json:"state"`
	Stab  float64 `json:"stability"`
}

// TestPracticeBrowser drives the real book's practice page in Chromium,
// from a web server and from file://: the cards (every question, the
// predict cards), answering and grading by keyboard and by pointer, the
// schedule surviving a reload, due today, filters and the links that
// start a chapter's drill, shuffle, export and import (and a bad file),
// reset, the mock interview, and axe.
func TestPracticeBrowser(t *testing.T) {
	bctx := browser(t)
	dir, _ := bookSite(t)
	httpBase, fileBase := serve(t, dir)
	axe, err := os.ReadFile("testdata/axe/axe.min.js")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("../book/questions")
	if err != nil {
		t.Fatal(err)
	}
	var questionIDs []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".md"); ok && name != "index" {
			questionIDs = append(questionIDs, "q:"+name)
		}
	}
	for _, base := range []struct{ name, url string }{{"http", httpBase}, {"file", fileBase}} {
		t.Run(base.name, func(t *testing.T) {
			tb := newTab(t, bctx, base.url)
			// A step that hangs fails this run within minutes, rather than
			// at the test binary's deadline with every browser test after it.
			ctx, cancel := context.WithTimeout(tb.ctx, 4*time.Minute)
			defer cancel()
			tb.ctx = ctx
			tb.open("practice.html")
			api := `window.warpbook.practice`

			// The cards: every question, and the predict cards.
			if n := evalJS[int](tb, `document.querySelectorAll('[data-card="question"]').length`); n != len(questionIDs) {
				t.Errorf("%d question cards, want one per question (%d)", n, len(questionIDs))
			}
			predict := evalJS[int](tb, `document.querySelectorAll('[data-card="predict"]').length`)
			if predict < 40 {
				t.Errorf("%d predict cards, want at least 40", predict)
			}
			cards := evalJS[[]practiceCard](tb, api+`.cards()`)
			var ids []string
			for _, c := range cards {
				ids = append(ids, c.ID)
			}
			for _, q := range questionIDs {
				if !slices.Contains(ids, q) {
					t.Errorf("no card for %s", q)
				}
			}
			if len(evalJS[[]string](tb, api+`.queue()`)) != len(cards) {
				t.Errorf("the first queue is not every card")
			}
			// One card shows at a time, and its answer waits.
			if n := evalJS[int](tb, `Array.from(document.querySelectorAll('article.pcard')).filter(a => a.checkVisibility()).length`); n != 1 {
				t.Errorf("%d cards visible, want 1", n)
			}
			if evalJS[bool](tb, `document.querySelector('article.pcard:not([hidden]) .pcard-answer').checkVisibility()`) {
				t.Errorf("the answer shows before the reader answers")
			}

			// Answer a numeric predict card wrong, by keyboard: type, Enter,
			// then 4 (easy) grades it.
			if n := evalJS[int](tb, api+`.filter({kind: "predict"})`); n != predict {
				t.Errorf("predict filter gives %d cards, want %d", n, predict)
			}
			var numeric []practiceCard
			for _, c := range cards {
				if c.Kind == "predict" && c.Number != nil && len(c.Choices) == 4 {
					numeric = append(numeric, c)
				}
			}
			if len(numeric) < 2 {
				t.Fatalf("%d numeric predict cards with choices", len(numeric))
			}
			first, second := numeric[0], numeric[1]
			evalJS[bool](tb, api+`.go(`+jsString(first.ID)+`)`)
			tb.do(chromedp.Click(chromedp.ID("pr-answer")), chromedp.KeyEvent("-12345"), chromedp.KeyEvent(kb.Enter))
			if !evalJS[bool](tb, api+`.revealed()`) {
				t.Fatal("Enter in the answer box did not reveal the answer")
			}
			if v := evalJS[string](tb, `document.getElementById('pr-verdict').className + ": " + document.getElementById('pr-verdict').textContent`); !strings.HasPrefix(v, "pr-verdict wrong: Not quite") {
				t.Errorf("verdict of a wrong number: %q", v)
			}
			if !evalJS[bool](tb, `document.querySelector('article.pcard:not([hidden]) .pcard-answer').checkVisibility()`) {
				t.Errorf("the answer is not shown once revealed")
			}
			if g := evalJS[string](tb, `document.activeElement.id + " " + Array.from(document.querySelectorAll('#pr-grades .suggested')).map(b => b.dataset.grade).join(" ")`); g != "pr-grades 1" {
				t.Errorf("after a wrong answer: focus and suggested grade %q, want the grades with 1 (again) suggested", g)
			}
			tb.do(chromedp.KeyEvent("4"))
			var s schedule
			raw := evalJS[string](tb, `JSON.stringify(`+api+`.state(`+jsString(first.ID)+`))`)
			if err := json.Unmarshal([]byte(raw), &s); err != nil || s.Reps != 1 {
				t.Fatalf("after grading easy the card's state is %s", raw)
			}
			due, err := time.Parse(time.RFC3339, s.Due)
			if err != nil || time.Until(due) < 24*time.Hour {
				t.Errorf("an easy new card is due %s, want a day or more away", s.Due)
			}
			if cur := evalJS[string](tb, api+`.current()`); cur == first.ID {
				t.Errorf("grading did not move to the next card")
			}

			// Answer another right, by pointer: pick the book's choice,
			// reveal with Space, grade good.
			evalJS[bool](tb, api+`.go(`+jsString(second.ID)+`)`)
			right := slices.Index(second.Choices, evalJS[string](tb, `document.querySelector('article.pcard:not([hidden]) .pcard-answer-body').textContent`))
			if right < 0 {
				t.Fatalf("card %s: the answer is none of its choices %q", second.ID, second.Choices)
			}
			press(tb, `#pr-choices button:nth-child(`+itoa(right+1)+`)`)
			tb.do(chromedp.KeyEvent(" "))
			if v := evalJS[string](tb, `document.getElementById('pr-verdict').className`); v != "pr-verdict right" {
				t.Errorf("picking the book's answer and Space: verdict %q", v)
			}
			press(tb, `#pr-grades button[data-grade="3"]`)
			if evalJS[string](tb, `JSON.stringify(`+api+`.state(`+jsString(second.ID)+`))`) == "null" {
				t.Errorf("grading good stored nothing")
			}

			// Arrows move between cards and stay on the page.
			at := evalJS[string](tb, api+`.current()`)
			tb.do(chromedp.Click(chromedp.CSS("h1")), chromedp.KeyEvent(kb.ArrowRight))
			if evalJS[string](tb, api+`.current()`) == at {
				t.Errorf("→ did not move to the next card")
			}
			tb.do(chromedp.KeyEvent(kb.ArrowLeft))
			if evalJS[string](tb, api+`.current()`) != at {
				t.Errorf("← did not move back")
			}
			if loc := tb.location(); !strings.HasPrefix(loc, "practice.html") {
				t.Errorf("the arrows left the page for %s", loc)
			}

			// The schedule survives a reload; due today leaves out the card
			// graded easy.
			tb.do(chromedp.Reload())
			if got := evalJS[string](tb, `JSON.stringify(`+api+`.state(`+jsString(first.ID)+`))`); got != raw {
				t.Errorf("after a reload the state is %s, want %s", got, raw)
			}
			due1 := evalJS[[]string](tb, `(`+api+`.filter({kind: "", due: true}), `+api+`.queue())`)
			if slices.Contains(due1, first.ID) || len(due1) != len(cards)-1 {
				t.Errorf("due today holds %d cards (the easy card among them: %v), want all but the easy card (%d)", len(due1), slices.Contains(due1, first.ID), len(cards)-1)
			}
			if !strings.Contains(evalJS[string](tb, `document.getElementById('pr-status').textContent`), "1 review due") {
				t.Errorf("status %q does not count the review due today", evalJS[string](tb, `document.getElementById('pr-status').textContent`))
			}
			evalJS[int](tb, api+`.filter({due: false})`)

			// Filters, through the page's controls.
			choose := func(id, value string) {
				tb.do(chromedp.SetValue(chromedp.ID(id), value),
					chromedp.Evaluate[chromedp.Void](`document.getElementById('`+id+`').dispatchEvent(new Event("change"))`))
			}
			queued := func() []practiceCard {
				q := evalJS[[]string](tb, api+`.queue()`)
				var out []practiceCard
				for _, c := range cards {
					if slices.Contains(q, c.ID) {
						out = append(out, c)
					}
				}
				if len(out) != len(q) {
					t.Errorf("the queue holds ids that are no card")
				}
				return out
			}
			count := func(f func(practiceCard) bool) int {
				n := 0
				for _, c := range cards {
					if f(c) {
						n++
					}
				}
				return n
			}
			choose("pr-difficulty", "hard")
			choose("pr-kind", "question")
			hard := queued()
			if want := count(func(c practiceCard) bool { return c.Kind == "question" && c.Difficulty == "hard" }); len(hard) != want || want == 0 {
				t.Errorf("hard questions: %d queued, want %d", len(hard), want)
			}
			choose("pr-kind", "")
			choose("pr-difficulty", "")
			choose("pr-tag", "registers")
			reg := queued()
			if want := count(func(c practiceCard) bool { return slices.Contains(c.Tags, "registers") }); len(reg) != want || want == 0 {
				t.Errorf("tag registers: %d queued, want %d", len(reg), want)
			}
			choose("pr-tag", "")
			choose("pr-chapter", "occupancy")
			occ := queued()
			if want := count(func(c practiceCard) bool { return c.Chapter == "occupancy" }); len(occ) != want || want == 0 {
				t.Errorf("chapter occupancy: %d queued, want %d", len(occ), want)
			}
			if loc := tb.location(); loc != "practice.html#chapter=occupancy" {
				t.Errorf("the address does not keep the chapter: %s", loc)
			}
			// Shuffle keeps the cards and changes their order.
			before := evalJS[[]string](tb, api+`.queue()`)
			tb.do(chromedp.Click(chromedp.ID("pr-shuffle")))
			after := evalJS[[]string](tb, api+`.queue()`)
			if slices.Equal(before, after) || !sameSet(before, after) {
				t.Errorf("shuffle: %d cards before, %d after, same order %v", len(before), len(after), slices.Equal(before, after))
			}
			choose("pr-chapter", "")

			// One click from a chapter's question list and from a question
			// page starts a drill of that chapter.
			tb.open("occupancy.html")
			tb.navigateBy(chromedp.Click(chromedp.CSS(`.chapter-qs a.drill`)))
			tb.wantLocation("practice.html#chapter=occupancy")
			if ch := evalJS[string](tb, `document.getElementById('pr-chapter').value + " " + document.querySelector('article.pcard:not([hidden])').dataset.chapter`); ch != "occupancy occupancy" {
				t.Errorf("the chapter's drill shows %q", ch)
			}
			tb.open("questions/thirty-three-registers.html")
			tb.navigateBy(chromedp.Click(chromedp.CSS(`.qa-meta a.drill`)))
			tb.wantLocation("practice.html#chapter=occupancy-calculator")
			if n := len(queued()); n != count(func(c practiceCard) bool { return c.Chapter == "occupancy-calculator" }) {
				t.Errorf("the question's drill holds %d cards", n)
			}

			// Export through the button, reset, import through the file
			// input: the same schedule comes back.
			tb.open("practice.html")
			exported := evalJS[string](tb, api+`.exportJSON()`)
			tb.do(chromedp.Evaluate[chromedp.Void](`window.wbBlob = null; window.wbName = "";
				URL.createObjectURL = b => { window.wbBlob = b; return "blob:stub"; };
				HTMLAnchorElement.prototype.click = function () { window.wbName = this.download; };`))
			tb.do(chromedp.Click(chromedp.CSS("#pr-progress > summary")), chromedp.Click(chromedp.ID("pr-export")))
			file := evalAsync[string](tb, `window.wbBlob.text()`)
			if name := evalJS[string](tb, `window.wbName`); name != "warpbook-practice.json" {
				t.Errorf("export downloads %q", name)
			}
			if withoutStamp(file) != withoutStamp(exported) || !strings.Contains(file, first.ID) {
				t.Errorf("the exported file differs from exportJSON or lacks the graded card:\n%s", file)
			}
			tb.do(chromedp.Click(chromedp.ID("pr-reset")), chromedp.Click(chromedp.ID("pr-reset-yes")))
			if got := evalJS[string](tb, `JSON.stringify(`+api+`.state(`+jsString(first.ID)+`))`); got != "null" {
				t.Errorf("after reset the card's state is %s", got)
			}
			path := filepath.Join(t.TempDir(), "progress.json")
			bad := filepath.Join(t.TempDir(), "bad.json")
			os.WriteFile(path, []byte(file), 0o644)
			os.WriteFile(bad, []byte(`{"format": "something else"}`), 0o644)
			tb.do(chromedp.SetUploadFiles(chromedp.ID("pr-import"), []string{path}))
			poll(tb, `document.getElementById('pr-io-status').textContent.startsWith("Imported")`)
			if got := evalJS[string](tb, `JSON.stringify(`+api+`.state(`+jsString(first.ID)+`))`); got != raw {
				t.Errorf("after the import the state is %s, want %s", got, raw)
			}
			tb.do(chromedp.SetUploadFiles(chromedp.ID("pr-import"), []string{bad}))
			poll(tb, `document.getElementById('pr-io-status').textContent.startsWith("Could not import")`)
			if got := evalJS[string](tb, `JSON.stringify(`+api+`.state(`+jsString(first.ID)+`))`); got != raw {
				t.Errorf("a bad file changed the state to %s", got)
			}
			tb.do(chromedp.Reload())
			if got := evalJS[string](tb, `JSON.stringify(`+api+`.state(`+jsString(first.ID)+`))`); got != raw {
				t.Errorf("the imported state did not survive a reload: %s", got)
			}

			// The mock interview: three questions, three seconds each; the
			// second runs out of time; the answers come at the end with
			// links into the book, and the schedule is left alone.
			reviews := evalJS[string](tb, `localStorage.getItem(Object.keys(localStorage).find(k => k.startsWith("warpbook-practice/")))`)
			choose("pr-kind", "question")
			tb.do(chromedp.Click(chromedp.CSS("#pr-mock-box > summary")),
				chromedp.SetValue(chromedp.ID("pr-mock-n"), "3"), chromedp.SetValue(chromedp.ID("pr-mock-secs"), "3"))
			// Start, look and give the first answer in one step of the page,
			// so that no round trip of a loaded machine eats into the first
			// question's three seconds; the second waits out its time.
			started := evalJS[[]string](tb, `(() => {
				document.getElementById("pr-mock-start").click();
				const shown = document.getElementById('pr-mock').checkVisibility() && !document.getElementById('pr-cards').checkVisibility();
				const timer = document.getElementById('pr-timer').textContent;
				`+api+`.mock.answer("Registers are allocated per warp.");
				document.getElementById("pr-mock-next").click();
				return [String(shown), timer];
			})()`)
			if started[0] != "true" {
				t.Fatal("the mock interview did not start")
			}
			if !strings.HasSuffix(started[1], " left") {
				t.Errorf("timer %q", started[1])
			}
			poll(tb, `document.getElementById('pr-mock-count').textContent === "Question 3 of 3."`)
			tb.do(chromedp.Evaluate[chromedp.Void](api + `.mock.answer("third"); document.getElementById("pr-mock-next").click()`))
			if !evalJS[bool](tb, `document.getElementById('pr-results').checkVisibility()`) {
				t.Fatal("no results at the end of the interview")
			}
			type result struct {
				ID, Answer string
				TimedOut   bool
			}
			results := evalJS[[]result](tb, api+`.mock.results()`)
			if len(results) != 3 || results[0].Answer != "Registers are allocated per warp." || !results[1].TimedOut || results[1].Answer != "" || results[2].Answer != "third" {
				t.Errorf("results %+v", results)
			}
			for _, r := range results {
				if !strings.HasPrefix(r.ID, "q:") {
					t.Errorf("the interview asked %s, not a question", r.ID)
				}
			}
			links := evalJS[[]string](tb, `Array.from(document.querySelectorAll('#pr-results-list li .pcard-links a')).map(a => a.getAttribute("href"))`)
			if len(links) < 3 {
				t.Errorf("results link into the book %d times, want each answer linked", len(links))
			}
			for _, l := range links {
				p, _, _ := strings.Cut(l, "#")
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
					t.Errorf("result link %s: %v", l, err)
				}
			}
			if got := evalJS[string](tb, `localStorage.getItem(Object.keys(localStorage).find(k => k.startsWith("warpbook-practice/")))`); got != reviews {
				t.Errorf("the mock interview changed the schedule")
			}
			if *screenshot && base.name == "http" {
				tb.open("index.html")
				tb.open("practice.html#chapter=occupancy-calculator")
				tb.do(chromedp.Evaluate[chromedp.Void](`(() => { const p = window.warpbook.practice; p.filter({kind: "predict"}); const c = p.cards().find(c => c.chapter === "occupancy-calculator" && c.kind === "predict" && c.choices.length === 4); p.go(c.id); p.pick(c.choices.indexOf(document.querySelector("article.pcard:not([hidden]) .pcard-answer-body").textContent)); p.reveal(); scrollTo(0, 0); })()`))
				tb.do(chromedp.EmulateViewport(1280, 1180))
				png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile("../docs/practice.png", png, 0o644); err != nil {
					t.Fatal(err)
				}
				chapterScreenshot(t, bctx)
			}

			// axe: the interview's results, a card being asked and a card
			// answered, in the light theme over http and the dark one from
			// file:// (each run takes seconds on the page's 23,000 elements).
			theme := map[string]string{"http": "light", "file": "dark"}[base.name]
			setTheme := chromedp.Evaluate[chromedp.Void](`document.documentElement.setAttribute("data-theme", "` + theme + `")`)
			tb.do(setTheme)
			if base.name == "http" {
				runAxe(t, tb, string(axe), "practice.html, the interview's results")
			}
			tb.open("practice.html")
			tb.do(setTheme)
			runAxe(t, tb, string(axe), "practice.html ("+theme+")")
			tb.do(chromedp.Evaluate[chromedp.Void](api + `.go(` + jsString(second.ID) + `); ` + api + `.pick(0); ` + api + `.reveal()`))
			runAxe(t, tb, string(axe), "practice.html, revealed ("+theme+")")
		})
	}
}

// press focuses the element sel selects and clicks it, as a pointer
// would, through its click event. A click at the element's coordinates
// could land on its neighbour when the page shifts between finding the
// element and clicking it, as it may on a loaded machine.
func press(tb *tab, sel string) {
	tb.t.Helper()
	tb.do(chromedp.Evaluate[chromedp.Void](`(e => { e.scrollIntoView({block: "center"}); e.focus(); e.click(); })(document.querySelector(` + jsString(sel) + `))`))
}

// poll waits until js is true on the page.
func poll(tb *tab, js string) {
	tb.t.Helper()
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](js)); err != nil {
		tb.t.Fatalf("waiting for %s: %v", js, err)
	}
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// withoutStamp drops the export's time stamp line.
func withoutStamp(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.Contains(l, `"exported":`) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// chapterScreenshot rewrites docs/occupancy.png: the occupancy chapter as
// warpbook build makes it (snippets run and verified, the live kernel
// included), at its first figure and the verified output above it.
func chapterScreenshot(t *testing.T, bctx context.Context) {
	cache, err := live.DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	opts := site.Options{Dir: "../book", Kernel: &snippets.Kernel{}, Live: (&live.Builder{CacheDir: cache}).Kernel, Provenance: bookProvenance}
	s, err := site.Build(context.Background(), os.DirFS("../book"), opts)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := s.Write(dir); err != nil {
		t.Fatal(err)
	}
	_, base := serve(t, dir)
	tb := newTab(t, bctx, base)
	tb.open("occupancy.html")
	tb.do(chromedp.EmulateViewport(1280, 1000), chromedp.Evaluate[chromedp.Void](`(() => {
		const fig = document.querySelector("figure.figure");
		const above = [...document.querySelectorAll(".cell")].filter(c => c.compareDocumentPosition(fig) & Node.DOCUMENT_POSITION_FOLLOWING);
		const out = above.at(-1).querySelector(".output-wrap");
		scrollTo({top: out.getBoundingClientRect().top + scrollY - 95, behavior: "instant"});
	})()`))
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("../docs/occupancy.png", png, 0o644); err != nil {
		t.Fatal(err)
	}
}
