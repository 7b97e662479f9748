package worker

import (
	"io"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets/symbols"
)

// allTables returns an interpreter that was given every table at once, as
// every interpreter was before tables were given as chunks import them.
func allTables(t *testing.T) *Interpreter {
	t.Helper()
	i, err := NewInterpreter(io.Discard, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := i.use(symbols.Symbols(append(symbols.Std(), symbols.Engine()...)...)); err != nil {
		t.Fatal(err)
	}
	return i
}

// TestImportsAsBefore checks that giving tables as chunks import them lets
// through exactly the imports that giving all of them did: every allowed
// package, alone in a fresh interpreter and in each form of chunk yaegi
// reads, and none of the packages outside the allow-list, with the same
// message.
func TestImportsAsBefore(t *testing.T) {
	for _, p := range append(symbols.Std(), symbols.Engine()...) {
		for _, src := range []string{
			"package main\nimport (\n\"" + p + "\"\n)\n",
			"import _ \"" + p + "\"\n",
			"// a comment first\npackage main\n\nimport (\n\tname \"" + p + "\"\n)\n\nfunc main() {}\n",
		} {
			i, err := NewInterpreter(io.Discard, io.Discard, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := eval(i, src); err != nil {
				t.Errorf("%q: allowed, but the interpreter refuses it: %v", src, err)
			}
		}
	}
	for _, p := range []string{"os/exec", "net/http", "unsafe", "reflect", "syscall", "io/fs", "runtime", "github.com/warpbook/warpbook/snippets", "github.com/traefik/yaegi/interp", "github.com/warpbook/warpbook/engine/internal/nope"} {
		src := "package main\nimport \"" + p + "\"\n"
		i, err := NewInterpreter(io.Discard, io.Discard, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, lazy := eval(i, src)
		_, all := eval(allTables(t), src)
		if lazy == nil || all == nil {
			t.Errorf("%s: not allowed, but the interpreter imports it (given as imported: %v; all given: %v)", p, lazy, all)
			continue
		}
		if lazy.Error() != all.Error() {
			t.Errorf("%s: the interpreter refuses it with %q, and with all tables with %q", p, lazy, all)
		}
	}
}

// TestWrapperTables passes interpreted values as interfaces of packages
// the program does not import: the interpreter needs those packages'
// wrapper types all the same.
func TestWrapperTables(t *testing.T) {
	var out strings.Builder
	i, err := NewInterpreter(&out, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{
		"package main\nimport (\n\"fmt\"\n\"container/heap\"\n)\n",
		"package main\ntype w struct{}\nfunc (w) Write(p []byte) (int, error) { fmt.Print(\"<\", string(p), \">\"); return len(p), nil }\n" +
			"type h []int\nfunc (x h) Len() int { return len(x) }\nfunc (x h) Less(a, b int) bool { return x[a] < x[b] }\nfunc (x h) Swap(a, b int) { x[a], x[b] = x[b], x[a] }\n" +
			"func (x *h) Push(v any) { *x = append(*x, v.(int)) }\nfunc (x *h) Pop() any { o := *x; v := o[len(o)-1]; *x = o[:len(o)-1]; return v }\n",
		";\nfmt.Fprintln(w{}, \"io.Writer\")\nx := &h{3, 1, 2}\nheap.Init(x)\nfmt.Println(heap.Pop(x))\n",
	} {
		if _, err := eval(i, c); err != nil {
			t.Fatalf("%q: %v", c, err)
		}
	}
	if got, want := out.String(), "<io.Writer\n>1\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
	for _, k := range []string{"io/io", "sort/sort"} {
		if !i.given[k] {
			t.Errorf("the interpreter was not given %s", k)
		}
	}
	if i.given["strings/strings"] {
		t.Error("the interpreter was given strings, which nothing imports")
	}
}
