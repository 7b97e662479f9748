package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

var runCommand = command{
	summary: "run a page's snippets like a notebook",
	usage: `usage: warpbook run [flags] FILE.md

Runs a page's snippets like a notebook and prints each one's code and what
it printed, in order (in colour on a terminal). A snippet whose output
differs from the page's output block is marked, with a diff.`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		run := fs.String("run", "", "show only the snippets whose id matches this regular expression (the ones above still run)")
		timeout := fs.Duration("timeout", snippets.DefaultTimeout, "time limit per snippet")
		color := fs.String("color", "auto", "colour: auto, always or never")
		return func(args []string) int {
			if len(args) != 1 {
				return c.usagef("want one page, not %d arguments", len(args))
			}
			return runNotebook(c, args[0], *run, *timeout, *color)
		}
	},
}

// runNotebook runs the page in file and prints it as a notebook.
func runNotebook(c *cli, file, run string, timeout time.Duration, color string) int {
	stdout, stderr := c.stdout, c.stderr
	k := &snippets.Kernel{Timeout: timeout}
	if run != "" {
		re, err := regexp.Compile(run)
		if err != nil {
			return c.usagef("-run: %v", err)
		}
		k.Filter = re.MatchString
	}
	useColor := false
	switch color {
	case "always":
		useColor = true
	case "never":
	case "auto":
		if f, ok := stdout.(*os.File); ok && os.Getenv("NO_COLOR") == "" && term.IsTerminal(int(f.Fd())) {
			useColor = true
		}
	default:
		return c.usagef("-color must be auto, always or never, not %q", color)
	}
	files := []pageFile{{path: file, book: bookDir(filepath.Dir(file))}}
	pages, code := parsePages(files, stderr)
	if pages == nil {
		return code
	}
	p := pages[0]
	pkgs, problems := bookPackages(files)
	for _, ds := range problems {
		for _, d := range ds {
			fmt.Fprintln(stderr, d)
		}
		return 2
	}
	k.Packages = func(p *page.Page) *snippets.Packages { return pkgs[p.Path] }
	if len(p.Diagnostics) > 0 {
		for _, d := range p.Diagnostics {
			fmt.Fprintln(stderr, d)
		}
		return 2
	}
	if len(p.Cells) == 0 && len(p.Checks) == 0 {
		fmt.Fprintf(stdout, "%s: no snippets or checked values to run\n", p.Path)
		return 0
	}
	r := k.RunPage(context.Background(), p)
	st := styles(useColor)
	failed := r.Failed()
	for _, d := range r.Diagnostics {
		fmt.Fprintln(stdout, st.bad(d.Error()))
	}
	checks := 0
	printChecks := func(upTo int) {
		for checks < len(p.Checks) && p.Checks[checks].After <= upTo {
			ch, cr := p.Checks[checks], r.Checks[checks]
			checks++
			if cr == nil {
				continue
			}
			mark := st.good("✓")
			if cr.Status == snippets.StatusFail {
				mark = st.bad("✗")
			}
			fmt.Fprintf(stdout, "%s %s %s = %s %s\n", st.dim("•"), st.head(ch.ID()), ch.Expr, cr.Value, mark)
			for _, d := range cr.Diagnostics {
				fmt.Fprintln(stdout, "  "+st.bad(d.Error()))
			}
		}
	}
	for _, c := range p.Cells {
		printChecks(c.Index)
		cr := r.Cells[c.Index]
		if cr == nil {
			continue
		}
		fmt.Fprintf(stdout, "%s %s %s\n", st.dim("──"), st.head(c.ID()), st.dim(c.Pos.String()))
		for _, l := range c.Lines {
			if l.Hidden {
				fmt.Fprintln(stdout, st.dim("  ┆ "+l.Text))
			} else {
				fmt.Fprintln(stdout, "  │ "+l.Text)
			}
		}
		switch {
		case cr.Status == snippets.StatusSkip:
			fmt.Fprintln(stdout, st.dim("  skipped: "+cr.Skip))
			continue
		case cr.Error != "" && c.Attrs.Error != "":
			fmt.Fprintln(stdout, st.dim("  does not compile, as expected: ")+cr.Error)
		}
		if cr.Output != "" {
			for _, l := range strings.Split(strings.TrimRight(cr.Output, "\n"), "\n") {
				fmt.Fprintln(stdout, "  "+st.out(l))
			}
		}
		if cr.Panic != "" {
			fmt.Fprintln(stdout, "  "+st.warn("panic: "+cr.Panic))
		}
		for _, d := range cr.Diagnostics {
			fmt.Fprintln(stdout, "  "+st.bad("✗ "+d.Msg))
			if d.Diff != "" {
				for _, l := range strings.Split(strings.TrimRight(d.Diff, "\n"), "\n") {
					fmt.Fprintln(stdout, "    "+st.diff(l))
				}
			}
		}
	}
	printChecks(len(p.Cells))
	if failed {
		return 1
	}
	return 0
}

type style struct{ on bool }

func styles(on bool) style { return style{on} }

func (s style) wrap(code, t string) string {
	if !s.on {
		return t
	}
	return "\x1b[" + code + "m" + t + "\x1b[0m"
}

func (s style) head(t string) string { return s.wrap("1", t) }
func (s style) dim(t string) string  { return s.wrap("2", t) }
func (s style) out(t string) string  { return s.wrap("36", t) }
func (s style) good(t string) string { return s.wrap("32", t) }
func (s style) bad(t string) string  { return s.wrap("31", t) }
func (s style) warn(t string) string { return s.wrap("33", t) }
func (s style) diff(t string) string {
	switch {
	case strings.HasPrefix(t, "+"):
		return s.good(t)
	case strings.HasPrefix(t, "-"):
		return s.bad(t)
	}
	return t
}
