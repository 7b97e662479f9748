package preview

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warpbook/warpbook/site/internal/synth"
)

func get(t testing.TB, url string) (int, string, string) {
	t.Helper()
	resp, err := http.Get(url)
	noErr(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
}

func TestPreview(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		noErr(t, os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644))
	}
	write("index.md", "# Home\n\nSee [two](two.md).\n")
	write("two.md", "# Two\n\nFirst version.\n")
	s := &Server{Dir: dir}
	noErr(t, s.Rebuild(context.Background()))
	ts := httptest.NewServer(s)
	defer ts.Close()

	code, ctype, body := get(t, ts.URL+"/")
	if code != 200 || !strings.HasPrefix(ctype, "text/html") || !strings.Contains(body, "<h1 id=\"home\">Home</h1>") {
		t.Fatalf("GET /: %d %s\n%s", code, ctype, body)
	}
	if !strings.Contains(body, `fetch("/_warpbook/wait?v="+v)`) {
		t.Error("the page has no reload script")
	}
	if code, ctype, _ := get(t, ts.URL+"/assets/warpbook.css"); code != 200 || !strings.HasPrefix(ctype, "text/css") {
		t.Errorf("GET the stylesheet: %d %s", code, ctype)
	}
	if code, _, body := get(t, ts.URL+"/nope.html"); code != 404 || !strings.Contains(body, "Page not found") {
		t.Errorf("GET a missing page: %d", code)
	}
	// Deeper down, the 404 page's links still start at the root.
	if code, _, body := get(t, ts.URL+"/a/b/nope.html"); code != 404 || !strings.Contains(body, `href="/assets/warpbook.css"`) || !strings.Contains(body, `<a href="/two.html">`) {
		t.Errorf("GET a missing page two folders down: %d\n%s", code, body)
	}

	// A broken link: the errors show on every page above the last good one.
	write("index.md", "# Home\n\nSee [two](two.md#missing).\n")
	if err := s.Rebuild(context.Background()); err == nil {
		t.Fatal("a broken anchor built")
	}
	_, _, body = get(t, ts.URL+"/two.html")
	if !strings.Contains(body, "The build failed") || !strings.Contains(body, filepath.Join(dir, "index.md")+":3:5: broken anchor: two.md has no #missing") ||
		!strings.Contains(body, "First version.") {
		t.Errorf("page after a failed build:\n%s", body)
	}

	// Watching: a change rebuilds, and a waiting page hears of it.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.watching = make(chan struct{})
	go s.Watch(ctx)
	v := s.Version()
	type answer struct {
		body string
		err  error
	}
	waited := make(chan answer, 1)
	go func() {
		// Not get: t.Fatal may not be called from another goroutine.
		resp, err := http.Get(ts.URL + "/_warpbook/wait?v=" + strconv.Itoa(v))
		if err != nil {
			waited <- answer{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		waited <- answer{string(b), err}
	}()
	// Once the watcher watches, one write rebuilds. A hung watcher is
	// caught by go test's -timeout.
	<-s.watching
	write("index.md", "# Home\n\nSee [two](two.md).\n")
	if got := <-waited; got.err != nil {
		t.Errorf("wait: %v", got.err)
	} else if got.body == strconv.Itoa(v) {
		t.Errorf("wait answered %s, the old version", got.body)
	}
	_, _, body = get(t, ts.URL+"/")
	if strings.Contains(body, "The build failed") {
		t.Error("the errors stay after the fix")
	}
}

// TestPreviewLinkOut: the preview reads the book as the build does, so a
// page that is a symbolic link out of the book is an error at its path,
// never a page showing what it leads to.
func TestPreviewLinkOut(t *testing.T) {
	dir := t.TempDir()
	noErr(t, os.WriteFile(filepath.Join(dir, "index.md"), []byte("# Home\n"), 0o644))
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "leak.md")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	s := &Server{Dir: dir}
	err := s.Rebuild(context.Background())
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "leak.md")+": symbolic link to /etc/passwd leads outside the book") {
		t.Fatalf("Rebuild = %v, want the link refused at its path", err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	secret, err := os.ReadFile("/etc/passwd")
	if err != nil || len(secret) == 0 {
		return
	}
	first, _, _ := strings.Cut(string(secret), "\n")
	if _, _, body := get(t, ts.URL+"/leak.html"); strings.Contains(body, first) {
		t.Errorf("GET /leak.html shows /etc/passwd:\n%s", body)
	}
}

// saveToReload serves warpbook serve's preview of the 200-page synthetic
// book, watching it, and returns what a writer does: save a prose edit
// (mark) to one page, then, as the page's reload script does, wait for the
// next build and load the page, until it shows the edit.
func saveToReload(tb testing.TB) func(mark string) {
	book, _, err := synth.Write(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	s := &Server{Dir: book}
	if err := s.Rebuild(context.Background()); err != nil {
		tb.Fatal(err)
	}
	ts := httptest.NewServer(s)
	tb.Cleanup(ts.Close)
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	s.watching = make(chan struct{})
	go s.Watch(ctx)

	page := filepath.Join(book, "page-100.md")
	src, err := os.ReadFile(page)
	if err != nil {
		tb.Fatal(err)
	}
	edit := func(mark string) {
		if err := os.WriteFile(page, append(src, "\n"+mark+"\n"...), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	// Once the watcher watches, one write rebuilds (a hung watcher is
	// caught by go test's -timeout): warm the server's cache with it. A
	// build the write's last events start after that one is seen by save,
	// which waits until the page shows its mark.
	<-s.watching
	v := s.Version()
	edit("Warming up.")
	if _, _, got := get(tb, ts.URL+"/_warpbook/wait?v="+strconv.Itoa(v)); got == strconv.Itoa(v) {
		tb.Fatalf("no build in 30 s after build %d", v)
	}
	return func(mark string) {
		v := s.Version()
		edit(mark)
		for {
			_, _, got := get(tb, ts.URL+"/_warpbook/wait?v="+strconv.Itoa(v))
			if got == strconv.Itoa(v) {
				tb.Fatalf("no build in 30 s after build %d", v)
			}
			v, _ = strconv.Atoi(got)
			if _, _, body := get(tb, ts.URL+"/page-100.html"); strings.Contains(body, mark) {
				return
			}
		}
	}
}

// TestPreviewSaveToReload: a prose edit saved to one page of the 200-page
// synthetic book shows on the reloaded page (BenchmarkSaveToReload
// measures how long the writer waits).
func TestPreviewSaveToReload(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the 200-page synthetic book several times; skipped with -short")
	}
	saveToReload(t)("An edit.")
}

// BenchmarkSaveToReload measures what a writer waits for: from saving a
// prose edit to one page of the 200-page synthetic book to the reloaded
// page showing it (the watcher's settling time, the rebuild, the waiting
// page's answer and the page itself); median-ms is the median.
func BenchmarkSaveToReload(b *testing.B) {
	save := saveToReload(b)
	var times []time.Duration
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		save(fmt.Sprintf("Edit number %d.", i))
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/float64(time.Millisecond), "median-ms")
}
