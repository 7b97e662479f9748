package site

import (
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/warpbook/warpbook/snippets/page"
)

// A report collects what a build finds: errors, at their file:line:col,
// which fail it (every one is reported, then no site is made), and
// warnings, which it passes on and builds anyway. It is safe for
// concurrent use.
type report struct {
	dir    string                           // Options.Dir, under which messages name the book's files
	onWarn func(format string, args ...any) // Options.Warnf

	mu    sync.Mutex
	errs  page.Diagnostics
	warns []string
}

// file returns the name of a book file for messages.
func (rp *report) file(p string) string {
	if rp.dir == "" {
		return p
	}
	return path.Join(strings.ReplaceAll(rp.dir, "\\", "/"), p)
}

// errorAt reports a problem at a position.
func (rp *report) errorAt(pos page.Pos, format string, args ...any) {
	rp.addErrs(&page.Diagnostic{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// errorf reports a problem at a line of a file of the book (0: the file).
func (rp *report) errorf(file string, line int, format string, args ...any) {
	rp.addErrs(&page.Diagnostic{Pos: page.Pos{File: rp.file(file), Line: line}, Msg: fmt.Sprintf(format, args...)})
}

// addErrs reports problems found elsewhere (a parse, the kernel, a
// renderer).
func (rp *report) addErrs(errs ...*page.Diagnostic) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	rp.errs = append(rp.errs, errs...)
}

// warnf reports a problem that does not fail the build.
func (rp *report) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	rp.mu.Lock()
	rp.warns = append(rp.warns, msg)
	rp.mu.Unlock()
	if rp.onWarn != nil {
		rp.onWarn("%s", msg)
	}
}
