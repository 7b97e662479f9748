//go:build !js

package snippets_test

import (
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

const programPage = "# P\n\n" +
	"```go run id=a\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\nx := 1\ny := 2\nfmt.Println(x)\n```\n```output\n1\n```\n\n" +
	"A checked [1](= \"x\").\n\n" +
	"```go run id=b panics=\"boom\"\nfmt.Println(\"before\")\npanic(\"boom\")\n```\n```output\nbefore\n```\n\n" +
	"```go run id=c\nx := \"again\"\nfmt.Println(x, y, strings.ToUpper(\"z\"))\n```\n```output\nagain 2 Z\n```\n\n" +
	"```go run id=d fresh\nimport \"fmt\"\nfmt.Println(\"fresh\")\n```\n```output\nfresh\n```\n\n" +
	"```go run id=e fresh\nfmt.Println(\"no import\")\n```\n```output\nno import\n```\n\n" +
	"```go run id=f skip=\"not here\"\nfmt.Println(1)\n```\n\n" +
	"```go run id=g\nfunc hideOutput() {}\nhideOutput()\n```\n\n" +
	"```go run id=h\nfmt.Println(undefined)\n```\n\n" +
	"```go run id=i\nfmt.Println(x)\n```\n"

// A cell's program is its session cut after it, as the page writes it: the
// cells above run first with their output hidden (a panics= cell's panic
// recovered), a block opens only where a name is declared again, and what
// only later cells use is kept quiet or left out. A cell the kernel does
// not run has none, and no error of its own: the kernel reports it.
func TestProgram(t *testing.T) {
	p, err := page.Parse("p.md", []byte(programPage))
	if err != nil {
		t.Fatal(err)
	}
	cp := snippets.Compile(p, nil)
	want := map[string]string{
		"a": `// Cell a (p.md:3) as a program of its own, made by warpbook.
// Run it inside the module github.com/warpbook/warpbook (a clone of its repository): go run FILE.go
package main

import (
	"fmt"
)

func main() {
	// Cell a (p.md:3)
	x := 1
	y := 2
	fmt.Println(x)
	_ = y
}
`,
		"c": `// Cell c (p.md:26) as a program of its own, made by warpbook.
// The cells above it on the page run first, with their output hidden.
// Run it inside the module github.com/warpbook/warpbook (a clone of its repository): go run FILE.go
package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	showOutput := hideOutput()

	// Cell a (p.md:3), run first
	x := 1
	y := 2
	fmt.Println(x)

	// Cell b (p.md:18), run first
	func() {
		defer func() { _ = recover() }()
		fmt.Println("before")
		panic("boom")
	}()

	{
		showOutput()

		// Cell c (p.md:26)
		x := "again"
		fmt.Println(x, y, strings.ToUpper("z"))
	}
}

// hideOutput sends what the program prints to nowhere until the function
// it returns is called.
func hideOutput() (show func()) {
	stdout := os.Stdout
	os.Stdout, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	return func() { os.Stdout = stdout }
}
`,
		"d": `// Cell d (p.md:34) as a program of its own, made by warpbook.
// Run it inside the module github.com/warpbook/warpbook (a clone of its repository): go run FILE.go
package main

import (
	"fmt"
)

func main() {
	// Cell d (p.md:34)
	fmt.Println("fresh")
}
`,
	}
	for id, w := range want {
		got, err := cp.Program(p.Cell(id), "")
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if got != w {
			t.Errorf("program of %s:\n%s\nwant:\n%s", id, got, w)
		}
	}
	// The cell above ends in its panic, not recovered.
	if b, err := cp.Program(p.Cell("b"), ""); err != nil || !strings.Contains(b, "\tpanic(\"boom\")\n}\n") || strings.Contains(b, "recover") {
		t.Errorf("program of b (%v):\n%s", err, b)
	}
	// A cell that does not compile (e, h), or follows one in its session
	// (i), or is skipped (f) does not run: it has no program and no error.
	for _, id := range []string{"e", "f", "h", "i"} {
		if src, err := cp.Program(p.Cell(id), ""); src != "" || err != nil {
			t.Errorf("%s, which does not run: program %q, error %v", id, src, err)
		}
	}
	// A cell that runs but whose program would not compile (g declares
	// the program's own hideOutput) is an error, not a program.
	if src, err := cp.Program(p.Cell("g"), ""); src != "" || err == nil || !strings.Contains(err.Error(), "p.md:53:1: g: its program does not compile: ") || !strings.Contains(err.Error(), "hideOutput redeclared") {
		t.Errorf("program of g: %q, error %v; want an error at the cell that names the redeclared hideOutput", src, err)
	}
}

// A copied program carries the page's recorded listings only when its
// code names them: cell a uses the kernel's registers, b its SASS.
func TestProgramSASS(t *testing.T) {
	src := "# P\n\n```cuda compile id=k arch=sm_80\n__global__ void k() {}\n```\n" +
		"```resources\nKERNEL ARCH REGISTERS SMEM STACK SPILL-STORES SPILL-LOADS\nk sm_80 8 0 0 0 0\n```\n" +
		"```sass raw\n" +
		"        /*0000*/                   EXIT ;                                             /* 0x000000000000794d */\n" +
		"                                                                                      /* 0x000fea0003800000 */\n" +
		"```\n\n" +
		"```go run id=a\nimport \"fmt\"\nfmt.Println(cuda.Kernel(\"k\", \"sm_80\").Registers)\n```\n```output\n8\n```\n\n" +
		"```go run id=b\nfmt.Println(len(cuda.SASS(\"k\", \"sm_80\").Functions[0].Insts))\n```\n```output\n1\n```\n"
	p, err := page.Parse("p.md", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cp := snippets.Compile(p, nil)
	a, errA := cp.Program(p.Cell("a"), "")
	b, errB := cp.Program(p.Cell("b"), "")
	if errA != nil || errB != nil {
		t.Fatalf("programs: %v, %v", errA, errB)
	}
	if !strings.Contains(a, `Name: "k", Arch: "sm_80"`) || strings.Contains(a, "SASS:") {
		t.Errorf("program of a, which does not use the listing, has it, or lacks the kernel:\n%s", a)
	}
	if !strings.Contains(b, `SASSFile: "p.md", SASSLine: 11, SASS: "        /*0000*/`) {
		t.Errorf("program of b, which runs the listing, lacks it:\n%s", b)
	}
}
