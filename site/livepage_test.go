package site_test

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/site"
)

// Redraw sends the kernel the YAML that the page's script holds under the
// figure's data-figure key: every figure with inputs, with an id or
// without, finds its own YAML there.
func TestLiveFigureKeys(t *testing.T) {
	yaml := func(gpu string) string {
		return "kind: occupancy-vs-registers\ngpu: " + gpu + "\ncaption: On the " + gpu + ".\nalt: Steps.\n"
	}
	src := "# A\n\nSee @fig-x.\n\n```figure id=fig-x\n" + yaml("A100") + "```\n\n```figure\n" + yaml("H100") + "```\n"
	s := build(t, book("a.md", src), site.Options{})

	script := page(t, s, "assets/pages/a.js")
	body, ok := strings.CutPrefix(strings.TrimSpace(script), "warpbookLivePage(")
	if !ok {
		t.Fatalf("assets/pages/a.js: %.80q...", script)
	}
	var lp struct{ Figures map[string]string }
	noErr(t, json.Unmarshal([]byte(strings.TrimSuffix(body, ");")), &lp))
	keys := regexp.MustCompile(`data-figure="([^"]*)"`).FindAllStringSubmatch(page(t, s, "a.html"), -1)
	if len(keys) != 2 {
		t.Fatalf("%d figures with inputs, want 2", len(keys))
	}
	for i, want := range []string{yaml("A100"), yaml("H100")} {
		if key := keys[i][1]; lp.Figures[key] != want {
			t.Errorf("figure %d (data-figure=%q): the page's script holds %q under its key, want its YAML (keys %v)", i+1, key, lp.Figures[key], slices.Sorted(maps.Keys(lp.Figures)))
		}
	}
}

// "Copy as program" comes from the page's one compile: a cell that does
// not compile, and one below it in its session, have no program and no
// button, and the build says nothing of them (the kernel reports the
// broken cell, once, at its own line).
func TestProgramsOfABrokenPage(t *testing.T) {
	src := "# A\n\n```go run id=a\nimport \"fmt\"\nx := 1\nfmt.Println(x)\n```\n```output\n1\n```\n\n" +
		"```go run id=b\nfmt.Println(y)\n```\n\n```go run id=c\nfmt.Println(x)\n```\n"
	s := build(t, book("a.md", src), site.Options{})
	if len(s.Warnings) > 0 {
		t.Errorf("warnings: %q", s.Warnings)
	}
	script := page(t, s, "assets/programs/a.js")
	_, body, _ := strings.Cut(script, `window.warpbookPrograms["a"]=`)
	var progs map[string]string
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(body), ";")), &progs); err != nil {
		t.Fatalf("assets/programs/a.js: %v\n%s", err, script)
	}
	if len(progs) != 1 || !strings.Contains(progs["a"], "fmt.Println(x)") {
		t.Errorf("programs %q, want a's only", progs)
	}
	html := page(t, s, "a.html")
	contains(t, "a.html", html, `id="cell-a" data-program="a"`)
	lacks(t, "a.html", html, `id="cell-b" data-program`, `id="cell-c" data-program`)
}
