package main

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/site/problems"
)

var practiceCommand = command{
	summary: "answer generated interview problems, graded by the engine",
	usage: `usage: warpbook practice [flags] [CODE]

Asks GPU-performance interview problems that the engine generates and
answers (the practice page's families: occupancy, block size, waves,
launch bounds, setmaxnreg, warps to hide a latency, bytes in flight,
issue-slot use, sectors, bank conflicts, ridge point, tile intensity, CDNA
waves), reads your answers from standard input, one line per part, grades
them and shows the engine's worked solution and where the book teaches it.
A problem's code (occ-7f3a: the family's code and a seed) asks that very
problem again, here or on the practice page.

  warpbook practice                         problems of every family, until end of input or q
  warpbook practice --family occupancy      problems of one family
  warpbook practice occ-7f3a                one problem, by its code
  warpbook practice --interview             a mock interview: one scenario, each question changing one thing
  warpbook practice --list                  the families and their codes

Non-interactive: --family F --seed S (or a CODE) with --answer grades
without asking (give --answer once per part, in order, or as NAME=VALUE);
the exit status is 0 when every part is right and 1 otherwise. --json
prints the problem ({params, question, answer, solution, ...}) or, with
--answer, the problem and its grade, as JSON. Seeds are decimal or 0x
hex; without one each problem draws a random seed.`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		var o practiceOptions
		fs.StringVar(&o.family, "family", "", "ask problems of this `family` only (a name or a code; see --list)")
		fs.StringVar(&o.seed, "seed", "", "the `seed` of the problem (or interview) to ask: decimal or 0x hex")
		fs.Var(&o.answers, "answer", "answer a part without being asked: repeat once per part, in order, or NAME=VALUE")
		fs.BoolVar(&o.json, "json", false, "print JSON instead of text (not with interactive asking)")
		fs.BoolVar(&o.list, "list", false, "list the families")
		fs.BoolVar(&o.interview, "interview", false, "a mock interview instead of single problems")
		fs.IntVar(&o.questions, "questions", 5, "questions in a mock interview, 3 to 6")
		return func(args []string) int {
			switch len(args) {
			case 0:
			case 1:
				o.code = args[0]
			default:
				return c.usagef("want at most one problem code, not %d arguments", len(args))
			}
			return runPractice(c, o)
		}
	},
}

// practiceOptions are the flags of warpbook practice.
type practiceOptions struct {
	family, seed, code    string
	answers               stringList
	json, list, interview bool
	questions             int
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ", ") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

func runPractice(c *cli, o practiceOptions) int {
	if o.list {
		for _, f := range problems.Families() {
			fmt.Fprintf(c.stdout, "%-16s %-5s %s\n", f.Name, f.Code, f.Title)
		}
		return 0
	}
	if o.code != "" && (o.family != "" || o.seed != "" || o.interview) {
		return c.usagef("give a code or --family/--seed/--interview, not both")
	}
	var seed uint32
	seeded := o.seed != ""
	if seeded {
		s, err := strconv.ParseUint(o.seed, 0, 32)
		if err != nil {
			return c.usagef("--seed %q: want a number from 0 to %d (decimal, or hex as 0x7f3a)", o.seed, uint32(problems.MaxSeed))
		}
		seed = uint32(s)
	}
	if o.family != "" {
		f, err := problems.Lookup(o.family)
		if err != nil {
			return c.usagef("%v", err)
		}
		o.family = f.Name
	}
	if o.interview || strings.HasPrefix(strings.ToLower(o.code), "int-") && !strings.Contains(o.code, ".") {
		if o.code != "" {
			_, s, _, err := problems.ParseCode(o.code)
			if err != nil {
				return c.usagef("%v", err)
			}
			seed, seeded = s, true
		}
		if o.family != "" || len(o.answers) > 0 || o.json {
			return c.usagef("--interview asks its own questions: no --family, --answer or --json")
		}
		if o.questions < 3 || o.questions > problems.MaxSteps {
			return c.usagef("--questions %d: want 3 to %d", o.questions, problems.MaxSteps)
		}
		if !seeded {
			seed = randomSeed()
		}
		return practiceInterview(c, seed, o.questions)
	}

	// One problem, by code or by family and seed.
	var p *problems.Problem
	switch {
	case o.code != "":
		var err error
		if p, err = problems.Resolve(o.code); err != nil {
			return c.usagef("%v", err)
		}
	case seeded:
		if o.family == "" {
			return c.usagef("--seed needs --family (or give the problem's code)")
		}
		var err error
		if p, err = problems.Generate(o.family, seed); err != nil {
			return c.failf("%v", err)
		}
	}
	if p == nil {
		if len(o.answers) > 0 || o.json {
			return c.usagef("--answer and --json need one problem: give --family and --seed, or a code")
		}
		return practiceLoop(c, o.family)
	}
	if len(o.answers) > 0 {
		answers, err := namedAnswers(p, o.answers)
		if err != nil {
			return c.usagef("%v", err)
		}
		g := problems.Grade(p, answers)
		if o.json {
			if code := printJSON(c, struct {
				Problem *problems.Problem `json:"problem"`
				Grade   problems.Graded   `json:"grade"`
			}{p, g}); code != 0 {
				return code
			}
		} else {
			writeProblem(c.stdout, p, "")
			writeGrade(c.stdout, p, g)
		}
		if !g.Right {
			return 1
		}
		return 0
	}
	if o.json {
		return printJSON(c, p)
	}
	in := bufio.NewScanner(c.stdin)
	if _, ok := ask(c, in, p, ""); !ok {
		return 1
	}
	return 0
}

