package figure

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/warpbook/warpbook/engine/sim"
	"github.com/warpbook/warpbook/snippets/page"
)

// defaultProgram is a dependent FFMA chain: each warp can issue once per
// FMA latency, so the warps a scheduler needs to fill its issue slot show.
const defaultProgram = `- loop: 64
  body:
    - {op: FFMA, dst: r0, src: [r0, r1]}
- {op: EXIT}
`

// maxFigureCycles bounds the cycles a figure simulates, all its runs
// together: 16 million, more than ten times what the book's largest figure
// uses, so that no figure can stall a build.
const maxFigureCycles = 16_000_000

// simulate runs w with cfg within what is left of the figure's budget of
// cycles, and takes what it used from the budget.
func (s *spec) simulate(cfg sim.Config, w sim.Workload) (*sim.Result, error) {
	if s.cycles <= 0 {
		return nil, s.overBudget()
	}
	cfg.MaxCycles = int(s.cycles)
	r, err := cfg.Run(w)
	if errors.Is(err, sim.ErrMaxCycles) {
		return nil, s.overBudget()
	}
	if se := (*sim.Error)(nil); errors.As(err, &se) && se.Path == "policy" {
		return nil, s.errorf("policy", "%s", se.Msg)
	}
	if err != nil {
		return nil, err
	}
	s.cycles -= int64(r.RunCycles)
	return r, nil
}

func (s *spec) overBudget() *Error {
	return &Error{Msg: fmt.Sprintf("the figure's simulations run past %d cycles in all, the limit on a figure: shorten the program, or draw fewer warps or lines", maxFigureCycles)}
}

// workload makes the simulator workload of a figure: program prog on a
// machine, with blocks blocks of block threads resident on the simulated
// SM (the grid has that many per SM: blocks are dealt to the SMs in turn).
// An error in the program is reported at its line of the figure.
func (s *spec) workload(m sim.Machine, prog program, block, blocks int) (sim.Workload, error) {
	text := prog.text
	if strings.TrimSpace(text) == "" {
		text = defaultProgram
	}
	p, err := sim.ParseProgram("figure", []byte(text))
	if err != nil {
		var se *sim.Error
		if !errors.As(err, &se) {
			return sim.Workload{}, &Error{Msg: err.Error()}
		}
		line, col := s.programPos(prog.key, se.Line, se.Col)
		return sim.Workload{}, &Error{Line: line, Col: col, Msg: se.Msg}
	}
	return sim.Workload{
		GPU:     m.Name,
		Policy:  s.Policy,
		Launch:  sim.Launch{Block: block, Blocks: blocks * max(m.SMs, 1), Resident: blocks, Regs: 32},
		Program: p,
	}, nil
}

// programPos moves line:col of a program onto the figure: the program is
// the value of the key at path key, a YAML block string ("program: |")
// whose lines follow the key's, indented. A program written on the key's
// own line is reported at the key.
func (s *spec) programPos(key string, line, col int) (int, int) {
	at := s.keys[key]
	lines := strings.Split(string(s.src), "\n")
	if at.Line < 1 || at.Line > len(lines) || line < 1 {
		return at.Line, at.Col
	}
	_, value, _ := strings.Cut(lines[at.Line-1][at.Col-1:], ":")
	if v := strings.TrimSpace(value); !strings.HasPrefix(v, "|") && !strings.HasPrefix(v, ">") {
		return at.Line, at.Col
	}
	l := at.Line + line
	if l > len(lines) {
		return at.Line, at.Col
	}
	// The block's indentation is its first non-blank line's.
	indent := 0
	for _, c := range lines[at.Line:] {
		if strings.TrimSpace(c) != "" {
			indent = len(c) - len(strings.TrimLeft(c, " "))
			break
		}
	}
	return l, indent + max(col, 1)
}

// A program is one program of a figure, with its label in the legend.
type program struct {
	label string
	text  string // "" for the default program
	key   string // the path of its key in the figure, for its errors
}

