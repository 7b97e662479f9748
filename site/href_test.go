package site_test

import (
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/site"
)

// hostileNames is a book whose file names are built to be read as
// something else than a path: a scheme (javascript:), a fragment or a
// query, an attribute's end, an HTML entity that spells a colon, a
// ampersand.
func hostileNames() map[string]string {
	return map[string]string{
		"SUMMARY.md": "# Summary\n\n- [Home](README.md)\n- [Next](./javascript:alert(1).md)\n" +
			"- [Quote](a%22onmouseover=alert(2)%20x.md)\n- [Entity](javascript%26%2358;alert(3).md)\n- [Hash](x%23y%3Fz.md)\n",
		"README.md":                   "# Home\n\nSee [the next page](./javascript:alert(1).md#top) and ![a picture](./javascript:alert(4).png).\n",
		"javascript:alert(1).md":      "# Next\n\n## Top {#top}\n\nSee [home](README.md).\n",
		`a"onmouseover=alert(2) x.md`: "# Quote\n",
		"javascript&#58;alert(3).md":  "# Entity\n",
		"x#y?z.md":                    "# Hash\n",
		"javascript:alert(4).png":     "PNG",
	}
}

// attrURL finds the addresses a page writes: href and src attributes, and
// the live book's data attributes.
var attrURL = regexp.MustCompile(`(?:href|src|data-live-source|data-live-kernel)="([^"]*)"`)

// TestHostileNames: a page or a file of the book named like a script
// address becomes no script address anywhere in the site: not in the
// sidebar, the title page, the print page, the 404 page, SUMMARY's and the
// prose's links, the search index or the live data; every address stays
// a path of the site, inside its attribute.
func TestHostileNames(t *testing.T) {
	files := hostileNames()
	var args []string
	for name, data := range files {
		args = append(args, name, data)
	}
	s := build(t, book(args...), site.Options{})
	base, _ := url.Parse("https://example.org/book/sub/")
	checked := 0
	for name, data := range s.Files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		page := string(data)
		for _, m := range attrURL.FindAllStringSubmatch(page, -1) {
			ref := html.UnescapeString(m[1])
			checked++
			u, err := url.Parse(ref)
			if err != nil {
				t.Errorf("%s: %s=%q does not parse: %v", name, m[0], ref, err)
				continue
			}
			if u.Scheme != "" && u.Scheme != "https" && u.Scheme != "http" {
				t.Errorf("%s: %s is an address with the scheme %q", name, m[0], u.Scheme)
			}
			if strings.Contains(ref, `\`) {
				t.Errorf("%s: %s holds a backslash, which a browser reads as a slash", name, m[0])
			}
			if abs := base.ResolveReference(u); abs.Host != "example.org" {
				t.Errorf("%s: %s leads to %s, off the site", name, m[0], abs)
			}
		}
		// No attribute ends early: a name's quote never closes one.
		lacks(t, name, page, `"onmouseover=`, ` onmouseover=`)
	}
	if checked < 50 {
		t.Fatalf("only %d addresses checked", checked)
	}
	for _, want := range []string{
		`<a href="./javascript:alert(1).html">`,    // the sidebar, at the top level
		`href="./javascript:alert(1).html#top"`,    // a prose link with its anchor
		`<img src="./javascript:alert(4).png"`,     // an image
		`href="a%22onmouseover=alert(2)%20x.html"`, // a quote stays in the path
		`href="javascript%26%2358;alert(3).html"`,  // so does an entity
		`href="x%23y%3Fz.html"`,                    // and a "#" and a "?"
	} {
		if !strings.Contains(page(t, s, "index.html"), want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	contains(t, "the 404 page", page(t, s, "404.html"), `href="./javascript:alert(1).html"`)
	contains(t, "the 404 page at a server's root", string(s.NotFound("/")), `href="/./javascript:alert(1).html"`)
	contains(t, "the search index", page(t, s, "assets/search-index.js"), `"./javascript:alert(1).html"`, `"./javascript:alert(1).html#top"`)
	lacks(t, "the search index", page(t, s, "assets/search-index.js"), `"javascript:`)
	// The print page's ids hold the pages' names escaped, and its links
	// the ids escaped once more: a browser decodes a fragment to find its id.
	contains(t, "the print page", page(t, s, "print.html"), `id="p-javascript%3Aalert%281%29--top"`, `href="#p-javascript%253Aalert%25281%2529--top"`,
		`id="p-a%22onmouseover%3Dalert%282%29%20x"`)
}

// TestBadNames: a name with a control character (a line break ends a
// comment in a script) or a backslash (a slash to browsers and Windows)
// is refused, at the book.
func TestBadNames(t *testing.T) {
	for _, name := range []string{"a\nalert(1).md", `\\evil.example\x.md`, "b\u2028c.md", "d\x7fe.png"} {
		got := buildErr(t, book("index.md", "# Home\n", name, "# X\n"), site.Options{})
		want := fmt.Sprintf("book: file name %q has a control character or a backslash: rename it", name)
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q: %q, want %q", name, got, want)
		}
	}
}

// TestBookURLs: book.yaml's addresses, which every page links to, must be
// http(s) URLs (site_url also a path), or the build stops at the key.
func TestBookURLs(t *testing.T) {
	for _, c := range []struct{ yaml, want string }{
		{"repository: \"javascript:alert(1)//\"\n", `book/book.yaml:2:1: repository "javascript:alert(1)//": want an http(s) URL`},
		{"repository: \"//evil.example/repo\"\n", `book/book.yaml:2:1: repository "//evil.example/repo": want an http(s) URL`},
		{"edit_url: \"JavaScript:alert(1)//{path}\"\n", `book/book.yaml:2:1: edit_url "JavaScript:alert(1)//{path}": want an http(s) URL`},
		{"edit_url: \"data:text/html,<script>alert(1)</script>\"\n", `book/book.yaml:2:1: edit_url "data:text/html,<script>alert(1)</script>": want an http(s) URL`},
		{"site_url: \"javascript:alert(1)\"\n", `book/book.yaml:2:1: site_url "javascript:alert(1)": want an http(s) URL`},
	} {
		got := buildErr(t, book("a.md", "# A\n", "book.yaml", "title: T\n"+c.yaml), site.Options{})
		if len(got) != 1 || !strings.HasPrefix(got[0], c.want) {
			t.Errorf("%s: %q, want %s", strings.TrimSpace(c.yaml), got, c.want)
		}
	}
	// An http(s) repository links each page and snippet to its source,
	// with the page's path escaped.
	s := build(t, book("a b#c.md", "# A\n\n```go run\nprintln()\n```\n", "book.yaml", "repository: https://example.org/r\nedit_url: https://example.org/r/edit/main/{path}\n"), site.Options{})
	contains(t, "the page", page(t, s, "a b#c.html"),
		`href="https://example.org/r/blob/HEAD/a%20b%23c.md"`,
		`href="https://example.org/r/edit/main/a%20b%23c.md"`)
}
