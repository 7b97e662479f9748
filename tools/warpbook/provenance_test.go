package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestProvenance(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("SOURCE_DATE_EPOCH", "")
	repo := t.TempDir()
	book := filepath.Join(repo, "book")
	writeFileT(t, filepath.Join(book, "a.md"), "# A\n")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2025-11-30T12:00:00Z", "GIT_COMMITTER_DATE=2025-11-30T12:00:00Z",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.org", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.org")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}

	// Outside a checkout: nothing but what the environment says.
	if p := provenance(book); p.Commit != "" || !p.Date.IsZero() {
		t.Errorf("outside git: %+v", p)
	}
	run("init", "-q")
	run("add", ".")
	run("commit", "-q", "-m", "one")
	head := run("rev-parse", "HEAD")

	p := provenance(book)
	want := time.Date(2025, 11, 30, 12, 0, 0, 0, time.UTC)
	if p.Commit != head || p.Dirty || p.Prefix != "book/" || !p.Date.Equal(want) {
		t.Errorf("at the commit: %+v, want commit %s, clean, book/, %v", p, head, want)
	}
	// A second look gives the same: nothing reads the clock.
	if q := provenance(book); q != p {
		t.Errorf("second look %+v, first %+v", q, p)
	}
	// SOURCE_DATE_EPOCH decides the date.
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	if p := provenance(book); !p.Date.Equal(time.Unix(1700000000, 0)) {
		t.Errorf("with SOURCE_DATE_EPOCH: %v", p.Date)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "")
	// An uncommitted page: dirty, and no commit date is claimed.
	writeFileT(t, filepath.Join(book, "b.md"), "# B\n")
	if p := provenance(book); !p.Dirty || !p.Date.IsZero() || p.Commit != head {
		t.Errorf("with an untracked page: %+v", p)
	}
}
