package site_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/site"
)

var realBook fixture[string]

// bookSite returns the directory of the real book's site (../book), built
// once for the test binary without a kernel, as the reader's browser tests
// need it: the cells show the outputs their pages state, which is what a
// verified build shows once the book passes. It skips t unless the
// whole-book tests run (see booktest).
func bookSite(t *testing.T) string {
	t.Helper()
	booktest.Require(t)
	return realBook.get(t, func() (string, error) {
		return writeSite(os.DirFS("../book"), site.Options{Dir: "../book", Provenance: bookProvenance})
	})
}

// bookProvenance is a commit and a date for the real book's build, as the
// build command finds them in a checkout.
var bookProvenance = site.Provenance{
	Commit: "0123456789abcdef0123456789abcdef01234567",
	Date:   time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC),
	Prefix: "book/",
}

// serve serves dir over a loopback server and returns its root URL and
// the file:// URL of the same folder.
func serve(t *testing.T, dir string) (httpBase, fileBase string) {
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv.URL + "/", (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String()
}

// searchResult is what window.warpbook.search returns for one result.
type searchResult struct {
	Title, Page, Kind, URL, Excerpt, ExcerptHTML string
}

// searchQueries are queries a reader types, each with the section that
// answers it: it must be among the first three results. The kinds are
// the ones the search had to learn: a phrase with a stop word inside, a
// whole question, a number with a per cent sign, a part name that only
// the snippets' outputs print, misspellings, pasted profiler metrics and
// API names.
var searchQueries = []struct{ kind, query, want string }{
	{"phrase with a stop word", "greedy then oldest", "warp-scheduler.html#one-cycle-in-one-sub-partition"},
	{"a whole question", "How many warps fit on an A100 with 33 registers per thread?", "questions/thirty-three-registers.html"},
	{"a percentage", "75%", "questions/thirty-three-registers.html"},
	{"a part name only in outputs", "GTX 750 Ti", "occupancy.html#limits-by-compute-capability"},
	{"a misspelling", "scoreborad", "glossary/scoreboard.html"},
	{"two misspellings", "ocupancy calcluator", "occupancy-calculator.html"},
	{"a misspelt term", "warp schedular", "glossary/warp-scheduler.html"},
	{"a pasted Nsight metric the book writes as a pattern", "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", "glossary/warp-stall-reasons.html"},
	{"a pasted Nsight metric", "smsp__issue_active.avg.per_cycle_active", "reading-warp-state.html#start-with-issue-slot-utilisation"},
	{"a CUDA API name", "cudaOccupancyMaxPotentialBlockSize", "occupancy-calculator.html#choosing-a-block-size"},
	{"an apostrophe", "little's law", "latency-hiding.html#littles-law"},
	{"a stall reason in words", "long scoreboard", "stall-reasons.html#long-scoreboard"},
	{"a plural", "shared memory carveouts", "occupancy.html#shared-memory-and-the-carveout"},
	{"stop words only around the words", "what are the cliffs", "occupancy.html#the-cliffs"},
}

// TestSearchQuality runs the query table against the real book, from a
// web server and from file://, through window.warpbook.search and the
// search box, and logs how long the first and later queries take
// (docs/benchmarks.md gives the figures; no test asserts a time).
func TestSearchQuality(t *testing.T) {
	t.Parallel()
	dir := bookSite(t)
	bctx := browser(t)
	httpBase, fileBase := serve(t, dir)
	bothTransports(t, httpBase, fileBase, "", func(t *testing.T, base string) {
		tb := newTab(t, bctx, base)
		tb.open("occupancy.html")
		// What a reader sees: the first results in the box, from the
		// titles and headings, while the full text is indexed.
		box := evalAsync[float64](tb, `new Promise(resolve => {
			const q = document.getElementById("wb-q"), list = document.getElementById("wb-results");
			const t0 = performance.now();
			new MutationObserver((_, obs) => {
				if (list.querySelector("li[role=option] a")) { obs.disconnect(); resolve(performance.now() - t0); }
			}).observe(list, {childList: true});
			q.value = "occupancy cliffs";
			q.dispatchEvent(new Event("input"));
		})`)
		tb.open("occupancy.html")
		// The first query loads and indexes the book.
		first := evalAsync[float64](tb, `(async () => { const t0 = performance.now(); await warpbook.search("occupancy"); return performance.now() - t0; })()`)
		timing := evalJS[map[string]float64](tb, `warpbook.searchTiming()`)
		var later []float64
		for _, q := range searchQueries {
			var got []searchResult
			ms := evalAsync[float64](tb, `(async () => { const t0 = performance.now(); window.wbLast = await warpbook.search(`+jsString(q.query)+`); return performance.now() - t0; })()`)
			later = append(later, ms)
			got = evalJS[[]searchResult](tb, `window.wbLast`)
			var urls []string
			for _, r := range got {
				if r.Title == "" || r.URL == "" || r.Excerpt == "" {
					t.Errorf("%q: result %+v lacks a title, url or excerpt", q.query, r)
				}
				urls = append(urls, strings.TrimPrefix(r.URL, ""))
			}
			top := urls[:min(3, len(urls))]
			if !slices.Contains(top, q.want) {
				t.Errorf("%s: %q: top three %q, want %s", q.kind, q.query, top, q.want)
			}
		}
		sort.Float64s(later)
		t.Logf("search, %s: first results in the box %.0f ms; index loaded in %.0f ms, titles indexed in %.0f ms, all of it in %.0f ms; first full query %.0f ms in all; later queries median %.1f ms, slowest %.1f ms",
			path.Base(t.Name()), box, timing["load"], timing["quick"], timing["index"], first, later[len(later)/2], later[len(later)-1])

		// An excerpt marks the words that matched, and the result links
		// to the section.
		html := evalAsync[string](tb, `warpbook.search("greedy then oldest").then(r => r[0].excerptHTML)`)
		if !strings.Contains(strings.ToLower(html), "<mark>greedy</mark>") {
			t.Errorf("excerpt %q does not mark greedy", html)
		}

		// The search box: results with excerpts, keyboard navigation,
		// Enter goes to the chosen section.
		tb.do(chromedp.KeyEvent("/"), chromedp.KeyEvent("little's law"),
			chromedp.WaitVisible(chromedp.CSS("#wb-results li[role=option] .excerpt mark")))
		second := evalJS[string](tb, `document.querySelectorAll('#wb-results li[role=option] a')[1].getAttribute('href')`)
		tb.do(chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
		if sel := evalJS[string](tb, `document.getElementById('wb-q').getAttribute('aria-activedescendant')`); sel != "wb-result-1" {
			t.Errorf("two ArrowDowns select %q, want wb-result-1", sel)
		}
		tb.navigateBy(chromedp.KeyEvent(kb.Enter))
		if loc := tb.location(); !strings.HasSuffix(second, strings.TrimPrefix(loc, "")) || loc == "" {
			t.Errorf("Enter on the second result went to %s, want %s", loc, second)
		}
	})
}

// bookQuestions counts the real book's questions, bookParts the parts
// of its SUMMARY.md.
func bookQuestions(t *testing.T) int {
	qs, err := filepath.Glob("../book/questions/*.md")
	if err != nil || len(qs) == 0 {
		t.Fatalf("no questions in ../book: %v", err)
	}
	return len(qs)
}

func bookParts(t *testing.T) int {
	sum, err := os.ReadFile("../book/SUMMARY.md")
	noErr(t, err)
	return strings.Count(string(sum), "\n# ")
}

// fenceLine returns the 1-based line of the page's first fence whose
// info string contains attr.
func fenceLine(t *testing.T, page, attr string) int {
	src, err := os.ReadFile(page)
	noErr(t, err)
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, "```") && strings.Contains(l, attr) {
			return i + 1
		}
	}
	t.Fatalf("%s has no fence with %s", page, attr)
	return 0
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}

