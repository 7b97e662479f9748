package site

import "sync"

// siteFiles holds the site's files as the build makes them, and the
// names of the book's own files that pages link to, which finish copies
// in. It is safe for concurrent use.
type siteFiles struct {
	mu   sync.Mutex
	out  map[string][]byte              // the site's files by slash-separated path; put adds one
	emit func(name string, data []byte) // told each file put makes, when not nil
	used map[string]bool                // files of the book that pages link to
}

// put makes the site's file name.
func (o *siteFiles) put(name string, data []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.out[name] = data
	if o.emit != nil {
		o.emit(name, data)
	}
}

// useFile records that a page links to the book's file p.
func (o *siteFiles) useFile(p string) {
	o.mu.Lock()
	o.used[p] = true
	o.mu.Unlock()
}
