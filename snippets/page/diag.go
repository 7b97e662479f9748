package page

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// Pos is a position in a Markdown file. Line and Col are 1-based; Col counts
// bytes, as Go's own positions do. File is the path as the caller gave it, so
// that editors can jump to it.
type Pos struct {
	File string
	Line int
	Col  int
}

// String formats p as "file:line:col", leaving out what is unknown.
func (p Pos) String() string {
	switch {
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Diagnostic is one problem found in a page, at a Markdown position. Its
// Error method prints "file.md:LINE:COL: ID: what"; Diff and Hint are extra
// lines a report prints under it.
type Diagnostic struct {
	// Pos is where the problem is in the Markdown file.
	Pos Pos
	// ID names the snippet (or checked value) the problem belongs to; empty
	// for page-level problems such as a malformed attribute.
	ID string
	// Msg says what is wrong, in one line.
	Msg string
	// Diff is a unified diff (expected → actual) when outputs differ.
	Diff string
	// Hint is what to do about it, e.g. the command that updates an output.
	Hint string
	// Err is the cause, if any: a sentinel such as [ErrInputLimit] or the
	// kernel's ErrTimeout, a type error...
	Err error
}

// Error formats d as "file:line:col: id: msg".
func (d *Diagnostic) Error() string {
	var b strings.Builder
	b.WriteString(d.Pos.String())
	b.WriteString(": ")
	if d.ID != "" {
		b.WriteString(d.ID)
		b.WriteString(": ")
	}
	b.WriteString(d.Msg)
	return b.String()
}

// Unwrap returns the cause.
func (d *Diagnostic) Unwrap() error { return d.Err }

// Diagnostics is a list of problems; as an error it prints one per line.
type Diagnostics []*Diagnostic

// Error prints each diagnostic on its own line.
func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the diagnostics as errors, for [errors.Is] and [errors.As].
func (ds Diagnostics) Unwrap() []error {
	errs := make([]error, len(ds))
	for i, d := range ds {
		errs[i] = d
	}
	return errs
}

// Err returns ds as an error, or nil when it is empty.
func (ds Diagnostics) Err() error {
	if len(ds) == 0 {
		return nil
	}
	return ds
}

// Sort orders ds by file, line and column, in place, keeping the order of
// diagnostics at the same position.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool { return less(ds[i].Pos, ds[j].Pos) })
}

func less(a, b Pos) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

// Sorted returns ds ordered by file, line and column (diagnostics at one
// position keep their order), without repeats of the same message at the
// same position.
func (ds Diagnostics) Sorted() Diagnostics {
	out := slices.Clone(ds)
	out.Sort()
	return slices.CompactFunc(out, func(a, b *Diagnostic) bool {
		return a.Pos == b.Pos && a.ID == b.ID && a.Msg == b.Msg
	})
}

// Write prints each diagnostic as every command prints it: its
// "file:line:col: id: what" line, then its diff and its hint indented by a
// tab.
func (ds Diagnostics) Write(w io.Writer) error {
	for _, d := range ds {
		if err := d.write(w); err != nil {
			return err
		}
	}
	return nil
}

// write prints d, its diff and its hint.
func (d *Diagnostic) write(w io.Writer) error {
	var b strings.Builder
	b.WriteString(d.Error())
	b.WriteByte('\n')
	if d.Diff != "" {
		for _, l := range strings.Split(strings.TrimRight(d.Diff, "\n"), "\n") {
			b.WriteString("\t" + l + "\n")
		}
	}
	if d.Hint != "" {
		b.WriteString("\tto update: " + d.Hint + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
