package site

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// An Error is a problem in the book's content, located at a file, line and
// column of its source. Line and Col start at 1; zero means unknown. It
// prints as "file:line:col: message", the form editors jump to.
type Error struct {
	File string // path as given to the build: the book directory joined with the page
	Line int    // 1-based line, 0 if unknown
	Col  int    // 1-based column in characters, 0 if unknown
	Msg  string // what is wrong, in one line
	// Detail is more lines printed under the message: a diff, a hint.
	Detail string
	Err    error // the cause, if any
}

// Error formats e as "file:line:col: message", with its detail below.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Detail != "" {
		b.WriteString("\n")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorList is every content error a build found, sorted by file and line.
// A build reports all of them at once, so that one run shows every broken
// link.
type ErrorList []*Error

// Error prints each error of the list on its own line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the errors of the list.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// sort orders the list by file, line, column and message and drops
// duplicates.
func (l ErrorList) sort() ErrorList {
	slices.SortStableFunc(l, func(a, b *Error) int {
		return cmp.Or(
			strings.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col),
			strings.Compare(a.Msg, b.Msg),
		)
	})
	return slices.CompactFunc(l, func(a, b *Error) bool {
		return a.File == b.File && a.Line == b.Line && a.Col == b.Col && a.Msg == b.Msg
	})
}
