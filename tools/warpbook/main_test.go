package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets"
)

// TestMain lets the test binary serve as the snippet kernel's worker
// process (the kernel re-executes the running binary, as it re-executes
// warpbook itself), and as the warpbook command for the scripts of
// TestScripts. Put any other test setup below the hooks.
func TestMain(m *testing.M) {
	if snippets.IsWorker() {
		os.Exit(snippets.ServeWorker())
	}
	if os.Getenv(asCommand) == "1" {
		os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// noErr fails t on err.
func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// writeBook writes name/content pairs under a new directory and returns it.
func writeBook(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i+1 < len(files); i += 2 {
		writeFileT(t, filepath.Join(dir, filepath.FromSlash(files[i])), files[i+1])
	}
	return dir
}

// writeFileT writes data to the file p, making its directory, or fails t.
func writeFileT[D string | []byte](t *testing.T, p string, data D) {
	t.Helper()
	noErr(t, os.MkdirAll(filepath.Dir(p), 0o755))
	noErr(t, os.WriteFile(p, []byte(data), 0o644))
}

// runCmd runs warpbook in this process with args and stdin.
func runCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = dispatch(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}