// namedAnswers reads --answer values: NAME=VALUE, or values in the order
// of the problem's parts.
func namedAnswers(p *problems.Problem, given []string) (map[string]string, error) {
	out := map[string]string{}
	pos := 0
	for _, a := range given {
		if name, v, ok := strings.Cut(a, "="); ok && partIndex(p, strings.TrimSpace(name)) >= 0 {
			out[strings.TrimSpace(name)] = v
			continue
		}
		if pos >= len(p.Parts) {
			return nil, fmt.Errorf("%d answers for the %d parts of %s", len(given), len(p.Parts), p.Code)
		}
		for pos < len(p.Parts) && out[p.Parts[pos].Name] != "" {
			pos++
		}
		if pos >= len(p.Parts) {
			return nil, fmt.Errorf("%d answers for the %d parts of %s", len(given), len(p.Parts), p.Code)
		}
		out[p.Parts[pos].Name] = a
		pos++
	}
	return out, nil
}

func partIndex(p *problems.Problem, name string) int {
	for i, part := range p.Parts {
		if part.Name == name {
			return i
		}
	}
	return -1
}

func printJSON(c *cli, v any) int {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return c.failf("%v", err)
	}
	if _, err := c.stdout.Write(append(b, '\n')); err != nil {
		return c.failf("%v", err)
	}
	return 0
}

// randomSeed draws a seed for a problem nobody asked for by seed.
func randomSeed() uint32 {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint32(b[:]) & 0xffff
}

// practiceLoop asks problems until the input ends or the reader types q:
// of one family, or of every family in turn.
func practiceLoop(c *cli, family string) int {
	fams := problems.Families()
	if family != "" {
		f, _ := problems.Lookup(family)
		fams = []problems.Family{f}
	}
	in := bufio.NewScanner(c.stdin)
	right, asked := 0, 0
	for i := 0; ; i++ {
		f := fams[i%len(fams)]
		p, err := problems.Generate(f.Name, randomSeed())
		if err != nil {
			return c.failf("%v", err)
		}
		g, ok := ask(c, in, p, "")
		if !ok {
			break
		}
		asked++
		if g.Right {
			right++
		}
		fmt.Fprint(c.stdout, "\nEnter for the next problem, q to stop: ")
		if !in.Scan() || strings.EqualFold(strings.TrimSpace(in.Text()), "q") {
			break
		}
		fmt.Fprintln(c.stdout)
	}
	fmt.Fprintf(c.stdout, "\n%d of %d right.\n", right, asked)
	return 0
}

// ask shows p, reads one line per part and grades them; ok is false when
// the input ended or the reader typed q first.
func ask(c *cli, in *bufio.Scanner, p *problems.Problem, change string) (problems.Graded, bool) {
	writeProblem(c.stdout, p, change)
	answers := map[string]string{}
	for i, part := range p.Parts {
		fmt.Fprintf(c.stdout, "%d. %s%s? ", i+1, part.Prompt, choicesText(part))
		if !in.Scan() {
			fmt.Fprintln(c.stdout)
			return problems.Graded{}, false
		}
		a := strings.TrimSpace(in.Text())
		if strings.EqualFold(a, "q") {
			return problems.Graded{}, false
		}
		answers[part.Name] = a
	}
	g := problems.Grade(p, answers)
	fmt.Fprintln(c.stdout)
	writeGrade(c.stdout, p, g)
	return g, true
}

