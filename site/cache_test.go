package site_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"slices"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/snippets"
	mdpage "github.com/warpbook/warpbook/snippets/page"
)

// countingKernel is fakeKernel, recording which pages it was asked to run.
type countingKernel struct {
	fakeKernel
	mu  sync.Mutex
	ran []string
}

func (k *countingKernel) Stream(ctx context.Context, pages []*mdpage.Page, done func(int, *snippets.PageResult)) {
	k.mu.Lock()
	for _, p := range pages {
		k.ran = append(k.ran, p.Path)
	}
	k.mu.Unlock()
	k.fakeKernel.Stream(ctx, pages, done)
}

func (k *countingKernel) take() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	r := k.ran
	k.ran = nil
	slices.Sort(r)
	return r
}

// TestCache: builds through a Cache give the bytes a build without one
// gives, after an edit too, and run only the pages whose source changed.
func TestCache(t *testing.T) {
	fsys := fstest.MapFS{}
	if err := fs.WalkDir(os.DirFS("testdata/book"), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(os.DirFS("testdata/book"), p)
		fsys[p] = &fstest.MapFile{Data: b}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	k := &countingKernel{}
	cache := &site.Cache{}
	opts := site.Options{Dir: "testdata/book", Kernel: k, Cache: cache}
	same := func(what string, got *site.Site) {
		t.Helper()
		want := build(t, fsys, site.Options{Dir: "testdata/book", Kernel: fakeKernel{}})
		if len(got.Files) != len(want.Files) {
			t.Fatalf("%s: %d files, want %d", what, len(got.Files), len(want.Files))
		}
		for name, data := range want.Files {
			if !bytes.Equal(data, got.Files[name]) {
				t.Errorf("%s: %s differs from a build without a cache", what, name)
			}
		}
	}
	same("first build", build(t, fsys, opts))
	first := k.take()
	if len(first) == 0 {
		t.Fatal("the first build ran no page")
	}

	same("unchanged", build(t, fsys, opts))
	if ran := k.take(); len(ran) != 0 {
		t.Errorf("an unchanged rebuild ran %q", ran)
	}

	// A prose edit to the cells page: only it runs again, and the site
	// is the one an uncached build of the edited book gives.
	fsys["cells.md"] = &fstest.MapFile{Data: append(slices.Clone(fsys["cells.md"].Data), "\nA new closing sentence.\n"...)}
	same("after an edit", build(t, fsys, opts))
	if ran := k.take(); !slices.Equal(ran, []string{"testdata/book/cells.md"}) {
		t.Errorf("after an edit to cells.md the rebuild ran %q", ran)
	}

	// A page that failed is run again, though unchanged.
	k.fail = true
	if _, err := site.Build(context.Background(), fsys, site.Options{Dir: "testdata/book", Kernel: k, Cache: cache}); err != nil {
		t.Fatalf("a rebuild from the cache ran a page: %v", err)
	}
	fsys["cells.md"] = &fstest.MapFile{Data: append(slices.Clone(fsys["cells.md"].Data), "\nAnother.\n"...)}
	if _, err := site.Build(context.Background(), fsys, opts); err == nil {
		t.Fatal("a failing page built")
	}
	k.take()
	k.fail = false
	same("after a failure is fixed", build(t, fsys, opts))
	if ran := k.take(); !slices.Equal(ran, []string{"testdata/book/cells.md"}) {
		t.Errorf("after a failure the rebuild ran %q, want the failed page again", ran)
	}
}