// evalAsync evaluates js and waits for the promise it returns.
func evalAsync[T any](tb *tab, js string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// TestReaderBrowser drives the real book's site in Chromium: the front
// page, the provenance links, copy as program, the print edition, the
// phone layout, the figures' warp states, axe.
func TestReaderBrowser(t *testing.T) {
	t.Parallel()
	dir := bookSite(t)
	bctx := browser(t)
	httpBase, fileBase := serve(t, dir)

	t.Run("front-page", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, fileBase)
		tb.open("index.html")
		// Each chapter once, numbered once; no empty items; the
		// parts are titles, not items.
		items := evalJS[[]string](tb, `Array.from(document.querySelectorAll('.front-contents li')).map(li => li.firstElementChild.innerText)`)
		seen := map[string]bool{}
		for _, it := range items {
			if strings.TrimSpace(it) == "" {
				t.Errorf("an empty item in the contents")
			}
			if seen[it] {
				t.Errorf("the contents list %q twice", it)
			}
			seen[it] = true
		}
		if !slices.Contains(items, "5 Occupancy and its limits") || !slices.Contains(items, "How to read this book") {
			t.Errorf("contents %q", items)
		}
		if n := evalJS[int](tb, `document.querySelectorAll('.front-contents h3').length`); n != bookParts(t) {
			t.Errorf("%d part titles, want %d", n, bookParts(t))
		}
		// The list numbers are the book's, not the browser's too.
		if st := evalJS[string](tb, `getComputedStyle(document.querySelector('.front-contents ol')).listStyleType`); st != "none" {
			t.Errorf("the contents list is numbered by the browser too (%s)", st)
		}
		ways := evalJS[string](tb, `document.querySelector('.front-ways').innerText`)
		for _, w := range []string{"Read it", "Run the snippets", "Practise for an interview", fmt.Sprintf("%d questions", bookQuestions(t))} {
			if !strings.Contains(ways, w) {
				t.Errorf("the ways to use the book lack %q: %q", w, ways)
			}
		}
		tb.navigateBy(chromedp.Click(chromedp.CSS(".front-ways .start a")))
		tb.wantLocation("introduction.html")
	})

	t.Run("provenance", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, httpBase)
		tb.open("occupancy.html")
		repo := "https://github.com/warpbook/warpbook/blob/" + bookProvenance.Commit + "/book/occupancy.md"
		if src := evalJS[string](tb, `document.querySelector('aside.provenance a').href`); src != repo {
			t.Errorf("source link %s, want %s", src, repo)
		}
		note := evalJS[string](tb, `document.querySelector('aside.provenance').innerText`)
		for _, w := range []string{"on 30 November 2025", "commit 0123456789ab", "warpbook test book/occupancy.md", "git checkout 0123456789ab"} {
			if !strings.Contains(note, w) {
				t.Errorf("the provenance note lacks %q: %q", w, note)
			}
		}
		// The link names the line of the first snippet's fence.
		fence := fenceLine(t, "../book/occupancy.md", "id=first")
		meta := evalJS[[]string](tb, `(m => [m.querySelector('a').href, m.innerText])(document.querySelector('#cell-first .cell-meta'))`)
		if meta[0] != fmt.Sprintf("%s#L%d", repo, fence) || !strings.Contains(meta[1], "warpbook run book/occupancy.md -run '^first$'") {
			t.Errorf("the first snippet's line and command: %q", meta)
		}
		if n := evalJS[int](tb, `document.body.innerText.split("warpbook devel").length - 1`); n > 1 {
			t.Errorf("the tool is named %d times on the page", n)
		}
	})

	// The programs load on demand.
	bothTransports(t, httpBase, fileBase, "copy-as-program", func(t *testing.T, base string) {
		tb := newTab(t, bctx, base)
		tb.open("occupancy.html")
		// What the button copies, caught where it would reach the clipboard.
		tb.do(chromedp.Evaluate[chromedp.Void](`window.copied = null;
			Object.defineProperty(navigator, "clipboard", {value: {writeText: t => { window.copied = t; return Promise.resolve(); }}});
			document.execCommand = () => false;`))
		tb.do(chromedp.Click(chromedp.CSS("#cell-t4-a100 button.copy-program")))
		tb.do(chromedp.Poll[chromedp.Void](`window.copied !== null`, chromedp.WithPollingTimeout(20*time.Second)))
		copied := evalJS[string](tb, `window.copied`)
		want := evalAsync[string](tb, `warpbook.program("t4-a100")`)
		if copied != want {
			t.Errorf("the button copied %q, want the program", copied)
		}
		for _, w := range []string{"// Cell t4-a100 (book/occupancy.md:", "package main\n", "func main() {", "showOutput()", "// Cell first (", "func hideOutput()"} {
			if !strings.Contains(copied, w) {
				t.Errorf("the program lacks %q:\n%s", w, copied)
			}
		}
		if got := evalJS[string](tb, `document.querySelector('#cell-t4-a100 button.copy-program').textContent`); got != "Copied" {
			t.Errorf("the button says %q after copying", got)
		}
	})

	t.Run("axe", func(t *testing.T) {
		t.Parallel()
		axePages(t, bctx, httpBase, "index.html", "occupancy.html", "stall-reasons.html", "glossary/stall-long-scoreboard.html", "questions/thirty-three-registers.html")
	})

	// The print edition: its contents lead to the chapters, the questions
	// follow with their answers, no empty boxes, and a block wider than the
	// page is set smaller to fit.
	t.Run("print", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, httpBase)
		tb.open("print.html")
		broken := evalJS[[]string](tb, `Array.from(document.querySelectorAll('.print-contents a')).map(a => a.getAttribute('href')).filter(h => !document.getElementById(h.slice(1)))`)
		if len(broken) > 0 {
			t.Errorf("contents links to nothing: %q", broken)
		}
		if n := evalJS[int](tb, `document.querySelectorAll('.print-contents a').length`); n < 13 {
			t.Errorf("%d entries in the printed contents", n)
		}
		nq := bookQuestions(t)
		if n := evalJS[int](tb, `document.querySelectorAll('#p-questions article.print-q').length`); n != nq {
			t.Errorf("%d questions in print, want %d", n, nq)
		}
		if n := evalJS[int](tb, `document.querySelectorAll('#p-questions article.print-q .answer p').length`); n < nq {
			t.Errorf("%d answer paragraphs for %d questions", n, nq)
		}
		if n := evalJS[int](tb, `Array.from(document.querySelectorAll('.output-wrap:not(.empty) pre')).filter(p => p.innerText.trim() === "").length`); n != 0 {
			t.Errorf("%d empty output boxes", n)
		}
		tb.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return err
		}), chromedp.EmulateViewport(690, 1000))
		// 690 CSS pixels: A4 less the print stylesheet's margins.
		wide := evalJS[[]string](tb, `Array.from(document.querySelectorAll('pre[style*="--cols"]')).filter(p => p.scrollWidth > p.clientWidth + 1 && parseFloat(getComputedStyle(p).fontSize) > 7.4).map(p => p.style.cssText + " " + p.scrollWidth + ">" + p.clientWidth)`)
		if len(wide) > 0 {
			t.Errorf("%d wide blocks overflow the printed page above the smallest size: %q", len(wide), wide[:min(5, len(wide))])
		}
		if n := evalJS[int](tb, `document.querySelectorAll('pre[style*="--cols"]').length`); n == 0 {
			t.Error("no block is marked wide: the book has outputs wider than the page")
		}
		if vis := evalJS[int](tb, `Array.from(document.querySelectorAll('.code-tools, .show-hidden-label, .wb-header, .wb-sidebar')).filter(e => e.checkVisibility()).length`); vis != 0 {
			t.Errorf("%d screen controls print", vis)
		}
	})

	// On a 390-pixel phone: no figure text under 11 pixels (figures scroll
	// sideways instead, with a hint), "On this page" folded at the top,
	// the copy buttons shown without hover, nothing wider than the screen.
	t.Run("phone", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, httpBase)
		tb.do(chromedp.EmulateViewport(390, 844), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "hover", Value: "none"}, {Name: "pointer", Value: "coarse"}},
			})
			return err
		}))
		for _, p := range []string{"occupancy.html", "stall-reasons.html", "warp-scheduler.html", "ilp-vs-tlp.html"} {
			tb.open(p)
			small := evalJS[[]string](tb, `Array.from(document.querySelectorAll('figure.figure svg text')).map(e => {
				const m = e.getScreenCTM(); // rotated axis titles too
				const px = parseFloat(getComputedStyle(e).fontSize) * Math.hypot(m.a, m.b);
				return px < 10.99 ? px.toFixed(1) + "px: " + e.textContent : "";
			}).filter(Boolean)`)
			if len(small) > 0 {
				t.Errorf("%s: %d figure texts under 11 px, such as %q", p, len(small), small[0])
			}
			if w := evalJS[string](tb, `document.documentElement.scrollWidth + " " + document.documentElement.clientWidth`); w != "390 390" {
				t.Errorf("%s: page width %s on a 390-pixel screen", p, w)
			}
		}
		tb.open("occupancy.html")
		if !evalJS[bool](tb, `getComputedStyle(document.querySelector('figure.figure'), '::before').content.includes("Scroll sideways")`) {
			t.Error("a figure wider than the screen has no hint that it scrolls")
		}
		toc := `document.querySelector('details.wb-toc-inline')`
		if !evalJS[bool](tb, toc+`.checkVisibility()`) || evalJS[bool](tb, toc+`.open`) {
			t.Fatal(`"On this page" is not shown folded`)
		}
		tb.do(chromedp.Click(chromedp.CSS("details.wb-toc-inline > summary")))
		tb.do(chromedp.Click(chromedp.CSS(`details.wb-toc-inline a[href="#the-cliffs"]`)))
		if loc := tb.location(); !strings.HasSuffix(loc, "#the-cliffs") {
			t.Errorf("the folded contents went to %s", loc)
		}
		if op := evalJS[string](tb, `getComputedStyle(document.querySelector('#cell-first button.copy-program')).opacity`); op != "1" {
			t.Errorf("Copy as program has opacity %s without hover", op)
		}
	})

	// The warp states of the timelines: every two differ by CIEDE2000 10 or
	// more for normal vision and under protanopia, deuteranopia and
	// tritanopia (simulated as Machado, Oliveira and Fernandes 2009, severity
	// 1), the difference that the issue measured at 3.8 for two of them;
	// and a state is written as its code on the runs wide enough to hold
	// it and in the legend, so that colour is never alone.
	t.Run("figure-states", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, httpBase)
		tb.open("stall-reasons.html")
		raw := evalJS[[]string](tb, cvdCheckJS)
		for _, r := range raw {
			t.Error(r)
		}
		legend := evalJS[[]string](tb, `Array.from(document.querySelectorAll('figure svg rect.st')).filter(r => r.getAttribute('width') === '12').map(r => r.nextElementSibling.textContent)`)
		if len(legend) == 0 {
			t.Fatal("no timeline legend on stall-reasons.html")
		}
		for _, l := range legend {
			if code, name, ok := strings.Cut(l, " "); !ok || code == "" || name == "" || strings.ToUpper(code) != code {
				t.Errorf("legend entry %q lacks its code", l)
			}
		}
		unlabelled := evalJS[int](tb, `Array.from(document.querySelectorAll('figure svg rect.st')).filter(r => +r.getAttribute('width') >= 25 && !(r.nextElementSibling && r.nextElementSibling.classList.contains('st-code'))).length`)
		if unlabelled > 0 {
			t.Errorf("%d state runs wide enough for their code lack it", unlabelled)
		}
	})
}

