package site_test

import (
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkBrowserKernel measures the live book in Debian's chromium, from
// file://, on book/occupancy.md (17 snippets, 55 checked values): first
// is the time from the click on the first snippet's Run to its output
// shown, each time in a new browser (nothing cached); cell is the median
// time of one Run of each snippet in turn after that, in one tab (the
// snippets above a cell replayed, not run again). Times are the page's own
// (performance.now() in live.js), reported as ms/op; the iteration's
// wall-clock time, which includes starting the browser, is not.
func BenchmarkBrowserKernel(b *testing.B) {
	dir, err := liveBook("../book")
	if err != nil {
		b.Fatal(err)
	}
	base := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String()
	const page = "occupancy.html"
	first := `document.querySelector(".cell[data-cell] .cell-run-button")`
	took := func(tb *tab, i int) float64 {
		return evalJS[float64](tb, fmt.Sprintf(`window.warpbook.timings[%d].shown - window.warpbook.timings[%d].start`, i, i))
	}
	b.Run("first", func(b *testing.B) {
		var total float64
		for b.Loop() {
			tb := newTab(b, ownBrowser(b), base)
			tb.open(page)
			tb.do(chromedp.Evaluate[chromedp.Void](first + `.click()`))
			tb.do(chromedp.Poll[chromedp.Void](`window.warpbook.timings.length > 0`, chromedp.WithPollingTimeout(5*time.Minute)))
			total += took(tb, 0)
			b.Logf("first Run: %s", evalJS[string](tb, `(() => { const t = window.warpbook.timings[0], k = window.warpbook.kernelTimes; return ["script " + (k.script - t.start), "compiled " + (k.compiled - t.start), "ready " + (k.ready - t.start), "shown " + (t.shown - t.start)].map(s => s.replace(/\.\d+/, "")).join(", ") })()`))
		}
		b.ReportMetric(total/float64(b.N)*1e6, "ns/op")
	})
	// first-hover is first as a reader gets it: the pointer reaches the
	// snippet's tools half a second before the click (which starts the
	// kernel's download and compile, see live.js), and the time is from
	// the click.
	b.Run("first-hover", func(b *testing.B) {
		var total float64
		for b.Loop() {
			tb := newTab(b, ownBrowser(b), base)
			tb.open(page)
			tb.do(chromedp.Evaluate[chromedp.Void](`document.querySelector(".cell[data-cell] .cell-tools").dispatchEvent(new PointerEvent("pointerover", {bubbles: true}))`))
			time.Sleep(500 * time.Millisecond) // the reader's pointing pause, not a wait on the page
			tb.do(chromedp.Evaluate[chromedp.Void](first + `.click()`))
			tb.do(chromedp.Poll[chromedp.Void](`window.warpbook.timings.length > 0`, chromedp.WithPollingTimeout(5*time.Minute)))
			total += took(tb, 0)
			b.Logf("first Run after hovering: %.0f ms", took(tb, 0))
		}
		b.ReportMetric(total/float64(b.N)*1e6, "ns/op")
	})
	b.Run("cell", func(b *testing.B) {
		bctx := browser(b)
		var all []float64
		for b.Loop() {
			tb := newTab(b, bctx, base)
			tb.open(page)
			ids := evalJS[[]string](tb, `Array.from(document.querySelectorAll(".cell[data-cell]")).filter(c => c.dataset.expect !== "skip").map(c => c.dataset.cell)`)
			tb.run(ids[0], nil) // the kernel loads: not counted
			line := ""
			for i, id := range ids {
				tb.run(id, nil)
				all = append(all, took(tb, i+1))
				line += fmt.Sprintf(" %s=%.0f", id, took(tb, i+1))
			}
			b.Logf("cells (ms):%s", line)
		}
		sort.Float64s(all)
		b.ReportMetric(all[len(all)/2]*1e6, "ns/op")
		b.ReportMetric(all[len(all)*9/10], "p90-ms")
	})
}
