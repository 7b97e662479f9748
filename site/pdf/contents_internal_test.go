package pdf

import (
	"slices"
	"strings"
	"testing"
)

// A print.html in small: the site's header, the contents (an entry whose
// title is not its heading's, a part and a chapter of one name, a section
// that shares a later chapter's name), then the book, with a hidden heading,
// and a hidden dialog.
const edition1 = `<header><h1>Book</h1></header>
<div class="print-contents"><h2 id="p-contents">Contents</h2>
<ol>
<li><a href="#p-index">Introduction</a></li>
</ol>
<h3>Occupancy</h3>
<ol>
<li><a href="#p-occ"><span class="num">1</span> Occupancy</a><ol><li><a href="#p-limits"><span class="num">1.1</span> Limits &amp; more</a></li>
</ol></li>
</ol>
<ol>
<li><a href="#p-questions">Interview questions</a></li>
</ol>
</div>
<section class="print-page" id="p-index"><h2 id="p-index--book">Book<a class="hanchor" href="#p-index--book" aria-label="Link to this section">#</a></h2>
<h3 id="p-index--limits">Limits &amp;  more</h3>
</section>
<h2 class="print-part">Occupancy</h2>
<section class="print-page" id="p-occ"><h2>Occupancy</h2><h4 hidden>Notes</h4></section>
<section class="print-page" id="p-limits"><h2 id="p-limits--limits">Limits &amp; more<a class="hanchor" href="#p-limits--limits">#</a></h2></section>
<section class="print-page" id="p-questions"><h2>Interview questions</h2>
</section>
<dialog><h2>Keyboard shortcuts</h2></dialog>
`

func TestMatch(t *testing.T) {
	ed, err := parseEdition([]byte(edition1))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range ed.entries {
		ids = append(ids, e.id)
	}
	if want := []string{"p-index", "p-occ", "p-limits", "p-questions"}; !slices.Equal(ids, want) {
		t.Fatalf("entries %q, want %q", ids, want)
	}
	// Chromium's outline: no hidden heading, the part's title in capitals
	// in the contents, white space its own (a heading that wraps loses the
	// space at the break).
	marks := []mark{
		{"Book", 1}, {"Contents", 1}, {"OCCUPANCY", 1},
		{"Book", 2}, {"Limits & more", 2},
		{"Occupancy", 3}, {"Occupancy", 4},
		{"Limits  &more", 7}, // the space lost where the heading wrapped
		{"Interview questions", 9},
	}
	pages, err := ed.match(marks)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 4, 7, 9}; !slices.Equal(pages, want) {
		t.Errorf("pages %v, want %v", pages, want)
	}
	got := string(ed.numbered(pages))
	for _, want := range []string{
		`<a href="#p-index">Introduction<span class="page">2</span></a>`,
		`<a href="#p-occ"><span class="num">1</span> Occupancy<span class="page">4</span></a><ol>`,
		`<a href="#p-limits"><span class="num">1.1</span> Limits &amp; more<span class="page">7</span></a>`,
		`<a href="#p-questions">Interview questions<span class="page">9</span></a>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("numbered print.html lacks %s", want)
		}
	}
	if strings.Count(got, `class="page"`) != 4 {
		t.Errorf("numbered print.html: %d page numbers, want 4", strings.Count(got, `class="page"`))
	}

	// A bookmark that no heading explains, and an entry whose heading has
	// no bookmark, are errors.
	if _, err := ed.match(append(slices.Clone(marks[:8]), mark{"Answers", 9})); err == nil || !strings.Contains(err.Error(), `"Answers"`) {
		t.Errorf("an outline entry of no heading: error %v", err)
	}
	if _, err := ed.match(marks[:8]); err == nil || !strings.Contains(err.Error(), "#p-questions") {
		t.Errorf("an entry not in the outline: error %v", err)
	}
}

func TestParseEditionErrors(t *testing.T) {
	for name, src := range map[string]string{
		"nowhere":    `<div class="print-contents"><ol><li><a href="#p-gone">Gone</a></li></ol></div>`,
		"no heading": `<div class="print-contents"><ol><li><a href="#p-x">X</a></li></ol></div><section id="p-x"><p>x</p></section>`,
		"no end":     `<div class="print-contents"><ol><li><a href="#p-x">X</a></li></ol>`,
	} {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			if _, err := parseEdition([]byte(src)); err == nil {
				t.Error("no error")
			}
		})
	}
}