// cvdCheckJS reads the fill of every warp state from the stylesheet and
// returns the pairs that differ by less than CIEDE2000 10 in normal vision
// or any simulated dichromacy.
const cvdCheckJS = `(() => {
  const states = ["selected","not_selected","wait","short_scoreboard","long_scoreboard","barrier","membar","math_pipe_throttle","mio_throttle","lg_throttle","no_instruction","branch_resolving","drain","sleeping","gmma"];
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  document.body.appendChild(svg);
  const fill = {};
  for (const s of states) {
    const r = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    r.setAttribute("class", "st st-" + s);
    svg.appendChild(r);
    const m = getComputedStyle(r).fill.match(/\d+/g);
    fill[s] = m ? m.slice(0, 3).map(Number) : null;
  }
  svg.remove();
  // Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB.
  const M = {
    protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
  };
  const lin = c => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const clamp = x => Math.min(1, Math.max(0, x));
  const sim = (rgb, m) => { const l = rgb.map(lin); return m.map(row => clamp(row[0] * l[0] + row[1] * l[1] + row[2] * l[2])); };
  const lab = l => {
    const X = (0.4124564 * l[0] + 0.3575761 * l[1] + 0.1804375 * l[2]) / 0.95047;
    const Y = 0.2126729 * l[0] + 0.7151522 * l[1] + 0.0721750 * l[2];
    const Z = (0.0193339 * l[0] + 0.1191920 * l[1] + 0.9503041 * l[2]) / 1.08883;
    const f = t => t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116;
    return [116 * f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z))];
  };
  // CIEDE2000 (Sharma, Wu and Dalal 2005).
  const rad = d => d * Math.PI / 180, deg = r => r * 180 / Math.PI;
  const de = (p, q) => {
    const [L1, a1, b1] = p, [L2, a2, b2] = q;
    const Cb = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
    const G = 0.5 * (1 - Math.sqrt(Cb ** 7 / (Cb ** 7 + 25 ** 7)));
    const a1p = (1 + G) * a1, a2p = (1 + G) * a2;
    const C1p = Math.hypot(a1p, b1), C2p = Math.hypot(a2p, b2);
    const h1p = (deg(Math.atan2(b1, a1p)) + 360) % 360, h2p = (deg(Math.atan2(b2, a2p)) + 360) % 360;
    const dLp = L2 - L1, dCp = C2p - C1p;
    let dhp = 0;
    if (C1p * C2p !== 0) { dhp = h2p - h1p; if (dhp > 180) dhp -= 360; else if (dhp < -180) dhp += 360; }
    const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin(rad(dhp / 2));
    const Lbp = (L1 + L2) / 2, Cbp = (C1p + C2p) / 2;
    let hbp = h1p + h2p;
    if (C1p * C2p !== 0) { hbp = (h1p + h2p) / 2; if (Math.abs(h1p - h2p) > 180) hbp += h1p + h2p < 360 ? 180 : -180; }
    const T = 1 - 0.17 * Math.cos(rad(hbp - 30)) + 0.24 * Math.cos(rad(2 * hbp)) + 0.32 * Math.cos(rad(3 * hbp + 6)) - 0.20 * Math.cos(rad(4 * hbp - 63));
    const dth = 30 * Math.exp(-(((hbp - 275) / 25) ** 2));
    const Rc = 2 * Math.sqrt(Cbp ** 7 / (Cbp ** 7 + 25 ** 7));
    const Sl = 1 + 0.015 * (Lbp - 50) ** 2 / Math.sqrt(20 + (Lbp - 50) ** 2), Sc = 1 + 0.045 * Cbp, Sh = 1 + 0.015 * Cbp * T;
    const Rt = -Math.sin(rad(2 * dth)) * Rc;
    return Math.sqrt((dLp / Sl) ** 2 + (dCp / Sc) ** 2 + (dHp / Sh) ** 2 + Rt * (dCp / Sc) * (dHp / Sh));
  };
  const bad = [];
  for (const s of states) if (!fill[s]) bad.push("state " + s + " has no colour");
  const views = {normal: rgb => rgb.map(lin)};
  for (const k in M) views[k] = rgb => sim(rgb, M[k]);
  for (let i = 0; i < states.length; i++) for (let j = i + 1; j < states.length; j++) {
    const a = fill[states[i]], b = fill[states[j]];
    if (!a || !b) continue;
    for (const v in views) {
      const d = de(lab(views[v](a)), lab(views[v](b)));
      if (d < 10) bad.push(states[i] + " and " + states[j] + " differ by CIEDE2000 " + d.toFixed(1) + " (" + v + ")");
    }
  }
  return bad;
})()`
