package site_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"html"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/problems"
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

// practiceChunks returns the HTML of every card of a built site's
// practice page, in order, from its chunk scripts, and the page's index.
func practiceChunks(t *testing.T, s *site.Site) (string, map[string]any) {
	t.Helper()
	p := page(t, s, "practice.html")
	m := regexp.MustCompile(`<script type="application/json" id="pr-index">(.*?)</script>`).FindStringSubmatch(p)
	if m == nil {
		t.Fatal("practice.html has no index")
	}
	var idx map[string]any
	if err := json.Unmarshal([]byte(m[1]), &idx); err != nil {
		t.Fatalf("the index: %v", err)
	}
	var all strings.Builder
	for _, c := range idx["chunks"].([]any) {
		data, ok := s.Files[c.(string)]
		if !ok {
			t.Fatalf("the index names %s, which the site lacks", c)
		}
		text := string(data)
		open := strings.Index(text, ", ")
		if !strings.HasPrefix(text, "warpbookPracticeCards(") || open < 0 || !strings.HasSuffix(text, ");\n") {
			t.Fatalf("%s: %.80q", c, text)
		}
		var cards []struct{ ID, HTML string }
		if err := json.Unmarshal([]byte(text[open+2:len(text)-3]), &cards); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		for _, c := range cards {
			if !strings.Contains(c.HTML, `data-id="`+c.ID+`"`) {
				t.Errorf("card %s's HTML is another card's", c.ID)
			}
			all.WriteString(c.HTML)
		}
	}
	return all.String(), idx
}

// TestPracticeCards checks the cards the build makes from the page model:
// which snippets and values become predict cards, with what prompt,
// answer, number, tolerance and choices, and the question card; and the
// page that indexes them.
func TestPracticeCards(t *testing.T) {
	s := build(t, book(practiceBook()...), site.Options{Kernel: fakeKernel{}})
	p, idx := practiceChunks(t, s)
	ids := regexp.MustCompile(`<article class="pcard" data-card="(\w+)" data-id="([^"]+)"`).FindAllStringSubmatch(p, -1)
	var got []string
	for _, m := range ids {
		got = append(got, m[1]+" "+m[2])
	}
	want := []string{"question q:why", "predict c:occ:warps", "predict c:occ:table", "predict v:occ:"}
	if len(got) != 5 || !slices.Equal(got[:3], want[:3]) || !strings.HasPrefix(got[3], want[3]) || !strings.HasPrefix(got[4], want[3]) {
		t.Fatalf("cards %q, want the question, warps, table and two values (not quiet, long, silent, boom or the nodrill value)", got)
	}
	contains(t, "practice chunks", p,
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
		// A short sentence comes alone when the one before is another
		// card's: no card shows another's answer.
		`<p class="pcard-context">It has 1,536 threads and <span class="pcard-blank">_____<span class="visually-hidden"> (the blank)</span></span> sub-partitions.</p>`,
		`<ul class="pcard-choices"><li>2</li><li>4</li><li>6</li><li>8</li></ul>`,
	)
	lacks(t, "practice chunks", p, "c:occ:quiet", "c:occ:long", "c:occ:silent", "c:occ:boom", "1,536</li>")
	// The page: the controls, the scripts, the index (cards and families),
	// and no card's HTML.
	pg := page(t, s, "practice.html")
	contains(t, "practice.html", pg,
		`<script src="assets/fsrs.js" defer></script>`, `<script src="assets/practice.js" defer></script>`,
		`<select id="pr-chapter"><option value="">all chapters</option><option value="occ">1 Occ</option></select>`,
		`<option value="problem">generated problems</option>`,
		`<button type="submit" id="pr-reveal">Show the answer <kbd>Enter</kbd></button>`,
		`this site was built without the practice module`,
	)
	lacks(t, "practice.html", pg, `<article class="pcard"`, "<kbd>Space</kbd>")
	if n := len(idx["cards"].([]any)); n != 5 {
		t.Errorf("the index holds %d cards, want 5", n)
	}
	if n := len(idx["families"].([]any)); n != len(problems.Families()) {
		t.Errorf("the index holds %d families, want %d", n, len(problems.Families()))
	}
	if !strings.Contains(string(s.Files["assets/fsrs.LICENSE.txt"]), "Permission is hereby granted") {
		t.Error("the site lacks ts-fsrs's licence")
	}
	// Other pages link to it; the sidebar lists it.
	contains(t, "occ.html", page(t, s, "occ.html"), `<a href="practice.html">Practice</a>`, `<a class="drill" href="practice.html#chapter=occ">Drill this chapter</a>`)
	lacks(t, "occ.html", page(t, s, "occ.html"), "assets/practice.js", "assets/fsrs.js")
}

