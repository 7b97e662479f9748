package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/pdf"
)

// TestMain removes the printed site after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if printed.root != "" {
		os.RemoveAll(printed.root)
	}
	os.Exit(code)
}

// The print edition of the site's test book, printed twice: a PDF with an
// outline of the book's headings, numbered pages, the date it was given,
// and the same bytes both times.
func TestPrint(t *testing.T) {
	a := printBook(t)
	b, err := pdf.Print(context.Background(), printed.dir, printDate)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two prints of the site differ")
	}
	if !bytes.HasPrefix(a, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", a[:min(20, len(a))])
	}
	for _, want := range []string{"/Type /Outlines", "/CreationDate (D:20251130120000+00'00')", "/ModDate (D:20251130120000+00'00')", "/StructTreeRoot", "/Title (Warps)", "/Title (Interview questions)", "/Title (Glossary)"} {
		if !bytes.Contains(a, []byte(want)) {
			t.Errorf("the PDF lacks %s", want)
		}
	}
	if n := len(regexp.MustCompile(`/Type /Page[^s]`).FindAll(a, -1)); n < 4 {
		t.Errorf("%d pages: the chapters start on pages of their own", n)
	}
}

// printDate is the date the tests print with.
var printDate = time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)

// printed is the site's test book printed once for the test binary (a
// print starts Chromium and prints the book at least twice), for the tests
// that read the PDF.
var printed struct {
	once sync.Once
	root string // the temporary directory, removed by TestMain
	dir  string // the site in it
	data []byte
	left []string // what the print left in the site
	err  error
}

// printBook returns the site's test book printed with printDate, or skips
// without Chromium.
func printBook(t *testing.T) []byte {
	t.Helper()
	skipWithoutChromium(t)
	printed.once.Do(func() {
		if printed.root, printed.err = os.MkdirTemp("", "warpbook-pdf-test-"); printed.err != nil {
			return
		}
		dir := filepath.Join(printed.root, "site")
		if printed.err = writeSite(dir); printed.err != nil {
			return
		}
		printed.data, printed.err = pdf.Print(context.Background(), dir, printDate)
		printed.left, _ = filepath.Glob(filepath.Join(dir, ".print-*"))
		printed.dir = dir
	})
	if printed.err != nil {
		t.Fatal(printed.err)
	}
	if len(printed.left) > 0 {
		t.Errorf("Print left %q in the site", printed.left)
	}
	return printed.data
}

// skipWithoutChromium skips with -short or without Chromium (fails
// without it when WARPBOOK_BROWSER=require).
func skipWithoutChromium(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("prints with Chromium; skipped with -short")
	}
	if _, err := pdf.Browser(); errors.Is(err, pdf.ErrNoChromium) {
		if os.Getenv("WARPBOOK_BROWSER") == "require" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
}

// writeSite builds the site's test book and writes it to dir.
func writeSite(dir string) error {
	s, err := site.Build(context.Background(), os.DirFS("../testdata/book"), site.Options{Dir: "testdata/book"})
	if err != nil {
		return err
	}
	return s.Write(dir)
}
