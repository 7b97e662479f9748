package site_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/site/problems"
	"github.com/warpbook/warpbook/snippets"
)

// screenshot rewrites the pictures of the site in the documentation:
// docs/practice.png, the practice page, and docs/occupancy.png, a chapter.
// WARPBOOK_WHOLE_BOOK=1 go test ./site -run TestPracticeBrowser/phone -screenshot
var screenshot = flag.Bool("screenshot", false, "rewrite docs/practice.png and docs/occupancy.png")

// practiceCard is what window.warpbook.practice.cards() returns for one card.
type practiceCard struct {
	ID, Kind, Chapter, Difficulty string
	Tags                          []string
	Number, Tolerance             *float64
	Choices                       []string
	Simulated                     bool
}

// schedule is the part of a card's stored FSRS state the tests read.
type schedule struct {
	Due   string  `json:"due"`
	Reps  int     `json:"reps"`
	State int     `json:"state"`
	Stab  float64 `json:"stability"`
}

var practiceSiteDir fixture[string]

// practiceSite returns the directory of the real book's site with the
// practice module (from the user's kernel cache, where the first build
// puts it), built once for the test binary. It skips t unless the
// whole-book tests run (see booktest).
func practiceSite(t *testing.T) string {
	t.Helper()
	booktest.Require(t)
	return practiceSiteDir.get(t, func() (string, error) {
		cache, err := live.DefaultCacheDir()
		if err != nil {
			return "", err
		}
		mod := &live.Builder{CacheDir: cache, Package: live.PracticePackage}
		return writeSite(os.DirFS("../book"), site.Options{Dir: "../book", Practice: mod.Kernel})
	})
}