func choicesText(part problems.Part) string {
	if part.Kind != "choice" {
		return ""
	}
	return " (" + strings.Join(part.Choices, ", ") + ")"
}

// writeProblem prints a problem as the terminal shows it.
func writeProblem(w io.Writer, p *problems.Problem, change string) {
	title := p.Family
	if f, err := problems.Lookup(p.Family); err == nil {
		title = f.Title
	}
	fmt.Fprintf(w, "%s · %s\n", p.Code, title)
	if change != "" {
		fmt.Fprintf(w, "%s\n", change)
	}
	fmt.Fprintf(w, "\n%s\n", p.Question)
	if p.Data != "" {
		fmt.Fprintln(w)
		for _, l := range strings.Split(p.Data, "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	if len(p.Given) > 0 {
		fmt.Fprintln(w)
		for _, g := range p.Given {
			fmt.Fprintf(w, "  · %s\n", g)
		}
	}
	fmt.Fprintln(w)
	for i, part := range p.Parts {
		fmt.Fprintf(w, "  %d. %s%s: %s\n", i+1, part.Prompt, choicesText(part), part.Stated)
	}
	fmt.Fprintln(w)
}

// writeGrade prints a grade, the engine's answer, its solution and where
// to read.
func writeGrade(w io.Writer, p *problems.Problem, g problems.Graded) {
	for i, pg := range g.Parts {
		verdict := "right"
		if !pg.Right {
			verdict = "wrong: " + pg.Why
		}
		given := pg.Given
		if given == "" {
			given = "(none)"
		}
		fmt.Fprintf(w, "%s: %s → %s (the engine: %s)\n", p.Parts[i].Prompt, given, verdict, pg.Expected)
	}
	words := map[int]string{problems.Good: "Good", problems.Hard: "Hard", problems.Again: "Again"}[g.Rating]
	n := 0
	for _, pg := range g.Parts {
		if pg.Right {
			n++
		}
	}
	fmt.Fprintf(w, "%s: %d of %d parts right.\n\nSolution:\n", words, n, len(g.Parts))
	for _, s := range p.Solution {
		fmt.Fprintf(w, "  %s\n", s)
	}
	fmt.Fprintf(w, "Read: book/%s\n", p.Section)
	if p.Simulated {
		fmt.Fprintln(w, "(The figures above come from the simulator: the model's, not a measurement.)")
	}
	// The inputs as the occupancy and sim commands take them; a workload
	// is a file of its own.
	var flags problems.Values
	for _, v := range p.Params {
		if s, ok := v.Value.(string); ok && strings.Contains(s, "\n") {
			fmt.Fprintf(w, "The %s, as a file for warpbook sim:\n", v.Name)
			for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
				fmt.Fprintf(w, "    %s\n", l)
			}
			continue
		}
		flags = append(flags, v)
	}
	fmt.Fprintf(w, "Inputs: %s\n", flags)
}

// practiceInterview runs a mock interview of n questions and prints its
// summary.
func practiceInterview(c *cli, seed uint32, n int) int {
	iv, err := problems.NewInterview(seed)
	if err != nil {
		return c.failf("%v", err)
	}
	fmt.Fprintf(c.stdout, "Mock interview %s: %d questions about one %s scenario, each changing one thing.\n\n", iv.Code, n, iv.Scenario)
	in := bufio.NewScanner(c.stdin)
	var grades []problems.Graded
	for i, s := range iv.Steps[:n] {
		change := ""
		if s.Change != "" {
			change = "Follow-up: " + s.Change
		}
		fmt.Fprintf(c.stdout, "Question %d of %d. ", i+1, n)
		g, ok := ask(c, in, s.Problem, change)
		if !ok {
			break
		}
		grades = append(grades, g)
		fmt.Fprintln(c.stdout)
	}
	sum := iv.Summarize(grades)
	fmt.Fprintf(c.stdout, "Summary of %s: %d of %d right.\n", iv.Code, sum.Right, sum.Asked)
	for _, m := range sum.Missed {
		fmt.Fprintf(c.stdout, "  missed question %d (%s): %s\n", m.Step, m.Code, strings.Join(m.Wrong, "; "))
		fmt.Fprintf(c.stdout, "    read book/%s\n", m.Section)
	}
	return 0
}
