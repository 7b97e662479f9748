package page

import (
	"fmt"
	"slices"
)

// FrontMatter is a page's front matter, the YAML between "---" lines at its
// top, decoded by [Parse]: strictly (a key with no field is an error) and
// within the limits of [DecodeYAML]. Which keys a page may use depends on
// its kind, which the site decides (chapters use title, description, tags
// and byline; glossary entries add term, short, aliases and related;
// interview questions add question, difficulty and section); Parse checks
// what holds on every page.
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

	// ProseNumbers are numbers that a snippet of the page prints and the
	// prose states on purpose as prose (a source's figure being corrected,
	// a constant): the number lint leaves them alone.
	ProseNumbers []string `yaml:"prose_numbers"`

	// Raw is the YAML between the two "---" lines; Line the page line on
	// which it starts (2: right after the opening "---").
	Raw  []byte `yaml:"-"`
	Line int    `yaml:"-"`

	file string         // the page's path
	keys map[string]Pos // where each top-level key is
}

// Byline says who wrote and who reviewed a page. A page whose byline lacks
// a named author, or a different named reviewer, or whose status is
// "draft" or "review", is a draft.
type Byline struct {
	Author   string `yaml:"author"`   // a real, named person
	Reviewer string `yaml:"reviewer"` // a named person other than the author
	Status   string `yaml:"status"`   // "draft", "review" or "published"
}

// Difficulties are the values a question's difficulty may take.
var Difficulties = []string{"easy", "medium", "hard"}

// KeyPos returns the position of a top-level key of the front matter, or
// of the front matter's first line when the key is absent.
func (f *FrontMatter) KeyPos(key string) Pos {
	if p, ok := f.keys[key]; ok {
		return p
	}
	return Pos{File: f.file, Line: f.Line}
}

// decode decodes the raw front matter and checks what holds on every page.
func (f *FrontMatter) decode() Diagnostics {
	keys, err := DecodeYAML(f.file, f.Line, f.Raw, f)
	if err != nil {
		d := *err.(*Diagnostic)
		d.Msg = "front matter: " + d.Msg
		return Diagnostics{&d}
	}
	f.keys = keys
	var ds Diagnostics
	bad := func(key, format string, args ...any) {
		ds = append(ds, &Diagnostic{Pos: f.KeyPos(key), Msg: "front matter: " + fmt.Sprintf(format, args...)})
	}
	for _, t := range f.Tags {
		if !ValidSlug(t) {
			bad("tags", "tag %q: use lower-case letters, digits and hyphens", t)
		}
	}
	switch f.Byline.Status {
	case "", "draft", "review", "published":
	default:
		bad("byline.status", "byline status must be draft, review or published, not %q", f.Byline.Status)
	}
	if f.Difficulty != "" && !slices.Contains(Difficulties, f.Difficulty) {
		bad("difficulty", "difficulty must be easy, medium or hard, not %q", f.Difficulty)
	}
	return ds
}

// ValidSlug reports whether s is a slug: lower-case ASCII letters, digits
// and inner hyphens.
func ValidSlug(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, c := range s {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
