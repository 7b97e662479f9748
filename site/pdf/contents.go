package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
)

// The print edition's contents carry the page each entry starts on.
// Chromium does not implement CSS's target-counter(), so the pages come
// from a first print: its outline (the PDF's bookmarks, one for each
// heading Chromium laid out) says which page each heading landed on. The
// contents are then printed again with those numbers as text, and the
// second print's outline must put every entry on the page it claims.

// edition is print.html as the contents need it: its headings in document
// order and the links of its contents.
type edition struct {
	src      []byte
	headings []string // the text of each heading, in document order
	entries  []entry  // the contents' links, in document order
}

// entry is one link of the contents.
type entry struct {
	id      string // the id it links to
	end     int    // the offset in src of its </a>, where its page number goes
	heading int    // the index in headings of the heading it leads to
}

var (
	headingTag = regexp.MustCompile(`(?s)<h[1-6][\s>].*?</h[1-6]>`)
	idAttr     = regexp.MustCompile(`\sid="([^"]*)"`)
	contentsA  = regexp.MustCompile(`<a href="#([^"]*)"[^>]*>`)
	hanchor    = regexp.MustCompile(`(?s)<a class="hanchor"[^>]*>.*?</a>`)
	tag        = regexp.MustCompile(`(?s)<[^>]*>`)
)

// contentsStart opens the contents that site/print.go writes; the first
// </div> after it closes them.
const contentsStart = `<div class="print-contents">`

// parseEdition reads print.html, as warpbook writes it: regular expressions
// suffice for HTML whose shape site/print.go and the renderer fix.
func parseEdition(src []byte) (*edition, error) {
	ed := &edition{src: src}
	hs := headingTag.FindAllIndex(src, -1)
	for _, h := range hs {
		ed.headings = append(ed.headings, headingText(src[h[0]:h[1]]))
	}
	ids := map[string]int{} // id to its offset in src
	for _, m := range idAttr.FindAllSubmatchIndex(src, -1) {
		id := html.UnescapeString(string(src[m[2]:m[3]]))
		if _, ok := ids[id]; !ok {
			ids[id] = m[0]
		}
	}
	start := bytes.Index(src, []byte(contentsStart))
	if start < 0 {
		return ed, nil // no contents, nothing to number
	}
	n := bytes.Index(src[start:], []byte("</div>"))
	if n < 0 {
		return nil, errors.New("print.html: the contents have no end")
	}
	div := src[:start+n]
	for _, m := range contentsA.FindAllSubmatchIndex(div[start:], -1) {
		href := html.UnescapeString(string(div[start+m[2] : start+m[3]]))
		id, err := url.PathUnescape(href)
		if err != nil {
			return nil, fmt.Errorf("print.html: contents link #%s: %w", href, err)
		}
		end := bytes.Index(div[start+m[1]:], []byte("</a>"))
		if end < 0 {
			return nil, fmt.Errorf("print.html: contents link #%s has no end", href)
		}
		at, ok := ids[id]
		if !ok {
			return nil, fmt.Errorf("print.html: contents link #%s leads nowhere", href)
		}
		// The heading an entry leads to is the first one that ends after
		// the id: the id's own heading, or the first in its section.
		h := 0
		for h < len(hs) && hs[h][1] <= at {
			h++
		}
		if h == len(hs) {
			return nil, fmt.Errorf("print.html: contents link #%s leads to no heading", href)
		}
		ed.entries = append(ed.entries, entry{id: id, end: start + m[1] + end, heading: h})
	}
	return ed, nil
}

// headingText is the text of a heading element as an outline shows it:
// without its "#" link (hidden in print), tags and entities, its white
// space collapsed.
func headingText(h []byte) string {
	s := hanchor.ReplaceAll(h, nil)
	s = tag.ReplaceAll(s, []byte(" "))
	return strings.Join(strings.Fields(html.UnescapeString(string(s))), " ")
}

// pdfcpuConfig keeps pdfcpu from writing a configuration directory into
// the user's home: it is set once, before the first read.
var pdfcpuConfig sync.Once

// mark is one bookmark of a PDF's outline.
type mark struct {
	title string
	page  int // from 1
}

// outline returns the bookmarks of the PDF data in document order (a
// parent before its children), read with pdfcpu.
func outline(data []byte) ([]mark, error) {
	pdfcpuConfig.Do(api.DisableConfigDir)
	bms, err := api.Bookmarks(bytes.NewReader(data), nil)
	if err != nil {
		return nil, fmt.Errorf("read the PDF's outline: %w", err)
	}
	var marks []mark
	var walk func([]pdfcpu.Bookmark)
	walk = func(bms []pdfcpu.Bookmark) {
		for _, b := range bms {
			marks = append(marks, mark{b.Title, b.PageFrom})
			walk(b.Kids)
		}
	}
	walk(bms)
	return marks, nil
}

// pages returns the page each contents entry starts on in the PDF data.
//
// Every bookmark of Chromium's outline comes from a heading it laid out,
// in document order, so the bookmarks are a subsequence of print.html's
// headings: the headings it did not lay out (hidden in print, such as the
// "#" links and the dialogs) have none. Each bookmark is matched to the
// first heading after the previous match whose text is the same but for
// case (the print stylesheet sets some headings in capitals, and the
// outline has them so) and white space (Chromium's outline drops the space
// where a heading wrapped: "convergencebarriers"). Matching on the whole sequence,
// not on an entry's title, is what tells apart a chapter from a part or a
// section of the same name, and an entry whose title is not its heading's
// ("Introduction" for the book's first page) still finds its heading. What
// it cannot tell is a hidden heading from a shown one of the same text
// right after it: the entry then gets the wrong bookmark, or none (an
// error).
func (ed *edition) pages(data []byte) ([]int, error) {
	marks, err := outline(data)
	if err != nil {
		return nil, err
	}
	return ed.match(marks)
}

// match returns the page each contents entry starts on, given the PDF's
// outline, as pages explains.
func (ed *edition) match(marks []mark) ([]int, error) {
	page := make([]int, len(ed.headings)) // 0: not in the outline
	h := 0
	for _, m := range marks {
		title := squeeze(m.title)
		for h < len(ed.headings) && !strings.EqualFold(squeeze(ed.headings[h]), title) {
			h++
		}
		if h == len(ed.headings) {
			return nil, fmt.Errorf("the PDF's outline entry %q (page %d) matches no heading of print.html in order", m.title, m.page)
		}
		page[h] = m.page
		h++
	}
	pages := make([]int, len(ed.entries))
	for i, e := range ed.entries {
		if pages[i] = page[e.heading]; pages[i] == 0 {
			return nil, fmt.Errorf("contents entry #%s: its heading %q is not in the PDF's outline", e.id, ed.headings[e.heading])
		}
	}
	return pages, nil
}

// numbered returns print.html with each contents entry's page, pages[i]
// for entry i, at the end of its link: <span class="page">12</span>.
func (ed *edition) numbered(pages []int) []byte {
	var b bytes.Buffer
	b.Grow(len(ed.src) + 32*len(ed.entries))
	at := 0
	for i, e := range ed.entries {
		b.Write(ed.src[at:e.end])
		b.WriteString(`<span class="page">` + strconv.Itoa(pages[i]) + `</span>`)
		at = e.end
	}
	b.Write(ed.src[at:])
	return b.Bytes()
}

// squeeze returns s without its white space (and soft hyphens), for
// comparing a heading with its outline entry.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '\u00ad' {
			return -1
		}
		return r
	}, s)
}
