package site

import (
	"bytes"
	"embed"
	"fmt"
	"html"
	"html/template"
	"path"
	"strings"
)

//go:embed templates assets
var embedded embed.FS

// themeScript runs before the stylesheet applies, so that a chosen theme
// shows without a flash of the other one.
const themeScript = `(function(){var d=document.documentElement;d.className+=" js";try{var t=localStorage.getItem("warpbook-theme");if(t==="light"||t==="dark")d.setAttribute("data-theme",t)}catch(e){}})();`

var pageTemplate = template.Must(template.ParseFS(embedded, "templates/page.tmpl"))

type linkData struct {
	Href, Title string
}

type layoutData struct {
	Lang, Book, Title, Description string
	Root                           string
	Home                           bool
	Kind                           string
	ThemeScript                    template.JS
	Sidebar                        template.HTML
	Crumbs                         []linkData
	Draft                          string
	TitleInDoc                     bool
	Content                        template.HTML
	Byline                         string
	EditURL                        string
	Prev, Next                     *linkData
	TOC                            []tocEntry
	Provenance                     template.HTML
	Practice                       bool // the practice page: load its styles and scripts
	Live                           *liveData
}

type tocEntry struct {
	Level int
	ID    string
	Text  string
}

var kindNames = map[pageKind]string{kindChapter: "chapter", kindGlossary: "glossary", kindQuestion: "question", kindGenerated: "generated"}

// render renders every page, in parallel.
func (b *build) render() error {
	// The search index is made from the pages, not from their HTML: it is
	// made (and its budget checked) while they render.
	index := make(chan error, 1)
	go func() { index <- b.searchIndex() }()
	parallel(b.pages, func(p *htmlPage) {
		r := b.newRenderer(p, p.out, false)
		notFound := p.kind == kindGenerated && p.out == "404.html"
		if notFound {
			// A server shows it for a missing page at any depth: links
			// start from the root, filled in once it is known.
			r.root, r.abs = rootToken, true
		}
		data := r.layout()
		var buf bytes.Buffer
		buf.Grow(len(data.Content) + len(data.Sidebar) + 16<<10) // the page around them is a few KB
		if err := pageTemplate.Execute(&buf, data); err != nil {
			b.errorf(p.path, 0, "template: %v", err)
			return
		}
		out := buf.Bytes()
		if notFound {
			b.notFound = out
			out = bytes.ReplaceAll(out, []byte(rootToken), []byte(html.EscapeString(b.base)))
		}
		b.put(p.out, out)
		b.addErrs(r.errs...)
		b.mu.Lock()
		b.links = append(b.links, r.links...)
		b.mu.Unlock()
	})
	return <-index
}

// content returns the HTML of a page's article.
func (r *renderer) content() string {
	p := r.p
	switch {
	case p.body != nil:
		return p.body(r)
	case p.kind == kindGlossary:
		return r.glossaryEntry(r.markdown(p.doc()))
	case p.kind == kindQuestion:
		return r.questionPage()
	}
	s := r.markdown(p.doc())
	if p.list != nil {
		s += p.list(r)
	}
	return s + r.chapterQuestions()
}

