package site_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/pdf"
)

// The browser tests drive Debian's chromium over the built test book, from
// a loopback server and from file://. They skip when no chromium is
// installed, unless WARPBOOK_BROWSER=require (set by .ci/run) asks for
// them: then a missing browser is a failure. go test -short skips them.

func chromium(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("the browser tests are skipped with -short")
	}
	if p, err := pdf.Browser(); err == nil {
		return p
	}
	const msg = "no chromium in PATH: install Debian's chromium (apt-get install chromium) to run the browser tests"
	if os.Getenv("WARPBOOK_BROWSER") == "require" {
		t.Fatal(msg + "; WARPBOOK_BROWSER=require asks for them")
	}
	t.Skip(msg)
	return ""
}

// chrome is the one Chromium the package's browser tests share: the
// first test that asks starts it, TestMain stops it. Its tabs share its
// storage, so a flow that writes there (the theme, the practice schedule)
// runs in a Chromium of its own (ownBrowser).
var chrome struct {
	once sync.Once
	ctx  context.Context // the browser's
	err  error
	stop func()
}

// browser returns the shared Chromium's context, starting it if needed.
func browser(t testing.TB) context.Context {
	t.Helper()
	exe := chromium(t)
	chrome.once.Do(func() {
		chrome.ctx, chrome.stop, chrome.err = startBrowser(exe)
	})
	if chrome.err != nil {
		t.Fatalf("start chromium: %v", chrome.err)
	}
	return chrome.ctx
}

// ownBrowser starts a Chromium of t's own, stopped when t ends: for a
// flow that writes to the browser's storage, which tests running beside
// it must not see, and for a measurement that must start with nothing
// cached. (A browser context of the shared Chromium would isolate the
// storage too, but in one, a click on a link between file:// pages at
// times lost the stored theme or never fired the load event.)
func ownBrowser(t testing.TB) context.Context {
	t.Helper()
	ctx, stop, err := startBrowser(chromium(t))
	if err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(stop)
	return ctx
}

// startBrowser starts chromium with a fresh profile and returns its
// context and the function that stops it and removes the profile.
func startBrowser(exe string) (context.Context, func(), error) {
	profile, err := os.MkdirTemp("", "warpbook-chromium-")
	if err != nil {
		return nil, nil, err
	}
	opts := append(pdf.Options(exe, profile), chromedp.WindowSize(1280, 900))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	stop := func() {
		cancelBrowser()
		cancelAlloc()
		os.RemoveAll(profile)
	}
	if err := chromedp.Do(bctx); err != nil {
		stop()
		return nil, nil, err
	}
	return bctx, stop, nil
}

// tab is one browser tab watching what the page does.
type tab struct {
	t    testing.TB
	ctx  context.Context
	base string // site root URL, ending in "/"

	mu       sync.Mutex
	missing  string   // a page that answers 404 on purpose: its console error is expected
	console  []string // errors and exceptions
	requests []string // every URL the page asked for
}

func newTab(t testing.TB, bctx context.Context, base string) *tab {
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	// No time limit of its own, but a browser that hangs should fail the
	// step it hangs in, by name, rather than end in go test's timeout panic:
	// stop shortly before the test binary's own deadline.
	if dt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if d, ok := dt.Deadline(); ok {
			ctx, cancel = context.WithDeadline(ctx, d.Add(-30*time.Second))
			t.Cleanup(cancel)
		}
	}
	tb := &tab{t: t, ctx: ctx, base: base}
	if err := chromedp.Listen(ctx, func(ev any) {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		if ev, ok := ev.(*network.EventRequestWillBeSent); ok {
			tb.requests = append(tb.requests, ev.Request.URL)
		}
	}); err != nil {
		t.Fatal(err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleWarning {
				tb.mu.Lock()
				tb.console = append(tb.console, fmt.Sprintf("%s %s:%d: %s", m.Type, m.URL, m.Line+1, m.Text))
				tb.mu.Unlock()
			}
		}
	}()
	t.Cleanup(tb.checkQuiet)
	return tb
}