// program returns the figure's one program, for the kinds that run one.
func (s *spec) program() (program, error) {
	switch p := s.Program.(type) {
	case nil:
		return program{key: "program"}, nil
	case string:
		return program{text: p, key: "program"}, nil
	}
	return program{}, s.errorf("program", "%s runs one program: give program as a YAML block string (program: |)", s.Kind)
}

var varName = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// programs returns the programs that give an issue-vs-warps figure's
// lines: the one program, each of a list of labelled programs, or the one
// program with $name replaced by each value that vary lists.
func (s *spec) programs() ([]program, string, error) {
	if list, ok := s.Program.([]any); ok {
		if s.Vary != nil {
			return nil, "", s.errorf("vary", "vary takes one program with $name in it, not a list of programs")
		}
		var out []program
		seen := map[string]bool{}
		for i, item := range list {
			m, ok := item.(map[string]any)
			at := fmt.Sprintf("program[%d]", i)
			if _, ok := s.keys[at+".label"]; ok {
				at += ".label"
			}
			bad := func(format string, args ...any) error {
				p := s.keys[at]
				return &Error{Line: p.Line, Col: p.Col, Msg: fmt.Sprintf("program %d: ", i+1) + fmt.Sprintf(format, args...)}
			}
			if !ok {
				return nil, "", bad("a list of programs holds {label: ..., program: |...} items")
			}
			label, _ := m["label"].(string)
			text, _ := m["program"].(string)
			for k := range m {
				if k != "label" && k != "program" {
					at = fmt.Sprintf("program[%d].%s", i, k)
					return nil, "", bad("unknown key %q (a program has label and program)", k)
				}
			}
			switch {
			case strings.TrimSpace(label) == "":
				return nil, "", bad("label is missing: it names the line in the legend")
			case strings.TrimSpace(text) == "":
				return nil, "", bad("(%s): program is missing: a YAML block string (program: |)", label)
			case seen[label]:
				return nil, "", bad("label %q is used twice", label)
			}
			seen[label] = true
			out = append(out, program{label: label, text: text, key: fmt.Sprintf("program[%d].program", i)})
		}
		if len(out) == 0 {
			return nil, "", s.errorf("program", "the list of programs is empty")
		}
		return out, "program", nil
	}
	one, err := s.program()
	if err != nil {
		return nil, "", err
	}
	if s.Vary == nil {
		return []program{one}, "", nil
	}
	vary, ok := s.Vary.(map[string]any)
	if !ok || len(vary) != 1 {
		return nil, "", s.errorf("vary", "vary is one name with a list of values, e.g. vary: {ilp: [1, 2, 4]}, and the program uses $ilp")
	}
	var name string
	var values any
	for k, v := range vary {
		name, values = k, v
	}
	if !varName.MatchString(name) {
		return nil, "", s.errorf("vary", "vary: name %q: use lower-case letters, digits and _", name)
	}
	ref := regexp.MustCompile(`\$` + name + `\b`)
	if !ref.MatchString(one.text) {
		return nil, "", s.errorf("vary", "vary: the program never uses $%s", name)
	}
	vals := strs(values)
	if _, isList := values.([]any); !isList || len(vals) == 0 {
		return nil, "", s.errorf("vary", "vary: %s needs a list of values", name)
	}
	if len(vals) > maxSeries {
		return nil, "", s.errorf("vary", "at most %d lines per figure, not %d", maxSeries, len(vals))
	}
	var out []program
	for _, v := range vals {
		// Each $name becomes v: keep the program within the limit on the
		// YAML it came from.
		if grown := len(one.text) + len(ref.FindAllStringIndex(one.text, -1))*(len(v)-1-len(name)); grown > page.MaxYAMLBytes {
			return nil, "", s.errorf("vary", "vary: the program with $%s = %.20q is %d bytes, more than 64 KiB, the limit", name, v, grown)
		}
		out = append(out, program{
			label: name + " = " + v,
			text:  ref.ReplaceAllLiteralString(one.text, v),
			key:   one.key,
		})
	}
	return out, name, nil
}

