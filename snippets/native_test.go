package snippets

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets/page"
)

// TestNativePagesBuildAlone checks the fall-back of the shared native
// build: when the one go build of every page's sessions fails, each page
// is built on its own, its foldable sessions in an executable of the
// page's, and still runs. The go command here refuses any build that
// names the shared executable.
func TestNativePagesBuildAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("native runs build Go programs; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	fake := filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\ncase \"$*\" in\n*_wbnative/all*) echo 'refused: the shared executable' >&2; exit 1;;\nesac\nexec " + goCmd + " \"$@\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	mk := func(name, word string) *page.Page {
		src := "# " + name + "\n\n```go run\nimport \"fmt\"\n\nfmt.Println(\"" + word + "\")\n```\n```output\n" + word + "\n```\n\n" +
			"```go run fresh\nimport \"fmt\"\n\nfmt.Println(\"" + word + " again\")\n```\n```output\n" + word + " again\n```\n"
		p, err := page.Parse(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	k := &Kernel{Native: true, GoCommand: fake}
	for _, r := range k.Run(context.Background(), []*page.Page{mk("a.md", "one"), mk("b.md", "two")}) {
		var b strings.Builder
		WriteText(&b, []*PageResult{r}, false)
		if !strings.HasPrefix(b.String(), "ok   "+r.Page.Path+"\t2 passed") {
			t.Errorf("%s:\n%s", r.Page.Path, b.String())
		}
	}
}
