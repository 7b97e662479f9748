package site_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/warpbook/warpbook/site"
)

// bookSite builds the real book (../book) without a kernel, as the
// reader's browser tests need it: the cells show the outputs their pages
// state, which is what a verified build shows once the book passes.
func bookSite(t *testing.T) (dir string, s *site.Site) {
	t.Helper()
	s = build(t, os.DirFS("../book"), site.Options{Dir: "../book"})
	dir = filepath.Join(t.TempDir(), "site")
	if err := s.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir, s
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
// search box, and logs how long the first and later queries take (README
// gives the figures; no test asserts a time).
func TestSearchQuality(t *testing.T) {
	bctx := browser(t)
	dir, _ := bookSite(t)
	httpBase, fileBase := serve(t, dir)
	for _, base := range []struct{ name, url string }{{"http", httpBase}, {"file", fileBase}} {
		t.Run(base.name, func(t *testing.T) {
			tb := newTab(t, bctx, base.url)
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
			t.Logf("search, %s: index loaded in %.0f ms and built in %.0f ms; first query %.0f ms in all; later queries median %.1f ms, slowest %.1f ms",
				base.name, timing["load"], timing["index"], first, later[len(later)/2], later[len(later)-1])

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
