package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// The practice page (practice.html) turns the book into cards: one per
// interview question, and predict cards made from what the build
// verified: a snippet with its output hidden ("What does this print?")
// and a checked prose value with its number hidden. Authors steer the
// predict cards: a snippet's nodrill flag or a <!-- nodrill --> comment
// after a value keeps it off, and drill="PROMPT" (a snippet) or
// <!-- drill: PROMPT --> (a value) adds the question to ask; a snippet
// with drill= is a card whatever the length of its output, and one whose
// answer is empty fails the build. assets/practice.js schedules the cards
// with FSRS (assets/fsrs.js) in the reader's browser.

// practicePath is the practice page's output path.
const practicePath = "practice.html"

// A snippet becomes a predict card by itself when it prints at most
// autoDrillLines lines and shows at most autoDrillCode lines of code:
// longer ones are reading, not recall. drill= overrides both.
const (
	autoDrillLines = 6
	autoDrillCode  = 30
)

// practiceCard is one card of the practice page.
type practiceCard struct {
	id         string // stable across builds: the schedule in the reader's browser is keyed by it
	kind       string // "question" or "predict"
	chapter    string // the chapter it drills: its output path without .html
	tags       []string
	difficulty string // questions (and cards made from a question's page); "" otherwise
	prompt     string // what the card asks
	code       string // a snippet's visible code, highlighted HTML; "" for others
	context    string // a value's sentence, with the hidden number as blank
	answer     string // the answer as text: a value's text, a snippet's output
	answerHTML string // a question's short answer, rendered
	number     string // the answer as a number, for answers that are one; "" otherwise
	tolerance  string // how far from number an answer may be and still count
	choices    []string
	href       string // where the book explains it, relative to the site root
	where      string // that place in words
	more       string // a question's own page, with its deep dive; "" for others
	pos        page.Pos
}

// blank stands for the hidden part of a value's sentence.
const blank = "_____"

// practiceCards makes the cards of the whole book, in reading order:
// questions first, then the predict cards of each chapter, then those of
// the question pages. Problems (a drill without an answer) go to errs.
func (b *build) practiceCards(r *renderer) (cards []*practiceCard, errs page.Diagnostics) {
	for _, q := range b.questions {
		qr := b.newRenderer(q, r.at, false)
		short, deep := b.questionParts(q)
		c := &practiceCard{
			id:         "q:" + q.slug,
			kind:       "question",
			chapter:    chapterKey(q),
			tags:       q.tags,
			difficulty: q.fm().Difficulty,
			prompt:     q.title,
			answerHTML: qr.markdown(short...),
			href:       q.out,
			where:      "Interview question",
			more:       q.out,
			pos:        q.snip.Pos(0),
		}
		if s := q.sectionPage; s != nil {
			c.chapter, c.href, c.where = chapterKey(s), s.out, s.title
			if q.sectionFrag != "" {
				c.href += "#" + q.sectionFrag
				for _, h := range s.headings {
					if h.id == q.sectionFrag {
						c.where = joinWhere(s.title, h.text)
						break
					}
				}
			}
		}
		if len(deep) > 0 {
			c.more += "#deep-dive"
		}
		r.links = append(r.links, qr.links...)
		r.errs = append(r.errs, qr.errs...)
		cards = append(cards, c)
	}
	var pages []*htmlPage
	for _, p := range b.order {
		if p.kind == kindChapter && p.doc() != nil {
			pages = append(pages, p)
		}
	}
	pages = append(pages, b.questions...)
	for _, p := range pages {
		cs, es := b.predictCards(p)
		cards = append(cards, cs...)
		errs = append(errs, es...)
	}
	return cards, errs
}

// hasDrills reports whether the book has anything to practise: questions,
// snippets or checked values.
func (b *build) hasDrills() bool {
	if len(b.questions) > 0 {
		return true
	}
	for _, p := range b.pages {
		if p.snip != nil && (len(p.snip.Cells) > 0 || len(p.snip.Checks) > 0) {
			return true
		}
	}
	return false
}