// TestPracticeBrowser drives the real book's practice page in Chromium:
// the cards and the drill (keyboard, pointer, the schedule kept over a
// reload, due today, filters and the links that start a chapter's drill,
// shuffle, export, import and reset); 50 generated problems of every
// family answered right and wrong through the page, graded as the engine
// grades them; a mock interview through five follow-ups; the page on a
// 390-pixel phone; axe. The drill, the problems and the interview keep
// the schedule in the browser's storage, so each runs in a Chromium of its
// own.
func TestPracticeBrowser(t *testing.T) {
	t.Parallel()
	dir := practiceSite(t)
	bctx := browser(t)
	httpBase, fileBase := serve(t, dir)
	axe := readAxe(t)
	api := `window.warpbook.practice`

	// open opens the practice page and waits for its first card.
	open := func(tb *tab, path string) {
		tb.t.Helper()
		tb.open(path)
		evalAsync[bool](tb, api+`.ready().then(() => true)`)
	}

	t.Run("drill", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, ownBrowser(t), fileBase)
		ctx, cancel := context.WithTimeout(tb.ctx, 4*time.Minute)
		defer cancel()
		tb.ctx = ctx
		open(tb, "practice.html")
		entries, err := os.ReadDir("../book/questions")
		noErr(t, err)
		cards := evalJS[[]practiceCard](tb, api+`.cards()`)
		kinds := map[string]int{}
		var ids []string
		for _, c := range cards {
			kinds[c.Kind]++
			ids = append(ids, c.ID)
		}
		for _, e := range entries {
			if name, ok := strings.CutSuffix(e.Name(), ".md"); ok && name != "index" && !slices.Contains(ids, "q:"+name) {
				t.Errorf("no card for question %s", name)
			}
		}
		if kinds["predict"] < 40 || kinds["problem"] != len(problems.Families()) {
			t.Errorf("cards by kind %v: want at least 40 predict cards and a card per family", kinds)
		}
		if fams := evalJS[[]string](tb, api+`.families()`); len(fams) != len(problems.Families()) || fams[0] != problems.Families()[0].Name {
			t.Errorf("families() = %q", fams)
		}
		if len(evalJS[[]string](tb, api+`.queue()`)) != len(cards) {
			t.Errorf("the first queue is not every card")
		}
		// One card on the page, its answer hidden.
		if n := evalJS[int](tb, `document.querySelectorAll('#pr-cards article.pcard').length`); n != 1 {
			t.Errorf("%d cards on the page, want 1", n)
		}
		if evalJS[bool](tb, `document.querySelector('#pr-cards .pcard-answer').checkVisibility()`) {
			t.Errorf("the answer shows before the reader answers")
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
		goTo := func(id string) {
			t.Helper()
			if !evalJS[bool](tb, api+`.go(`+jsString(id)+`)`) {
				t.Fatalf("card %s is not in the queue", id)
			}
			evalAsync[bool](tb, api+`.ready().then(() => true)`)
		}

		// Space is the browser's: with the page focused it reveals nothing
		// and moves nowhere.
		goTo(first.ID)
		tb.do(chromedp.Click(chromedp.CSS("h1")), chromedp.KeyEvent(" "))
		if evalJS[bool](tb, api+`.revealed()`) || evalJS[string](tb, api+`.current()`) != first.ID {
			t.Errorf("Space revealed the answer or skipped the card")
		}

		// A wrong number by keyboard: type, Enter, then 4 (easy).
		tb.do(chromedp.Click(chromedp.ID("pr-answer")), chromedp.KeyEvent("-12345"), chromedp.KeyEvent(kb.Enter))
		// The key events are dispatched, not necessarily handled, when
		// KeyEvent returns: wait for the reveal (a loaded CI machine lost
		// the race) rather than read it at once.
		if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](api+`.revealed()`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatal("Enter in the answer box did not reveal the answer")
		}
		if v := evalJS[string](tb, `document.getElementById('pr-verdict').className + ": " + document.getElementById('pr-verdict').textContent`); !strings.HasPrefix(v, "pr-verdict wrong: Not quite") {
			t.Errorf("verdict of a wrong number: %q", v)
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
		if due, err := time.Parse(time.RFC3339, s.Due); err != nil || time.Until(due) < 24*time.Hour {
			t.Errorf("an easy new card is due %s, want a day or more away", s.Due)
		}
		if cur := evalJS[string](tb, api+`.current()`); cur == first.ID {
			t.Errorf("grading did not move to the next card")
		}

		// The book's choice by pointer, then the button, then good.
		goTo(second.ID)
		right := slices.Index(second.Choices, evalJS[string](tb, `document.querySelector('#pr-cards .pcard-answer-body').textContent`))
		if right < 0 {
			t.Fatalf("card %s: the answer is none of its choices %q", second.ID, second.Choices)
		}
		press(tb, `#pr-choices button:nth-child(`+strconv.Itoa(right+1)+`)`)
		press(tb, `#pr-reveal`)
		if v := evalJS[string](tb, `document.getElementById('pr-verdict').className`); v != "pr-verdict right" {
			t.Errorf("picking the book's answer: verdict %q", v)
		}
		press(tb, `#pr-grades button[data-grade="3"]`)
		if evalJS[string](tb, `JSON.stringify(`+api+`.state(`+jsString(second.ID)+`))`) == "null" {
			t.Errorf("grading good stored nothing")
		}

		// The arrows move between cards and stay on the page.
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

		// The schedule survives a reload; due today leaves out the easy card.
		tb.do(chromedp.Reload())
		evalAsync[bool](tb, api+`.ready().then(() => true)`)
		if got := evalJS[string](tb, `JSON.stringify(`+api+`.state(`+jsString(first.ID)+`))`); got != raw {
			t.Errorf("after a reload the state is %s, want %s", got, raw)
		}
		due1 := evalJS[[]string](tb, `(`+api+`.filter({kind: "", due: true}), `+api+`.queue())`)
		if slices.Contains(due1, first.ID) || len(due1) != len(cards)-1 {
			t.Errorf("due today holds %d cards (the easy card among them: %v), want all but the easy card (%d)", len(due1), slices.Contains(due1, first.ID), len(cards)-1)
		}
		if st := evalJS[string](tb, `document.getElementById('pr-status').textContent`); !strings.Contains(st, "1 review due") {
			t.Errorf("status %q does not count the review due today", st)
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
		if want := count(func(c practiceCard) bool { return c.Kind == "question" && c.Difficulty == "hard" }); len(queued()) != want || want == 0 {
			t.Errorf("hard questions: %d queued, want %d", len(queued()), want)
		}
		choose("pr-kind", "problem")
		choose("pr-difficulty", "")
		if n := len(queued()); n != len(problems.Families()) {
			t.Errorf("generated problems: %d queued, want a card per family", n)
		}
		choose("pr-kind", "")
		choose("pr-tag", "registers")
		if want := count(func(c practiceCard) bool { return slices.Contains(c.Tags, "registers") }); len(queued()) != want || want == 0 {
			t.Errorf("tag registers: %d queued, want %d", len(queued()), want)
		}
		choose("pr-tag", "")
		choose("pr-chapter", "occupancy")
		if want := count(func(c practiceCard) bool { return c.Chapter == "occupancy" }); len(queued()) != want || want == 0 {
			t.Errorf("chapter occupancy: %d queued, want %d", len(queued()), want)
		}
		if loc := tb.location(); loc != "practice.html#chapter=occupancy" {
			t.Errorf("the address does not keep the chapter: %s", loc)
		}
		before := evalJS[[]string](tb, api+`.queue()`)
		tb.do(chromedp.Click(chromedp.ID("pr-shuffle")))
		if after := evalJS[[]string](tb, api+`.queue()`); slices.Equal(before, after) || !sameSet(before, after) {
			t.Errorf("shuffle: %d cards before, %d after, same order %v", len(before), len(after), slices.Equal(before, after))
		}
		choose("pr-chapter", "")

		// One click from a chapter and from a question starts a drill of it.
		tb.open("occupancy.html")
		tb.navigateBy(chromedp.Click(chromedp.CSS(`.chapter-qs a.drill`)))
		tb.wantLocation("practice.html#chapter=occupancy")
		evalAsync[bool](tb, api+`.ready().then(() => true)`)
		if ch := evalJS[string](tb, `document.getElementById('pr-chapter').value + " " + document.querySelector('#pr-cards article').dataset.chapter`); ch != "occupancy occupancy" {
			t.Errorf("the chapter's drill shows %q", ch)
		}
		tb.open("questions/thirty-three-registers.html")
		tb.navigateBy(chromedp.Click(chromedp.CSS(`.qa-meta a.drill`)))
		tb.wantLocation("practice.html#chapter=occupancy-calculator")
		if n := len(queued()); n != count(func(c practiceCard) bool { return c.Chapter == "occupancy-calculator" }) {
			t.Errorf("the question's drill holds %d cards", n)
		}

		// Export through the button, reset, import through the file input.
		open(tb, "practice.html")
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
		writeFile(t, path, file)
		writeFile(t, bad, `{"format": "something else"}`)
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
	})

	// 50 problems of every family, each answered wrong and then right
	// through the page's form: the engine's grades (Again, then Good), one
	// FSRS review each on the family's card, and every problem the one the
	// Go package (and so "warpbook practice", whose answers equal what
	// "warpbook occupancy" and "warpbook sim" print; see
	// tools/warpbook) makes from the same seed.
	t.Run("problems", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, ownBrowser(t), fileBase)
		ctx, cancel := context.WithTimeout(tb.ctx, 8*time.Minute)
		defer cancel()
		tb.ctx = ctx
		open(tb, "practice.html")
		n := 50
		if testing.Short() {
			n = 5
		}
		// The contract's generate: the engine's problem as data.
		var gen map[string]any
		noErr(t, json.Unmarshal([]byte(evalAsync[string](tb, api+`.generate("occupancy", 32570).then(p => JSON.stringify(p))`)), &gen))
		for _, k := range []string{"params", "question", "answer", "solution"} {
			if gen[k] == nil {
				t.Errorf("generate() lacks %s: %v", k, gen)
			}
		}
		if p := gen["params"].(map[string]any); p["gpu"] == nil || p["threads"] == nil || p["regs"] == nil || p["smem"] == nil {
			t.Errorf("generate()'s params %v are not named as the occupancy command's flags", p)
		}
		for _, f := range problems.Families() {
			type step struct {
				Seed    uint32               `json:"seed"`
				Answers [2]map[string]string `json:"answers"`
			}
			var steps []step
			want := map[uint32]*problems.Problem{}
			for seed := range uint32(n) {
				p, err := problems.Generate(f.Name, seed)
				noErr(t, err)
				want[seed] = p
				right, wrong := map[string]string{}, map[string]string{}
				for _, part := range p.Parts {
					right[part.Name] = part.Accept[0]
					wrong[part.Name] = offAnswer(part)
				}
				steps = append(steps, step{Seed: seed, Answers: [2]map[string]string{wrong, right}})
			}
			in, _ := json.Marshal(steps)
			type outcome struct {
				Problem json.RawMessage
				Grades  [2]problems.Graded
				Shown   [2]string // the page's verdict
				Last    struct {
					Rating int
					Right  bool
				}
			}
			var got []outcome
			js := `(async () => {
				const p = ` + api + `, out = [];
				for (const s of ` + string(in) + `) {
					const o = {grades: [], shown: []};
					for (const a of s.answers) {
						const prob = await p.show(` + jsString(f.Name) + `, s.seed);
						o.problem = prob;
						o.grades.push(await p.check(a));
						o.shown.push(document.getElementById("pr-verdict").className);
						o.last = p.lastGrade();
					}
					out.push(o);
				}
				return JSON.stringify(out);
			})()`
			noErr(t, json.Unmarshal([]byte(evalAsync[string](tb, js)), &got))
			if len(got) != n {
				t.Fatalf("%s: %d outcomes", f.Name, len(got))
			}
			for i, o := range got {
				p := want[uint32(i)]
				w, _ := json.Marshal(p)
				if !sameJSON(o.Problem, w) {
					t.Errorf("%s seed %d: the page's problem differs from the package's:\n%s\n%s", f.Name, i, o.Problem, w)
				}
				if g := o.Grades[0]; g.Right || g.Rating != problems.Again || o.Shown[0] != "pr-verdict wrong" {
					t.Errorf("%s seed %d: a wrong answer %v graded %+v, shown %q", p.Code, i, steps[i].Answers[0], g, o.Shown[0])
				}
				if g := o.Grades[1]; !g.Right || g.Rating != problems.Good || o.Shown[1] != "pr-verdict right" || o.Last.Rating != problems.Good {
					t.Errorf("%s seed %d: the engine's answer %v graded %+v, shown %q", p.Code, i, steps[i].Answers[1], g, o.Shown[1])
				}
			}
			var s schedule
			json.Unmarshal([]byte(evalJS[string](tb, `JSON.stringify(`+api+`.state("g:`+f.Name+`"))`)), &s)
			if s.Reps != 2*n {
				t.Errorf("%s: the family's card has %d reviews, want %d", f.Name, s.Reps, 2*n)
			}
		}
		// A problem's code in the address opens it.
		p, _ := problems.Generate("bank-conflicts", 0x7f3a)
		tb.open("practice.html#problem=" + p.Code)
		poll(tb, `(document.querySelector('#pr-cards article.pr-gen') || {dataset: {}}).dataset.code === `+jsString(p.Code))
	})

	// A mock interview through five follow-ups, graded by the engine at
	// the end, with what was missed and where to read; the schedule stays.
	t.Run("interview", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, ownBrowser(t), fileBase)
		open(tb, "practice.html")
		seed := uint32(0x51)
		iv, err := problems.NewInterview(seed)
		noErr(t, err)
		before := evalJS[string](tb, `localStorage.getItem(Object.keys(localStorage).find(k => k.startsWith("warpbook-practice/")) || "") ?? ""`)
		tb.do(chromedp.Click(chromedp.CSS("#pr-mock-box > summary")))
		evalAsync[bool](tb, api+`.mock.start(6, `+fmt.Sprint(seed)+`).then(() => true)`)
		if !evalJS[bool](tb, `document.getElementById('pr-mock').checkVisibility() && !document.getElementById('pr-cards').checkVisibility()`) {
			t.Fatal("the interview does not show")
		}
		for i, s := range iv.Steps {
			if got := evalJS[string](tb, `document.getElementById('pr-mock-count').textContent`); got != fmt.Sprintf("Question %d of 6", i+1) {
				t.Errorf("step %d: %q", i+1, got)
			}
			change := evalJS[string](tb, `document.getElementById('pr-mock-change').textContent`)
			if i > 0 && change != "Follow-up: "+s.Change {
				t.Errorf("step %d: %q, want the follow-up %q", i+1, change, s.Change)
			}
			if q := evalJS[string](tb, `document.querySelector('#pr-mock-card .pr-question').textContent`); q != s.Problem.Question {
				t.Errorf("step %d asks %q, want %q", i+1, q, s.Problem.Question)
			}
			ans := map[string]string{}
			for _, part := range s.Problem.Parts {
				ans[part.Name] = part.Accept[0]
				if i%2 == 1 {
					ans[part.Name] = offAnswer(part)
				}
			}
			a, _ := json.Marshal(ans)
			tb.do(chromedp.Evaluate[chromedp.Void](api + `.mock.answer(` + string(a) + `)`))
			if i == 5 {
				evalAsync[bool](tb, `(document.getElementById("pr-mock-next").click(), new Promise(r => { const w = () => document.getElementById("pr-results").checkVisibility() ? r(true) : setTimeout(w, 20); w(); }))`)
			} else {
				press(tb, "#pr-mock-next")
			}
		}
		var res struct {
			Code    string
			Summary problems.Summary
			Grades  []problems.Graded
		}
		noErr(t, json.Unmarshal([]byte(evalJS[string](tb, `JSON.stringify(`+api+`.mock.results())`)), &res))
		if res.Code != iv.Code || res.Summary.Asked != 6 || res.Summary.Right != 3 || len(res.Summary.Missed) != 3 {
			t.Fatalf("results %+v", res)
		}
		for _, m := range res.Summary.Missed {
			if m.Step%2 != 0 || len(m.Wrong) == 0 {
				t.Errorf("missed %+v", m)
			}
		}
		if score := evalJS[string](tb, `document.getElementById('pr-results-score').textContent`); !strings.HasPrefix(score, "You answered 3 of 6 questions right") {
			t.Errorf("score %q", score)
		}
		links := evalJS[[]string](tb, `Array.from(document.querySelectorAll('#pr-results-list li.pr-missed .pcard-links a')).map(a => a.getAttribute("href"))`)
		if len(links) != 3 {
			t.Errorf("the summary links %d missed questions to the book, want 3", len(links))
		}
		for _, l := range links {
			p, _, _ := strings.Cut(l, "#")
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p))); err != nil {
				t.Errorf("result link %s: %v", l, err)
			}
		}
		if after := evalJS[string](tb, `localStorage.getItem(Object.keys(localStorage).find(k => k.startsWith("warpbook-practice/")) || "") ?? ""`); after != before {
			t.Errorf("the mock interview changed the schedule")
		}
		runAxe(t, tb, axe, "practice.html, the interview's results")
	})

	// On a 390-pixel phone nothing is wider than the screen: a question, a
	// predict card with code, a generated problem with its data and its
	// worked solution, an interview question. axe at each, light and dark.
	t.Run("phone", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, httpBase)
		tb.do(chromedp.EmulateViewport(390, 844))
		open(tb, "practice.html")
		wide := func(what string) {
			t.Helper()
			if w := evalJS[string](tb, `document.documentElement.scrollWidth + " " + document.documentElement.clientWidth`); w != "390 390" {
				t.Errorf("%s: page width %s on a 390-pixel screen; wider: %s", what, w, evalJS[string](tb, `Array.from(document.querySelectorAll("body *")).filter(e => e.getBoundingClientRect().right > 391 && e.checkVisibility()).slice(0, 6).map(e => e.tagName + "#" + e.id + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)).join(", ")`))
			}
		}
		wide("the first card")
		runAxe(t, tb, axe, "practice.html")
		evalJS[int](tb, api+`.filter({kind: "predict"})`)
		cards := evalJS[[]practiceCard](tb, api+`.cards()`)
		for _, c := range cards {
			if c.Kind == "predict" && c.Number == nil {
				evalJS[bool](tb, api+`.go(`+jsString(c.ID)+`)`)
				break
			}
		}
		evalAsync[bool](tb, api+`.ready().then(() => true)`)
		tb.do(chromedp.Evaluate[chromedp.Void](api + `.reveal()`))
		wide("a predict card, revealed")
		runAxe(t, tb, axe, "practice.html, a predict card revealed")
		for _, f := range []string{"issue-slot", "occupancy", "setmaxnreg"} {
			p, _ := problems.Generate(f, 3)
			evalAsync[bool](tb, api+`.show(`+jsString(f)+`, 3).then(() => true)`)
			wide(p.Code)
			ans := map[string]string{}
			for _, part := range p.Parts {
				ans[part.Name] = offAnswer(part)
			}
			a, _ := json.Marshal(ans)
			evalAsync[bool](tb, api+`.check(`+string(a)+`).then(() => true)`)
			wide(p.Code + ", graded")
		}
		tb.do(chromedp.Evaluate[chromedp.Void](`document.documentElement.setAttribute("data-theme", "dark")`))
		runAxe(t, tb, axe, "practice.html, a problem graded (dark)")
		tb.do(chromedp.Evaluate[chromedp.Void](`document.documentElement.setAttribute("data-theme", "light")`))
		if *screenshot {
			// A problem answered, partly right, on a desktop screen.
			tb.do(chromedp.EmulateViewport(1280, 1500))
			p, _ := problems.Generate("occupancy", 0x7f3a)
			evalAsync[bool](tb, api+`.show("occupancy", 0x7f3a).then(() => true)`)
			a, _ := json.Marshal(map[string]string{"occupancy": p.Parts[0].Accept[0], "limiter": offAnswer(p.Parts[1])})
			evalAsync[bool](tb, api+`.check(`+string(a)+`).then(() => true)`)
			evalAsync[bool](tb, `new Promise(r => requestAnimationFrame(() => { document.getElementById("pr-status").scrollIntoView(); requestAnimationFrame(() => r(true)); }))`)
			png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
			noErr(t, err)
			writeFile(t, "../docs/practice.png", png)
			chapterScreenshot(t, bctx)
			tb.do(chromedp.EmulateViewport(390, 844))
		}
		tb.do(chromedp.Click(chromedp.CSS("#pr-mock-box > summary")))
		evalAsync[bool](tb, api+`.mock.start(3, 7).then(() => true)`)
		wide("an interview question")
		runAxe(t, tb, axe, "practice.html, an interview question")
	})
}

