package worker

import (
	"cmp"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// buildProgram compiles files (name → source, package main) into an
// executable, or skips the test without a Go toolchain.
func buildProgram(t *testing.T, files map[string]string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds Go programs; skipped with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	dir := t.TempDir()
	files["go.mod"] = "module prog\n\ngo 1.26\n"
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(dir, "prog")
	cmd := exec.Command(goCmd, "build", "-o", exe, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// session is a natively compiled session: HelperGo and a file of cells.
func session(t *testing.T, cells string) string {
	return buildProgram(t, map[string]string{"wb.go": HelperGo, "main.go": "package main\n\n" + cells})
}

func run1(t *testing.T, exe string, lim Limits, units ...int) map[int]*Outcome {
	t.Helper()
	var us []Unit
	lim.Timeout = map[int]time.Duration{}
	for _, u := range units {
		us = append(us, Unit{U: u})
		lim.Timeout[u] = time.Second
	}
	lim.Startup = cmp.Or(lim.Startup, time.Minute)
	return Run(context.Background(), us, lim, Program(exe), lim.Memory, nil)
}

// TestProgramEnvironment: a compiled snippet sees an environment with the
// nonce and the memory limit, and nothing of the parent's.
func TestProgramEnvironment(t *testing.T) {
	t.Setenv("WARPBOOK_TEST_SECRET", "leaked")
	exe := buildProgram(t, map[string]string{"main.go": `package main

import (
	"fmt"
	"os"
	"sort"
)

func main() {
	env := os.Environ()
	sort.Strings(env)
	for _, e := range env {
		fmt.Println(e)
	}
}
`})
	o := run1(t, exe, Limits{Raw: true, Program: true, Memory: 1 << 28, Output: 1 << 20}, 0)[0]
	if !o.Finished() {
		t.Fatalf("did not finish: %+v", o)
	}
	lines := strings.Split(strings.TrimSpace(o.Output), "\n")
	if len(lines) != 2 || lines[0] != "GOMEMLIMIT="+strconv.Itoa(1<<28) || !strings.HasPrefix(lines[1], NonceVar+"=") {
		t.Errorf("environment = %q, want GOMEMLIMIT and %s only", lines, NonceVar)
	}
}

// TestProgramLimits holds compiled sessions and programs to the limits
// the interpreter has.
func TestProgramLimits(t *testing.T) {
	tests := []struct {
		name  string
		raw   bool
		src   string
		limit Limit
		fail  string
	}{
		{"init-loop", false, `func init() {
	for {
	}
}

func _wbCells() {
	_wbStart(0)
	_wbDone(0)
}
`, TimeLimit, "CPU time before its first line ran"},
		{"loop", false, `func _wbCells() {
	_wbStart(0)
	for {
	}
}
`, TimeLimit, "used more than 1s of CPU time"},
		{"sleep", false, `import "time"

func _wbCells() {
	_wbStart(0)
	time.Sleep(time.Hour)
}
`, TimeLimit, "did not finish within 4s of wall-clock time"},
		{"leak", false, `import "time"

func _wbCells() {
	_wbStart(0)
	go time.Sleep(time.Hour)
	_wbDone(0)
}
`, NoLimit, "left 1 goroutine running"},
		{"memory", true, `package main

func main() {
	var keep [][]byte
	for {
		b := make([]byte, 64<<20)
		for i := range b {
			b[i] = 1
		}
		keep = append(keep, b)
	}
}
`, MemoryLimit, "used more than the memory limit of 256 MiB"},
		{"flood", true, `package main

import "fmt"

func main() {
	for {
		fmt.Println("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
	}
}
`, OutputLimit, "printed more than the output limit of 4 KiB"},
		// A program that ends with an exit status and no panic: its own
		// last words say why.
		{"exit", true, `package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "setting up")
	fmt.Fprintln(os.Stderr, "cannot go on: 42")
	os.Exit(3)
}
`, NoLimit, "crashed: exit status 3; the program's own output ends:\n\tsetting up\n\tcannot go on: 42"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var exe string
			if tt.raw {
				exe = buildProgram(t, map[string]string{"main.go": tt.src})
			} else {
				exe = session(t, tt.src)
			}
			o := run1(t, exe, Limits{Raw: tt.raw, Program: true, Memory: 256 << 20, Output: 4096}, 0)[0]
			if !strings.Contains(o.Fail, tt.fail) || o.Limit != tt.limit {
				t.Errorf("outcome %+v: want a failure containing %q, limit %v", o, tt.fail, tt.limit)
			}
		})
	}
}

// TestInterpreterStreams checks the streams NewInterpreter gives a
// snippet (see fmtKey and exports): fmt prints to the interpreter's
// output, and reads nothing, not the process's standard input (a worker's
// job stream); os.Stdout handed to the standard library as a writer is
// the interpreter's output, in order.
func TestInterpreterStreams(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := w.WriteString("7\n8\n9\n"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	stdin := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = stdin }()
	var out strings.Builder
	i, err := NewInterpreter(&out, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := i.Eval("import (\n\"fmt\"\n\"io\"\n\"os\"\n\"text/tabwriter\"\n)"); err != nil {
		t.Fatal(err)
	}
	src := `var n int
c, err := fmt.Scan(&n)
fmt.Print("scanned ", c, " ", err, "\n")
fmt.Printf("%d\n", 2)
fmt.Println(3)
c, err = fmt.Scanln(&n)
fmt.Println(c, err)
c, err = fmt.Scanf("%d", &n)
fmt.Println(c, err)
fmt.Fprintln(os.Stdout, "to os.Stdout")
io.WriteString(os.Stdout, "io.WriteString\n")
tw := tabwriter.NewWriter(os.Stdout, 0, 0, 1, ' ', 0)
fmt.Fprintf(tw, "a\tbb\n")
fmt.Fprintf(tw, "ccc\td\n")
tw.Flush()
fmt.Println("end")
`
	if _, err := i.Eval(";\n" + src); err != nil {
		t.Fatal(err)
	}
	want := "scanned 0 EOF\n2\n3\n0 EOF\n0 EOF\nto os.Stdout\nio.WriteString\na   bb\nccc d\nend\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}
