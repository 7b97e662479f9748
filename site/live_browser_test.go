package site_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/live"
)

// liveBook builds a book with the browser kernel into a directory.
func liveBook(t *testing.T, dir string) string {
	t.Helper()
	cache, err := live.DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	b := &live.Builder{CacheDir: cache}
	s, err := site.Build(context.Background(), os.DirFS(dir), site.Options{Dir: dir, Live: b.Kernel})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	out := filepath.Join(t.TempDir(), "site")
	if err := s.Write(out); err != nil {
		t.Fatal(err)
	}
	return out
}

type runResult struct {
	Status string `json:"status"`
	Stdout string `json:"stdout"`
	Error  string `json:"error"`
	Diff   string `json:"diff"`
}

func TestBrowserLiveProbe(t *testing.T) {
	if os.Getenv("WBPROBE") == "" {
		t.Skip()
	}
	bctx := browser(t)
	dir := liveBook(t, "../book")
	base := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String()
	tb := newTab(t, bctx, base)
	tb.open(os.Getenv("WBPROBE"))
	ids := evalJS[[]string](tb, `Array.from(document.querySelectorAll('.cell[data-cell]')).map(c => c.dataset.cell)`)
	for _, id := range ids {
		start := time.Now()
		r, err := chromedp.Run(tb.ctx, chromedp.Evaluate[runResult](`window.warpbook.run(`+"`"+id+"`"+`)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s %v %q %q", id, r.Status, time.Since(start), r.Error, r.Diff)
	}
}
