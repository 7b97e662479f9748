package pdf_test

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// The contents of the test book's print edition, whose chapters span
// several pages, show the page each entry starts on. The test reads the
// PDF on its own, with pdfcpu's lower layers: the text of each line of the
// contents page (decoded through its fonts' ToUnicode maps), the page each
// of its links goes to (named destinations), and the outline.
func TestContentsPages(t *testing.T) {
	data := printBook(t)
	api.DisableConfigDir()
	ctx, err := api.ReadContext(bytes.NewReader(data), model.NewDefaultConfiguration())
	noErr(t, err)
	noErr(t, ctx.EnsurePageCount())
	noErr(t, ctx.LocateNameTree("Dests", false))
	// The contents are on page 1 (the print edition starts with them).
	lines := pageLines(t, ctx, 1)
	var numbers []int // the number that ends each entry's line
	for _, l := range lines {
		words := strings.Join(l[:len(l)-1], "")
		if n, err := strconv.Atoi(l[len(l)-1]); err == nil && strings.ContainsAny(strings.ToLower(words), "abcdefghijklmnopqrstuvwxyz") {
			numbers = append(numbers, n) // not the footer's "1 / 15"
		}
	}
	links := linkPages(t, ctx, 1)
	t.Logf("contents lines %q; links go to pages %v", lines, links)
	// The book: Introduction, Warps (Scheduling within it), Occupancy,
	// Running code, Afterword, Interview questions, Glossary.
	if len(links) != 8 {
		t.Fatalf("%d links in the contents, want 8", len(links))
	}
	if !slices.Equal(numbers, links) {
		t.Errorf("the contents show pages %v, their links go to %v", numbers, links)
	}
	if !slices.IsSorted(links) || links[0] < 2 || links[len(links)-1] < 10 {
		t.Errorf("links go to pages %v, want rising from 2 past 10 (chapters of several pages)", links)
	}

	// The numbers are the outline's pages of the headings the entries lead to.
	marks := map[string][]int{}
	bms, err := api.Bookmarks(bytes.NewReader(data), nil)
	noErr(t, err)
	var walk func([]pdfcpu.Bookmark)
	walk = func(bms []pdfcpu.Bookmark) {
		for _, b := range bms {
			marks[b.Title] = append(marks[b.Title], b.PageFrom)
			walk(b.Kids)
		}
	}
	walk(bms)
	for i, h := range []string{"Tiny warps", "Warps", "Scheduling", "Occupancy", "Running code", "Afterword", "Interview questions", "Glossary"} {
		if i < len(numbers) && !slices.Contains(marks[h], numbers[i]) {
			t.Errorf("contents entry %d shows page %d; the outline has %q on pages %v", i, numbers[i], h, marks[h])
		}
	}
}

// textOp matches the operators of Skia's text: a font (Tf), a position
// (Tm, Td) and a string of 2-byte glyph ids (Tj).
var textOp = regexp.MustCompile(`/(\w+) [-.0-9]+ Tf|[-.0-9]+ [-.0-9]+ [-.0-9]+ [-.0-9]+ ([-.0-9]+) ([-.0-9]+) Tm|([-.0-9]+) [-.0-9]+ Td|<([0-9A-Fa-f]*)> Tj|\bcm\b`)