// TestPracticeCleanCards: a snippet that runs the simulator is no card
// unless drill= asks (then it says it is simulated); a simulated value
// that counts cycles is none, another is marked; and one sentence gives
// one card, however many values it holds.
func TestPracticeCleanCards(t *testing.T) {
	src := "# Sim\n\n" +
		"```go run id=runs\nr, _ := sim.Run(sim.Workload{GPU: \"toy\"})\nfmt.Println(r.Cycles)\n```\n```output\n1234\n```\n\n" +
		"```go run id=asked drill=\"How many?\"\nfmt.Println(r.Instructions)\n```\n```output\n40\n```\n\n" +
		"```go run id=plain\nfmt.Println(2 * 24)\n```\n```output\n48\n```\n\n" +
		"The run took [1234](= \"r.Cycles\") cycles in all, which is long enough to matter. " +
		"It issued [40](= \"r.Instructions\") instructions, a number worth knowing for the rest. " +
		"A block holds [48](= \"2 * 24\") warps and [2](= \"2\") sub-partitions in this sentence, which is long enough to stand alone.\n"
	s := build(t, book("SUMMARY.md", "- [Sim](sim.md)\n", "sim.md", src), site.Options{Kernel: fakeKernel{}})
	p, _ := practiceChunks(t, s)
	ids := regexp.MustCompile(`data-id="([^"]+)"`).FindAllStringSubmatch(p, -1)
	var got []string
	for _, m := range ids {
		got = append(got, m[1])
	}
	if len(got) != 4 || got[0] != "c:sim:asked" || got[1] != "c:sim:plain" || !strings.HasPrefix(got[2], "v:sim:") || !strings.HasPrefix(got[3], "v:sim:") {
		t.Fatalf("cards %q, want asked, plain, the instructions value and one of the sentence of 48 and 2", got)
	}
	contains(t, "sim chunks", p,
		`<span class="pcard-sim" title="The answer comes from the simulator: the model's figure, not a measurement">simulated</span>`,
		`It issued <span class="pcard-blank">`,
		`A block holds <span class="pcard-blank">`)
	lacks(t, "sim chunks", p, "c:sim:runs", "took <span", "and <span class=\"pcard-blank\">")
	if strings.Count(p, `class="pcard-sim"`) != 2 {
		t.Errorf("%d cards marked simulated, want 2 (asked and the instructions value)", strings.Count(p, `class="pcard-sim"`))
	}
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

// TestVendoredFSRS checks that assets/fsrs.js is the file
// tools/vendor/build.sh writes from the pinned ts-fsrs package, and that
// the site ships it with its licence.
func TestVendoredFSRS(t *testing.T) {
	data := vendored(t, "assets/fsrs.js")
	s := build(t, book("a.md", "# A\n\nIt is [4](= \"4\").\n"), site.Options{})
	if string(s.Files["assets/fsrs.js"]) != string(data) || !strings.Contains(string(s.Files["assets/fsrs.LICENSE.txt"]), "Open Spaced Repetition") {
		t.Error("the site lacks assets/fsrs.js or its licence")
	}
}

// TestPracticeBook holds the real book's practice page to the issue's
// rules: its first view (the page, the styles and scripts it loads, the
// chunk of the first card) under 300 KB gzipped; no predict card from a
// snippet that runs the simulator; no simulated value that counts cycles,
// and every simulated value marked; no two value cards from one sentence.
func TestPracticeBook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole book; skipped with -short")
	}
	booktest.Require(t)
	s := build(t, os.DirFS("../book"), site.Options{Dir: "../book"})
	all, idx := practiceChunks(t, s)
	pg := page(t, s, "practice.html")

	// The first view, gzipped as a server would (the default level).
	files := []string{"practice.html"}
	for _, m := range regexp.MustCompile(`<(?:link rel="(?:stylesheet|icon)" href|script src)="([^"]+)"`).FindAllStringSubmatch(pg, -1) {
		files = append(files, m[1])
	}
	first := idx["cards"].([]any)[0].(map[string]any)
	files = append(files, idx["chunks"].([]any)[int(first["chunk"].(float64))].(string))
	total := 0
	for _, f := range files {
		data, ok := s.Files[f]
		if !ok {
			t.Fatalf("the first view loads %s, which the site lacks", f)
		}
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(data)
		zw.Close()
		total += gz.Len()
	}
	if total > 300<<10 {
		t.Errorf("the first view is %d bytes gzipped (%q), over 300 KB", total, files)
	}
	t.Logf("first view: %d bytes gzipped in %d files", total, len(files))

	// Every family links to the section that teaches it.
	for _, f := range idx["families"].([]any) {
		f := f.(map[string]any)
		if f["href"] == nil || f["where"] == nil {
			t.Errorf("family %s links to no section of the book", f["name"])
		}
	}

	// Cards from snippets that run the simulator are gone; what is left
	// names no simulator.
	articles := regexp.MustCompile(`(?s)<article class="pcard".*?</article>`).FindAllString(all, -1)
	ids := map[string]bool{}
	for _, a := range articles {
		id := regexp.MustCompile(`data-id="([^"]+)"`).FindStringSubmatch(a)[1]
		ids[id] = true
		if strings.Contains(a, `data-card="predict"`) && strings.Contains(a, "language-go") && !strings.Contains(a, `class="pcard-sim"`) {
			code := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(regexp.MustCompile(`(?s)<code class="language-go">(.*?)</code>`).FindStringSubmatch(a)[1], ""))
			if regexp.MustCompile(`\bsim\.`).MatchString(code) {
				t.Errorf("predict card %s runs the simulator:\n%s", id, code)
			}
		}
	}
	for _, id := range []string{"c:latency-hiding:little", "c:latency-hiding:little-sweep", "c:latency-hiding:four-l", "c:warp-scheduler:partial-warp", "c:warp-scheduler:policies", "c:warp-scheduler:issue-limit"} {
		if ids[id] {
			t.Errorf("%s, a snippet that runs the simulator, is a predict card", id)
		}
	}
	for _, id := range []string{"c:latency-hiding:warps-needed", "c:warp-scheduler:pools", "c:introduction:taste"} {
		if !ids[id] {
			t.Errorf("%s, a snippet a reader can work out, is no predict card", id)
		}
	}

	// Value cards: simulated ones marked and none a count of cycles; no
	// sentence in two cards.
	sentences := map[string]string{}
	marked := 0
	for _, a := range articles {
		m := regexp.MustCompile(`(?s)<p class="pcard-context">(.*?)</p>`).FindStringSubmatch(a)
		if m == nil {
			continue
		}
		id := regexp.MustCompile(`data-id="([^"]+)"`).FindStringSubmatch(a)[1]
		answer := html.UnescapeString(regexp.MustCompile(`(?s)<p class="pcard-answer-body">(.*?)</p>`).FindStringSubmatch(a)[1])
		ctx := html.UnescapeString(regexp.MustCompile(`<span class="visually-hidden"> \(the blank\)</span>`).ReplaceAllString(m[1], ""))
		ctx = regexp.MustCompile(`<[^>]+>`).ReplaceAllString(ctx, "")
		if strings.Contains(a, `class="pcard-sim"`) {
			marked++
			at := strings.Index(ctx, "_____")
			near := strings.ToLower(ctx[max(0, at-40):min(len(ctx), at+45)])
			if strings.Contains(near, "cycle") {
				t.Errorf("value card %s asks for a simulated count of cycles: %q", id, ctx)
			}
		}
		full := strings.Replace(ctx, "_____", answer, 1)
		full = strings.TrimSuffix(strings.TrimPrefix(full, "… "), " …")
		for _, sen := range regexp.MustCompile(`[.?!:] +`).Split(full, -1) {
			sen = strings.TrimSpace(sen)
			if len(sen) < 25 {
				continue // too short to tell sentences apart
			}
			if other, ok := sentences[sen]; ok && other != id {
				t.Errorf("cards %s and %s come from one sentence: %q", other, id, sen)
			}
			sentences[sen] = id
		}
	}
	if marked == 0 {
		t.Error("no card is marked simulated: the book's simulated values that a reader can work out are gone or unmarked")
	}
}
