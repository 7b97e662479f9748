package site

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/site/problems"
	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// The practice page (practice.html) drills the book in three kinds of
// card: the interview questions; predict cards made from what the build
// verified (a snippet with its output hidden, "What does this print?", and
// a checked prose value with its number hidden); and families of
// generated problems (package problems), each family one card whose every
// review draws a new problem that the engine answers and grades, in the
// reader's browser (the practice module, site/live/practice).
//
// A predict card must be one a person can answer: a snippet that runs the
// simulator makes none unless its author asks with drill= (then the card
// says its answer is simulated), a value computed from the simulator
// makes none when it counts cycles and is marked simulated otherwise, and
// no two cards come from one sentence (the first value of a sentence
// keeps it). Authors steer the rest: a snippet's nodrill flag or a
// <!-- nodrill --> comment after a value keeps it off, and drill="PROMPT"
// (a snippet) or <!-- drill: PROMPT --> (a value) adds the question to
// ask; a snippet with drill= is a card whatever the length of its output,
// and one whose answer is empty fails the build.
//
// The page itself holds the controls and an index of the cards; the
// cards' HTML comes in chunks, one script per chapter
// (assets/practice/cards-N.js), loaded when a card of it is shown, so the
// first view stays small. assets/practice.js schedules the cards with
// FSRS (assets/fsrs.js) in the reader's browser.

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
	explained  place  // where the book explains it
	where      string // that place in words
	more       place  // a question's own page, with its deep dive; no page for others
	simulated  bool   // its answer comes from the simulator: the model's, not a measurement
	pos        page.Pos
}

// place is a place of the site: an output path and an id there ("" for
// the top).
type place struct{ out, frag string }

// blank stands for the hidden part of a value's sentence.
const blank = "_____"

