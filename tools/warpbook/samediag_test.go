package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
	"golang.org/x/tools/txtar"
)

// TestSameDiagnostics builds each book of testdata/samediag/*.txtar with
// warpbook test and warpbook build, and checks that both print the
// archive's "diagnostics" section, byte for byte (each diagnostic with its
// diff and hint), the problems only a whole book shows (links, anchors,
// figure ids, questions' sections) included: test checks a book with
// build's code, reads a page the same way and reports its problems the
// same way. With -format=github both print the same annotations.
func TestSameDiagnostics(t *testing.T) {
	files, err := filepath.Glob("testdata/samediag/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata/samediag/*.txtar: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			noErr(t, err)
			dir := t.TempDir()
			want := map[string]string{}
			for _, f := range ar.Files {
				if !strings.HasPrefix(f.Name, "book/") {
					want[f.Name] = string(f.Data)
					continue
				}
				writeFileT(t, filepath.Join(dir, filepath.FromSlash(f.Name)), f.Data)
			}
			// Messages name the pages as the commands were given them.
			t.Chdir(dir)
			code, out, _ := runCmd(t, "", "test", "-cache", "off", "book")
			if code == 0 {
				t.Fatalf("warpbook test passed:\n%s", out)
			}
			tested := diagnostics(out)
			code, _, errOut := runCmd(t, "", "build", "--force", "-o", filepath.Join(dir, "_site"), "--book", "book")
			if code == 0 {
				t.Fatalf("warpbook build passed:\n%s", errOut)
			}
			built := diagnostics(errOut)
			if len(built) == 0 {
				t.Fatalf("warpbook build printed no diagnostics:\n%s", errOut)
			}
			w := strings.Join(diagnostics(want["diagnostics"]), "")
			if got := strings.Join(tested, ""); got != w {
				t.Errorf("warpbook test printed:\n%s", udiff.Unified("want", "test", w, got))
			}
			if got := strings.Join(built, ""); got != w {
				t.Errorf("warpbook build printed:\n%s", udiff.Unified("want", "build", w, got))
			}
			_, out, _ = runCmd(t, "", "test", "-cache", "off", "-format=github", "book")
			_, gh, _ := runCmd(t, "", "build", "--force", "-format=github", "-o", filepath.Join(dir, "_site"), "--book", "book")
			if got, w := annotations(gh), annotations(out); got != w || w == "" {
				t.Errorf("warpbook build -format=github printed:\n%s", udiff.Unified("test", "build", w, got))
			}
		})
	}
}

// diagLine starts a diagnostic: file:line[:col]: ...
var diagLine = regexp.MustCompile(`^\S+:\d+(:\d+)?: `)

// diagnostics cuts a command's output into its diagnostics, each with the
// tab-indented lines under it, leaving out everything else (summaries),
// sorted.
func diagnostics(out string) []string {
	var ds []string
	for _, l := range strings.SplitAfter(out, "\n") {
		switch {
		case diagLine.MatchString(l):
			ds = append(ds, l)
		case strings.HasPrefix(l, "\t") && len(ds) > 0:
			ds[len(ds)-1] += l
		}
	}
	slices.Sort(ds)
	return ds
}

// annotations returns the ::error and ::warning lines of out, sorted.
func annotations(out string) string {
	var as []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(l, "::error ") || strings.HasPrefix(l, "::warning ") {
			as = append(as, l)
		}
	}
	slices.Sort(as)
	return strings.Join(as, "")
}