// checkQuiet fails on console errors and on requests outside the site.
func (tb *tab) checkQuiet() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, c := range tb.console {
		if tb.missing != "" && strings.Contains(c, tb.missing) && strings.HasSuffix(c, "the server responded with a status of 404 (Not Found)") {
			continue
		}
		tb.t.Errorf("console: %s", c)
	}
	for _, r := range tb.requests {
		if !strings.HasPrefix(r, tb.base) && !tb.ownBlob(r) {
			tb.t.Errorf("request outside the site: %s", r)
		}
	}
	if len(tb.requests) == 0 {
		tb.t.Errorf("no requests seen: the request watch is broken")
	}
}

// ownBlob reports whether r is a blob: URL the page made itself (the live
// book's Web Worker): data of the page, not a request that leaves it.
func (tb *tab) ownBlob(r string) bool {
	rest, ok := strings.CutPrefix(r, "blob:")
	if !ok {
		return false
	}
	origin := "null" // file://
	if u, err := url.Parse(tb.base); err == nil && u.Scheme != "file" {
		origin = u.Scheme + "://" + u.Host
	}
	return strings.HasPrefix(rest, origin+"/")
}

func (tb *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, steps...); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *tab) open(path string) {
	tb.t.Helper()
	tb.do(chromedp.Navigate(tb.base + path))
}

// navigateBy runs an action that loads a new page and waits for it.
func (tb *tab) navigateBy(a chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if _, err := chromedp.Run(tb.ctx, chromedp.WaitEvent(cdppage.LoadEventFired, nil, a)); err != nil {
		tb.t.Fatal(err)
	}
}

func (tb *tab) location() string {
	tb.t.Helper()
	loc, err := chromedp.Run(tb.ctx, chromedp.Location())
	if err != nil {
		tb.t.Fatal(err)
	}
	return strings.TrimPrefix(loc, tb.base)
}

func evalJS[T any](tb *tab, js string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		tb.t.Fatalf("%s: %v", js, err)
	}
	return v
}

func (tb *tab) wantLocation(want string) {
	tb.t.Helper()
	if got := tb.location(); got != want {
		tb.t.Errorf("at %s, want %s", got, want)
	}
}

// writeSite builds a book and writes its site into a directory that
// lasts until the test binary ends.
func writeSite(fsys fs.FS, opts site.Options) (string, error) {
	s, err := site.Build(context.Background(), fsys, opts)
	if err != nil {
		return "", fmt.Errorf("build %s: %w", opts.Dir, err)
	}
	root, err := fixtureDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "site")
	return dir, s.Write(dir)
}

var testBook fixture[string]

// builtBook returns the directory of the test book's site, written once
// for the test binary.
func builtBook(t *testing.T) string {
	t.Helper()
	return testBook.get(t, func() (string, error) {
		return writeSite(os.DirFS("testdata/book"), site.Options{Dir: "testdata/book", Kernel: fakeKernel{}})
	})
}

// bothTransports runs flow as the parallel subtests name/http and
// name/file, on the site as a web server serves it (httpBase) and as the
// files give it (fileBase). A flow runs under
// both only where they differ: where the page loads a script or data on
// demand, or keeps something in the browser's storage. file:// is the
// stricter of the two for links (a link to a folder, or from the root,
// works only over http), so a flow that only follows links runs from the
// files alone.
func bothTransports(t *testing.T, httpBase, fileBase, name string, flow func(t *testing.T, base string)) {
	for _, tr := range []struct{ name, url string }{{"http", httpBase}, {"file", fileBase}} {
		t.Run(path.Join(name, tr.name), func(t *testing.T) {
			t.Parallel()
			flow(t, tr.url)
		})
	}
}

// readAxe reads axe-core, which runAxe runs on a page.
func readAxe(t *testing.T) string {
	t.Helper()
	axe, err := os.ReadFile("testdata/axe/axe.min.js")
	noErr(t, err)
	return string(axe)
}

// flow is a named part of a test that runs in a tab another part may
// have used before it.
type flow struct {
	name string
	f    func(t *testing.T, tb *tab)
}

// inOneTab runs, as subtest name of t in parallel with its others, the
// flows one after another, each a subtest of its own, in one tab of the
// site at base that opens page first (unless page is ""). A flow's
// failures are its own; the tab's (console errors, requests outside the
// site) are name's.
func inOneTab(t *testing.T, bctx context.Context, base, page, name string, flows ...flow) {
	t.Run(name, func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, base)
		if page != "" {
			tb.open(page)
		}
		for _, f := range flows {
			t.Run(f.name, func(t *testing.T) {
				tb.t = t
				f.f(t, tb)
			})
		}
		tb.t = t
	})
}

