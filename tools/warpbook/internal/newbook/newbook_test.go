package newbook

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// TestWorkflow checks the workflow as GitHub reads it: valid YAML, a job
// that tests and builds the book, a deploy job that needs it with the
// Pages permissions only, every action pinned to a major version, and no
// secret used.
func TestWorkflow(t *testing.T) {
	files, err := Files(Options{Install: "example.org/w@v1.0.0", GoVersion: "1.26"})
	if err != nil {
		t.Fatal(err)
	}
	src := files[".github/workflows/book.yml"]
	var wf struct {
		Permissions map[string]string `yaml:"permissions"`
		Jobs        map[string]struct {
			Needs       string            `yaml:"needs"`
			Permissions map[string]string `yaml:"permissions"`
			Steps       []struct {
				Uses string `yaml:"uses"`
				Run  string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(src, &wf); err != nil {
		t.Fatalf("the workflow is not YAML: %v", err)
	}
	if wf.Permissions["contents"] != "read" || len(wf.Permissions) != 1 {
		t.Errorf("workflow permissions %v, want contents: read only", wf.Permissions)
	}
	var runs []string
	pinned := regexp.MustCompile(`^actions/[a-z-]+@v[0-9]+$`)
	for name, j := range wf.Jobs {
		for _, s := range j.Steps {
			if s.Uses != "" && !pinned.MatchString(s.Uses) {
				t.Errorf("job %s uses %q, not pinned to a version", name, s.Uses)
			}
			if s.Run != "" {
				runs = append(runs, s.Run)
			}
		}
	}
	want := []string{"go install example.org/w@v1.0.0", "warpbook test -format=github book", "warpbook build -o _site book"}
	if !slices.Equal(runs, want) {
		t.Errorf("the workflow runs %q, want %q", runs, want)
	}
	d := wf.Jobs["deploy"]
	if d.Needs != "build" || d.Permissions["pages"] != "write" || d.Permissions["id-token"] != "write" || len(d.Permissions) != 2 {
		t.Errorf("deploy needs %q with permissions %v", d.Needs, d.Permissions)
	}
	if strings.Contains(string(src), "secrets.") {
		t.Error("the workflow uses a secret")
	}
}

// TestWriteRefusesLinkOut: a file of the book that is a link out of the
// directory is not written through.
func TestWriteRefusesLinkOut(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "book")); err != nil {
		t.Fatal(err)
	}
	_, _, err := Write(dir, Options{Force: true})
	if err == nil {
		t.Fatal("Write wrote through a link out of the directory")
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("Write wrote %s outside the directory", entries[0].Name())
	}
	if _, _, err := Write(dir, Options{}); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("Write into a directory that is not empty: %v", err)
	}
}
