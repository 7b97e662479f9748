//go:build unix

package main

import (
	"bytes"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Hostile input on the command line: each command refuses what it must
// not read or write, with the path and the reason, and exits instead of
// blocking on a named pipe or reading /dev/zero forever. A regression
// hangs or fills memory, which go test's -timeout reports.

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Skipf("symlink: %v", err)
	}
}

func TestTestCommandHostile(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	page := "# Page\n\n```go run\nimport \"fmt\"\n\nfmt.Println(1)\n```\n```output\n1\n```\n"
	for _, c := range []struct {
		name  string
		setup func(dir string) []string // returns the arguments after "test -cache off"
		want  string
	}{
		{"fifo in the book", func(dir string) []string {
			mkfifo(t, filepath.Join(dir, "x.md"))
			return []string{dir}
		}, "x.md: not a regular file (a named pipe)"},
		{"fifo named", func(dir string) []string {
			mkfifo(t, filepath.Join(dir, "x.md"))
			return []string{filepath.Join(dir, "x.md")}
		}, "x.md: not a regular file (a named pipe)"},
		{"/dev/zero", func(dir string) []string { return []string{"/dev/zero"} }, "/dev/zero: not a regular file (a device)"},
		{"link to /dev/zero in the book", func(dir string) []string {
			symlink(t, "/dev/zero", filepath.Join(dir, "zero.md"))
			return []string{dir}
		}, "zero.md: symbolic link to /dev/zero leads outside the book"},
		{"link out of the book", func(dir string) []string {
			symlink(t, "/etc/passwd", filepath.Join(dir, "leak.md"))
			return []string{dir}
		}, "leak.md: symbolic link to /etc/passwd leads outside the book"},
		{"page too large", func(dir string) []string {
			writeFileT(t, filepath.Join(dir, "big.md"), bytes.Repeat([]byte("x"), 1<<20+1))
			return []string{dir}
		}, "big.md: larger than 1 MiB, the limit on a page"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeBook(t, "a.md", page)
			args := append([]string{"test", "-cache", "off"}, c.setup(dir)...)
			code, out, errOut := runCmd(t, "", args...)
			if code != 1 || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stderr %q; want 1 and %q\n%s", code, errOut, c.want, out)
			}
		})
	}
	// A link that stays in the book is a page like any other.
	dir := writeBook(t, "a.md", page)
	symlink(t, "a.md", filepath.Join(dir, "b.md"))
	if code, out, errOut := runCmd(t, "", "test", "-cache", "off", dir); code != 0 || !strings.Contains(out, "2 pages: 2 passed") {
		t.Errorf("link inside the book: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCmd(t, "", "run", "/dev/zero"); code != 1 || !strings.Contains(errOut, "/dev/zero: not a regular file (a device)") {
		t.Errorf("run /dev/zero: exit %d, %q", code, errOut)
	}
}

func TestBuildCommandHostile(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for _, c := range []struct {
		name  string
		setup func(dir string)
		want  string
	}{
		{"fifo page", func(dir string) { mkfifo(t, filepath.Join(dir, "x.md")) }, "/x.md: not a regular file (a named pipe)"},
		{"link out of the book", func(dir string) { symlink(t, "/etc/passwd", filepath.Join(dir, "leak.md")) }, "/leak.md: symbolic link to /etc/passwd leads outside the book"},
		{"link to /dev/zero", func(dir string) { symlink(t, "/dev/zero", filepath.Join(dir, "zero.md")) }, "/zero.md: symbolic link to /dev/zero leads outside the book"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bk := writeBook(t, "index.md", "# Home\n")
			c.setup(bk)
			out := filepath.Join(t.TempDir(), "site")
			code, _, stderr := runCmd(t, "", "build", "--book", bk, "-o", out)
			if code != 1 || !strings.Contains(stderr, bk+c.want) || !strings.Contains(stderr, "nothing written") {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a failed build wrote %s", out)
			}
		})
	}
}

