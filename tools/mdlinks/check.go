package main

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// A checker checks the links of Markdown files under one root.
type checker struct {
	root    *os.Root
	local   bool                       // links with a scheme are errors
	anchors map[string]map[string]bool // heading anchors by file
}

// markdown parses as GitHub does for what matters here: links, autolinks
// and headings, with code spans and blocks never links.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// check reads the file name (a slash-separated path under the root) and
// returns a "file:line:col: message" for each link that does not resolve.
func (c *checker) check(name string) ([]string, error) {
	src, err := c.root.ReadFile(name)
	if err != nil {
		return nil, err
	}
	doc := markdown.Parser().Parse(text.NewReader(src))
	var problems []string
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest string
		switch n := n.(type) {
		case *ast.Link:
			dest = string(n.Destination)
		case *ast.Image:
			dest = string(n.Destination)
		case *ast.AutoLink:
			dest = string(n.URL(src))
		default:
			return ast.WalkContinue, nil
		}
		if msg := c.resolve(name, dest); msg != "" {
			line, col := position(src, offset(n, src))
			problems = append(problems, fmt.Sprintf("%s:%d:%d: %s", name, line, col, msg))
		}
		return ast.WalkSkipChildren, nil
	})
	return problems, err
}

// resolve says what is wrong with the link dest in the file from, or "".
func (c *checker) resolve(from, dest string) string {
	u, err := url.Parse(dest)
	switch {
	case err != nil:
		return fmt.Sprintf("link %q: %v", dest, err)
	case u.Scheme != "" || u.Host != "":
		if c.local {
			return fmt.Sprintf("link %q leaves the repository", dest)
		}
		return ""
	case strings.HasPrefix(u.Path, "/"):
		return fmt.Sprintf("link %q starts with /: GitHub resolves it outside the repository; make it relative", dest)
	}
	target := from
	if u.Path != "" {
		target = path.Join(path.Dir(from), u.Path)
		if target == ".." || strings.HasPrefix(target, "../") {
			return fmt.Sprintf("link %q leads outside the repository", dest)
		}
		if _, err := c.root.Stat(target); err != nil {
			return fmt.Sprintf("link %q: no file %s", dest, target)
		}
	}
	if u.Fragment == "" || !strings.HasSuffix(target, ".md") {
		return ""
	}
	anchors, err := c.headings(target)
	if err != nil {
		return fmt.Sprintf("link %q: %v", dest, err)
	}
	if !anchors[u.Fragment] {
		return fmt.Sprintf("link %q: %s has no heading #%s", dest, target, u.Fragment)
	}
	return ""
}

// headings returns the anchors GitHub gives the headings of the Markdown
// file name.
func (c *checker) headings(name string) (map[string]bool, error) {
	if a, ok := c.anchors[name]; ok {
		return a, nil
	}
	src, err := c.root.ReadFile(name)
	if err != nil {
		return nil, err
	}
	anchors := map[string]bool{}
	seen := map[string]int{}
	doc := markdown.Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			s := slug(plain(h, src))
			if k := seen[s]; k > 0 {
				anchors[fmt.Sprintf("%s-%d", s, k)] = true
			} else {
				anchors[s] = true
			}
			seen[s]++
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if c.anchors == nil {
		c.anchors = map[string]map[string]bool{}
	}
	c.anchors[name] = anchors
	return anchors, nil
}

// plain returns the text of n's inline content, code spans included.
func plain(n ast.Node, src []byte) string {
	var b bytes.Buffer
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch n := n.(type) {
			case *ast.Text:
				b.Write(n.Value(src))
			case *ast.String:
				b.Write(n.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// slug is GitHub's anchor for a heading's text: lower case, every
// character but letters, digits, marks, "_", "-" and spaces dropped, each
// space a "-".
func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// offset is the byte offset in src where the link n starts: its own
// position ("[", "![", "<"), or for an autolink of bare text, where its
// text occurs first from the position goldmark gives it or its block.
func offset(n ast.Node, src []byte) int {
	a, auto := n.(*ast.AutoLink)
	if p := n.Pos(); p >= 0 && (!auto || p < len(src) && src[p] == '<') {
		return p
	}
	start := 0
	for p := ast.Node(n); p != nil; p = p.Parent() {
		if p.Pos() >= 0 {
			start = p.Pos()
			break
		}
	}
	if auto {
		if i := bytes.Index(src[start:], a.Label(src)); i >= 0 {
			return start + i
		}
	}
	return start
}

// position is the 1-based line and byte column of offset off in src.
func position(src []byte, off int) (line, col int) {
	before := src[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	return line, off - (bytes.LastIndexByte(before, '\n') + 1) + 1
}
