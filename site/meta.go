package site

import (
	"errors"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
)

// Settings are the book settings, read from book.yaml at the root of the
// book. Every key is optional; an unknown key is an error.
type Settings struct {
	// Title is the book's title, shown in every page header. Default: the
	// name of the book directory.
	Title string `yaml:"title"`
	// Description is one sentence about the book, used for the title page
	// and the description meta tag.
	Description string `yaml:"description"`
	// Language is the BCP 47 language of the content, "en" by default.
	Language string `yaml:"language"`
	// EditURL, when set, adds an "Edit this page" link to every page built
	// from a file. "{path}" in it is replaced by the page's path relative to
	// the book, for example
	// "https://github.com/warpbook/warpbook/edit/main/book/{path}".
	EditURL string `yaml:"edit_url"`
	// SearchBudget is the largest gzipped size of the search index, in
	// kilobytes, before the build warns. Default 300.
	SearchBudget int `yaml:"search_budget_kb"`
	// SiteURL is where the site is published: a URL
	// ("https://example.org/book/") or its path ("/book/"). Only 404.html
	// uses it: a web server shows that page for a missing page at any
	// depth, so its links start from the site's path. Without it they are
	// relative, like every other page's, and work for a missing page at
	// the top level. The rest of the site never depends on it.
	SiteURL string `yaml:"site_url"`
	// Repository is the address of the book's source repository
	// ("https://github.com/warpbook/warpbook"). With it, every page links
	// to its source and every snippet to its line, at the commit the site
	// was built from ("/blob/COMMIT/PATH#LN", as GitHub, Gitea and GitLab
	// read it), and the provenance note says how to clone it.
	Repository string `yaml:"repository"`
	// Packages lists the import paths of the book's own Go packages that
	// its snippets may import (see snippets.Packages): packages of the
	// module whose go.mod encloses the book.
	Packages []string `yaml:"packages"`
}

// decodeYAML decodes book.yaml's data strictly into v, within the limits
// on YAML documents (see [page.DecodeYAML]), and returns where each
// key is. Its diagnostic carries the file and the line, counting line as
// the file line where data starts, and the column in bytes.
func decodeYAML(file string, line int, data []byte, v any) (map[string]page.Pos, *page.Diagnostic) {
	keys, err := page.DecodeYAML(file, line, data, v)
	if err == nil {
		return keys, nil
	}
	d := &page.Diagnostic{Pos: page.Pos{File: file, Line: line}, Msg: err.Error(), Err: err}
	var yd *page.Diagnostic
	if errors.As(err, &yd) {
		d.Pos, d.Msg = yd.Pos, yd.Msg
	}
	d.Msg = strings.TrimSpace(d.Msg)
	return nil, d
}