// drillHref is the address of the practice page set to drill one chapter,
// from the page being written.
func drillHref(r *renderer, chapter *htmlPage) string {
	return r.href(practicePath) + "#chapter=" + chapterKey(chapter)
}

// chapterKey names the chapter a card drills.
func chapterKey(p *htmlPage) string { return strings.TrimSuffix(p.out, ".html") }

// predictCards makes the predict cards of one page, in document order.
func (b *build) predictCards(p *htmlPage) (cards []*practiceCard, errs page.Diagnostics) {
	src := p.src()
	chapter, where, tags, difficulty := chapterKey(p), p.title, p.tags, ""
	if p.kind == kindQuestion {
		difficulty = p.fm().Difficulty
		where = "Question: " + p.title
		if p.sectionPage != nil {
			chapter = chapterKey(p.sectionPage)
		}
	}
	section, sectionTitle := "", ""
	var block ast.Node // the block whose inline text holds the value being read
	seen := map[string]int{}
	// Numeric values of the page by what surrounds the number, for the
	// choices of a value card.
	peers := map[string][]string{}
	for _, ch := range p.snip.Checks {
		if num, unit, ok := oneNumber(ch.Text); ok {
			peers[unit] = append(peers[unit], num)
		}
	}
	ast.Walk(p.doc(), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n == block {
				block = nil
			}
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *page.FrontMatterNode:
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			if n.Level >= 2 && n.Level <= 4 {
				section, sectionTitle = headingID(n), textOf(n, src)
			}
		case *page.CellNode:
			c, err := b.cellCard(p, n.Cell)
			if err != nil {
				errs = append(errs, err)
			}
			if c != nil {
				c.chapter, c.tags, c.difficulty = chapter, tags, difficulty
				c.href = p.out + "#cell-" + n.Cell.ID()
				c.where = joinWhere(where, sectionTitle)
				cards = append(cards, c)
			}
			return ast.WalkSkipChildren, nil
		case *page.CheckNode:
			ch := n.Check
			if ch.NoDrill || block == nil {
				return ast.WalkSkipChildren, nil
			}
			c := valueCard(ch, textOfMarked(block, src, n), peers)
			key := ch.Expr + "\x00" + ch.Text
			seen[key]++
			c.id = "v:" + chapterKey(p) + ":" + shortHash(key, seen[key])
			c.chapter, c.tags, c.difficulty = chapter, tags, difficulty
			c.href = p.out
			if section != "" {
				c.href += "#" + section
			}
			c.where = joinWhere(where, sectionTitle)
			cards = append(cards, c)
			return ast.WalkSkipChildren, nil
		}
		if block == nil && n.Type() == ast.TypeBlock && n.FirstChild() != nil && n.FirstChild().Type() == ast.TypeInline {
			block = n
		}
		return ast.WalkContinue, nil
	})
	return cards, errs
}

func joinWhere(page, section string) string {
	if section == "" {
		return page
	}
	return page + " › " + section
}

// shortHash is a stable id for the nth value of a page with the same
// expression and text.
func shortHash(key string, n int) string {
	sum := sha256.Sum256([]byte(key))
	id := hex.EncodeToString(sum[:5])
	if n > 1 {
		id += "-" + strconv.Itoa(n)
	}
	return id
}

