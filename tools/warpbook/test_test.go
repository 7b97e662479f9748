package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scenario is the "done when" book: five pages, one correct, one
// with a wrong expected output, one that loops forever, one that imports
// os/exec and one that panics in a goroutine.
var scenario = map[string]string{
	"correct.md": "# Correct\n\n```go run\nimport (\n\t\"fmt\"\n\n\t\"github.com/warpbook/warpbook/engine/gpu\"\n)\n\nd := gpu.A100()\nfmt.Println(d.SMs, \"SMs\")\n```\n```output\n108 SMs\n```\n",
	"wrong.md":   "# Wrong\n\nBefore.\n\n```go run id=sum\nimport \"fmt\"\n\ntotal := 0\nfor i := 1; i <= 4; i++ {\n\ttotal += i\n}\nfmt.Println(\"total:\", total)\n```\n```output\ntotal: 11\n```\n\nAfter, with trailing spaces   \n",
	"loop.md":    "# Loop\n\n```go run\nn := 0\nfor {\n\tn++\n}\n```\n",
	"exec.md":    "# Exec\n\n```go run\nimport \"os/exec\"\n\nout, _ := exec.Command(\"ls\").Output()\n_ = out\n```\n",
	"panic.md":   "# Goroutine\n\n```go run\nimport \"sync\"\n\nvar wg sync.WaitGroup\nwg.Add(1)\ngo func() {\n\tdefer wg.Done()\n\tpanic(\"boom\")\n}()\nwg.Wait()\n```\n",
}

