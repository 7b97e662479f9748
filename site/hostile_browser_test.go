package site_test

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/warpbook/warpbook/site"
)

// TestBrowserHostile: hostile input, in Chromium. A page named to be read
// as a script address (javascript:alert(1).md) is linked from the
// sidebar, the title page, SUMMARY's next link, a prose link and the
// search results: a click on each opens the page, and no script runs. A
// practice schedule imported with values out of FSRS's ranges, unknown
// cards or prototype keys is refused whole, and the page goes on working.
func TestBrowserHostile(t *testing.T) {
	t.Parallel()
	bctx := browser(t)

	t.Run("names", func(t *testing.T) {
		var args []string
		for name, data := range hostileNames() {
			args = append(args, name, data)
		}
		s := build(t, book(args...), site.Options{})
		dir := filepath.Join(t.TempDir(), "site")
		noErr(t, s.Write(dir))
		tb := newTab(t, bctx, (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String())
		// A script that runs opens a dialog (alert): none may.
		var mu sync.Mutex
		var dialogs []string
		chromedp.Listen(tb.ctx, func(ev any) {
			if ev, ok := ev.(*cdppage.EventJavascriptDialogOpening); ok {
				mu.Lock()
				dialogs = append(dialogs, ev.Message)
				mu.Unlock()
				go chromedp.Do(tb.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
					_, err := cdp.Call(ctx, t, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: true})
					return err
				}))
			}
		})
		const target = "javascript:alert(1).html"
		for _, c := range []struct{ what, page, link string }{
			{"the sidebar", "index.html", `.wb-sidebar a[href="./javascript:alert(1).html"]`},
			{"a prose link", "index.html", `.content a[href="./javascript:alert(1).html#top"]`},
			{"SUMMARY's next link", "index.html", `.wb-pager a.next`},
			{"the 404 page", "404.html", `.wb-sidebar a[href="./javascript:alert(1).html"]`},
		} {
			tb.open(c.page)
			// The address as the browser reads it: a file of the site, not
			// a script (a click on which would load no page).
			if href := evalJS[string](tb, `document.querySelector(`+jsString(c.link)+`).href`); !strings.HasPrefix(href, "file:") {
				t.Errorf("%s: the link's address is %s", c.what, href)
				continue
			}
			tb.navigateBy(chromedp.Click(chromedp.CSS(c.link)))
			if loc := tb.location(); !strings.HasPrefix(loc, target) && !strings.HasPrefix(loc, url.PathEscape(target)) {
				t.Errorf("%s: a click opened %s, want the page %s", c.what, loc, target)
			}
			if h1 := evalJS[string](tb, `document.querySelector("h1").textContent`); h1 != "Next" {
				t.Errorf("%s: the page opened is %q", c.what, h1)
			}
		}
		// The search box's result for the page.
		tb.open("index.html")
		tb.do(chromedp.SendKeys(chromedp.ID("wb-q"), "Next"))
		poll(tb, `document.querySelectorAll("#wb-results a").length > 0`)
		if href := evalJS[string](tb, `document.querySelector('#wb-results a[href$="javascript:alert(1).html"]').href`); !strings.HasPrefix(href, "file:") {
			t.Fatalf("the search result's address is %s", href)
		}
		tb.navigateBy(chromedp.Click(chromedp.CSS(`#wb-results a[href$="javascript:alert(1).html"]`)))
		if h1 := evalJS[string](tb, `document.querySelector("h1").textContent`); h1 != "Next" {
			t.Errorf("the search result opened %q", h1)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(dialogs) > 0 {
			t.Errorf("a script ran: dialogs %q", dialogs)
		}
	})

	t.Run("practice-import", func(t *testing.T) {
		dir := builtBook(t)
		tb := newTab(t, bctx, (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String())
		tb.open("practice.html")
		const api = "window.warpbook.practice"
		id := evalJS[string](tb, api+`.cards().find(c => c.kind === "question").id`)
		// review reviews the card: shows it (its HTML loads), reveals the
		// answer and grades it good; it returns the card's reviews.
		review := func() float64 {
			t.Helper()
			return evalAsync[float64](tb, `(async () => { const p = `+api+`; p.filter({kind: "", chapter: "", tag: "", difficulty: "", due: false}); p.go(`+jsString(id)+`); await p.ready(); p.reveal(); p.grade(3); return p.state(`+jsString(id)+`).reps; })()`)
		}
		// One review, then the schedule as the page exports it.
		review()
		good := evalJS[string](tb, api+`.exportJSON()`)
		before := evalJS[string](tb, `JSON.stringify(`+api+`.state(`+jsString(id)+`))`)
		card := func(fields string) string {
			return `{"due":"2030-01-01T00:00:00.000Z","stability":3,"difficulty":5,"elapsed_days":0,"scheduled_days":3,"learning_steps":0,"reps":1,"lapses":0,"state":2` + fields + `}`
		}
		file := func(cards string) string {
			return `{"format":"warpbook-practice","version":1,"reviews":1,"cards":{` + cards + `}}`
		}
		q := jsString(id)
		for what, text := range map[string]string{
			"a state of 99":               file(q + `:` + card(`,"state":99`)),
			"a stability of 1e308":        file(q + `:` + card(`,"stability":1e308`)),
			"a negative difficulty":       file(q + `:` + card(`,"difficulty":-1`)),
			"a due date that is none":     file(q + `:` + card(`,"due":"soon"`)),
			"a fractional count":          file(q + `:` + card(`,"reps":1.5`)),
			"a card as __proto__":         file(`"__proto__":` + card(``)),
			"a card as constructor":       file(`"constructor":` + card(``)),
			"a field __proto__":           file(q + `:` + card(`,"__proto__":{"polluted":true}`)),
			"a field of no schedule":      file(q + `:` + card(`,"evil":1`)),
			"a card the book lacks":       file(`"q:nope":` + card(``)),
			"a good card, then a bad one": file(q + `:` + card(``) + `,"q:nope":` + card(`,"state":99`)),
			"reviews that are no count":   `{"format":"warpbook-practice","version":1,"reviews":-1,"cards":{}}`,
		} {
			got := evalJS[string](tb, `(() => { try { `+api+`.importJSON(`+jsString(text)+`); return "imported"; } catch (e) { return "refused: " + e.message; } })()`)
			if !strings.HasPrefix(got, "refused: ") {
				t.Errorf("%s: %s", what, got)
			}
			if now := evalJS[string](tb, `JSON.stringify(`+api+`.state(`+q+`))`); now != before {
				t.Errorf("%s: the schedule changed to %s", what, now)
			}
		}
		if evalJS[bool](tb, `({}).polluted !== undefined || Object.prototype.polluted !== undefined`) {
			t.Error("an import reached Object.prototype")
		}
		// The page still reviews, and a good schedule imports.
		if n := review(); n < 2 {
			t.Errorf("after the refused imports, a review leaves %v reviews", n)
		}
		if n := evalJS[string](tb, `(() => { try { return String(`+api+`.importJSON(`+jsString(good)+`)); } catch (e) { return e.message; } })()`); n != "1" {
			t.Errorf("the page's own export: %s", n)
		}
		// A schedule this browser kept from before (when a bad import was
		// saved) drops its bad card and keeps the good one.
		tb.do(chromedp.Evaluate[chromedp.Void](`(() => {
			const k = Object.keys(localStorage).find(k => k.startsWith("warpbook-practice/"));
			const s = JSON.parse(localStorage.getItem(k));
			s.cards["q:gone"] = s.cards[` + q + `];
			s.cards[` + q + `] = Object.assign({}, s.cards[` + q + `], {state: 99});
			localStorage.setItem(k, JSON.stringify(s));
		})()`))
		tb.do(chromedp.Reload())
		if got := evalJS[string](tb, `JSON.stringify(`+api+`.state(`+q+`))`); got != "null" {
			t.Errorf("the kept card with a state of 99 reads as %s", got)
		}
		if got := review(); got < 1 {
			t.Errorf("no review after the reload: %v reviews", got)
		}
	})
}
