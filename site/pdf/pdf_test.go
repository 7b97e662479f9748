package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/pdf"
)

// The print edition of the site's test book, printed twice: a PDF with an
// outline of the book's headings, numbered pages, the date it was given,
// and the same bytes both times.
func TestPrint(t *testing.T) {
	dir := writeTestSite(t)
	date := time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)
	a, err := pdf.Print(context.Background(), dir, date)
	if err != nil {
		t.Fatal(err)
	}
	b, err := pdf.Print(context.Background(), dir, date)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two prints of one site differ")
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

// writeTestSite builds the site's test book and writes it to a temporary
// directory, which it returns; it skips with -short or without Chromium
// (fails without it when WARPBOOK_BROWSER=require).
func writeTestSite(t *testing.T) string {
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
	s, err := site.Build(context.Background(), os.DirFS("../testdata/book"), site.Options{Dir: "testdata/book"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "site")
	if err := s.Write(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}
