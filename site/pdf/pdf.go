// Package pdf prints a built site's print edition, print.html, to PDF
// with Chromium's print-to-PDF, driven through the DevTools protocol by
// chromedp: A4 as the print stylesheet asks, backgrounds, a document
// outline from the headings, tagged for screen readers, and a page number
// in the footer. The contents show the page each entry starts on, found
// by printing twice (see contents.go). The same site gives the same
// bytes: the document's dates are the date it is given, not the clock's.
package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// ErrNoChromium says that no Chromium (or Chrome) is installed.
var ErrNoChromium = errors.New("no Chromium in PATH (install Debian's chromium to print the book to PDF)")

// Browser returns the path of the installed Chromium, or ErrNoChromium.
func Browser() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", ErrNoChromium
}

// Print prints dir/print.html, a site written by warpbook, and returns the
// PDF. date stands for the document's creation and modification dates
// (the Unix epoch when zero), so that one site gives one PDF. It prints
// the book first as it is, for the pages its contents lead to, then from a
// copy beside print.html whose contents show those pages, until the pages
// hold still (at most maxPrints prints in all).
func Print(ctx context.Context, dir string, date time.Time) ([]byte, error) {
	exe, err := Browser()
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(filepath.Join(dir, "print.html"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("print to PDF: %w", err)
	}
	profile, err := os.MkdirTemp("", "warpbook-pdf-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	opts := append(Options(exe, profile),
		// The dates Chromium writes are local time; in UTC they have one
		// length, so that they can be replaced in place.
		chromedp.Env("TZ=UTC"),
	)
	actx, cancel := chromedp.NewExecAllocator(ctx, opts...)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil, fmt.Errorf("print to PDF: %w", err)
	}
	ed, err := parseEdition(src)
	if err != nil {
		return nil, fmt.Errorf("print %s to PDF: %w", abs, err)
	}
	data, err := printFile(bctx, abs)
	if err != nil || len(ed.entries) == 0 {
		return finish(data, date, err)
	}
	// The contents' page numbers: see contents.go.
	pages, err := ed.pages(data)
	if err != nil {
		return nil, fmt.Errorf("print %s to PDF: page numbers for the contents: %w", abs, err)
	}
	for n := 2; ; n++ {
		data, err = printNumbered(bctx, dir, ed.numbered(pages))
		if err != nil {
			return nil, fmt.Errorf("print %s to PDF with its contents' page numbers: %w", abs, err)
		}
		got, err := ed.pages(data)
		if err != nil {
			return nil, fmt.Errorf("print %s to PDF with its contents' page numbers: %w", abs, err)
		}
		if slices.Equal(got, pages) {
			break
		}
		if n == maxPrints {
			i := 0
			for got[i] == pages[i] {
				i++
			}
			return nil, fmt.Errorf("print %s to PDF: the contents' page numbers move the pages: after %d prints, #%s starts on page %d, not %d", abs, n, ed.entries[i].id, got[i], pages[i])
		}
		pages = got
	}
	return finish(data, date, nil)
}

// maxPrints bounds how many times Print prints the book: once without the
// contents' page numbers, then until their pages hold still.
const maxPrints = 4

// finish gives a printed PDF its date and renumbered node ids (or returns
// err).
func finish(data []byte, date time.Time, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	return renumberNodes(setDates(data, date)), nil
}

// printNumbered prints html, print.html with its contents numbered, from
// a temporary file beside print.html in dir, so that its relative links to
// the site's assets still hold.
func printNumbered(bctx context.Context, dir string, html []byte) ([]byte, error) {
	f, err := os.CreateTemp(dir, ".print-*.html")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(html); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(f.Name())
	if err != nil {
		return nil, err
	}
	return printFile(bctx, abs)
}

// printFile prints the page at the absolute path abs in the browser bctx.
func printFile(bctx context.Context, abs string) ([]byte, error) {
	u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
	yes := true
	var data []byte
	err := chromedp.Do(bctx,
		// The print edition needs no script, and without them the page,
		// and so the PDF's structure, is the same every time.
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}),
		chromedp.Navigate(u),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			res, err := cdp.Call(ctx, t, page.PrintToPDF, page.PrintToPDFParams{
				PrintBackground:         &yes,
				PreferCSSPageSize:       &yes,
				GenerateDocumentOutline: &yes,
				GenerateTaggedPDF:       &yes,
				DisplayHeaderFooter:     &yes,
				HeaderTemplate:          "<span></span>",
				FooterTemplate:          `<div style="width:100%;text-align:center;font-size:8pt;color:#57606a"><span class="pageNumber"></span> / <span class="totalPages"></span></div>`,
			})
			if err == nil {
				data = res.Data
			}
			return err
		}))
	if err != nil {
		return nil, fmt.Errorf("print %s: %w", abs, err)
	}
	if !bytes.HasPrefix(data, []byte("%PDF-")) {
		return nil, fmt.Errorf("print %s: Chromium returned no PDF", abs)
	}
	return data, nil
}

// nodeID matches the ids a tagged PDF gives table cells, from the page's
// DOM node ids: (node00000136).
var nodeID = regexp.MustCompile(`\(node([0-9]{8})\)`)

// renumberNodes numbers the tagged PDF's node ids from 1 in the order of
// the DOM ids they came from, in place (same width): the DOM ids depend on
// what the browser made before the page, and their order is what the
// PDF's name tree is sorted by.
func renumberNodes(data []byte) []byte {
	var ids []string
	seen := map[string]bool{}
	for _, m := range nodeID.FindAllSubmatch(data, -1) {
		if id := string(m[1]); !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	to := make(map[string]string, len(ids))
	for i, id := range ids {
		to[id] = fmt.Sprintf("%08d", i+1)
	}
	return nodeID.ReplaceAllFunc(data, func(m []byte) []byte {
		return []byte("(node" + to[string(m[5:13])] + ")")
	})
}

// pdfDate matches the dates of a PDF's information dictionary as Skia
// writes them in UTC: (D:YYYYMMDDHHmmSS+00'00').
var pdfDate = regexp.MustCompile(`/(CreationDate|ModDate) \(D:[0-9]{14}\+00'00'\)`)

// setDates replaces the document's dates with date, in place: the
// replacement has the same length, so every offset in the file holds.
func setDates(data []byte, date time.Time) []byte {
	if date.IsZero() {
		date = time.Unix(0, 0)
	}
	d := date.UTC().Format("20060102150405")
	return pdfDate.ReplaceAllFunc(data, func(m []byte) []byte {
		key := m[1:bytes.IndexByte(m, ' ')]
		return []byte(fmt.Sprintf("/%s (D:%s+00'00')", key, d))
	})
}

// Options are how warpbook starts Chromium (the executable exe, with the
// profile directory profile): headless, without a sandbox, GPU or first-run
// page, and with nothing of its own that goes to the network. The browser
// tests start it the same way.
func Options(exe, profile string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
	)
}
