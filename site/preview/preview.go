// Package preview serves a book as a live site while it is being written:
// it builds the book in memory, serves the pages, watches the book's files
// with fsnotify, rebuilds on every change and tells open pages to reload.
// Nothing is written to disk.
//
// A build that fails keeps the last good site served, but every page then
// shows the build's errors, with their file:line, until they are fixed.
package preview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/snippets/page"
)

// A Server builds and serves one book.
type Server struct {
	// Dir is the book directory.
	Dir string
	// Options are the build options; Dir in them is set from Dir, and
	// Cache, if nil, to one the server keeps, so that a rebuild parses,
	// runs and highlights only what changed.
	Options site.Options
	// Logf reports builds and errors; nil is silent.
	Logf func(format string, args ...any)

	cache   site.Cache
	mu      sync.Mutex
	site    *site.Site // the last good build
	err     error      // the last build's error, nil if it succeeded
	version int        // counts builds
	changed chan struct{}
	// watching, if set, is closed once Watch watches the book's folders:
	// a change made after that is seen (for the tests).
	watching chan struct{}
}

func (s *Server) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

// Rebuild builds the book and makes the result current. It returns the
// build's error, if any. A build whose ctx ends before it is done changes
// nothing (it returns ctx's error): what it would show is stale.
func (s *Server) Rebuild(ctx context.Context) error {
	opts := s.Options
	opts.Dir = s.Dir
	if opts.Cache == nil {
		opts.Cache = &s.cache
	}
	start := time.Now()
	built, err := s.build(ctx, opts)
	if ctx.Err() != nil {
		s.logf("build canceled: the book changed again")
		return ctx.Err()
	}
	s.mu.Lock()
	if err == nil {
		s.site = built
	}
	s.err = err
	s.version++
	if s.changed != nil {
		close(s.changed)
	}
	s.changed = make(chan struct{})
	s.mu.Unlock()
	if err != nil {
		s.logf("build failed:\n%v", err)
	} else {
		s.logf("built %d pages in %v", built.Pages, time.Since(start).Round(time.Millisecond))
	}
	return err
}

// build builds the book once, reading it through an os.Root opened for
// this build, which refuses any path or link that leaves the directory.
func (s *Server) build(ctx context.Context, opts site.Options) (*site.Site, error) {
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return site.Build(ctx, root.FS(), opts)
}

// Version returns how many builds have finished.
func (s *Server) Version() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Watch rebuilds the book whenever one of its files changes, until ctx
// ends. Changes that come together are built once, and a change during a
// build cancels it (its result would be stale: after an infinite loop is
// saved and fixed, the fix need not wait for the loop's time limit) and
// builds again once it has stopped. That build is not canceled in its turn
// (a change during it waits for it): saves that come faster than builds
// still see every second one finish.
func (s *Server) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	addTree := func(root string) {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				if p != root && strings.HasPrefix(d.Name(), ".") {
					return fs.SkipDir
				}
				if err := w.Add(p); err != nil {
					s.logf("watch %s: %v", p, err)
				}
			}
			return nil
		})
	}
	addTree(s.Dir)
	if s.watching != nil {
		close(s.watching)
	}
	const settle = 50 * time.Millisecond
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var (
		cancel   context.CancelFunc // the running build's; nil when none runs
		done     chan struct{}      // closed when the running build returns
		pending  bool               // a change came during the running build
		canceled bool               // the running build was canceled
		again    bool               // the running build replaces a canceled one
	)
	start := func() {
		var bctx context.Context
		bctx, cancel = context.WithCancel(ctx)
		done = make(chan struct{})
		go func(done chan struct{}) {
			defer close(done)
			s.Rebuild(bctx)
		}(done)
	}
	defer func() {
		if cancel != nil {
			cancel()
			<-done
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-done:
			cancel, done = nil, nil
			again = canceled
			canceled = false
			if pending {
				pending = false
				start()
			}
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Op&fsnotify.Create != 0 {
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
					addTree(ev.Name)
				}
			}
			if ev.Op&fsnotify.Chmod == ev.Op {
				continue // a chmod alone changes nothing the build reads
			}
			timer.Reset(settle)
		case err, ok := <-w.Errors:
			if !ok {
				return nil
			}
			s.logf("watch: %v", err)
		case <-timer.C:
			if cancel != nil {
				if !again && !canceled {
					cancel()
					canceled = true
				}
				pending = true
				continue
			}
			again = false
			start()
		}
	}
}