// cellCard makes the predict card of a snippet, or none: snippets that
// are nodrill, skipped, expected to fail, or that print nothing or too
// much are no card unless drill= asks for one; a drill whose answer is
// empty is an error at its drill= attribute.
func (b *build) cellCard(p *htmlPage, c *page.Cell) (*practiceCard, *page.Diagnostic) {
	a := c.Attrs
	if a.NoDrill || a.Skip != "" {
		return nil, nil
	}
	out, failure := c.Expected(), ""
	if p.results != nil {
		if res := p.results.Result(c); res != nil {
			if res.Status == snippets.StatusSkip {
				return nil, nil
			}
			out = res.Output
			switch {
			case a.Panics != "":
				failure = "panic: " + res.Panic
			case a.Error != "":
				failure = "does not compile: " + res.Error
			}
		}
	} else {
		switch {
		case a.Panics != "":
			failure = "panic: …" + a.Panics + "…"
		case a.Error != "":
			failure = "does not compile: …" + a.Error + "…"
		}
	}
	out = strings.TrimRight(out, " \t\r\n")
	answer := strings.TrimSpace(strings.Join(nonEmpty(out, failure), "\n"))
	var code []string
	for _, l := range c.Lines {
		if !l.Hidden {
			code = append(code, l.Text)
		}
	}
	visible := strings.Trim(strings.Join(code, "\n"), "\n")
	if a.Drill == "" {
		if failure != "" || out == "" || strings.Count(out, "\n")+1 > autoDrillLines || len(code) > autoDrillCode || strings.TrimSpace(visible) == "" {
			return nil, nil
		}
	} else if answer == "" {
		return nil, &page.Diagnostic{Pos: c.DrillPos, ID: c.ID(),
			Msg: "drill= on a snippet that prints nothing: its drill has no answer (print what the reader should predict, or drop drill=)"}
	}
	card := &practiceCard{
		id:     "c:" + chapterKey(p) + ":" + c.ID(),
		kind:   "predict",
		prompt: a.Drill,
		code:   b.highlight("go", visible),
		answer: answer,
		pos:    c.Pos,
	}
	if card.prompt == "" {
		card.prompt = "What does this print?"
	}
	if failure == "" {
		if num, unit, ok := oneNumber(out); ok && unit == "#" {
			card.number, card.tolerance = num, tolerance(num)
		}
	}
	return card, nil
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			out = append(out, x)
		}
	}
	return out
}

// valueCard makes the card of a checked value from the text of the block
// that holds it, with the value marked.
func valueCard(ch *page.Check, text string, peers map[string][]string) *practiceCard {
	c := &practiceCard{kind: "predict", prompt: ch.Drill, answer: ch.Text, pos: ch.Pos}
	shown := blank
	if num, unit, ok := oneNumber(ch.Text); ok {
		c.number, c.tolerance = num, tolerance(num)
		shown = strings.Replace(ch.Text, displayOf(ch.Text, num), blank, 1)
		c.choices = choices(ch.Text, num, unit, peers[unit])
	}
	c.context = sentenceAround(text, shown)
	if c.prompt == "" {
		c.prompt = "Fill in the blank."
	}
	return c
}

// numberRE finds a number as prose writes one: 1,536, 62.5, −3.
var numberRE = regexp.MustCompile(`[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-−]?\d+(?:\.\d+)?`)

