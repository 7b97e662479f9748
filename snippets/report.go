package snippets

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/warpbook/warpbook/snippets/page"
)

// Summary counts the outcomes of a run.
type Summary struct {
	Pages            int // pages run
	Pass, Fail, Skip int // cells and checked values with each status
	Warn             int // the pages' warnings (Page.Warnings)
}

// Summarize counts the cells and checks of results.
func Summarize(results []*PageResult) Summary {
	var s Summary
	for _, r := range results {
		s.Pages++
		s.Warn += len(r.Page.Warnings())
		for _, c := range r.CUDA {
			if c != nil {
				s.Warn += len(c.Warnings)
			}
		}
		count := func(st Status) {
			switch st {
			case StatusPass:
				s.Pass++
			case StatusFail:
				s.Fail++
			case StatusSkip:
				s.Skip++
			}
		}
		for _, c := range r.Cells {
			if c != nil {
				count(c.Status)
			}
		}
		for _, c := range r.Checks {
			if c != nil {
				count(c.Status)
			}
		}
		for _, c := range r.CUDA {
			if c != nil {
				count(c.Status)
			}
		}
	}
	return s
}

// WriteText writes results the way "warpbook test" prints them: each
// problem as "file.md:LINE:COL: ID: what", with its diff and the command
// that would fix it indented below, then one line per page, after the
// page's notices (a fence that looks like a snippet). Verbose adds a line
// per cell and all the page's warnings.
func WriteText(w io.Writer, results []*PageResult, verbose bool) {
	for _, r := range results {
		warnings := r.Page.Notices
		if verbose {
			warnings = r.Page.Warnings()
		}
		for _, d := range warnings {
			fmt.Fprintf(w, "%s: warning: %s\n", d.Pos, d.Msg)
		}
		if verbose {
			for _, c := range r.CUDA {
				if c != nil {
					for _, d := range c.Warnings {
						fmt.Fprintf(w, "%s: warning: %s\n", d.Pos, d.Msg)
					}
				}
			}
			for i, c := range r.Cells {
				if c == nil {
					continue
				}
				cell := r.Page.Cells[i]
				line := fmt.Sprintf("--- %s: %s %s", strings.ToUpper(c.Status.String()), cell.Pos, c.ID)
				switch {
				case c.Status == StatusSkip:
					line += " (" + c.Skip + ")"
				case c.Cached:
					line += " (cached)"
				case c.Elapsed > 0:
					line += fmt.Sprintf(" (%.2fs)", c.Elapsed.Seconds())
				}
				fmt.Fprintln(w, line)
			}
			for i, c := range r.Checks {
				if c == nil {
					continue
				}
				ch := r.Page.Checks[i]
				fmt.Fprintf(w, "--- %s: %s %s [%s](= %q)\n", strings.ToUpper(c.Status.String()), ch.Pos, c.ID, ch.Text, ch.Expr)
			}
			for i, c := range r.CUDA {
				if c == nil {
					continue
				}
				line := fmt.Sprintf("--- %s: %s %s (CUDA", strings.ToUpper(c.Status.String()), r.Page.CUDA[i].Pos, c.ID)
				switch {
				case c.Status == StatusSkip:
					line += ", " + c.Skip
				case c.Elapsed > 0:
					line += fmt.Sprintf(", %.2fs", c.Elapsed.Seconds())
				}
				fmt.Fprintln(w, line+")")
			}
		}
		_ = r.AllDiagnostics().Write(w)
		s := Summarize([]*PageResult{r})
		status := "ok  "
		if r.Failed() {
			status = "FAIL"
		}
		if s.Pass+s.Fail+s.Skip == 0 && !r.Failed() {
			if verbose {
				fmt.Fprintf(w, "?    %s\t[no snippets]\n", r.Page.Path)
			}
			continue
		}
		fmt.Fprintf(w, "%s %s\t%s\n", status, r.Page.Path, counts(s))
	}
}

func counts(s Summary) string {
	var parts []string
	parts = append(parts, fmt.Sprintf("%d passed", s.Pass))
	if s.Fail > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", s.Fail))
	}
	if s.Skip > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", s.Skip))
	}
	return strings.Join(parts, ", ")
}

// Event is one line of "warpbook test -json", in the shape of
// "go test -json" (test2json): Package is the page, Test the cell or
// checked value.
type Event struct {
	Time    time.Time `json:",omitempty"`
	Action  string
	Package string   `json:",omitempty"`
	Test    string   `json:",omitempty"`
	Elapsed *float64 `json:",omitempty"`
	Output  string   `json:",omitempty"`
}