// pageLines returns the text of page n, line by line from the top, each
// line as its runs of text from the left.
func pageLines(t *testing.T, ctx *model.Context, n int) [][]string {
	t.Helper()
	d, _, _, err := ctx.PageDict(n, true)
	noErr(t, err)
	content, err := ctx.PageContent(d, n)
	noErr(t, err)
	res, err := ctx.DereferenceDict(d["Resources"])
	noErr(t, err)
	fonts, err := ctx.DereferenceDict(res["Font"])
	noErr(t, err)
	cmaps := map[string]map[int]rune{}
	for name, o := range fonts {
		fd, err := ctx.DereferenceDict(o)
		noErr(t, err)
		sd, _, err := ctx.DereferenceStreamDict(fd["ToUnicode"])
		if err != nil || sd == nil {
			t.Fatalf("font %s: no ToUnicode map: %v", name, err)
		}
		noErr(t, sd.Decode())
		cmaps[name] = toUnicode(t, string(sd.Content))
	}
	type run struct {
		x, y float64
		s    string
	}
	var runs []run
	var font string
	var x, y float64
	block := 0 // text under a new transformation is a line of its own
	for _, m := range textOp.FindAllSubmatch(content, -1) {
		switch {
		case m[1] != nil:
			font = string(m[1])
		case m[2] != nil:
			x, _ = strconv.ParseFloat(string(m[2]), 64)
			y, _ = strconv.ParseFloat(string(m[3]), 64)
			y += float64(block) * 1e6
		case m[4] != nil:
			dx, _ := strconv.ParseFloat(string(m[4]), 64)
			x += dx
		case m[5] != nil:
			var s strings.Builder
			for i := 0; i+4 <= len(m[5]); i += 4 {
				g, _ := strconv.ParseUint(string(m[5][i:i+4]), 16, 16)
				s.WriteRune(cmaps[font][int(g)])
			}
			runs = append(runs, run{x, y, s.String()})
		default:
			block++
		}
	}
	// Runs on one baseline are one line; a right-aligned page number is a
	// run of its own.
	slices.SortStableFunc(runs, func(a, b run) int {
		if a.y != b.y {
			return cmp.Compare(a.y, b.y)
		}
		return cmp.Compare(a.x, b.x)
	})
	var lines [][]string
	for i, r := range runs {
		if i == 0 || r.y != runs[i-1].y {
			lines = append(lines, nil)
		}
		if s := strings.TrimSpace(r.s); s != "" {
			lines[len(lines)-1] = append(lines[len(lines)-1], s)
		}
	}
	return slices.DeleteFunc(lines, func(l []string) bool { return len(l) == 0 })
}

var (
	bfchar  = regexp.MustCompile(`(?m)^<([0-9A-Fa-f]+)> <([0-9A-Fa-f]+)>$`)
	bfrange = regexp.MustCompile(`(?m)^<([0-9A-Fa-f]+)> <([0-9A-Fa-f]+)> <([0-9A-Fa-f]+)>$`)
)

// toUnicode reads a ToUnicode CMap as Skia writes it: bfchar lines and
// bfrange lines with one start code each, of one UTF-16 unit.
func toUnicode(t *testing.T, cmap string) map[int]rune {
	t.Helper()
	if strings.Contains(cmap, "> [") {
		t.Fatal("a ToUnicode bfrange with an array: not read here")
	}
	hex := func(s string) int {
		n, err := strconv.ParseUint(s, 16, 32)
		noErr(t, err)
		return int(n)
	}
	m := map[int]rune{}
	for _, l := range bfchar.FindAllStringSubmatch(cmap, -1) {
		if l[1] != "0000" || l[2] != "FFFF" { // not the codespace range
			m[hex(l[1])] = rune(hex(l[2]))
		}
	}
	for _, l := range bfrange.FindAllStringSubmatch(cmap, -1) {
		for g, r := hex(l[1]), hex(l[3]); g <= hex(l[2]); g, r = g+1, r+1 {
			m[g] = rune(r)
		}
	}
	return m
}

// linkPages returns the page each link on page n goes to, in order, a
// link of several boxes (number, title, page) once.
func linkPages(t *testing.T, ctx *model.Context, n int) []int {
	t.Helper()
	d, _, _, err := ctx.PageDict(n, false)
	noErr(t, err)
	annots, err := ctx.DereferenceArray(d["Annots"])
	noErr(t, err)
	root, err := ctx.Catalog()
	noErr(t, err)
	dests, err := ctx.DereferenceDict(root["Dests"])
	noErr(t, err)
	var pages []int
	last := ""
	for _, o := range annots {
		a, err := ctx.DereferenceDict(o)
		noErr(t, err)
		if a.NameEntry("Subtype") == nil || *a.NameEntry("Subtype") != "Link" {
			continue
		}
		dest := fmt.Sprint(a["Dest"])
		if dest == last {
			continue
		}
		last = dest
		// Chromium names each destination in the catalog's /Dests.
		name, ok := a["Dest"].(types.Name)
		if !ok {
			t.Fatalf("link to %s: not a named destination", dest)
		}
		arr, err := ctx.DereferenceArray(dests[string(name)])
		if err != nil || len(arr) == 0 {
			t.Fatalf("link to %s: %v", dest, err)
		}
		ref, ok := arr[0].(types.IndirectRef)
		if !ok {
			t.Fatalf("link to %s: destination %s", dest, arr)
		}
		p, err := ctx.PageNumber(ref.ObjectNumber.Value())
		noErr(t, err)
		pages = append(pages, p)
	}
	return pages
}

// noErr fails the test on err.
func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