// oneNumber returns the number of a text that holds exactly one,
// standing alone (not part of a name such as sm_80 or 48K), normalised
// (no thousands separators, an ASCII minus), and the text around it
// with the number's place marked by "#".
func oneNumber(s string) (num, unit string, ok bool) {
	var found []int
	for _, m := range numberRE.FindAllStringIndex(s, -1) {
		if m[0] > 0 && isWordByte(s[m[0]-1]) || m[1] < len(s) && isWordByte(s[m[1]]) {
			return "", "", false
		}
		found = append(found, m[0], m[1])
	}
	if len(found) != 2 {
		return "", "", false
	}
	raw := s[found[0]:found[1]]
	num = strings.ReplaceAll(strings.Replace(raw, "−", "-", 1), ",", "")
	if _, err := strconv.ParseFloat(num, 64); err != nil {
		return "", "", false
	}
	return num, strings.TrimSpace(s[:found[0]] + "#" + s[found[1]:]), true
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// displayOf returns the number in text as written (with its separators).
func displayOf(text, num string) string {
	for _, m := range numberRE.FindAllString(text, -1) {
		if strings.ReplaceAll(strings.Replace(m, "−", "-", 1), ",", "") == num {
			return m
		}
	}
	return num
}

// tolerance is how far an answer may be from num and still round to it
// as written: half a unit of its last digit (0.5 for 75, 0.05 for 62.5).
func tolerance(num string) string {
	_, frac, ok := strings.Cut(num, ".")
	if !ok {
		return "0.5"
	}
	return "0." + strings.Repeat("0", len(frac)) + "5"
}

// choices returns four answers to pick from, in increasing order: the
// value's text and three others of the same kind, the page's other
// values with the same words around them first (the nearest in size),
// then multiples of the answer written to the same precision.
func choices(text, num, unit string, peers []string) []string {
	v, _ := strconv.ParseFloat(num, 64)
	_, frac, _ := strings.Cut(num, ".")
	prec := len(frac)
	pct := strings.Contains(unit, "%")
	var others []string
	add := func(n string) {
		if n != num && !slices.Contains(others, n) && len(others) < 3 {
			others = append(others, n)
		}
	}
	near := slices.Clone(peers)
	dist := func(s string) float64 {
		x, _ := strconv.ParseFloat(s, 64)
		return math.Abs(math.Log((math.Abs(x) + 1) / (math.Abs(v) + 1)))
	}
	slices.SortStableFunc(near, func(x, y string) int {
		dx, dy := dist(x), dist(y)
		switch {
		case dx < dy:
			return -1
		case dx > dy:
			return 1
		}
		return strings.Compare(x, y)
	})
	for _, n := range near {
		// Only values of the same order: 1,536 is no choice for 4.
		if x, _ := strconv.ParseFloat(n, 64); v != 0 && x/v >= 0.25 && x/v <= 4 {
			add(n)
		}
	}
	for _, f := range []float64{2, 0.5, 1.5, 0.75, 4, 0.25, 3} {
		x := v * f
		if pct && x > 100 {
			continue
		}
		add(strconv.FormatFloat(x, 'f', prec, 64))
	}
	for d := 1; len(others) < 3; d++ {
		add(strconv.FormatFloat(v+float64(d), 'f', prec, 64))
	}
	all := append(others, num)
	slices.SortFunc(all, func(x, y string) int {
		a, _ := strconv.ParseFloat(x, 64)
		b, _ := strconv.ParseFloat(y, 64)
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	})
	out := make([]string, len(all))
	for i, n := range all {
		out[i] = strings.Replace(text, displayOf(text, num), withSeparators(n, strings.Contains(displayOf(text, num), ",")), 1)
		if n == num {
			out[i] = text
		}
	}
	return out
}

// withSeparators writes n with thousands separators when commas is set.
func withSeparators(n string, commas bool) string {
	if !commas {
		return n
	}
	intPart, frac, hasFrac := strings.Cut(n, ".")
	sign := ""
	if strings.HasPrefix(intPart, "-") {
		sign, intPart = "-", intPart[1:]
	}
	var b strings.Builder
	for i, d := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(d)
	}
	s := sign + b.String()
	if hasFrac {
		s += "." + frac
	}
	return s
}

// valueMark stands for the value being asked in the text of its block.
const valueMark = "\x00"