// TestPtxasHostile: occupancy --ptxas FILE reads a regular file of bounded
// size, as every file the commands read: a named pipe does not block it.
func TestPtxasHostile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	mkfifo(t, fifo)
	for _, name := range []string{fifo, "/dev/zero"} {
		code, out, errs := runCmd(t, "", "occupancy", "--ptxas", name, "--threads", "256")
		if code != 1 || out != "" || !strings.Contains(errs, "not a regular file") {
			t.Errorf("--ptxas %s: exit %d, stdout %q, stderr %q", name, code, out, errs)
		}
	}
}

func TestSimCommandHostile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	mkfifo(t, fifo)
	if code, out, errs := runCmd(t, "", "sim", "/dev/zero"); code != 1 || out != "" || !strings.Contains(errs, "/dev/zero: not a regular file (a device)") {
		t.Errorf("sim /dev/zero: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if code, _, errs := runCmd(t, "", "sim", fifo); code != 1 || !strings.Contains(errs, "not a regular file (a named pipe)") {
		t.Errorf("sim FIFO: exit %d, stderr %q", code, errs)
	}
	big := filepath.Join(dir, "big.yaml")
	writeFileT(t, big, bytes.Repeat([]byte("#\n"), 1<<20))
	if code, _, errs := runCmd(t, "", "sim", big); code != 1 || !strings.Contains(errs, "larger than 1 MiB, the limit on a workload file") {
		t.Errorf("sim big file: exit %d, stderr %q", code, errs)
	}

	// --trace refuses what a rename would replace, before running, and
	// leaves it as it was.
	for _, target := range []string{fifo, dir} {
		code, _, errs := runCmd(t, "", "sim", simExample, "--trace", target)
		if code != 1 || !strings.Contains(errs, "not a regular file") {
			t.Errorf("--trace %s: exit %d, stderr %q", target, code, errs)
		}
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the named pipe is gone: %v %v", fi, err)
	}
	// Through a symbolic link, the trace replaces the file the link leads
	// to, atomically, and the link stays.
	real := filepath.Join(dir, "real.csv")
	noErr(t, os.WriteFile(real, []byte("old"), 0o640))
	link := filepath.Join(dir, "link.csv")
	symlink(t, "real.csv", link)
	if code, _, errs := runCmd(t, "", "sim", simExample, "--trace", link, "--trace-cycles", "10"); code != 0 {
		t.Fatalf("--trace through a link: exit %d, %s", code, errs)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	data, err := os.ReadFile(real)
	if err != nil || !strings.HasPrefix(string(data), "cycle,slot,") {
		t.Errorf("the link's file holds %q (%v), want the trace", data, err)
	}
	if fi, err := os.Stat(real); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("the trace's mode is %v (%v), want the file's own 0640", fi.Mode(), err)
	}
	dangling := filepath.Join(dir, "dangling.csv")
	symlink(t, "missing/x.csv", dangling)
	if code, _, errs := runCmd(t, "", "sim", simExample, "--trace", dangling); code != 1 || !strings.Contains(errs, "symbolic link to a missing file") {
		t.Errorf("--trace to a dangling link: exit %d, %q", code, errs)
	}

	// The cycle limit is named by the flag that raises it.
	code, _, errs := runCmd(t, "", "sim", simExample, "--max-cycles", "100")
	if code != 1 || !strings.Contains(errs, "did not finish within 100 cycles (raise --max-cycles)") || strings.Contains(errs, "Config.MaxCycles") {
		t.Errorf("--max-cycles 100: exit %d, stderr %q", code, errs)
	}
}