// offAnswer returns an answer to part that is wrong by more than its
// tolerance, or a choice it does not accept.
func offAnswer(part problems.Part) string {
	if part.Kind == "choice" {
		for _, c := range part.Choices {
			if !slices.Contains(part.Accept, c) {
				return c
			}
		}
		return "none"
	}
	v := 0.0
	for _, a := range part.Accept {
		x, _ := strconv.ParseFloat(a, 64)
		v = math.Max(v, x)
	}
	tol := part.Tolerance
	if part.Relative {
		tol *= math.Abs(v)
	}
	return strconv.FormatFloat(v+2*tol+1, 'f', -1, 64)
}

// sameJSON reports whether two JSON documents hold the same data.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
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
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// withoutStamp drops the export's time stamp line.
func withoutStamp(s string) string {
	return strings.Join(slices.DeleteFunc(strings.Split(s, "\n"), func(l string) bool { return strings.Contains(l, `"exported":`) }), "\n")
}

// chapterScreenshot rewrites docs/occupancy.png: the occupancy chapter as
// warpbook build makes it (snippets run and verified, the live kernel
// included), at its first figure and the verified output above it.
func chapterScreenshot(t *testing.T, bctx context.Context) {
	cache, err := live.DefaultCacheDir()
	noErr(t, err)
	opts := site.Options{Dir: "../book", Kernel: &snippets.Kernel{}, Live: (&live.Builder{CacheDir: cache}).Kernel, Provenance: bookProvenance}
	s, err := site.Build(context.Background(), os.DirFS("../book"), opts)
	noErr(t, err)
	dir := filepath.Join(t.TempDir(), "site")
	noErr(t, s.Write(dir))
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
	noErr(t, err)
	writeFile(t, "../docs/occupancy.png", png)
}