// axePages runs axe on each page, one after another in one tab (a tab
// costs the browser more than axe does), in both themes.
func axePages(t *testing.T, bctx context.Context, base string, pages ...string) {
	axe := readAxe(t)
	tb := newTab(t, bctx, base)
	for _, p := range pages {
		tb.open(p)
		runAxeThemes(t, tb, axe, p)
	}
}

// runAxeThemes runs axe (runAxe) on the page open in tb in the dark theme
// and then in the light one, which it leaves set.
func runAxeThemes(t testing.TB, tb *tab, axe, what string) {
	t.Helper()
	for _, theme := range []string{"dark", "light"} {
		tb.do(chromedp.Evaluate[chromedp.Void](`document.documentElement.setAttribute("data-theme", "` + theme + `")`))
		runAxe(t, tb, axe, what+" ("+theme+")")
	}
}

func TestBrowser(t *testing.T) {
	t.Parallel()
	bctx := browser(t)
	dir := builtBook(t)
	httpBase, fileBase := serve(t, dir)

	nextPrevious := func(t *testing.T, tb *tab) {
		tb.open("index.html")
		tb.navigateBy(chromedp.Click(chromedp.CSS(".wb-pager a.next")))
		tb.wantLocation("warps.html")
		tb.navigateBy(chromedp.Click(chromedp.CSS(".wb-pager a.next")))
		tb.wantLocation("scheduling.html")
		tb.navigateBy(chromedp.Click(chromedp.CSS(".wb-pager a.prev")))
		tb.wantLocation("warps.html")
		// The keyboard: → and ←.
		tb.navigateBy(chromedp.KeyEvent(kb.ArrowRight))
		tb.wantLocation("scheduling.html")
		tb.navigateBy(chromedp.KeyEvent(kb.ArrowLeft))
		tb.wantLocation("warps.html")
		// The sidebar marks the page.
		if cur := evalJS[string](tb, `document.querySelector('.wb-sidebar [aria-current=page]').textContent`); !strings.Contains(cur, "Warps") {
			t.Errorf("sidebar marks %q, want Warps", cur)
		}
	}

	answer := func(t *testing.T, tb *tab) {
		tb.open("questions/index.html")
		q := `document.querySelector('#q-why-cliffs details.answer')`
		if evalJS[bool](tb, q+`.open`) {
			t.Fatal("the answer is open before it is asked for")
		}
		if evalJS[bool](tb, q+`.querySelector('p').checkVisibility()`) {
			t.Errorf("the closed answer is visible")
		}
		tb.do(chromedp.Click(chromedp.CSS("#q-why-cliffs details.answer > summary")))
		if !evalJS[bool](tb, q+`.open`) {
			t.Fatal("clicking the summary did not open the answer")
		}
		if txt := evalJS[string](tb, q+`.innerText`); !strings.Contains(txt, "Registers are allocated per warp") {
			t.Errorf("open answer shows %q", txt)
		}
	}

	tagFilter := func(t *testing.T, tb *tab) {
		tb.open("questions/index.html")
		visible := `Array.from(document.querySelectorAll('article.qa')).filter(a => a.checkVisibility()).map(a => a.id).join(" ")`
		all := evalJS[string](tb, visible)
		if all != "q-what-is-warp q-why-cliffs" {
			t.Fatalf("index shows %q", all)
		}
		// A tag of the bar filters in place: no new page.
		tb.do(chromedp.Click(chromedp.CSS(`nav.tags a[data-tag="registers"]`)))
		if loc := tb.location(); !strings.HasSuffix(loc, "#tag=registers") || !strings.HasPrefix(loc, "questions/") || strings.Contains(loc, "tags/") {
			t.Errorf("at %s, want the index with #tag=registers", loc)
		}
		if got := evalJS[string](tb, visible); got != "q-why-cliffs" {
			t.Errorf("registers shows %q, want q-why-cliffs", got)
		}
		if got := evalJS[string](tb, `document.querySelector('.filter-status').textContent`); got != "1 question tagged registers." {
			t.Errorf("status %q", got)
		}
		if got := evalJS[string](tb, `Array.from(document.querySelectorAll('nav.tags [aria-current]')).map(a => a.dataset.tag).join(" ")`); got != "registers" {
			t.Errorf("current tags %q, want registers", got)
		}
		// So does a question's own tag.
		tb.do(chromedp.Click(chromedp.CSS(`nav.tags a[data-tag=""]`)))
		if got := evalJS[string](tb, visible); got != all {
			t.Errorf("all shows %q", got)
		}
		tb.do(chromedp.Click(chromedp.CSS(`#q-what-is-warp .qa-meta a[data-tag="warps"]`)))
		if got := evalJS[string](tb, visible); got != "q-what-is-warp" {
			t.Errorf("warps shows %q", got)
		}
		// Back goes to the previous filter; a reload keeps it.
		tb.do(chromedp.Evaluate[chromedp.Void](`new Promise(r => { addEventListener("hashchange", () => r(), {once: true}); history.back(); })`, chromedp.EvalAwaitPromise))
		if got := evalJS[string](tb, visible); got != all {
			t.Errorf("after back: %q, want all", got)
		}
		tb.open("questions/index.html#tag=occupancy")
		tb.do(chromedp.Reload())
		if got := evalJS[string](tb, visible); got != "q-why-cliffs" {
			t.Errorf("reloaded with #tag=occupancy: %q", got)
		}
		// The tag pages are plain links.
		tb.open("questions/tags/warps.html")
		tb.navigateBy(chromedp.Click(chromedp.CSS(`nav.tags a[data-tag="registers"]`)))
		tb.wantLocation("questions/tags/registers.html")
	}

	// The theme is kept in the browser's storage, which differs by
	// transport (file:// pages share one origin). The two flows share a
	// Chromium of their own: their origins' storage is apart.
	themes := ownBrowser(t)
	bothTransports(t, httpBase, fileBase, "theme", func(t *testing.T, base string) {
		tb := newTab(t, themes, base)
		tb.open("warps.html")
		bg := `getComputedStyle(document.body).backgroundColor`
		light := evalJS[string](tb, bg)
		if light != "rgb(255, 255, 255)" {
			t.Errorf("light background %s", light)
		}
		tb.do(chromedp.Click(chromedp.ID("wb-theme")))
		if dark := evalJS[string](tb, bg); dark == light {
			t.Errorf("the toggle left the background %s", dark)
		}
		if th := evalJS[string](tb, `document.documentElement.dataset.theme`); th != "dark" {
			t.Errorf("data-theme %q after the toggle, want dark", th)
		}
		// Remembered on the next page, set before the first paint.
		tb.navigateBy(chromedp.Click(chromedp.CSS(".wb-pager a.next")))
		if th := evalJS[string](tb, `document.documentElement.dataset.theme`); th != "dark" {
			t.Errorf("data-theme %q on the next page, want dark", th)
		}
		// The system preference is the default.
		tb.do(chromedp.Evaluate[chromedp.Void](`localStorage.removeItem("warpbook-theme")`),
			chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
				})
				return err
			}),
			chromedp.Reload())
		if got := evalJS[string](tb, bg); got == light {
			t.Errorf("prefers-color-scheme: dark gives the light background %s", got)
		}
		// A theme chosen with the button wins over the system's.
		tb.do(chromedp.Evaluate[chromedp.Void](`document.documentElement.setAttribute("data-theme", "light")`))
		if got := evalJS[string](tb, bg); got != light {
			t.Errorf("the light theme under prefers-color-scheme: dark gives the background %s", got)
		}
	})

	// Search loads its script and index on demand.
	bothTransports(t, httpBase, fileBase, "search", func(t *testing.T, base string) {
		tb := newTab(t, bctx, base)
		tb.open("warps.html")
		tb.do(chromedp.KeyEvent("/"))
		if id := evalJS[string](tb, `document.activeElement.id`); id != "wb-q" {
			t.Fatalf("/ focused %q, want the search box", id)
		}
		tb.do(chromedp.KeyEvent("cliffs"),
			chromedp.WaitVisible(chromedp.CSS("#wb-results li[role=option] a")))
		first := evalJS[string](tb, `document.querySelector('#wb-results li a').innerText`)
		if !strings.Contains(first, "The cliffs") || !strings.Contains(first, "Occupancy") {
			t.Errorf("first result %q, want the section and its chapter", first)
		}
		tb.navigateBy(chromedp.KeyEvent(kb.Enter))
		tb.wantLocation("occupancy.html#the-cliffs")
		// A glossary term is found too.
		tb.do(chromedp.Click(chromedp.ID("wb-q")), chromedp.KeyEvent("scheduler"),
			chromedp.WaitVisible(chromedp.CSS("#wb-results li[role=option] a")))
		if all := evalJS[string](tb, `document.querySelector('#wb-results').innerText`); !strings.Contains(all, "Glossary") {
			t.Errorf("results for scheduler %q lack the glossary entry", all)
		}
	})

	hiddenLines := func(t *testing.T, tb *tab) {
		tb.open("cells.html")
		vis := `getComputedStyle(document.querySelector('#cell-hello .hl')).display`
		if d := evalJS[string](tb, vis); d != "none" {
			t.Errorf("hidden lines display %q before the toggle", d)
		}
		tb.do(chromedp.Click(chromedp.CSS("#cell-hello .show-hidden-label")))
		if d := evalJS[string](tb, vis); d == "none" {
			t.Error("hidden lines still hidden after the toggle")
		}
		if n := evalJS[int](tb, `document.querySelectorAll('pre.code button.copy').length`); n == 0 {
			t.Error("no copy buttons")
		}
	}

	cudaEdit := func(t *testing.T, tb *tab) {
		tb.open("cells.html")
		note := "#cuda-saxpy .cuda-edit p"
		if evalJS[bool](tb, `document.querySelector('#cuda-saxpy .cuda-edit').open`) {
			t.Error("the CUDA note shows before Edit")
		}
		tb.do(chromedp.Click(chromedp.CSS("#cuda-saxpy .cuda-edit summary")), chromedp.WaitVisible(chromedp.CSS(note)))
		text := evalJS[string](tb, `document.querySelector('`+note+`').textContent`)
		for _, want := range []string{"needs NVIDIA's toolkit on your machine", "tools/cuda/fetch", "warpbook test -run '^saxpy$' cells.md"} {
			if !strings.Contains(text, want) {
				t.Errorf("the note %q does not say %q", text, want)
			}
		}
		runAxe(t, tb, readAxe(t), "cells.html with the CUDA note open")
	}

	stepper := func(t *testing.T, tb *tab) {
		tb.open("scheduling.html")
		unlit := `document.querySelectorAll('svg[data-stepper] .fig-slot.unlit').length`
		if n := evalJS[int](tb, unlit); n != 0 {
			t.Errorf("%d slots unlit before stepping", n)
		}
		tb.do(chromedp.Click(chromedp.CSS(".stepper-controls button:nth-of-type(3)")))
		if n := evalJS[int](tb, unlit); n != 8 {
			t.Errorf("%d slots unlit after Start over, want 8", n)
		}
		tb.do(chromedp.Click(chromedp.CSS(".stepper-controls button:nth-of-type(2)")))
		// The first warp to issue is warp 4 (measured at cycle 0).
		lit := evalJS[string](tb, `Array.from(document.querySelectorAll('svg[data-stepper] .fig-slot:not(.unlit) text')).map(e => e.textContent).join(" ")`)
		if !strings.HasPrefix(lit, "w4 #1") {
			t.Errorf("after one step the lit slot reads %q, want warp 4 first", lit)
		}
	}

	help := func(t *testing.T, tb *tab) {
		tb.open("index.html")
		tb.do(chromedp.KeyEvent("?"))
		if !evalJS[bool](tb, `document.getElementById('wb-help').open`) {
			t.Error("? did not open the help")
		}
	}

	// The flows above follow links or open a page and use it: each in its
	// transport's one tab, one after another (a tab costs the browser more
	// than most of them).
	inOneTab(t, bctx, fileBase, "", "links", flow{"next-previous", nextPrevious}, flow{"tag-filter", tagFilter})
	inOneTab(t, bctx, httpBase, "", "pages", flow{"answer", answer}, flow{"hidden-lines-and-copy", hiddenLines},
		flow{"cuda-edit", cudaEdit}, flow{"stepper", stepper}, flow{"help", help})

	// Every kind of page of the test book, in both themes, and each of its
	// chapters, which hold parts no other page has (warps.html footnotes,
	// task lists and a note; occupancy.html a figure's marks and its
	// questions; scheduling.html the stepper; cells.html the snippets).
	t.Run("axe", func(t *testing.T) {
		t.Parallel()
		axePages(t, bctx, httpBase, "index.html", "warps.html", "scheduling.html", "occupancy.html", "cells.html", "glossary/index.html",
			"glossary/warp.html", "questions/index.html", "questions/why-cliffs.html", "questions/tags/occupancy.html", "print.html", "404.html")
	})

	// On a phone-sized screen no page is wider than the screen: long code
	// names and URLs wrap, tables and code scroll in their own boxes, and
	// the search results stay on the screen.
	t.Run("narrow", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, httpBase)
		tb.do(chromedp.EmulateViewport(360, 740))
		for _, p := range []string{"index.html", "warps.html", "scheduling.html", "occupancy.html", "cells.html", "questions/index.html", "glossary/warp.html", "print.html", "404.html"} {
			tb.open(p)
			if w := evalJS[string](tb, `document.documentElement.scrollWidth + " " + document.documentElement.clientWidth`); w != "360 360" {
				t.Errorf("%s: page width %s at a 360-pixel screen", p, w)
			}
		}
		tb.open("warps.html")
		tb.do(chromedp.KeyEvent("/"), chromedp.KeyEvent("warp"),
			chromedp.WaitVisible(chromedp.CSS("#wb-results li[role=option] a")))
		if box := evalJS[string](tb, `(r => Math.round(r.left) + " " + Math.round(r.right))(document.getElementById('wb-results').getBoundingClientRect())`); box != "8 352" {
			t.Errorf("search results span %s, want 8 352 on a 360-pixel screen", box)
		}
		if w := evalJS[int](tb, `document.documentElement.scrollWidth`); w != 360 {
			t.Errorf("page width %d with the search results open", w)
		}
	})

	// Printed in the dark theme, the page is still dark text on white
	// paper. (The theme is set as the toggle sets it, without the toggle's
	// write to the shared browser's storage.)
	t.Run("print-colours", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, httpBase)
		tb.open("warps.html")
		tb.do(chromedp.Evaluate[chromedp.Void](`document.documentElement.setAttribute("data-theme", "dark")`))
		colours := `getComputedStyle(document.body).color + " on " + getComputedStyle(document.body).backgroundColor`
		screen := evalJS[string](tb, colours)
		tb.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
			return err
		}))
		if got := evalJS[string](tb, colours); got != "rgb(31, 35, 40) on rgb(255, 255, 255)" || got == screen {
			t.Errorf("printed in the dark theme: %s (on screen %s)", got, screen)
		}
	})

	// A web server answers a missing page at any depth with 404.html;
	// rooted at the book's site_url, its links, styles, scripts and search
	// still work there.
	t.Run("404-at-depth", func(t *testing.T) {
		t.Parallel()
		files := fstest.MapFS{}
		if err := fs.WalkDir(os.DirFS("testdata/book"), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(filepath.Join("testdata/book", p))
			files[p] = &fstest.MapFile{Data: data}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		files["book.yaml"] = &fstest.MapFile{Data: append(files["book.yaml"].Data, "\nsite_url: https://example.org/book/\n"...)}
		s := build(t, files, site.Options{Dir: "testdata/book", Kernel: fakeKernel{}})
		dir := filepath.Join(t.TempDir(), "site")
		noErr(t, s.Write(dir))
		files404 := http.FileServer(http.Dir(dir))
		mux := http.NewServeMux()
		mux.Handle("/book/", http.StripPrefix("/book", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(r.URL.Path))); err != nil {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.WriteHeader(http.StatusNotFound)
				w.Write(s.Files["404.html"])
				return
			}
			files404.ServeHTTP(w, r)
		})))
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		tb := newTab(t, bctx, srv.URL+"/book/")
		tb.missing = "/missing.html:1: Failed to load resource"

		tb.open("questions/tags/gone/missing.html")
		if h := evalJS[string](tb, `document.querySelector('h1').textContent + " / " + getComputedStyle(document.querySelector('.wb-header')).position`); h != "Page not found / sticky" {
			t.Errorf("the 404 page two folders down reads %q: not styled?", h)
		}
		tb.navigateBy(chromedp.Click(chromedp.CSS(`.wb-sidebar a[href$="/warps.html"]`)))
		tb.wantLocation("warps.html")

		tb.open("a/b/c/missing.html")
		tb.navigateBy(chromedp.Click(chromedp.CSS(`main a[href$="/index.html"]`)))
		if loc := tb.location(); loc != "" && loc != "index.html" {
			t.Errorf("contents link from the 404 page went to %s", loc)
		}

		tb.open("x/missing.html")
		tb.do(chromedp.KeyEvent("/"), chromedp.KeyEvent("cliffs"),
			chromedp.WaitVisible(chromedp.CSS("#wb-results li[role=option] a")))
		tb.navigateBy(chromedp.KeyEvent(kb.Enter))
		tb.wantLocation("occupancy.html#the-cliffs")
	})

	// Without JavaScript every core feature still works: reading, the
	// sidebar, next and previous, answers, hidden lines, figures.
	t.Run("no-javascript", func(t *testing.T) {
		t.Parallel()
		tb := newTab(t, bctx, httpBase)
		tb.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}))
		tb.open("index.html")
		tb.navigateBy(chromedp.Click(chromedp.CSS(".wb-pager a.next")))
		tb.wantLocation("warps.html")
		tb.navigateBy(chromedp.Click(chromedp.CSS(`.wb-sidebar a[href="cells.html"]`)))
		tb.wantLocation("cells.html")
		tb.do(chromedp.Click(chromedp.CSS("#cell-hello .show-hidden-label")),
			chromedp.WaitVisible(chromedp.CSS("#cell-hello .hl")))
		tb.navigateBy(chromedp.Click(chromedp.CSS(`.wb-sidebar a[href="occupancy.html"]`)))
		tb.do(chromedp.WaitVisible(chromedp.CSS("figure.figure svg")))
		tb.open("questions/index.html")
		tb.do(chromedp.Click(chromedp.CSS("#q-why-cliffs details.answer > summary")),
			chromedp.WaitVisible(chromedp.CSS("#q-why-cliffs details.answer p")))
		// The tag filter is the tag pages.
		tb.navigateBy(chromedp.Click(chromedp.CSS(`nav.tags a[data-tag="registers"]`)))
		tb.wantLocation("questions/tags/registers.html")
		tb.do(chromedp.WaitVisible(chromedp.CSS("#q-why-cliffs")))
		// The script-only controls stay out of the way.
		tb.do(chromedp.WaitNotVisible(chromedp.ID("wb-theme")), chromedp.WaitNotVisible(chromedp.ID("wb-q")))
	})
}