// zeros reads as /dev/zero does.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestOccupancyCommandHostile(t *testing.T) {
	// A malformed row is that row's error; the others are written.
	in := "cc,block_size,regs\n8.0,256,32\n8.0,\"256,32\n8.0,2\"56,32\n8.0,128,32\n"
	code, out, errs := runCmd(t, in, "occupancy", "--batch")
	if code != 0 {
		t.Fatalf("--batch with malformed rows: exit %d, %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 5 {
		t.Fatalf("%d rows (%v), want a header and 4:\n%s", len(rows), err, out)
	}
	h := map[string]int{}
	for i, c := range rows[0] {
		h[c] = i
	}
	for i, want := range []string{"ok", "invalid_input", "invalid_input", "ok"} {
		if got := rows[i+1][h["status"]]; got != want {
			t.Errorf("row %d: status %q, want %q (%s)", i+1, got, want, rows[i+1][h["message"]])
		}
	}
	if msg := rows[2][h["message"]]; !strings.HasPrefix(msg, "line 3, column ") || !strings.Contains(msg, "malformed CSV") {
		t.Errorf("row 2 message %q", msg)
	}

	// /dev/zero on stdin stops at the input limit.
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"occupancy", "--batch"}, io.Reader(zeros{}), &stdout, &stderr); code != 1 ||
		stdout.Len() != 0 || !strings.Contains(stderr.String(), "stdin:1: input larger than 64 MiB, the limit") {
		t.Errorf("--batch < /dev/zero: exit %d, stdout %d bytes, stderr %q", code, stdout.Len(), stderr.String())
	}

	// Numbers past 32 bits are named by their flag; none wraps around.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--gpu", "A100", "--suggest", "--regs", "9223372036854775807"}, "--regs 9223372036854775807 is too large (at most 2147483647)"},
		{[]string{"--gpu", "A100", "--threads", "256", "--regs", "32", "--smem", "4294967296"}, `invalid value "4294967296" for flag -smem: 4294967296 is out of range (0 to 2147483647 bytes)`},
		// 2^62 bytes per thread × 1024 threads wrapped to 0: a suggestion
		// with no shared memory at all.
		{[]string{"--gpu", "A100", "--suggest", "--regs", "32", "--dyn-smem-per-thread", "4611686018427387904"}, "4611686018427387904 is out of range (0 to 2147483647 bytes)"},
		// 2^63-1 × 1024 wrapped to -1024: "dynamic shared memory for block size 1024 is negative (-1024)".
		{[]string{"--gpu", "A100", "--suggest", "--regs", "32", "--dyn-smem-per-thread", "3000000"}, "--dyn-smem-per-thread 3000000 is too large: a block of 1024 threads would need 3072000000 bytes (at most 2147483647)"},
		{[]string{"--gpu", "A100", "--suggest", "--regs", "32", "--dyn-smem-per-thread", "-4"}, "-4 is out of range (0 to 2147483647 bytes)"},
	} {
		code, out, errs := runCmd(t, "", append([]string{"occupancy"}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestCacheHostile: the entries of the cache are read as the book's files
// are, and trusted only when this user's warpbook wrote them. A named pipe
// at an entry's path does not hang warpbook test, a link to /dev/zero does
// not fill its memory, and a well-formed entry that claims another output
// (a forged "pass") is not used: the snippet runs again and fails.
func TestCacheHostile(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	// The page's output block is wrong: the snippet prints 1.
	dir := writeBook(t, "a.md", "# Page\n\n```go run\nimport \"fmt\"\n\nfmt.Println(1)\n```\n```output\n2\n```\n")
	entries := func() []string {
		t.Helper()
		files, err := filepath.Glob(filepath.Join(cache, "warpbook", "results", "*", "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no results in the cache (%v)", err)
		}
		return files
	}
	if code, _, _ := runCmd(t, "", "test", dir); code != 1 {
		t.Fatalf("the wrong output passed: exit %d", code)
	}
	for _, c := range []struct {
		name  string
		plant func(entry string)
	}{
		{"fifo", func(e string) { mkfifo(t, e) }},
		{"link to /dev/zero", func(e string) { symlink(t, "/dev/zero", e) }},
		{"link to a file", func(e string) { symlink(t, filepath.Join(dir, "a.md"), e) }},
		{"forged, untagged", func(e string) { writeFileT(t, e, `{"output":"2\n"}`) }},
		{"forged, with a tag", func(e string) { writeFileT(t, e, `{"output":"2\n"}`+strings.Repeat("\x00", 32)) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, e := range entries() {
				noErr(t, os.Remove(e))
				c.plant(e)
			}
			code, out, errOut := runCmd(t, "", "test", dir)
			if code != 1 || !strings.Contains(out+errOut, "FAIL") {
				t.Errorf("exit %d, want the snippet run again and failing:\n%s%s", code, out, errOut)
			}
		})
	}
}