// buildingPage is what the preview serves before its first build is done:
// it reloads once the build lands, as every page does.
const buildingPage = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Building the book</title></head><body><p role="status" style="font:16px/1.5 system-ui,sans-serif;margin:2rem">Building the book… this page reloads when the build is done.</p></body></html>`

// reloadScript is added to every page the preview serves (never to a
// built site): it reloads the page when a new build is ready.
const reloadScript = `<script>(function(){var v=%d;function poll(){fetch("/_warpbook/wait?v="+v).then(function(r){return r.text()}).then(function(t){if(+t!==v){location.reload()}else{poll()}},function(){setTimeout(poll,1000)})}poll()})();</script>`

// ServeHTTP serves the current site, with the errors of a failed build
// on every page, and /_warpbook/wait?v=N, which answers once build N+1 is
// done (or after a while, with the current version).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/_warpbook/wait" {
		s.wait(w, r)
		return
	}
	s.mu.Lock()
	built, buildErr, version := s.site, s.err, s.version
	s.mu.Unlock()

	name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
	if name == "" || strings.HasSuffix(r.URL.Path, "/") {
		name = path.Join(name, "index.html")
	}
	var data []byte
	status := http.StatusOK
	if built != nil {
		var ok bool
		if data, ok = built.Files[name]; !ok {
			// The preview serves the site at /: the 404 page's links
			// start there, whatever the depth of the missing page.
			data, status, name = built.NotFound("/"), http.StatusNotFound, "404.html"
		}
	}
	if strings.HasSuffix(name, ".html") || built == nil {
		page := data
		switch {
		case buildErr != nil:
			page = errorPage(buildErr, data)
		case built == nil:
			page = []byte(buildingPage)
		}
		page = bytes.Replace(page, []byte("</body>"), []byte(fmt.Sprintf(reloadScript, version)+"</body>"), 1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		w.Write(page)
		return
	}
	// The type comes from the site's own list, never from sniffing the
	// bytes of a book's file.
	if ct := site.ContentType(name); ct != "" {
		w.Header().Set("Content-Type", ct)
	} else {
		w.Header().Set("Content-Type", "application/octet-stream")
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	if strings.HasPrefix(name, "assets/kernel-") {
		// The browser kernel's name changes with its content: browsers
		// may keep it, and load it once for every page.
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	}
	w.WriteHeader(status)
	w.Write(data)
}

func (s *Server) wait(w http.ResponseWriter, r *http.Request) {
	var v int
	fmt.Sscan(r.URL.Query().Get("v"), &v)
	s.mu.Lock()
	ch, cur := s.changed, s.version
	s.mu.Unlock()
	if cur == v && ch != nil {
		select {
		case <-ch:
		case <-r.Context().Done():
			return
		case <-time.After(30 * time.Second):
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, s.Version())
}

// errorPage shows a failed build's errors above the last good page (or
// alone when there is none).
func errorPage(err error, last []byte) []byte {
	var b strings.Builder
	b.WriteString(`<div role="alert" style="position:relative;z-index:1000;margin:0;padding:1rem 1.5rem;background:#fff0f0;color:#5c0011;border-bottom:3px solid #cf222e;font:14px/1.5 ui-monospace,monospace;white-space:pre-wrap">`)
	b.WriteString("<strong>The build failed; this is the last good build.</strong>\n\n")
	var list page.Diagnostics
	if errors.As(err, &list) {
		var text strings.Builder
		list.Write(&text)
		b.WriteString(html.EscapeString(text.String()))
	} else {
		b.WriteString(html.EscapeString(err.Error()))
	}
	b.WriteString("</div>")
	if len(last) == 0 {
		return []byte("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Build failed</title></head><body>" + b.String() + "</body></html>")
	}
	i := bytes.Index(last, []byte("<body"))
	if i < 0 {
		return append([]byte(b.String()), last...)
	}
	j := bytes.IndexByte(last[i:], '>')
	if j < 0 {
		return append([]byte(b.String()), last...)
	}
	at := i + j + 1
	out := append([]byte{}, last[:at]...)
	out = append(out, b.String()...)
	return append(out, last[at:]...)
}
