package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDocs checks the links of every document in docs/. (README.md's are
// checked by .ci/run, with -local: no test reads README.)
func TestDocs(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no documents in ../../docs: %v", err)
	}
	root, err := os.OpenRoot("../..")
	noErr(t, err)
	defer root.Close()
	c := &checker{root: root}
	for _, d := range docs {
		problems, err := c.check("docs/" + filepath.Base(d))
		if err != nil {
			t.Error(err)
		}
		for _, p := range problems {
			t.Error(p)
		}
	}
}

// noErr fails t on err.
func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestCheck runs the checker over a small repository of its own.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"README.md": "# The front door\n\n" +
			"[guide](docs/guide.md), [a section](docs/guide.md#sessions-and-imports),\n" +
			"[the second one](docs/guide.md#sessions-and-imports-1), [here](#the-front-door),\n" +
			"[a folder](engine/), [code](engine/x.go#L3), ![a picture](docs/shot.png)\n" +
			"`[code](is-not-a-link.md)` [site](https://example.org/)\n" +
			"<https://example.org/auto>\n" +
			"see https://example.org/bare too\n",
		"docs/guide.md": "# Guide\n\n## Sessions and `imports`\n\n## Sessions and imports\n\n" +
			"[back](../README.md#the-front-door)\n\n" +
			"```\n[not a link](nowhere.md)\n```\n",
		"docs/shot.png": "png",
		"engine/x.go":   "package x\n",
		"bad.md": "# Bad\n\n" +
			"[missing](docs/gone.md) and\n" +
			"[no anchor](docs/guide.md#gone), ![missing](shot.png)\n" +
			"[up](../outside.md) [rooted](/README.md) [self](#nothing)\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		noErr(t, os.MkdirAll(filepath.Dir(p), 0o755))
		noErr(t, os.WriteFile(p, []byte(body), 0o644))
	}
	noErr(t, os.Symlink("../../outside", filepath.Join(dir, "docs", "leak.md")))
	noErr(t, os.WriteFile(filepath.Join(dir, "leak.md"), []byte("[leak](docs/leak.md)\n"), 0o644))
	root, err := os.OpenRoot(dir)
	noErr(t, err)
	defer root.Close()

	tests := []struct {
		file  string
		local bool
		want  []string
	}{
		{"README.md", false, nil},
		{"docs/guide.md", true, nil},
		{"README.md", true, []string{
			`README.md:6:28: link "https://example.org/" leaves the repository`,
			`README.md:7:1: link "https://example.org/auto" leaves the repository`,
			`README.md:8:5: link "https://example.org/bare" leaves the repository`,
		}},
		{"bad.md", false, []string{
			`bad.md:3:1: link "docs/gone.md": no file docs/gone.md`,
			`bad.md:4:1: link "docs/guide.md#gone": docs/guide.md has no heading #gone`,
			`bad.md:4:34: link "shot.png": no file shot.png`,
			`bad.md:5:1: link "../outside.md" leads outside the repository`,
			`bad.md:5:21: link "/README.md" starts with /: GitHub resolves it outside the repository; make it relative`,
			`bad.md:5:42: link "#nothing": bad.md has no heading #nothing`,
		}},
		{"leak.md", false, []string{`leak.md:1:1: link "docs/leak.md": no file docs/leak.md`}},
	}
	for _, tt := range tests {
		c := &checker{root: root, local: tt.local}
		got, err := c.check(tt.file)
		noErr(t, err)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s (local %v):\ngot  %s\nwant %s", tt.file, tt.local, strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
		}
	}
}

// TestRun checks the command's exit status and output.
func TestRun(t *testing.T) {
	t.Chdir(t.TempDir())
	for name, body := range map[string]string{"a.md": "[b](b.md)\n", "c.md": "[a](a.md)\n"} {
		noErr(t, os.WriteFile(name, []byte(body), 0o644))
	}
	for _, tt := range []struct {
		args []string
		code int
		out  string
	}{
		{nil, 2, ""},
		{[]string{"c.md"}, 0, ""},
		{[]string{"-nope", "a.md"}, 2, ""},
		{[]string{"a.md"}, 1, "a.md:1:1: link \"b.md\": no file b.md\n"},
		{[]string{"missing.md"}, 1, ""},
		{[]string{"a.md", "a.md"}, 1, "a.md:1:1: link \"b.md\": no file b.md\na.md:1:1: link \"b.md\": no file b.md\n"},
	} {
		var out strings.Builder
		if code := run(tt.args, &out, io.Discard); code != tt.code || out.String() != tt.out {
			t.Errorf("mdlinks %q: exit %d, output %q; want %d, %q", tt.args, code, out.String(), tt.code, tt.out)
		}
	}
}