// sentenceAround returns the sentence of text that holds the valueMark, with
// the valueMark replaced by shown: the sentence before it too when the
// sentence is short, and cut to about 300 bytes around the valueMark.
func sentenceAround(text, shown string) string {
	at := strings.Index(text, valueMark)
	if at < 0 {
		return shown
	}
	starts := []int{0}
	end := len(text)
	for i := 0; i+2 < len(text); i++ {
		if (text[i] == '.' || text[i] == '?' || text[i] == '!' || text[i] == ':') && text[i+1] == ' ' && startsSentence(text[i+2:]) {
			if i < at {
				starts = append(starts, i+2)
			} else if end == len(text) {
				end = i + 1
			}
		}
	}
	start := starts[len(starts)-1]
	if at-start+(end-at) < 80 && len(starts) > 1 {
		start = starts[len(starts)-2]
	}
	s := text[start:end]
	at -= start
	const half = 150
	if at > half {
		cut := strings.LastIndex(s[:at-half], " ")
		if cut < 0 {
			cut = at - half
		}
		s, at = "… "+s[cut+1:], at-(cut+1)+len("… ")
	}
	if len(s)-at > half+len(valueMark) {
		if cut := strings.Index(s[at+half:], " "); cut >= 0 {
			s = s[:at+half+cut] + " …"
		}
	}
	return strings.Replace(s, valueMark, shown, 1)
}

// startsSentence reports whether s opens a sentence: a capital, a digit,
// or a quote or bracket before one.
func startsSentence(s string) bool {
	s = strings.TrimLeft(s, "\"'(“‘")
	return s != "" && ('A' <= s[0] && s[0] <= 'Z' || '0' <= s[0] && s[0] <= '9')
}

