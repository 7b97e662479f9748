package main

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/warpbook/warpbook/site"
)

// provenance finds where the book in dir comes from, for the pages'
// provenance notes: its git commit and whether its files differ from it,
// its path in the repository, and the date to state: SOURCE_DATE_EPOCH
// (https://reproducible-builds.org/specs/source-date-epoch/) if set, else
// the commit's date when the book is at that commit. Nothing here reads
// the clock, so that two builds of one commit are the same bytes. Outside
// a git checkout, or without git, it returns what it knows (the site then
// names the source by the hash of its files).
func provenance(dir string) site.Provenance {
	var p site.Provenance
	if v := os.Getenv("SOURCE_DATE_EPOCH"); v != "" {
		if sec, err := strconv.ParseInt(v, 10, 64); err == nil {
			p.Date = time.Unix(sec, 0).UTC()
		}
	}
	out, ok := git(dir, "rev-parse", "--verify", "HEAD^{commit}")
	if !ok {
		return p
	}
	p.Commit = strings.TrimSpace(out)
	if prefix, ok := git(dir, "rev-parse", "--show-prefix"); ok {
		p.Prefix = strings.TrimSpace(prefix)
	}
	status, ok := git(dir, "status", "--porcelain", "--untracked-files=normal", "--", ".")
	p.Dirty = !ok || strings.TrimSpace(status) != ""
	if p.Date.IsZero() && !p.Dirty {
		if ct, ok := git(dir, "show", "-s", "--format=%ct", p.Commit); ok {
			if sec, err := strconv.ParseInt(strings.TrimSpace(ct), 10, 64); err == nil {
				p.Date = time.Unix(sec, 0).UTC()
			}
		}
	}
	return p
}

// git runs a read-only git command in dir, with the repository's hooks and
// file-system monitor off: the book may come from a stranger.
func git(dir string, args ...string) (string, bool) {
	cmd := exec.Command("git", append([]string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "--no-optional-locks"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		return "", false
	}
	return stdout.String(), true
}