// measure returns the run configuration that measures what the figure's
// measure key asks for, and its words for the caption of the data table.
func (s *spec) measure() (sim.Config, string, error) {
	switch v := s.Measure.(type) {
	case nil:
		return sim.Config{}, "", nil
	case string:
		switch v {
		case "whole":
			return sim.Config{}, "", nil
		case "steady":
			return sim.Config{Steady: true}, "steady", nil
		}
	case []any:
		w, err := s.ints("measure", v)
		if err != nil {
			return sim.Config{}, "", err
		}
		if len(w) == 2 && w[0] >= 0 && w[1] > w[0] {
			return sim.Config{Measure: sim.Window{From: w[0], To: w[1]}}, "window", nil
		}
	}
	return sim.Config{}, "", s.errorf("measure", "measure is whole (the default), steady (leave out the start-up and the tail) or [from, to] (cycles from ≤ cycle < to)")
}

func (s *spec) machines() ([]sim.Machine, error) {
	names := strs(s.Machine)
	if len(names) == 0 {
		names = []string{"volta"}
	}
	var ms []sim.Machine
	for _, n := range names {
		m, err := sim.Preset(n)
		if err != nil {
			return nil, s.errorf("machine", "%v", err)
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// drawIssueVsWarps draws issue-slot utilisation against resident warps per
// scheduler: the latency-hiding curve, from the simulator. One line per
// machine, per program or per value of a varied parameter.
func drawIssueVsWarps(s *spec, id string) (*Figure, error) {
	ms, err := s.machines()
	if err != nil {
		return nil, err
	}
	progs, varied, err := s.programs()
	if err != nil {
		return nil, err
	}
	if len(ms) > 1 && len(progs) > 1 {
		return nil, &Error{Msg: "only one of machine, program and vary may give the figure's lines"}
	}
	if n := max(len(ms), len(progs)); n > maxSeries {
		key := "machine"
		switch {
		case varied == "program":
			key = "program"
		case len(progs) > 1:
			key = "vary"
		}
		return nil, s.errorf(key, "at most %d lines per figure, not %d", maxSeries, n)
	}
	cfg, how, err := s.measure()
	if err != nil {
		return nil, err
	}
	wr, err := s.ints("warps", s.Warps)
	if err != nil {
		return nil, err
	}
	from, to := 1, 0
	switch len(wr) {
	case 0:
	case 1:
		to = wr[0]
	case 2:
		from, to = wr[0], wr[1]
	default:
		return nil, s.errorf("warps", "warps is the most warps per scheduler, or [from, to]")
	}
	type point struct {
		warps int
		r     *sim.Result
	}
	type line struct {
		label string
		pts   []point
	}
	var lines []line
	column := "machine"
	if len(progs) > 1 {
		column = varied
	}
	for i := range max(len(ms), len(progs)) {
		m, prog := ms[min(i, len(ms)-1)], progs[min(i, len(progs)-1)]
		label := m.Name
		if len(progs) > 1 {
			label = prog.label
		}
		most := min(m.MaxWarps/m.Schedulers, m.MaxBlocks)
		hi := to
		if hi == 0 {
			hi = most
		}
		if from < 1 || hi < from || hi > most {
			return nil, s.errorf("warps", "%s holds 1 to %d warps per scheduler here (one warp per scheduler per block)", m.Name, most)
		}
		var pts []point
		for k := from; k <= hi; k++ {
			w, err := s.workload(m, prog, 32*m.Schedulers, k)
			if err != nil {
				return nil, err
			}
			r, err := s.simulate(cfg, w)
			var fe *Error
			if err != nil && how == "window" && !errors.As(err, &fe) {
				return nil, s.errorf("measure", "%s with %s per scheduler: %v", label, plural(k, "warp", "warps"), err)
			}
			if err != nil {
				return nil, err // Draw makes it an *Error
			}
			if r.ResidentBlocks < k {
				return nil, s.errorf("warps", "%s keeps only %d blocks resident (%s), not %d", m.Name, r.ResidentBlocks, r.Limiter, k)
			}
			pts = append(pts, point{k, r})
		}
		lines = append(lines, line{label, pts})
	}
	lo, hi := from, 0
	for _, l := range lines {
		hi = max(hi, l.pts[len(l.pts)-1].warps)
	}
	if hi == lo {
		hi = lo + 1
	}
	var labels []string
	for _, l := range lines {
		labels = append(labels, l.label)
	}
	leg, height := legendLayout(labels)

	var c canvas
	xs := func(x float64) float64 { return padL + (x-float64(lo))/float64(hi-lo)*innerW }
	ys := func(y float64) float64 { return padT + (1-y/100)*innerH }
	header(&c, id, s.Alt, height)
	for _, y := range []float64{0, 25, 50, 75, 100} {
		c.line(padL, ys(y), padL+innerW, ys(y), "fig-grid")
		c.text(padL-8, ys(y)+4, "end", "fig-muted", fmt.Sprintf("%d %%", int(y)))
	}
	for _, x := range ticks(float64(lo), float64(hi), 8) {
		if x != float64(int(x)) {
			continue
		}
		c.line(xs(x), padT+innerH, xs(x), padT+innerH+4, "fig-axis")
		c.text(xs(x), padT+innerH+17, "middle", "fig-muted", fmt.Sprint(int(x)))
	}
	ylabel := map[string]string{
		"":       "issue-slot utilisation",
		"steady": "issue-slot use, steady state",
		"window": "issue-slot use in the window",
	}[how]
	axes(&c, "resident warps per scheduler", ylabel)
	for i, l := range lines {
		var pts [][2]float64
		for _, p := range l.pts {
			pts = append(pts, [2]float64{xs(float64(p.warps)), ys(p.r.IssueActive)})
		}
		c.path(pts, fmt.Sprintf("fig-line fig-s%d", i+1))
		for _, p := range l.pts {
			c.circle(xs(float64(p.warps)), ys(p.r.IssueActive), 3.5, fmt.Sprintf("fig-dot fig-f%d", i+1),
				fmt.Sprintf("%s, %d warps per scheduler: %.1f %% of issue slots used, %.2f eligible warps per cycle", l.label, p.warps, p.r.IssueActive, p.r.WarpsEligible))
		}
	}
	if len(lines) > 1 {
		drawLegend(&c, leg)
	}
	c.b.WriteString("</svg>")

	var t strings.Builder
	t.WriteString("<table>\n<thead><tr>")
	fmt.Fprintf(&t, "<th>%s</th><th>warps per scheduler</th><th>issue slots used</th><th>eligible warps per cycle</th><th>warp cycles per issued instruction</th>", esc(column))
	if how != "" {
		t.WriteString("<th>cycles measured</th>")
	}
	t.WriteString("</tr></thead>\n<tbody>\n")
	for _, l := range lines {
		for _, p := range l.pts {
			t.WriteString("<tr>")
			fmt.Fprintf(&t, "<td>%s</td><td>%d</td><td>%.1f %%</td><td>%.2f</td><td>%.2f</td>", esc(l.label), p.warps, p.r.IssueActive, p.r.WarpsEligible, p.r.WarpCyclesPerIssue)
			if how != "" {
				fmt.Fprintf(&t, "<td>%d to %d of %d</td>", p.r.Measured.From, p.r.Measured.To-1, p.r.RunCycles)
			}
			t.WriteString("</tr>\n")
		}
	}
	t.WriteString("</tbody>\n</table>")
	return &Figure{SVG: c.b.String(), Data: t.String()}, nil
}

// header opens a plot's SVG, h units high, labelled by its alt text.
func header(c *canvas, id, alt string, h float64) {
	c.printf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" role="img" aria-labelledby="%s-title" id="%s">`+"\n",
		num(plotW), num(h), id, id)
	c.printf(`<title id="%s-title">%s</title>`+"\n", id, esc(strings.TrimSpace(alt)))
	c.rect(0, 0, plotW, h, "fig-bg", "")
}

func axes(c *canvas, xlabel, ylabel string) {
	c.line(padL, padT+innerH, padL+innerW, padT+innerH, "fig-axis")
	c.line(padL, padT, padL, padT+innerH, "fig-axis")
	c.text(padL+innerW/2, plotH-8, "middle", "fig-text", xlabel)
	c.printf(`<text x="14" y="%s" text-anchor="middle" class="fig-text" transform="rotate(-90 14 %s)">%s</text>`+"\n",
		num(padT+innerH/2), num(padT+innerH/2), esc(ylabel))
}

// legendItem is one entry of a plot's legend: a line sample and its label.
type legendItem struct {
	label string
	x, y  float64 // the sample's left end, on the label's middle line
}

// legendLayout places the legend of a plot with these lines. One row that
// fits sits above the plot, right-aligned; a longer legend goes below the
// axis label, in as many rows as it needs, and the plot grows to h.
func legendLayout(labels []string) (items []legendItem, h float64) {
	width := func(l string) float64 { return 14 + 4 + 6.8*float64(len([]rune(l))) + 16 }
	total := 0.0
	for _, l := range labels {
		total += width(l)
	}
	if len(labels) < 2 {
		return nil, plotH
	}
	if total <= innerW {
		x := padL + innerW - total
		for _, l := range labels {
			items = append(items, legendItem{l, x, 14})
			x += width(l)
		}
		return items, plotH
	}
	x, y := padL, plotH+6
	for _, l := range labels {
		if x > padL && x+width(l) > padL+innerW {
			x, y = padL, y+18
		}
		items = append(items, legendItem{l, x, y})
		x += width(l)
	}
	return items, y + 14
}

// drawLegend draws a legend placed by legendLayout; item i samples line i.
func drawLegend(c *canvas, items []legendItem) {
	for i, it := range items {
		c.line(it.x, it.y, it.x+14, it.y, fmt.Sprintf("fig-line fig-s%d", i+1))
		c.text(it.x+18, it.y+4, "start", "fig-text", it.label)
	}
}

// drawTimeline draws the warp-state timeline of one scheduler's warps:
// one row per warp slot, one column per cycle, coloured by the state
// Nsight Compute would report.
func drawTimeline(s *spec, id string) (*Figure, error) {
	ms, err := s.machines()
	if err != nil {
		return nil, err
	}
	if len(ms) != 1 {
		return nil, s.errorf("machine", "a timeline shows one machine")
	}
	m := ms[0]
	wv, err := s.ints("warps", s.Warps)
	if err != nil {
		return nil, err
	}
	warps := 4
	if len(wv) == 1 {
		warps = wv[0]
	} else if len(wv) > 1 {
		return nil, s.errorf("warps", "warps is the number of warps per scheduler")
	}
	most := min(m.MaxWarps/m.Schedulers, m.MaxBlocks)
	if warps < 1 || warps > most {
		return nil, s.errorf("warps", "%s holds 1 to %d warps per scheduler here", m.Name, most)
	}
	cv, err := s.ints("cycles", s.Cycles)
	if err != nil {
		return nil, err
	}
	from, to := 0, 48
	switch len(cv) {
	case 0:
	case 2:
		from, to = cv[0], cv[1]
	default:
		return nil, s.errorf("cycles", "cycles is [from, to]")
	}
	if from < 0 || to <= from || to-from > 400 {
		return nil, s.errorf("cycles", "cycles is [from, to] with from < to, at most 400 cycles")
	}
	sched := 0
	if s.Scheduler != nil {
		sched = *s.Scheduler
	}
	if sched < 0 || sched >= m.Schedulers {
		return nil, s.errorf("scheduler", "%s has schedulers 0 to %d", m.Name, m.Schedulers-1)
	}
	prog, err := s.program()
	if err != nil {
		return nil, err
	}
	w, err := s.workload(m, prog, 32*m.Schedulers, warps)
	if err != nil {
		return nil, err
	}
	r, err := s.simulate(sim.Config{Trace: sim.Window{From: from, To: to}}, w)
	if err != nil {
		return nil, err
	}
	tr := r.Trace
	var slots []int
	for slot := sched; slot < tr.Slots; slot += m.Schedulers {
		for cy := from; cy < to; cy++ {
			if tr.At(slot, cy) != sim.Empty {
				slots = append(slots, slot)
				break
			}
		}
	}
	if len(slots) == 0 {
		return nil, s.errorf("cycles", "no warp is resident on scheduler %d in cycles %d to %d", sched, from, to)
	}

	const rowH, labelW = 22.0, 76.0
	cw := (plotW - labelW - padR) / float64(to-from)

	// Count the states first: the legend lists those that occur.
	counts := map[sim.State]int{}
	for _, slot := range slots {
		for cy := from; cy < to; cy++ {
			counts[tr.At(slot, cy)]++
		}
	}
	type entry struct {
		name string
		x, y float64
	}
	var leg []entry
	axisY := padT + float64(len(slots))*rowH + 4
	lx, ly := labelW, axisY+44
	for _, st := range sim.States() {
		if counts[st] == 0 {
			continue
		}
		name := st.String()
		wdt := 16 + 6.6*float64(len(stateCodes[name])+1+len(name)) + 14
		if lx+wdt > plotW-padR {
			lx, ly = labelW, ly+18
		}
		leg = append(leg, entry{name, lx, ly})
		lx += wdt
	}
	h := ly + 12

	var c canvas
	c.printf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" role="img" aria-labelledby="%s-title" id="%s">`+"\n", num(plotW), num(h), id, id)
	c.printf(`<title id="%s-title">%s</title>`+"\n", id, esc(strings.TrimSpace(s.Alt)))
	c.rect(0, 0, plotW, h, "fig-bg", "")
	c.text(labelW, padT-10, "start", "fig-muted", fmt.Sprintf("%s, scheduler %d, %d warps per scheduler, cycles %d to %d", m.Name, sched, warps, from, to-1))
	for i, slot := range slots {
		y := padT + float64(i)*rowH
		label := fmt.Sprintf("slot %d", slot)
		if sp, ok := tr.SpanAt(slot, from); ok {
			label = fmt.Sprintf("warp %d.%d", sp.Block, sp.Warp)
		}
		c.text(labelW-8, y+rowH/2+4, "end", "fig-text", label)
		segs := stateRuns(tr, slot, from, to)
		for i := 0; i < len(segs); {
			// A stretch of states too narrow to point at one by one (a
			// warp alternating between selected and a throttle each
			// cycle) is one group with one tooltip that counts them.
			j := i
			for j < len(segs) && float64(segs[j].end-segs[j].start)*cw < narrow {
				j++
			}
			if j-i >= 2 {
				c.printf(`<g><title>%s</title>`+"\n", esc(stretchTitle(label, segs[i:j])))
				for _, sg := range segs[i:j] {
					if sg.st != sim.Empty {
						c.rect(labelW+float64(sg.start-from)*cw, y+2, float64(sg.end-sg.start)*cw, rowH-4, "st st-"+sg.st.String(), "")
					}
				}
				c.b.WriteString("</g>\n")
				i = j
				continue
			}
			sg := segs[i]
			i++
			if sg.st == sim.Empty {
				continue
			}
			title := fmt.Sprintf("%s, cycle %d: %s", label, sg.start, sg.st)
			if sg.end-sg.start > 1 {
				title = fmt.Sprintf("%s, cycles %d to %d: %s", label, sg.start, sg.end-1, sg.st)
			}
			x, w := labelW+float64(sg.start-from)*cw, float64(sg.end-sg.start)*cw
			c.rect(x, y+2, w, rowH-4, "st st-"+sg.st.String(), title)
			// The state's code where it fits, so that no state is told by
			// colour alone.
			if code := stateCodes[sg.st.String()]; w >= 7*float64(len(code))+4 {
				c.text(x+w/2, y+rowH/2+4, "middle", "st-code st-code-"+sg.st.String(), code)
			}
		}
	}
	c.line(labelW, axisY, labelW+float64(to-from)*cw, axisY, "fig-axis")
	for _, x := range ticks(float64(from), float64(to-1), 8) {
		if x != float64(int(x)) {
			continue
		}
		px := labelW + (x-float64(from)+0.5)*cw
		c.line(px, axisY, px, axisY+4, "fig-axis")
		c.text(px, axisY+16, "middle", "fig-muted", fmt.Sprint(int(x)))
	}
	c.text(labelW+float64(to-from)*cw/2, axisY+30, "middle", "fig-text", "cycle")
	for _, e := range leg {
		c.rect(e.x, e.y-10, 12, 12, "st st-"+e.name, "")
		c.text(e.x+16, e.y, "start", "fig-muted", stateCodes[e.name]+" "+e.name)
	}
	c.b.WriteString("</svg>")
	svg := c.b.String()

	var t strings.Builder
	total := 0
	for _, st := range sim.States() {
		total += counts[st] // Empty cells are not warp-cycles
	}
	t.WriteString("<table>\n<thead><tr><th>state</th><th>warp-cycles</th><th>share</th></tr></thead>\n<tbody>\n")
	for _, st := range sim.States() {
		if counts[st] > 0 {
			fmt.Fprintf(&t, "<tr><td>%s</td><td>%d</td><td>%.1f %%</td></tr>\n", st, counts[st], 100*float64(counts[st])/float64(total))
		}
	}
	t.WriteString("</tbody>\n</table>")
	return &Figure{SVG: svg, Data: t.String()}, nil
}

// drawStepper draws one SM's warp slots, the slots a block fills, and the
// order in which those warps first issue: simulated, or measured when the
// figure gives the cycles. Without JavaScript every slot shows its order
// and cycle; with it, a step control lights them one by one.
func drawStepper(s *spec, id string) (*Figure, error) {
	ms, err := s.machines()
	if err != nil {
		return nil, err
	}
	if len(ms) != 1 {
		return nil, s.errorf("machine", "a stepper shows one machine")
	}
	m := ms[0]
	tv, err := s.ints("threads", s.Threads)
	if err != nil {
		return nil, err
	}
	threads := 256
	if len(tv) == 1 {
		threads = tv[0]
	} else if len(tv) > 1 {
		return nil, s.errorf("threads", "threads is one block size")
	}
	if threads < 1 || threads > m.MaxThreadsPerBlock || (threads+31)/32 > m.MaxWarps {
		return nil, s.errorf("threads", "%s takes blocks of 1 to %d threads", m.Name, min(m.MaxThreadsPerBlock, 32*m.MaxWarps))
	}
	nw := (threads + 31) / 32
	first := make([]int, nw) // first-issue cycle of each warp of the block
	source := "simulated"
	if s.Measured != nil {
		if len(s.Measured) != nw {
			return nil, s.errorf("measured", "measured lists the cycle of each of the block's %d warps, in warp order; it has %d", nw, len(s.Measured))
		}
		copy(first, s.Measured)
		source = "measured"
	} else {
		prog, err := s.program()
		if err != nil {
			return nil, err
		}
		w, err := s.workload(m, prog, threads, 1)
		if err != nil {
			return nil, err
		}
		r, err := s.simulate(sim.Config{Trace: sim.Window{From: 0, To: 2048}}, w)
		if err != nil {
			return nil, err
		}
		for i := range first {
			first[i] = -1
		}
		for _, is := range r.Trace.IssueOrder() {
			if is.Block == 0 && is.Warp < nw && first[is.Warp] < 0 {
				first[is.Warp] = is.Cycle
			}
		}
		for i, f := range first {
			if f < 0 {
				return nil, s.errorf("program", "warp %d never issued in the first 2,048 cycles", i)
			}
		}
	}
	// The order: by cycle, then warp index.
	order := make([]int, nw) // order[w] = 1-based rank
	for w := range first {
		rank := 1
		for v := range first {
			if first[v] < first[w] || first[v] == first[w] && v < w {
				rank++
			}
		}
		order[w] = rank
	}

	cols := m.Schedulers
	rows := (m.MaxWarps + cols - 1) / cols
	const cellW, cellH, gap = 120.0, 34.0, 8.0
	left := (plotW - float64(cols)*(cellW+gap) + gap) / 2
	top := 46.0
	h := top + float64(rows)*(cellH+gap) + 20
	var c canvas
	c.printf(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" role="img" aria-labelledby="%s-title" id="%s" data-stepper="%d">`+"\n",
		num(plotW), num(h), id, id, nw)
	c.printf(`<title id="%s-title">%s</title>`+"\n", id, esc(strings.TrimSpace(s.Alt)))
	c.rect(0, 0, plotW, h, "fig-bg", "")
	c.text(plotW/2, 18, "middle", "fig-muted", fmt.Sprintf("%s: %d warp slots, %d schedulers; one block of %d threads; first-issue order %s",
		m.Name, m.MaxWarps, m.Schedulers, threads, source))
	for col := range cols {
		c.text(left+float64(col)*(cellW+gap)+cellW/2, top-8, "middle", "fig-text", fmt.Sprintf("scheduler %d", col))
	}
	for slot := 0; slot < m.MaxWarps; slot++ {
		col, row := slot%cols, slot/cols
		x, y := left+float64(col)*(cellW+gap), top+float64(row)*(cellH+gap)
		if slot >= nw {
			c.rect(x, y, cellW, cellH, "fig-idle", fmt.Sprintf("slot %d: empty", slot))
			continue
		}
		wp := slot // a block's warps take the lowest free slots
		c.printf(`<g class="fig-slot" data-order="%d">`, order[wp])
		c.rect(x, y, cellW, cellH, "fig-lit", fmt.Sprintf("warp %d in slot %d, scheduler %d: issued %s in cycle %d", wp, slot, col, ordinal(order[wp]), first[wp]))
		c.text(x+8, y+cellH/2+4, "start", "fig-slot-text", fmt.Sprintf("w%d", wp))
		c.text(x+cellW-8, y+cellH/2+4, "end", "fig-slot-text", fmt.Sprintf("#%d · cycle %d", order[wp], first[wp]))
		c.b.WriteString("</g>\n")
	}
	c.b.WriteString("</svg>")

	var t strings.Builder
	t.WriteString("<table>\n<thead><tr><th>order</th><th>warp</th><th>slot</th><th>scheduler</th><th>first issue (cycle)</th></tr></thead>\n<tbody>\n")
	for rank := 1; rank <= nw; rank++ {
		for w := range order {
			if order[w] == rank {
				fmt.Fprintf(&t, "<tr><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>\n", rank, w, w, w%cols, first[w])
			}
		}
	}
	t.WriteString("</tbody>\n</table>")
	return &Figure{SVG: c.b.String(), Data: t.String()}, nil
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// stateCodes are the short names of the warp states that a timeline
// writes on each run wide enough to hold one, and in its legend.
var stateCodes = map[string]string{
	"selected": "S", "not_selected": "N", "wait": "W", "short_scoreboard": "SS",
	"long_scoreboard": "L", "barrier": "B", "membar": "M", "math_pipe_throttle": "MP",
	"mio_throttle": "IO", "lg_throttle": "LG", "no_instruction": "NI",
	"branch_resolving": "BR", "drain": "D", "sleeping": "Z", "gmma": "G",
}

// narrow is the width in pixels below which a timeline's state is too
// narrow to point at alone.
const narrow = 4.0

// stateRun is one slot's state over cycles [start, end).
type stateRun struct {
	st         sim.State
	start, end int
}

// stateRuns splits one slot's cycles [from, to) of a trace into runs of one
// state.
func stateRuns(tr *sim.Trace, slot, from, to int) []stateRun {
	var out []stateRun
	for cy := from; cy < to; {
		st := tr.At(slot, cy)
		end := cy + 1
		for end < to && tr.At(slot, end) == st {
			end++
		}
		out = append(out, stateRun{st, cy, end})
		cy = end
	}
	return out
}

// stretchTitle says what a stretch of narrow runs holds: its cycles and the
// cycles of each state in it, in the order Nsight Compute lists them.
func stretchTitle(label string, runs []stateRun) string {
	cycles := map[sim.State]int{}
	for _, r := range runs {
		cycles[r.st] += r.end - r.start
	}
	var parts []string
	for _, st := range sim.States() {
		if n := cycles[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", st, n))
		}
	}
	return fmt.Sprintf("%s, cycles %d to %d: %s", label, runs[0].start, runs[len(runs)-1].end-1, strings.Join(parts, ", "))
}
