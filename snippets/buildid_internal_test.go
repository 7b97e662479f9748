//go:build !js

package snippets

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExeBuildID: the build ID read from the test's own executable is the
// one the go command reports for it; a file that is not a Go executable,
// or one whose build ID is not the go command's, has none.
func TestExeBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	want := strings.TrimSpace(string(out))
	if got := exeBuildID(exe); got != want {
		t.Errorf("exeBuildID = %q, go tool buildid says %q", got, want)
	}
	junk := filepath.Join(t.TempDir(), "junk")
	os.WriteFile(junk, []byte("#!/bin/sh\necho not Go\n"), 0o755)
	if got := exeBuildID(junk); got != "" {
		t.Errorf("exeBuildID of a shell script = %q, want none", got)
	}
	for _, id := range []string{"", "redacted", "a/b/c/d", want + "/x", strings.Replace(want, "/", "+", 1)} {
		if goBuildID(id) {
			t.Errorf("goBuildID(%q) = true", id)
		}
	}
}
