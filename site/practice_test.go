package site_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/site"
)

// practiceBook has a chapter with every kind of snippet and checked value
// the practice page reads, and a question.
func practiceBook(extra ...string) []string {
	return append([]string{
		"SUMMARY.md", "- [Occ](occ.md)\n",
		"occ.md", "# Occ\n\n## Registers\n\n" +
			"```go run id=warps\nfmt.Println(48)\n```\n```output\n48\n```\n\n" +
			"```go run id=quiet nodrill\nfmt.Println(2)\n```\n```output\n2\n```\n\n" +
			"```go run id=table drill=\"How many lines for 1 to 8?\"\nfor i := 1; i <= 8; i++ {\n\tfmt.Println(i)\n}\n```\n```output\n1\n2\n3\n4\n5\n6\n7\n8\n```\n\n" +
			"```go run id=long\nfor i := 1; i <= 8; i++ {\n\tfmt.Println(i)\n}\n```\n```output\n1\n2\n3\n4\n5\n6\n7\n8\n```\n\n" +
			"```go run id=silent\nx := 1\n_ = x\n```\n\n" +
			"```go run id=boom panics=\"boom\"\npanic(\"boom\")\n```\n\n" +
			"The A100 holds 48 warps. So the occupancy is [75 %](= \"\\\"75 %\\\"\"), and that is final. " +
			"It has [1,536](= \"\\\"1,536\\\"\")<!-- nodrill --> threads and [4](= \"4\")<!-- drill: How many sub-partitions? --> sub-partitions.\n",
		"questions/why.md", "---\nquestion: Why 75 %?\ndifficulty: hard\ntags: [occupancy]\nsection: occ.md#registers\n---\nBecause of the slices.\n\n## Deep dive\n\nMore.\n",
	}, extra...)
}

// TestPracticeCards checks the cards the build makes from the page model:
// which snippets and values become predict cards, with what prompt,
// answer, number, tolerance and choices, and the question card.
func TestPracticeCards(t *testing.T) {
	s := build(t, book(practiceBook()...), site.Options{Kernel: fakeKernel{}})
	p := page(t, s, "practice.html")
	ids := regexp.MustCompile(`<article class="pcard" data-card="(\w+)" data-id="([^"]+)"`).FindAllStringSubmatch(p, -1)
	var got []string
	for _, m := range ids {
		got = append(got, m[1]+" "+m[2])
	}
	want := []string{"question q:why", "predict c:occ:warps", "predict c:occ:table", "predict v:occ:"}
	if len(got) != 5 || !slices.Equal(got[:3], want[:3]) || !strings.HasPrefix(got[3], want[3]) || !strings.HasPrefix(got[4], want[3]) {
		t.Fatalf("cards %q, want the question, warps, table and two values (not quiet, long, silent, boom or the nodrill value)", got)
	}
	contains(t, "practice.html", p,
		// The question: difficulty, tags, the chapter of its section.
		`<article class="pcard" data-card="question" data-id="q:why" data-chapter="occ" data-tags="occupancy" data-difficulty="hard">`,
		`<a class="pcard-where" href="occ.html#registers">Occ › Registers</a>`,
		`<div class="pcard-answer-body"><p>Because of the slices.</p>`,
		`<a href="questions/why.html#deep-dive">The deep dive →</a>`,
		// A snippet that prints one number: compared as a number.
		`data-id="c:occ:warps" data-chapter="occ" data-tags="" data-number="48" data-tolerance="0.5">`,
		`<h2 class="pcard-q">What does this print?</h2>`,
		`<a class="pcard-where" href="occ.html#cell-warps">Occ › Registers</a>`,
		// drill= asks its prompt, whatever the output's length.
		`<h2 class="pcard-q">How many lines for 1 to 8?</h2>`,
		"<pre class=\"output pcard-answer-body\" tabindex=\"0\"><code>1\n2\n3\n4\n5\n6\n7\n8</code></pre>",
		// A value: its sentence with the number blank, the tolerance its
		// precision gives, four choices, the section's link.
		`data-number="75" data-tolerance="0.5">`,
		`<p class="pcard-context">The A100 holds 48 warps. So the occupancy is <span class="pcard-blank">_____<span class="visually-hidden"> (the blank)</span></span> %, and that is final.</p>`,
		`<p class="pcard-tolerance">A number: within ±0.5 of the book's counts as right.</p>`,
		`<ul class="pcard-choices"><li>19 %</li><li>38 %</li><li>56 %</li><li>75 %</li></ul>`,
		`<h2 class="pcard-q">How many sub-partitions?</h2>`,
		// A short sentence comes with the one before it.
		`<p class="pcard-context">So the occupancy is 75 %, and that is final. It has 1,536 threads and <span class="pcard-blank">_____<span class="visually-hidden"> (the blank)</span></span> sub-partitions.</p>`,
		`<ul class="pcard-choices"><li>2</li><li>4</li><li>6</li><li>8</li></ul>`,
		// The controls and the scripts.
		`<script src="assets/fsrs.js" defer></script>`, `<script src="assets/practice.js" defer></script>`,
		`<select id="pr-chapter"><option value="">all chapters</option><option value="occ">1 Occ</option></select>`,
	)
	lacks(t, "practice.html", p, "c:occ:quiet", "c:occ:long", "c:occ:silent", "c:occ:boom", "1,536</li>")
	if !strings.Contains(string(s.Files["assets/fsrs.LICENSE.txt"]), "Permission is hereby granted") {
		t.Error("the site lacks ts-fsrs's licence")
	}
	// Other pages link to it; the sidebar lists it.
	contains(t, "occ.html", page(t, s, "occ.html"), `<a href="practice.html">Practice</a>`, `<a class="drill" href="practice.html#chapter=occ">Drill this chapter</a>`)
	lacks(t, "occ.html", page(t, s, "occ.html"), "assets/practice.js", "assets/fsrs.js")
}

// A drill whose answer is empty fails the build at its drill= attribute.
func TestPracticeEmptyDrill(t *testing.T) {
	lines := buildErr(t, book("a.md", "# A\n\n```go run id=quiet drill=\"What does it print?\"\nx := 1\n_ = x\n```\n"), site.Options{Kernel: fakeKernel{}})
	want := "book/a.md:3:20: quiet: drill= on a snippet that prints nothing: its drill has no answer (print what the reader should predict, or drop drill=)"
	if !slices.Contains(lines, want) {
		t.Errorf("errors %q, want %q", lines, want)
	}
}

// A book with nothing to practise has no practice page.
func TestNoPracticePage(t *testing.T) {
	s := build(t, book("a.md", "# A\n\nProse only.\n"), site.Options{})
	if _, ok := s.Files["practice.html"]; ok {
		t.Error("a book without questions, snippets or values has a practice page")
	}
	lacks(t, "a.html", page(t, s, "a.html"), "practice.html")
}

// TestVendoredFSRS checks that assets/fsrs.js is the file site/fsrs.sh
// writes from the pinned ts-fsrs package, and that the site ships it with
// its licence.
func TestVendoredFSRS(t *testing.T) {
	data := vendored(t, "fsrs.sh", "assets/fsrs.js")
	s := build(t, book("a.md", "# A\n\nIt is [4](= \"4\").\n"), site.Options{})
	if string(s.Files["assets/fsrs.js"]) != string(data) || !strings.Contains(string(s.Files["assets/fsrs.LICENSE.txt"]), "Open Spaced Repetition") {
		t.Error("the site lacks assets/fsrs.js or its licence")
	}
}