// practiceCards makes the cards of the whole book, in reading order:
// questions first, then the predict cards of each chapter, then those of
// the question pages. Problems (a drill without an answer) go to errs.
func (r *renderer) practiceCards() (cards []*practiceCard, errs page.Diagnostics) {
	b := r.b
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
			explained:  place{q.out, ""},
			where:      "Interview question",
			more:       place{q.out, ""},
			pos:        q.snip.Pos(0),
		}
		if s := q.sectionPage; s != nil {
			c.chapter, c.explained, c.where = chapterKey(s), place{s.out, q.sectionFrag}, s.title
			if q.sectionFrag != "" {
				for _, h := range s.headings {
					if h.id == q.sectionFrag {
						c.where = joinWhere(s.title, h.text)
						break
					}
				}
			}
		}
		if len(deep) > 0 {
			c.more.frag = "deep-dive"
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
	return r.href(practicePath, "") + "#chapter=" + escapeURL(chapterKey(chapter), unreserved)
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
	sim := newSimUse(p.snip)
	// The sentences of each block that a value card shows: no two cards
	// come from one sentence, so a card's context never gives another's
	// answer away.
	shown := map[ast.Node]map[int]bool{}
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
			c, err := b.cellCard(p, n.Cell, sim.cell(n.Cell))
			if err != nil {
				errs = append(errs, err)
			}
			if c != nil {
				c.chapter, c.tags, c.difficulty = chapter, tags, difficulty
				c.explained = place{p.out, "cell-" + n.Cell.ID()}
				c.where = joinWhere(where, sectionTitle)
				cards = append(cards, c)
			}
			return ast.WalkSkipChildren, nil
		case *page.CheckNode:
			ch := n.Check
			if ch.NoDrill || block == nil {
				return ast.WalkSkipChildren, nil
			}
			text := textOfMarked(block, src, n)
			simulated := sim.check(ch)
			if simulated && !simulatedAnswerable(text, ch.Text) {
				return ast.WalkSkipChildren, nil
			}
			if shown[block] == nil {
				shown[block] = map[int]bool{}
			}
			// Its own sentence must be free; the one before, which a short
			// sentence brings along, only when it is free too.
			_, _, first, mark := sentenceRange(text, true)
			if shown[block][mark] {
				return ast.WalkSkipChildren, nil
			}
			withPrev := first < mark && !shown[block][first]
			shown[block][mark] = true
			if withPrev {
				shown[block][first] = true
			}
			c := valueCard(ch, text, peers, withPrev)
			c.simulated = simulated
			key := ch.Expr + "\x00" + ch.Text
			seen[key]++
			c.id = "v:" + chapterKey(p) + ":" + shortHash(key, seen[key])
			c.chapter, c.tags, c.difficulty = chapter, tags, difficulty
			c.explained = place{p.out, section}
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

// simulatedAnswerable reports whether a value computed from the simulator
// makes a card a reader can answer: not a count of cycles (its text or
// the words around it say cycles), and either a percentage or a count of
// something the sentence names right after it (warps, blocks, bytes, ...),
// which the chapter's reasoning gives. Anything else is the model's
// number to look up, not to work out.
func simulatedAnswerable(text, value string) bool {
	if strings.Contains(strings.ToLower(value), "cycle") {
		return false
	}
	at := strings.Index(text, valueMark)
	if at < 0 {
		return false
	}
	before := strings.ToLower(text[max(0, at-40):at])
	after := strings.ToLower(text[at+len(valueMark):])
	if strings.Contains(before, "cycle") || strings.Contains(after[:min(40, len(after))], "cycle") {
		return false
	}
	if strings.Contains(value, "%") || strings.HasPrefix(strings.TrimSpace(after), "%") {
		return true
	}
	word := strings.Fields(after)
	if len(word) == 0 {
		return false
	}
	w := strings.Trim(word[0], ",.;:()")
	for _, unit := range []string{"warp", "block", "thread", "register", "byte", "sm", "sector", "instruction", "wave", "flop", "load", "pass", "wavefront", "stage", "kb"} {
		if strings.HasPrefix(w, unit) {
			return true
		}
	}
	return false
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
// are nodrill, skipped, expected to fail, that run the simulator
// (simulated), or that print nothing or too much are no card unless
// drill= asks for one; a drill whose answer is empty is an error at its
// drill= attribute.
func (b *build) cellCard(p *htmlPage, c *page.Cell, simulated bool) (*practiceCard, *page.Diagnostic) {
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
		if simulated || failure != "" || out == "" || strings.Count(out, "\n")+1 > autoDrillLines || len(code) > autoDrillCode || strings.TrimSpace(visible) == "" {
			return nil, nil
		}
	} else if answer == "" {
		return nil, &page.Diagnostic{Pos: c.DrillPos, ID: c.ID(),
			Msg: "drill= on a snippet that prints nothing: its drill has no answer (print what the reader should predict, or drop drill=)"}
	}
	card := &practiceCard{
		id:        "c:" + chapterKey(p) + ":" + c.ID(),
		kind:      "predict",
		prompt:    a.Drill,
		code:      b.highlight("go", visible),
		answer:    answer,
		simulated: simulated,
		pos:       c.Pos,
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
// that holds it, with the value marked; withPrev lets a short sentence
// bring the one before it along.
func valueCard(ch *page.Check, text string, peers map[string][]string, withPrev bool) *practiceCard {
	c := &practiceCard{kind: "predict", prompt: ch.Drill, answer: ch.Text, pos: ch.Pos}
	shown := blank
	if num, unit, ok := oneNumber(ch.Text); ok {
		c.number, c.tolerance = num, tolerance(num)
		shown = strings.Replace(ch.Text, displayOf(ch.Text, num), blank, 1)
		c.choices = choices(ch.Text, num, unit, peers[unit])
	}
	c.context = sentenceAround(text, shown, withPrev)
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
		return cmp.Or(cmp.Compare(dist(x), dist(y)), strings.Compare(x, y))
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
		return cmp.Compare(a, b)
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
// sentence is short and withPrev allows, and cut to about 300 bytes
// around the valueMark.
func sentenceAround(text, shown string, withPrev bool) string {
	at := strings.Index(text, valueMark)
	if at < 0 {
		return shown
	}
	start, end, _, _ := sentenceRange(text, withPrev)
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

// sentenceRange returns the bytes of text that sentenceAround shows before
// it cuts them (the sentence before the valueMark's too when that one is
// short and withPrev allows), and the indexes (from 0) of the first of
// the one or two sentences they are and of the valueMark's. The valueMark
// counts as the start of a sentence when it stands where one starts, so
// that the sentences are the same whichever value of a block is marked.
func sentenceRange(text string, withPrev bool) (start, end, first, mark int) {
	at := strings.Index(text, valueMark)
	starts := []int{0}
	end = len(text)
	for i := 0; i+2 < len(text); i++ {
		if (text[i] == '.' || text[i] == '?' || text[i] == '!' || text[i] == ':') && text[i+1] == ' ' && startsSentence(text[i+2:]) {
			if i < at {
				starts = append(starts, i+2)
			} else if end == len(text) {
				end = i + 1
			}
		}
	}
	mark = len(starts) - 1
	first = mark
	if withPrev && at-starts[mark]+(end-at) < 80 && mark > 0 {
		first--
	}
	return starts[first], end, first, mark
}

// startsSentence reports whether s opens a sentence: a capital, a digit,
// or a quote or bracket before one.
func startsSentence(s string) bool {
	s = strings.TrimLeft(s, "\"'(“‘")
	return s != "" && ('A' <= s[0] && s[0] <= 'Z' || '0' <= s[0] && s[0] <= '9' || strings.HasPrefix(s, valueMark))
}

// practiceChunkDir holds the scripts with the cards' HTML.
const practiceChunkDir = "assets/practice/"

// practiceIndex is what the page's script reads first: every card without
// its HTML, the families of generated problems, and where the rest is.
type practiceIndex struct {
	Book     string            `json:"book"`
	Chunks   []string          `json:"chunks"` // the scripts of the cards' HTML, from the page
	Cards    []indexCard       `json:"cards"`
	Families []indexFamily     `json:"families"`
	Module   string            `json:"module,omitempty"` // the practice module's script, from the page
	Off      string            `json:"off,omitempty"`    // why there is none
	Sections map[string]string `json:"sections"`         // a family's book section ("page.md#id") to its address from the page
}

type indexCard struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind"`
	Chapter    string   `json:"chapter"`
	Tags       []string `json:"tags"`
	Difficulty string   `json:"difficulty,omitempty"`
	Number     *float64 `json:"number"`
	Tolerance  *float64 `json:"tolerance"`
	Choices    []string `json:"choices"`
	Chunk      int      `json:"chunk"`
	Simulated  bool     `json:"simulated,omitempty"`
}

type indexFamily struct {
	ID      string   `json:"id"` // the family's card: "g:" + name
	Name    string   `json:"name"`
	Code    string   `json:"code"`
	Title   string   `json:"title"`
	Chapter string   `json:"chapter"`
	Tags    []string `json:"tags"`
	Href    string   `json:"href,omitempty"` // the section that teaches it, from the page; "" when the book lacks it
	Where   string   `json:"where,omitempty"`
}

// practicePage is the body of practice.html: the controls, the index of
// the cards and the families, and the places where the script shows one
// card, a generated problem, a mock interview and the reader's progress.
// The cards' HTML goes to one script per chapter (see practiceChunkDir).
// Without JavaScript the page says where the questions are.
func (r *renderer) practicePage() string {
	b := r.b
	cards, errs := r.practiceCards()
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
	idx := practiceIndex{Book: b.settings.Title, Module: "", Off: b.practiceOff, Sections: map[string]string{}}
	if b.practiceKernel != nil {
		idx.Module = r.href(practiceAsset(b.practiceKernel), "")
	}
	for _, f := range problems.Families() {
		fam := indexFamily{ID: "g:" + f.Name, Name: f.Name, Code: f.Code, Title: f.Title, Tags: f.Tags}
		if pg, frag, where, ok := b.sectionOf(f.Section); ok {
			fam.Href = r.href(pg.out, frag)
			fam.Chapter = chapterKey(pg)
			fam.Where = where
			idx.Sections[f.Section] = fam.Href
			chapters[fam.Chapter] = true
		}
		for _, t := range f.Tags {
			tags[t] = true
		}
		idx.Families = append(idx.Families, fam)
	}

	// The cards' HTML, a script per chapter, in reading order.
	chunkOf := map[string]int{}
	var chunks [][]chunkCard
	for _, c := range cards {
		n, ok := chunkOf[c.chapter]
		if !ok {
			n = len(chunks)
			chunkOf[c.chapter] = n
			chunks = append(chunks, nil)
		}
		var h strings.Builder
		r.writeCard(&h, c)
		chunks[n] = append(chunks[n], chunkCard{ID: c.id, HTML: h.String()})
		ic := indexCard{ID: c.id, Kind: c.kind, Chapter: c.chapter, Tags: c.tags, Difficulty: c.difficulty, Choices: c.choices, Chunk: n, Simulated: c.simulated}
		if ic.Tags == nil {
			ic.Tags = []string{}
		}
		if ic.Choices == nil {
			ic.Choices = []string{}
		}
		if c.number != "" {
			num, _ := strconv.ParseFloat(c.number, 64)
			tol, _ := strconv.ParseFloat(c.tolerance, 64)
			ic.Number, ic.Tolerance = &num, &tol
		}
		idx.Cards = append(idx.Cards, ic)
	}
	for i, ch := range chunks {
		name := practiceChunkDir + "cards-" + strconv.Itoa(i+1) + ".js"
		data, err := json.Marshal(ch)
		if err != nil {
			r.errs = append(r.errs, &page.Diagnostic{Pos: page.Pos{File: b.file(r.p.path)}, Msg: "practice cards: " + err.Error()})
			continue
		}
		b.put(name, []byte("warpbookPracticeCards("+strconv.Itoa(i)+", "+string(data)+");\n"))
		idx.Chunks = append(idx.Chunks, r.href(name, ""))
	}

	fmt.Fprintf(&w, `<p class="lead">%s, %s made from what the build verified, and %s of generated problems that the engine answers in your browser. Answer first, then see the answer; the page schedules each card again (FSRS, kept in this browser only), and a family of problems comes back with a new problem each time.</p>`+"\n",
		plural(questions, "interview question", "interview questions"), plural(predict, "predict card", "predict cards"), plural(len(idx.Families), "family", "families"))
	fmt.Fprintf(&w, `<noscript><p>The practice page needs JavaScript. The interview questions are also on <a href="%s">their own pages</a>, and every chapter has its snippets and their verified outputs.</p></noscript>`+"\n", html.EscapeString(r.href("questions/index.html", "")))

	// The controls.
	w.WriteString(`<form id="pr-filters" class="pr-js pr-filters" aria-label="Choose the cards">` + "\n")
	w.WriteString(`<p><label for="pr-kind">Cards</label> <select id="pr-kind"><option value="">all</option><option value="question">interview questions</option><option value="predict">predict the output</option><option value="problem">generated problems</option></select></p>` + "\n")
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
	for _, t := range slices.Sorted(maps.Keys(tags)) {
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

	// The card shown, and (with JavaScript) the answer under it.
	fmt.Fprintf(&w, `<div id="pr-cards" class="pr-js pr-cards" data-book="%s"></div>`+"\n", html.EscapeString(b.settings.Title))
	w.WriteString(`<section id="pr-drill" class="pr-js pr-drill" aria-label="Your answer">` + "\n")
	w.WriteString(`<form id="pr-answer-form"><p><label for="pr-answer">Your answer</label></p><p><textarea id="pr-answer" rows="2" spellcheck="false"></textarea></p><div id="pr-choices" class="pr-choices" role="group" aria-label="Or pick one"></div><p><button type="submit" id="pr-reveal">Show the answer <kbd>Enter</kbd></button></p></form>` + "\n")
	w.WriteString(`<p id="pr-verdict" class="pr-verdict" role="status"></p>` + "\n")
	w.WriteString(`<div id="pr-grades" class="pr-grades" role="group" aria-label="How well did you know it? Keys 1 to 4" tabindex="-1" hidden>`)
	for i, g := range []string{"Again", "Hard", "Good", "Easy"} {
		fmt.Fprintf(&w, `<button type="button" data-grade="%d"><kbd>%d</kbd> %s <span class="pr-interval"></span></button>`, i+1, i+1, g)
	}
	w.WriteString("</div>\n")
	w.WriteString(`<p class="pr-move"><button type="button" id="pr-another" hidden>Another problem</button> <button type="button" id="pr-prev">← Previous</button> <button type="button" id="pr-next">Next →</button></p>` + "\n")
	w.WriteString("</section>\n")

	w.WriteString(`<details id="pr-mock-box" class="pr-js pr-box"><summary>Mock interview</summary>` + "\n")
	w.WriteString(`<p>One scenario, followed up question after question, each changing one thing (a GPU, a block size, the ILP); the engine grades the answers at the end and says what you missed and where to read. A mock interview does not change the schedule.</p>` + "\n")
	fmt.Fprintf(&w, `<form id="pr-mock-form"><p><label for="pr-mock-n">Questions</label> <input id="pr-mock-n" type="number" min="3" max="%d" value="5"> <button type="submit" id="pr-mock-start">Start the interview</button></p></form>`+"\n", problems.MaxSteps)
	w.WriteString("</details>\n")
	w.WriteString(`<section id="pr-mock" class="pr-js pr-mock" aria-labelledby="pr-mock-count" hidden><h2 id="pr-mock-count" tabindex="-1"></h2><p id="pr-mock-change" class="pr-change"></p><div id="pr-mock-card"></div><p><button type="button" id="pr-mock-next">Next question</button> <button type="button" id="pr-mock-stop">End the interview</button></p></section>` + "\n")
	w.WriteString(`<section id="pr-results" class="pr-js pr-results" aria-labelledby="pr-results-title" hidden><h2 id="pr-results-title" tabindex="-1">How the interview went</h2><p id="pr-results-score"></p><ol id="pr-results-list"></ol></section>` + "\n")

	w.WriteString(`<details id="pr-progress" class="pr-js pr-box"><summary>Your progress</summary>` + "\n")
	w.WriteString(`<p id="pr-progress-text"></p>` + "\n")
	w.WriteString(`<p><button type="button" id="pr-export">Export progress</button> <label class="pr-file">Import progress <input type="file" id="pr-import" accept="application/json,.json"></label> <button type="button" id="pr-reset">Reset progress</button> <span id="pr-reset-confirm" hidden>Forget every card's schedule? <button type="button" id="pr-reset-yes">Yes, reset</button> <button type="button" id="pr-reset-no">Keep it</button></span></p>` + "\n")
	w.WriteString(`<p id="pr-io-status" role="status"></p>` + "\n")
	w.WriteString("</details>\n")

	data, err := json.Marshal(idx)
	if err != nil {
		r.errs = append(r.errs, &page.Diagnostic{Pos: page.Pos{File: b.file(r.p.path)}, Msg: "practice index: " + err.Error()})
	}
	// json.Marshal escapes <, > and &: the index cannot end its script.
	fmt.Fprintf(&w, `<script type="application/json" id="pr-index">%s</script>`+"\n", data)
	return w.String()
}

// chunkCard is one card of a chunk: its id and HTML.
type chunkCard struct {
	ID   string `json:"id"`
	HTML string `json:"html"`
}

// sectionOf resolves a family's section ("page.md#id") to the page of the
// book, the heading's id and the place in words; false when the book has
// no such heading (another book than warpbook's own: its families then
// link nowhere; TestPracticeBook holds warpbook's book to having them).
func (b *build) sectionOf(sec string) (*htmlPage, string, string, bool) {
	file, frag, _ := strings.Cut(sec, "#")
	pg := b.bySrc[file]
	if pg == nil || pg.out == "" {
		return nil, "", "", false
	}
	for _, h := range pg.headings {
		if h.id == frag {
			return pg, frag, joinWhere(pg.title, h.text), true
		}
	}
	return nil, "", "", false
}

// practiceAsset is where the site keeps the practice module's script.
func practiceAsset(k *live.Kernel) string {
	return "assets/practice-" + k.Key[:16] + ".js"
}

// practiceModule builds (or finds) the practice page's module when the
// book has a practice page. One that cannot be built is a warning: the
// page then says why it has no generated problems.
func (b *build) practiceModule() error {
	if b.practice == nil {
		return nil
	}
	if b.opts.Practice == nil {
		b.practiceOff = "this site was built without the practice module"
		return nil
	}
	k, err := b.opts.Practice(b.ctx)
	if err != nil {
		b.practiceOff = "the practice module could not be built: " + err.Error()
		b.warnf("readers cannot generate problems in this build: %v", err)
		return nil
	}
	b.practiceKernel = k
	b.put(practiceAsset(k), k.Script)
	return nil
}

// writeCard writes one card.
func (r *renderer) writeCard(w *strings.Builder, c *practiceCard) {
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
	if c.simulated {
		w.WriteString(` <span class="pcard-sim" title="The answer comes from the simulator: the model's figure, not a measurement">simulated</span>`)
	}
	fmt.Fprintf(w, ` <a class="pcard-where" href="%s">%s</a></p>`+"\n", r.href(c.explained.out, c.explained.frag), html.EscapeString(c.where))
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
	fmt.Fprintf(w, `<p class="pcard-links"><a href="%s">Explained in the book →</a>`, r.href(c.explained.out, c.explained.frag))
	if c.more.out != "" {
		fmt.Fprintf(w, ` <a href="%s">The deep dive →</a>`, r.href(c.more.out, c.more.frag))
	}
	w.WriteString("</p>\n")
	w.WriteString("</details>\n</article>\n")
}
