// Package booktest gates the tests that read the whole book (book/ at the
// repository's root) as their fixture: every page as a program, every cut
// of every page, the real site in a browser, its search and its practice
// page. They run when WARPBOOK_WHOLE_BOOK=1, as .ci/run sets it, and skip
// otherwise.
//
// go test caches a package's result with the files its tests opened, so a
// test that reads the book is run again after any edit to a chapter. Gated,
// the everyday go test ./... reads no chapter, and an edit to one leaves
// the caches of the packages that test code alone; warpbook test book is
// the command that checks a chapter.
package booktest

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the whole-book tests on.
const Env = "WARPBOOK_WHOLE_BOOK"

// Enabled reports whether the whole-book tests run: Env is 1.
func Enabled() bool {
	return os.Getenv(Env) == "1"
}

// Require skips t unless the whole-book tests run.
func Require(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("reads the whole book: set " + Env + "=1 to run it (.ci/run does)")
	}
}
