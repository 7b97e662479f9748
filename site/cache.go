package site

import (
	"sync"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// A Cache keeps what one build of a book can give the next, for a series
// of builds of one book with the same Options: warpbook serve keeps one,
// so that a saved edit to one page parses, runs and highlights only what
// changed. It holds the parsed pages (by file name and content: a page is
// never changed once parsed), the results of the pages whose snippets all
// passed (by parsed page, so by content, and by the book's packages),
// highlighted code and each page's search entries. Every page
// is still rendered and every link still checked, so what a page shows of
// the others is never stale.
//
// A Cache keeps only what the last build used. Its zero value is ready;
// it serves one build at a time.
type Cache struct {
	mu       sync.Mutex
	cur, old cacheGen
}

// cacheGen is what one build used.
type cacheGen struct {
	pages   map[string]*page.Page // by file name + "\x00" + source
	results map[*page.Page]keptResult
	memo    map[any]any // see memo
}

// keptResult is a page's result, with the hash of the book's packages it
// ran with (see snippets.Packages): a result stands only for the same
// packages.
type keptResult struct {
	r    *snippets.PageResult
	pkgs string
}

// begin starts a build: what the last one used can be taken.
func (c *Cache) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur.pages != nil {
		c.old = c.cur
	}
	c.cur = cacheGen{pages: map[string]*page.Page{}, results: map[*page.Page]keptResult{}, memo: map[any]any{}}
}

// page returns the page parsed from src under name, parsing it unless
// the last build did.
func (c *Cache) page(name string, src []byte) *page.Page {
	key := name + "\x00" + string(src)
	c.mu.Lock()
	p := c.cur.pages[key]
	if p == nil {
		p = c.old.pages[key]
	}
	c.mu.Unlock()
	if p == nil {
		p, _ = page.Parse(name, src)
	}
	c.mu.Lock()
	c.cur.pages[key] = p
	c.mu.Unlock()
	return p
}

// result returns the last build's result for p, if its snippets passed
// with the book's packages whose hash is pkgs.
func (c *Cache) result(p *page.Page, pkgs string) *snippets.PageResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.old.results[p]
	if !ok || k.pkgs != pkgs {
		return nil
	}
	c.cur.results[p] = k
	return k.r
}

// keep keeps a page's result for the next build if it passed: a failure
// is run again, as a build without a cache would.
func (c *Cache) keep(r *snippets.PageResult, pkgs string) {
	if r.Failed() {
		return
	}
	c.mu.Lock()
	c.cur.results[r.Page] = keptResult{r, pkgs}
	c.mu.Unlock()
}

// memo returns f's value for key, calling f unless this build or the last
// one did. Keys are comparable values of types private to this package;
// f must depend on nothing but what its key holds.
func (c *Cache) memo(key any, f func() any) any {
	c.mu.Lock()
	v, ok := c.cur.memo[key]
	if !ok {
		v, ok = c.old.memo[key]
	}
	c.mu.Unlock()
	if !ok {
		v = f()
	}
	c.mu.Lock()
	c.cur.memo[key] = v
	c.mu.Unlock()
	return v
}