// runAxe runs axe-core (its source, axe) on the page open in tb and
// reports each violation as an error of t, naming the page by what.
func runAxe(t testing.TB, tb *tab, axe, what string) {
	t.Helper()
	loadAxe(t, tb, axe)
	raw, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]byte](
		`axe.run(document, {resultTypes: ["violations"], preload: false}).then(r => r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(" ") + " " + (n.failureSummary||"")).slice(0, 5)})))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe on %s: %v", what, err)
	}
	var violations []struct {
		ID, Help string
		Nodes    []string
	}
	if err := json.Unmarshal(raw, &violations); err != nil {
		t.Fatalf("axe result %s: %v", raw, err)
	}
	for _, v := range violations {
		t.Errorf("axe, %s: %s: %s\n\t%s", what, v.ID, v.Help, strings.Join(v.Nodes, "\n\t"))
	}
}

// loadAxe evaluates axe's source in the page open in tb unless the page
// has it already, from an earlier run in the same page (the browser
// compiles its half a megabyte of script anew at each evaluation).
func loadAxe(t testing.TB, tb *tab, axe string) {
	t.Helper()
	if !evalJS[bool](tb, `typeof window.axe === "object" && typeof window.axe.run === "function"`) {
		tb.do(chromedp.Evaluate[chromedp.Void](axe))
	}
}