// practicePage is the body of practice.html: the controls (shown with
// JavaScript) and every card, each a self-contained article whose answer
// stays in <details> until the reader answers; without JavaScript the page
// is the list of cards.
func (b *build) practicePage(r *renderer) string {
	cards, errs := b.practiceCards(r)
	r.errs = append(r.errs, errs...)
	var w strings.Builder
	questions, predict := 0, 0
	chapters := map[string]bool{}
	tags := map[string]bool{}
	for _, c := range cards {
		if c.kind == "question" {
			questions++
		} else {
			predict++
		}
		chapters[c.chapter] = true
		for _, t := range c.tags {
			tags[t] = true
		}
	}
	fmt.Fprintf(&w, `<p class="lead">%s and %s made from what the build verified: a snippet with its output hidden, a checked value with its number hidden. Answer first, then see the book's answer and say how well you knew it; the page schedules each card again (FSRS, kept in this browser only).</p>`+"\n",
		plural(questions, "interview question", "interview questions"), plural(predict, "predict card", "predict cards"))
	w.WriteString(`<noscript><p>Without JavaScript this page is the list of cards; open each answer after you have answered it yourself.</p></noscript>` + "\n")

	// The controls.
	w.WriteString(`<form id="pr-filters" class="pr-js pr-filters" aria-label="Choose the cards">` + "\n")
	w.WriteString(`<p><label for="pr-kind">Cards</label> <select id="pr-kind"><option value="">all</option><option value="question">interview questions</option><option value="predict">predict the output</option></select></p>` + "\n")
	w.WriteString(`<p><label for="pr-chapter">Chapter</label> <select id="pr-chapter"><option value="">all chapters</option>`)
	for _, p := range b.order {
		if p.kind == kindChapter && chapters[chapterKey(p)] {
			title := p.title
			if p.number != "" {
				title = strings.TrimSuffix(p.number, ".") + " " + title
			}
			fmt.Fprintf(&w, `<option value="%s">%s</option>`, html.EscapeString(chapterKey(p)), html.EscapeString(title))
		}
	}
	w.WriteString("</select></p>\n")
	w.WriteString(`<p><label for="pr-tag">Tag</label> <select id="pr-tag"><option value="">any tag</option>`)
	for _, t := range sortedKeys(tags) {
		fmt.Fprintf(&w, `<option value="%[1]s">%[1]s</option>`, html.EscapeString(t))
	}
	w.WriteString("</select></p>\n")
	w.WriteString(`<p><label for="pr-difficulty">Difficulty</label> <select id="pr-difficulty"><option value="">any</option>`)
	for _, d := range page.Difficulties {
		fmt.Fprintf(&w, `<option value="%[1]s">%[1]s</option>`, d)
	}
	w.WriteString("</select></p>\n")
	w.WriteString(`<p><input type="checkbox" id="pr-due"> <label for="pr-due">Due today only</label></p>` + "\n")
	w.WriteString(`<p><button type="button" id="pr-shuffle">Shuffle</button></p>` + "\n")
	w.WriteString("</form>\n")
	w.WriteString(`<p id="pr-status" class="pr-js pr-status" role="status"></p>` + "\n")

	// The cards, then (with JavaScript) the answer under the one shown.
	fmt.Fprintf(&w, `<div id="pr-cards" class="pr-cards" data-book="%s">`+"\n", html.EscapeString(b.settings.Title))
	for _, c := range cards {
		b.writeCard(&w, r, c)
	}
	w.WriteString("</div>\n")
	w.WriteString(`<section id="pr-drill" class="pr-js pr-drill" aria-label="Your answer">` + "\n")
	w.WriteString(`<form id="pr-answer-form"><p><label for="pr-answer">Your answer</label></p><p><textarea id="pr-answer" rows="2" spellcheck="false"></textarea></p><div id="pr-choices" class="pr-choices" role="group" aria-label="Or pick one"></div><p><button type="submit" id="pr-reveal">Show the answer <kbd>Space</kbd></button></p></form>` + "\n")
	w.WriteString(`<p id="pr-verdict" class="pr-verdict" role="status"></p>` + "\n")
	w.WriteString(`<div id="pr-grades" class="pr-grades" role="group" aria-label="How well did you know it? Keys 1 to 4" tabindex="-1" hidden>`)
	for i, g := range []string{"Again", "Hard", "Good", "Easy"} {
		fmt.Fprintf(&w, `<button type="button" data-grade="%d"><kbd>%d</kbd> %s <span class="pr-interval"></span></button>`, i+1, i+1, g)
	}
	w.WriteString("</div>\n")
	w.WriteString(`<p class="pr-move"><button type="button" id="pr-prev">← Previous</button> <button type="button" id="pr-next">Next →</button></p>` + "\n")
	w.WriteString("</section>\n")

	w.WriteString(`<details id="pr-mock-box" class="pr-js pr-box"><summary>Mock interview</summary>` + "\n")
	w.WriteString(`<p>Questions drawn at random from the cards chosen above, a time limit for each; the answers come at the end, with links into the book. A mock interview does not change the schedule.</p>` + "\n")
	w.WriteString(`<form id="pr-mock-form"><p><label for="pr-mock-n">Questions</label> <input id="pr-mock-n" type="number" min="1" max="50" value="5"> <label for="pr-mock-secs">Seconds each</label> <input id="pr-mock-secs" type="number" min="1" max="3600" value="120"> <button type="submit" id="pr-mock-start">Start the interview</button></p></form>` + "\n")
	w.WriteString("</details>\n")
	w.WriteString(`<section id="pr-mock" class="pr-js pr-mock" aria-label="Mock interview" hidden><p id="pr-mock-count"></p><p id="pr-timer" class="pr-timer" role="timer" aria-live="off"></p><div id="pr-mock-card"></div><p><label for="pr-mock-answer">Your answer</label></p><p><textarea id="pr-mock-answer" rows="4"></textarea></p><p><button type="button" id="pr-mock-next">Next question</button> <button type="button" id="pr-mock-stop">End the interview</button></p></section>` + "\n")
	w.WriteString(`<section id="pr-results" class="pr-js pr-results" aria-labelledby="pr-results-title" hidden><h2 id="pr-results-title" tabindex="-1">How the interview went</h2><ol id="pr-results-list"></ol></section>` + "\n")

	w.WriteString(`<details id="pr-progress" class="pr-js pr-box"><summary>Your progress</summary>` + "\n")
	w.WriteString(`<p id="pr-progress-text"></p>` + "\n")
	w.WriteString(`<p><button type="button" id="pr-export">Export progress</button> <label class="pr-file">Import progress <input type="file" id="pr-import" accept="application/json,.json"></label> <button type="button" id="pr-reset">Reset progress</button> <span id="pr-reset-confirm" hidden>Forget every card's schedule? <button type="button" id="pr-reset-yes">Yes, reset</button> <button type="button" id="pr-reset-no">Keep it</button></span></p>` + "\n")
	w.WriteString(`<p id="pr-io-status" role="status"></p>` + "\n")
	w.WriteString("</details>\n")

	return w.String()
}

