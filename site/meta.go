package site

import (
	"bytes"
	"errors"
	"strings"

	"github.com/warpbook/warpbook/snippets"
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
}

// Byline says who wrote and who reviewed a page. A page whose byline lacks
// a named author, or a different named reviewer, or whose status is
// "draft" or "review", is a draft.
type Byline struct {
	Author   string `yaml:"author"`   // a real, named person
	Reviewer string `yaml:"reviewer"` // a named person other than the author
	Status   string `yaml:"status"`   // "draft", "review" or "published"
}

// FrontMatter is the YAML at the top of a page, between "---" lines. Which
// keys a page may use depends on its kind: chapters use title, description,
// tags and byline; glossary entries (glossary/<slug>.md) add term, short,
// aliases and related; questions (questions/<id>.md) add question,
// difficulty and section.
type FrontMatter struct {
	Title       string   `yaml:"title"`       // the page title; default: the first heading
	Description string   `yaml:"description"` // one sentence, for the description meta tag
	Tags        []string `yaml:"tags"`        // lower-case slugs
	Byline      Byline   `yaml:"byline"`      // who wrote and reviewed it

	// Glossary entries.
	Term    string   `yaml:"term"`    // the term as it is written in prose
	Short   string   `yaml:"short"`   // one-line definition
	Aliases []string `yaml:"aliases"` // other spellings linked on first mention
	Related []string `yaml:"related"` // slugs of related glossary entries

	// Interview questions.
	Question   string `yaml:"question"`   // the question, one sentence
	Difficulty string `yaml:"difficulty"` // easy, medium or hard
	Section    string `yaml:"section"`    // link to where it is explained, e.g. occupancy.md#cliffs
}

// decodeYAML decodes data strictly into v, within the limits on YAML
// documents (see [snippets.DecodeYAML]). Its diagnostic carries the file
// and the line, counting line as the file line where data starts, and the
// column in bytes.
func decodeYAML(file string, line int, data []byte, v any) *snippets.Diagnostic {
	err := snippets.DecodeYAML(file, line, data, v)
	if err == nil {
		return nil
	}
	d := &snippets.Diagnostic{Pos: snippets.Pos{File: file, Line: line}, Msg: err.Error(), Err: err}
	var yd *snippets.Diagnostic
	if errors.As(err, &yd) {
		d.Pos, d.Msg = yd.Pos, yd.Msg
	}
	d.Msg = strings.TrimSpace(d.Msg)
	if !strings.HasSuffix(file, ".yaml") {
		d.Msg = "front matter: " + d.Msg
	}
	return d
}

// keyLine returns the file line of a top-level key in YAML data that
// starts at file line first, or first if the key is absent.
func keyLine(data []byte, first int, key string) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(l, []byte(key+":")) {
			return first + i
		}
	}
	return first
}
