package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// TestCopyAsProgram takes every runnable snippet of the book as the
// program "Copy as program" gives a reader (snippets.Compiled.Program), builds
// them all with the Go toolchain in this module, runs each, and compares
// what it prints with the output the page verifies; a panics= snippet
// must end in that panic.
func TestCopyAsProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program per snippet of the book")
	}
	booktest.Require(t)
	root, err := filepath.Abs("../..")
	noErr(t, err)
	type prog struct {
		name  string
		cell  *page.Cell
		whole bool // a whole program, built as itself
	}
	var progs []prog
	var mains []string // the packages of the one executable
	tmp := t.TempDir()
	overlay := map[string]string{}
	// The book's own packages (book/lib/wb), which its pages import.
	pkgs, ds := snippets.ReadPackages(filepath.Join(root, "book"))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	err = filepath.WalkDir(filepath.Join(root, "book"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || d.Name() == "SUMMARY.md" {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		pg, err := page.Parse(filepath.ToSlash(rel), src)
		if err != nil {
			return err
		}
		cp := snippets.Compile(pg, pkgs)
		for _, c := range pg.Cells {
			if c.Attrs.Skip != "" || c.Attrs.Error != "" {
				continue
			}
			code, err := cp.Program(c, "")
			if err != nil || code == "" {
				t.Errorf("%s: no program (%v)", c.Pos, err)
				continue
			}
			name := fmt.Sprintf("p%d", len(progs))
			// Linking 200 programs takes minutes; one executable that
			// holds them all, each as a package whose main is renamed
			// Main, takes one link. A whole-program snippet, which may
			// do things in init, is built as itself.
			pkg := strings.Replace(code, "\npackage main\n", "\npackage "+name+"\n", 1)
			pkg = strings.Replace(pkg, "\nfunc main() {\n", "\nfunc Main() {\n", 1)
			whole := pkg == code || strings.Count(pkg, "func Main() {") != 1
			if whole {
				pkg = code
				name = "main" + name
			} else {
				mains = append(mains, name)
			}
			f := filepath.Join(tmp, name+".go")
			writeFileT(t, f, pkg)
			overlay[filepath.Join(root, "_wbprogram", name, "main.go")] = f
			progs = append(progs, prog{name, c, whole})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) < 100 {
		t.Fatalf("only %d programs: is the book there?", len(progs))
	}
	var all strings.Builder
	all.WriteString("package main\n\nimport (\n\t\"os\"\n")
	for _, m := range mains {
		fmt.Fprintf(&all, "\t%q\n", "github.com/warpbook/warpbook/_wbprogram/"+m)
	}
	all.WriteString(")\n\nvar mains = map[string]func(){\n")
	for _, m := range mains {
		fmt.Fprintf(&all, "\t%q: %s.Main,\n", m, m)
	}
	all.WriteString("}\n\nfunc main() { mains[os.Args[1]]() }\n")
	f := filepath.Join(tmp, "all.go")
	writeFileT(t, f, all.String())
	overlay[filepath.Join(root, "_wbprogram", "all", "main.go")] = f
	ob, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovl := filepath.Join(tmp, "overlay.json")
	writeFileT(t, ovl, ob)
	bin := filepath.Join(tmp, "bin")
	args := []string{"build", "-ldflags=-s -w", "-overlay", ovl, "-o", bin + string(filepath.Separator), "github.com/warpbook/warpbook/_wbprogram/all"}
	for _, p := range progs {
		if p.whole {
			args = append(args, "github.com/warpbook/warpbook/_wbprogram/"+p.name)
		}
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOTOOLCHAIN=local")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	built := time.Since(start)

	var wg sync.WaitGroup
	sem := make(chan bool, runtime.GOMAXPROCS(0))
	for _, p := range progs {
		wg.Go(func() {
			sem <- true
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			var stdout, stderr bytes.Buffer
			cmd := exec.CommandContext(ctx, filepath.Join(bin, "all"), p.name)
			if p.whole {
				cmd = exec.CommandContext(ctx, filepath.Join(bin, p.name))
			}
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			c := p.cell
			if c.Attrs.Panics != "" {
				if err == nil || !strings.Contains(stderr.String(), "panic: ") || !strings.Contains(stderr.String(), c.Attrs.Panics) {
					t.Errorf("%s: %s: the program should panic with %q; it ended with %v\n%s", c.Pos, c.ID(), c.Attrs.Panics, err, stderr.String())
				}
			} else if err != nil {
				t.Errorf("%s: %s: the program failed: %v\n%s", c.Pos, c.ID(), err, stderr.String())
				return
			}
			if got, want := lines(stdout.String(), c.Attrs.Unordered), lines(c.Expected(), c.Attrs.Unordered); !slices.Equal(got, want) {
				t.Errorf("%s: %s: the program prints\n%s\nwant (the page's verified output)\n%s", c.Pos, c.ID(), strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
	wg.Wait()
	t.Logf("%d snippets as programs: built in %v, run in %v", len(progs), built.Round(time.Millisecond), (time.Since(start) - built).Round(time.Millisecond))
}

// lines are the lines of an output as the kernel compares them: trailing
// spaces and blank lines dropped, sorted when the order does not count.
func lines(s string, unordered bool) []string {
	ls := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range ls {
		ls[i] = strings.TrimRight(l, " \t")
	}
	for len(ls) > 0 && ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	if unordered {
		slices.Sort(ls)
	}
	return ls
}