// writeCard writes one card.
func (b *build) writeCard(w *strings.Builder, r *renderer, c *practiceCard) {
	fmt.Fprintf(w, `<article class="pcard" data-card="%s" data-id="%s" data-chapter="%s" data-tags="%s"`,
		c.kind, html.EscapeString(c.id), html.EscapeString(c.chapter), html.EscapeString(strings.Join(c.tags, " ")))
	if c.difficulty != "" {
		fmt.Fprintf(w, ` data-difficulty="%s"`, c.difficulty)
	}
	if c.number != "" {
		fmt.Fprintf(w, ` data-number="%s" data-tolerance="%s"`, c.number, c.tolerance)
	}
	w.WriteString(">\n")
	kind := "Interview question"
	if c.kind == "predict" {
		kind = "Predict"
	}
	fmt.Fprintf(w, `<p class="pcard-meta"><span class="pcard-kind">%s</span>`, kind)
	if c.difficulty != "" {
		fmt.Fprintf(w, ` <span class="difficulty d-%[1]s">%[1]s</span>`, c.difficulty)
	}
	fmt.Fprintf(w, ` <a class="pcard-where" href="%s">%s</a></p>`+"\n", html.EscapeString(r.href(c.href)), html.EscapeString(c.where))
	fmt.Fprintf(w, `<h2 class="pcard-q">%s</h2>`+"\n", html.EscapeString(c.prompt))
	if c.code != "" {
		fmt.Fprintf(w, `<pre class="code" tabindex="0"><code class="language-go">%s</code></pre>`+"\n", c.code)
	}
	if c.context != "" {
		ctx := strings.Replace(html.EscapeString(c.context), blank, `<span class="pcard-blank">`+blank+`<span class="visually-hidden"> (the blank)</span></span>`, 1)
		fmt.Fprintf(w, `<p class="pcard-context">%s</p>`+"\n", ctx)
	}
	if c.tolerance != "" {
		fmt.Fprintf(w, `<p class="pcard-tolerance">A number: within ±%s of the book's counts as right.</p>`+"\n", c.tolerance)
	}
	if len(c.choices) > 0 {
		w.WriteString(`<ul class="pcard-choices">`)
		for _, ch := range c.choices {
			fmt.Fprintf(w, `<li>%s</li>`, html.EscapeString(ch))
		}
		w.WriteString("</ul>\n")
	}
	w.WriteString(`<details class="answer pcard-answer"><summary>Show the answer</summary>` + "\n")
	switch {
	case c.answerHTML != "":
		w.WriteString(`<div class="pcard-answer-body">` + c.answerHTML + "</div>\n")
	case c.code != "":
		fmt.Fprintf(w, `<pre class="output pcard-answer-body" tabindex="0"><code>%s</code></pre>`+"\n", html.EscapeString(c.answer))
	default:
		fmt.Fprintf(w, `<p class="pcard-answer-body">%s</p>`+"\n", html.EscapeString(c.answer))
	}
	fmt.Fprintf(w, `<p class="pcard-links"><a href="%s">Explained in the book →</a>`, html.EscapeString(r.href(c.href)))
	if c.more != "" {
		fmt.Fprintf(w, ` <a href="%s">The deep dive →</a>`, html.EscapeString(r.href(c.more)))
	}
	w.WriteString("</p>\n")
	w.WriteString("</details>\n</article>\n")
}