// WriteJSON writes results as test2json-style events, one JSON object per
// line. now stamps the events (pass time.Now; tests pass a fixed time).
func WriteJSON(w io.Writer, results []*PageResult, now func() time.Time) error {
	enc := json.NewEncoder(w)
	emit := func(e Event) error {
		if now != nil {
			e.Time = now()
		}
		return enc.Encode(e)
	}
	for _, r := range results {
		pkg := r.Page.Path
		if err := emit(Event{Action: "start", Package: pkg}); err != nil {
			return err
		}
		for _, d := range r.Diagnostics {
			if err := emit(Event{Action: "output", Package: pkg, Output: reportLines(d)}); err != nil {
				return err
			}
		}
		type entry struct {
			id      string
			status  Status
			diags   page.Diagnostics
			elapsed time.Duration
			output  string
		}
		var entries []entry
		for _, c := range r.Cells {
			if c != nil {
				entries = append(entries, entry{c.ID, c.Status, c.Diagnostics, c.Elapsed, c.Output})
			}
		}
		for _, c := range r.Checks {
			if c != nil {
				entries = append(entries, entry{c.ID, c.Status, c.Diagnostics, 0, ""})
			}
		}
		for _, c := range r.CUDA {
			if c != nil {
				entries = append(entries, entry{c.ID, c.Status, c.Diagnostics, c.Elapsed, ""})
			}
		}
		var total float64
		for _, e := range entries {
			if err := emit(Event{Action: "run", Package: pkg, Test: e.id}); err != nil {
				return err
			}
			if e.output != "" {
				if err := emit(Event{Action: "output", Package: pkg, Test: e.id, Output: e.output}); err != nil {
					return err
				}
			}
			for _, d := range e.diags {
				if err := emit(Event{Action: "output", Package: pkg, Test: e.id, Output: reportLines(d)}); err != nil {
					return err
				}
			}
			el := e.elapsed.Seconds()
			total += el
			if err := emit(Event{Action: e.status.String(), Package: pkg, Test: e.id, Elapsed: &el}); err != nil {
				return err
			}
		}
		action := "pass"
		if r.Failed() {
			action = "fail"
		}
		if err := emit(Event{Action: action, Package: pkg, Elapsed: &total}); err != nil {
			return err
		}
	}
	return nil
}

// WriteGitHub writes every problem as a GitHub Actions workflow command
// (::error file=...,line=...,col=...,title=...::message), and every
// warning as ::warning. File paths are made relative to root, the
// repository's top directory, as GitHub wants them (see [AnnotationPath]).
func WriteGitHub(w io.Writer, results []*PageResult, root string) {
	for _, r := range results {
		for _, d := range r.Page.Warnings() {
			fmt.Fprintf(w, "::warning %s::%s\n", ghProps(d, root), GitHubData(d.Msg))
		}
		WriteGitHubErrors(w, r.AllDiagnostics(), root)
	}
}

// WriteGitHubErrors writes each of ds as a GitHub Actions ::error
// workflow command, with its diff and the command that updates it, and its
// file relative to root.
func WriteGitHubErrors(w io.Writer, ds page.Diagnostics, root string) {
	for _, d := range ds {
		msg := d.Msg
		if d.Diff != "" {
			msg += "\n" + strings.TrimRight(d.Diff, "\n")
		}
		if d.Hint != "" {
			msg += "\nto update: " + d.Hint
		}
		fmt.Fprintf(w, "::error %s::%s\n", ghProps(d, root), GitHubData(msg))
	}
}

// AnnotationPath returns file, a path as a diagnostic names it (relative
// to the working directory, or absolute), relative to root, with slashes:
// the path a workflow annotation needs. A file outside root, or an empty
// root, leaves the path as it was, with slashes.
func AnnotationPath(file, root string) string {
	if root == "" {
		return filepath.ToSlash(file)
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return filepath.ToSlash(file)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(file)
	}
	return filepath.ToSlash(rel)
}

// ghProps returns a workflow command's properties for d: its file
// (relative to root), line, column and ID.
func ghProps(d *page.Diagnostic, root string) string {
	props := "file=" + ghProp(AnnotationPath(d.Pos.File, root))
	if d.Pos.Line > 0 {
		props += fmt.Sprintf(",line=%d", d.Pos.Line)
	}
	if d.Pos.Col > 0 {
		props += fmt.Sprintf(",col=%d", d.Pos.Col)
	}
	if d.ID != "" {
		props += ",title=" + ghProp(d.ID)
	}
	return props
}

// GitHubData escapes s as the message of a workflow command.
func GitHubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// reportLines returns d as the text report prints it.
func reportLines(d *page.Diagnostic) string {
	var b strings.Builder
	_ = page.Diagnostics{d}.Write(&b)
	return b.String()
}
