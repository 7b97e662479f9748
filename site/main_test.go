package site_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/warpbook/warpbook/snippets"
)

// TestMain lets the test binary serve as the snippets kernel's worker
// process: the live book's tests compare the browser kernel with it. After
// the tests it stops the shared Chromium and removes the shared fixtures.
func TestMain(m *testing.M) {
	if snippets.IsWorker() {
		os.Exit(snippets.ServeWorker())
	}
	code := m.Run()
	if chrome.stop != nil {
		chrome.stop()
	}
	for _, dir := range fixtures.dirs {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// writeFile writes data to the file p, making its directory, or fails t.
func writeFile[D string | []byte](t *testing.T, p string, data D) {
	t.Helper()
	noErr(t, os.MkdirAll(filepath.Dir(p), 0o755))
	noErr(t, os.WriteFile(p, []byte(data), 0o644))
}

// noErr fails t on err.
func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// fixtures are the sites the tests share, each built once by the first
// test that asks for it (see shared) and removed by TestMain.
var fixtures struct {
	mu   sync.Mutex
	dirs []string
}

// fixture is one value built once for the test binary.
type fixture[T any] struct {
	once sync.Once
	v    T
	err  error
}

// get returns the value, building it with build the first time; a build
// that failed fails every test that asks.
func (f *fixture[T]) get(t testing.TB, build func() (T, error)) T {
	t.Helper()
	f.once.Do(func() { f.v, f.err = build() })
	if f.err != nil {
		t.Fatal(f.err)
	}
	return f.v
}

// fixtureDir makes a directory that lasts until the test binary ends.
func fixtureDir() (string, error) {
	dir, err := os.MkdirTemp("", "warpbook-site-test-")
	if err != nil {
		return "", err
	}
	fixtures.mu.Lock()
	defer fixtures.mu.Unlock()
	fixtures.dirs = append(fixtures.dirs, dir)
	return dir, nil
}