func writePages(t *testing.T, pages map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runTestCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := dispatch(args, strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestScenario(t *testing.T) {
	dir := writePages(t, scenario)
	p := func(name string) string { return filepath.Join(dir, name) }
	code, out, errOut := runTestCmd(t, "test", "-cache", "off", "-timeout", "2s", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"ok   " + p("correct.md"),
		p("wrong.md") + ":14:1: sum: output differs from the output block\n\t--- expected\n\t+++ actual\n\t@@ -1 +1 @@\n\t-total: 11\n\t+total: 10\n",
		"\tto update: warpbook test -update -run '^sum$' " + p("wrong.md") + "\n",
		p("loop.md") + ":3:1: snippet-1: used more than 2s of CPU time",
		p("exec.md") + `:4:8: snippet-1: snippets may not import "os/exec"`,
		p("panic.md") + ":3:1: snippet-1: crashed: panic in a goroutine: boom",
		"5 pages: 1 passed, 4 failed, 0 skipped\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// -update fixes only the wrong output, byte-exactly.
	before := map[string][]byte{}
	for name := range scenario {
		before[name], _ = os.ReadFile(p(name))
	}
	code, out, errOut = runTestCmd(t, "test", "-cache", "off", "-timeout", "2s", "-update", dir)
	if code != 1 {
		t.Errorf("-update: exit %d, want 1 (three pages still fail)\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "updated "+p("wrong.md")+": sum") {
		t.Errorf("-update did not say what it updated:\n%s", errOut)
	}
	for name := range scenario {
		after, _ := os.ReadFile(p(name))
		want := before[name]
		if name == "wrong.md" {
			want = []byte(strings.Replace(scenario[name], "total: 11\n", "total: 10\n", 1))
		}
		if !bytes.Equal(after, want) {
			t.Errorf("%s after -update:\n%s\nwant:\n%s", name, after, want)
		}
	}
	// Idempotent: a second -update changes nothing.
	runTestCmd(t, "test", "-cache", "off", "-timeout", "2s", "-update", dir)
	again, _ := os.ReadFile(p("wrong.md"))
	if !bytes.Equal(again, []byte(strings.Replace(scenario["wrong.md"], "total: 11\n", "total: 10\n", 1))) {
		t.Errorf("second -update changed wrong.md:\n%s", again)
	}
}

func TestTestFormats(t *testing.T) {
	dir := writePages(t, map[string]string{"wrong.md": scenario["wrong.md"], "correct.md": scenario["correct.md"]})
	code, out, _ := runTestCmd(t, "test", "-cache", "off", "-json", dir)
	if code != 1 {
		t.Errorf("-json: exit %d, want 1", code)
	}
	var actions []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var e struct{ Action, Package, Test, Output string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("-json line %q: %v", sc.Text(), err)
		}
		actions = append(actions, e.Action+" "+filepath.Base(e.Package)+" "+e.Test)
	}
	want := "start correct.md |run correct.md snippet-1|output correct.md snippet-1|pass correct.md snippet-1|pass correct.md |" +
		"start wrong.md |run wrong.md sum|output wrong.md sum|output wrong.md sum|fail wrong.md sum|fail wrong.md "
	if got := strings.Join(actions, "|"); got != want {
		t.Errorf("-json actions:\n%s\nwant:\n%s", got, want)
	}

	code, out, _ = runTestCmd(t, "test", "-cache", "off", "-format=github", dir)
	wantGH := "::error file=" + filepath.Join(dir, "wrong.md") + ",line=14,col=1,title=sum::output differs from the output block%0A--- expected%0A+++ actual%0A@@ -1 +1 @@%0A-total: 11%0A+total: 10%0Ato update: warpbook test -update -run '^sum$' " + filepath.Join(dir, "wrong.md") + "\n"
	if code != 1 || out != wantGH {
		t.Errorf("-format=github: exit %d\n%q\nwant\n%q", code, out, wantGH)
	}

	code, out, _ = runTestCmd(t, "test", "-cache", "off", "-run", "^snippet-1$", "-v", dir)
	if code != 0 || !strings.Contains(out, "--- PASS: "+filepath.Join(dir, "correct.md")+":3:1 snippet-1") || strings.Contains(out, "sum") {
		t.Errorf("-run ^snippet-1$: exit %d\n%s", code, out)
	}
}

func TestTestExitCodes(t *testing.T) {
	dir := writePages(t, map[string]string{
		"bad.md":  "```go run colour=red\n```\n",
		"good.md": scenario["correct.md"],
	})
	code, out, _ := runTestCmd(t, "test", "-cache", "off", dir)
	if code != 2 || !strings.Contains(out, filepath.Join(dir, "bad.md")+`:1:11: unknown attribute "colour"`) || !strings.Contains(out, "ok   "+filepath.Join(dir, "good.md")) {
		t.Errorf("parse error: exit %d, want 2, and the good page still runs:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"test", "-format=xml", dir},
		{"test", "-run", "(", dir},
		{"test", filepath.Join(dir, "missing.md")},
		{"run"},
	} {
		if code, _, _ := runTestCmd(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	good := writePages(t, map[string]string{"good.md": scenario["correct.md"]})
	if code, out, _ := runTestCmd(t, "test", "-cache", "off", good); code != 0 {
		t.Errorf("all pass: exit %d, want 0\n%s", code, out)
	}
}

func TestCacheReexecutesNothing(t *testing.T) {
	dir := writePages(t, map[string]string{"wrong.md": scenario["wrong.md"], "correct.md": scenario["correct.md"]})
	cache := t.TempDir()
	runTestCmd(t, "test", "-cache", cache, dir)
	code, out, _ := runTestCmd(t, "test", "-cache", cache, "-v", dir)
	if code != 1 || strings.Count(out, "(cached)") != 2 {
		t.Errorf("second run should take both snippets from the cache (exit %d):\n%s", code, out)
	}
	// Editing a snippet invalidates its result.
	src, _ := os.ReadFile(filepath.Join(dir, "wrong.md"))
	os.WriteFile(filepath.Join(dir, "wrong.md"), bytes.Replace(src, []byte("i <= 4"), []byte("i <= 5"), 1), 0o644)
	_, out, _ = runTestCmd(t, "test", "-cache", cache, "-v", dir)
	if strings.Count(out, "(cached)") != 1 || !strings.Contains(out, "+total: 15") {
		t.Errorf("after an edit only correct.md should be cached:\n%s", out)
	}
}

func TestRunNotebook(t *testing.T) {
	dir := writePages(t, map[string]string{"wrong.md": scenario["wrong.md"]})
	code, out, errOut := runTestCmd(t, "run", filepath.Join(dir, "wrong.md"))
	want := "── sum " + filepath.Join(dir, "wrong.md") + ":5:1\n" +
		"  │ import \"fmt\"\n  │ \n  │ total := 0\n  │ for i := 1; i <= 4; i++ {\n  │ \ttotal += i\n  │ }\n  │ fmt.Println(\"total:\", total)\n" +
		"  total: 10\n  ✗ output differs from the output block\n"
	if code != 1 || !strings.HasPrefix(out, want) || strings.Contains(out, "\x1b[") {
		t.Errorf("run: exit %d (stderr %q)\n%s\nwant it to start with\n%s", code, errOut, out, want)
	}
	_, out, _ = runTestCmd(t, "run", "-color=always", filepath.Join(dir, "wrong.md"))
	if !strings.Contains(out, "\x1b[1msum\x1b[0m") {
		t.Errorf("run -color=always has no colour:\n%q", out)
	}
}