func (r *renderer) layout() *layoutData {
	b := r.b
	p := r.p
	d := &layoutData{
		Lang:        b.settings.Language,
		Book:        b.settings.Title,
		Title:       p.title,
		Description: b.settings.Description,
		Root:        r.root,
		Home:        p.out == "index.html",
		Kind:        kindNames[p.kind],
		ThemeScript: template.JS(themeScript),
		Draft:       p.draft,
		TitleInDoc:  p.titleInDoc,
		Content:     template.HTML(r.content()),
	}
	if p.fm().Description != "" {
		d.Description = p.fm().Description
	} else if p.kind == kindGlossary {
		d.Description = p.fm().Short
	}
	d.Sidebar = template.HTML(r.sidebar())
	for _, c := range p.crumbs {
		l := linkData{Title: c.title}
		if c.page != nil && c.page != p {
			l.Href = r.href(c.page.out, "")
		}
		d.Crumbs = append(d.Crumbs, l)
	}
	if by := p.fm().Byline; p.draft == "" && by.Author != "" {
		d.Byline = fmt.Sprintf("Written by %s, reviewed by %s.", by.Author, by.Reviewer)
	}
	if b.settings.EditURL != "" && p.kind != kindGenerated {
		d.EditURL = strings.ReplaceAll(b.settings.EditURL, "{path}", escapeURL(p.path, pathSafe))
	}
	if p.prev != nil {
		d.Prev = &linkData{Href: r.href(p.prev.out, ""), Title: p.prev.title}
	}
	if p.next != nil {
		d.Next = &linkData{Href: r.href(p.next.out, ""), Title: p.next.title}
	}
	for _, h := range p.headings {
		if (h.level == 2 || h.level == 3) && h.id != "" && p.kind != kindQuestion {
			d.TOC = append(d.TOC, tocEntry{Level: h.level, ID: h.id, Text: h.text})
		}
	}
	if len(p.qs) > 0 && p.kind == kindChapter {
		d.TOC = append(d.TOC, tocEntry{Level: 2, ID: chapterQuestionsID, Text: "Interview questions"})
	}
	if len(d.TOC) < 2 {
		d.TOC = nil
	}
	if p.kind == kindGlossary {
		d.TOC = nil
	}
	d.Provenance = template.HTML(r.provenanceNote())
	d.Practice = p == b.practice
	d.Live = r.liveFor()
	return d
}

// sidebar returns the navigation tree with the current page marked. The
// tree is rendered once per directory (links are relative) and the
// current page marked by a replacement: the sidebar of a 200-page book
// is 200 links on each of 200 pages.
func (r *renderer) sidebar() string {
	b := r.b
	dir := path.Dir(r.at)
	if r.abs {
		dir = rootToken
	}
	b.mu.Lock()
	html, ok := b.sidebars[dir]
	b.mu.Unlock()
	if !ok {
		html = r.sidebarTree()
		b.mu.Lock()
		b.sidebars[dir] = html
		b.mu.Unlock()
	}
	if r.print || !r.p.listed {
		return html
	}
	link := `<a href="` + r.href(r.p.out, "") + `">`
	return strings.Replace(html, link, link[:len(link)-1]+` aria-current="page">`, 1)
}

// sidebarTree renders the navigation tree for pages in r's directory,
// with no page marked.
func (r *renderer) sidebarTree() string {
	b := r.b
	var w strings.Builder
	var list func(items []*navItem, top bool)
	list = func(items []*navItem, top bool) {
		if top {
			w.WriteString(`<ol class="nav">`)
		} else {
			w.WriteString(`<ol>`)
		}
		for _, it := range items {
			switch {
			case it.sep:
				w.WriteString(`<li class="sep" aria-hidden="true"></li>`)
				continue
			case it.part:
				w.WriteString(`<li class="part">`)
				w.WriteString(html.EscapeString(it.title))
				w.WriteString(`</li>`)
				continue
			}
			w.WriteString(`<li>`)
			num := ""
			if it.number != "" {
				num = `<span class="num">` + it.number + `</span> `
			}
			switch {
			case it.page == nil:
				fmt.Fprintf(&w, `<span class="draft-chapter">%s%s</span>`, num, html.EscapeString(it.title))
			default:
				fmt.Fprintf(&w, `<a href="%s">%s%s</a>`, r.href(it.page.out, ""), num, html.EscapeString(it.title))
			}
			if len(it.children) > 0 {
				list(it.children, false)
			}
			w.WriteString("</li>\n")
		}
		w.WriteString("</ol>\n")
	}
	list(b.nav, true)
	return w.String()
}

// notFoundPage is 404.html.
func (r *renderer) notFoundPage() string {
	return `<p>There is no page at this address. Try the <a href="` + r.href("index.html", "") + `">contents</a> or the search box.</p>` + "\n"
}
