package site

import (
	"bytes"
	"fmt"
	"html"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	grender "github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// A renderer turns one page's AST into HTML. It rewrites links between
// pages, records them for the link check, highlights code, draws figures
// and shows the kernel's results for each cell. print selects the
// print-the-whole-book variant, where every id is prefixed by the page.
type renderer struct {
	b     *build
	p     *htmlPage // the page whose source is rendered
	at    string    // output path of the HTML page being written
	root  string    // relative URL of the site root from at; rootToken if abs
	abs   bool      // links start from the site root (the 404 page), not from at
	print bool
	gr    grender.Renderer

	links []linkRef
	errs  page.Diagnostics
}

// linkRef is an internal link found while rendering, checked once every
// page is rendered.
type linkRef struct {
	from   *htmlPage
	pos    page.Pos // where in from's source, for the message
	target *htmlPage
	frag   string
}

// pos returns the page position of byte offset off of the page rendered.
func (r *renderer) pos(off int) page.Pos {
	if r.p.snip == nil {
		return page.Pos{File: r.b.file(r.p.path)}
	}
	return r.p.snip.Pos(off)
}

func (r *renderer) addLink(off int, target *htmlPage, frag string) {
	r.links = append(r.links, linkRef{from: r.p, pos: r.pos(off), target: target, frag: frag})
}

func (r *renderer) errorf(off int, format string, args ...any) {
	r.errs = append(r.errs, &page.Diagnostic{Pos: r.pos(off), Msg: fmt.Sprintf(format, args...)})
}

// id returns the HTML id for an id of the page, prefixed on the print page.
func (r *renderer) id(id string) string {
	if r.print {
		return printID(r.p, id)
	}
	return id
}

// printID is the id on the print page of anchor id of page p ("" for the
// page itself). The page's part is its output path with "/" as "-" and
// every byte but the unreserved ones escaped, as in an address: a name
// of the book's is not HTML.
func printID(p *htmlPage, id string) string {
	base := strings.TrimSuffix(p.out, ".html")
	base = escapeURL(strings.ReplaceAll(base, "/", "-"), unreserved)
	if id == "" {
		return "p-" + base
	}
	return "p-" + base + "--" + id
}

// newRenderer returns a renderer of page p's source into the HTML page at
// output path at.
func (b *build) newRenderer(p *htmlPage, at string, print bool) *renderer {
	return &renderer{b: b, p: p, at: at, root: rootOf(at), print: print}
}

// href returns the address of the output path out, with the fragment
// frag (an id; "" for none), from the page being written (see [href]).
func (r *renderer) href(out, frag string) string {
	if r.abs {
		return r.root + rootRef(out, frag)
	}
	return href(r.at, out, frag)
}

// markdown renders the nodes, each with its subtree, as HTML.
func (r *renderer) markdown(nodes ...ast.Node) string {
	if r.gr == nil {
		fn := []extension.FootnoteOption{extension.WithFootnoteBacklinkHTML("↩")}
		if r.print {
			fn = append(fn, extension.WithFootnoteIDPrefix(printID(r.p, "")+"-"))
		}
		r.gr = grender.NewRenderer(grender.WithNodeRenderers(
			util.Prioritized(ghtml.NewRenderer(), 1000),
			util.Prioritized(extension.NewTableHTMLRenderer(extension.WithTableCellAlignMethod(extension.TableCellAlignNone)), 500),
			util.Prioritized(extension.NewStrikethroughHTMLRenderer(), 500),
			util.Prioritized(extension.NewFootnoteHTMLRenderer(fn...), 500),
			util.Prioritized(r, 100),
		))
	}
	var buf bytes.Buffer
	buf.Grow(2 * len(r.p.src())) // about what a page's HTML weighs: fewer copies as it grows
	for _, n := range nodes {
		if err := r.gr.Render(&buf, r.p.src(), n); err != nil {
			r.errorf(lineStart(n), "render: %v", err)
		}
	}
	return buf.String()
}

// RegisterFuncs implements goldmark's renderer.NodeRenderer.
func (r *renderer) RegisterFuncs(reg grender.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHeading, r.heading)
	reg.Register(ast.KindFencedCodeBlock, r.fencedCode)
	reg.Register(ast.KindCodeBlock, r.codeBlock)
	reg.Register(ast.KindLink, r.link)
	reg.Register(ast.KindImage, r.image)
	reg.Register(ast.KindRawHTML, r.rawHTML)
	reg.Register(ast.KindHTMLBlock, r.htmlBlock)
	reg.Register(east.KindTaskCheckBox, r.taskCheckBox)
	reg.Register(ast.KindText, r.text)
	reg.Register(page.KindAlert, r.alert)
	reg.Register(page.KindCell, r.cell)
	reg.Register(page.KindCheck, r.check)
	reg.Register(page.KindCUDA, r.cudaCell)
	reg.Register(page.KindSASS, r.sass)
	reg.Register(page.KindFrontMatter, r.skip)
	reg.Register(page.KindCaption, r.caption)
	reg.Register(page.KindRef, r.ref)
	reg.Register(ast.KindDocument, r.document)
}

// skip renders nothing for a node and its children.
func (r *renderer) skip(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	return ast.WalkSkipChildren, nil
}

func (r *renderer) document(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	return ast.WalkContinue, nil
}

func headingID(n ast.Node) string {
	if v, ok := n.AttributeString("id"); ok {
		switch v := v.(type) {
		case []byte:
			return string(v)
		case string:
			return v
		}
	}
	return ""
}

func (r *renderer) heading(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Heading)
	level := n.Level
	if r.print {
		level = min(level+1, 6)
	}
	id := headingID(n)
	if entering {
		fmt.Fprintf(w, "<h%d", level)
		if id != "" {
			fmt.Fprintf(w, ` id="%s"`, html.EscapeString(r.id(id)))
		}
		w.WriteByte('>')
		return ast.WalkContinue, nil
	}
	if id != "" && !(n.Level == 1 && !r.print) {
		fmt.Fprintf(w, `<a class="hanchor" href="%s" aria-label="Link to this section">#</a>`, fragment(r.id(id)))
	}
	fmt.Fprintf(w, "</h%d>\n", level)
	return ast.WalkContinue, nil
}

func (r *renderer) codeBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		w.WriteString(`<pre class="code" tabindex="0"><code>`)
		w.WriteString(html.EscapeString(string(node.Lines().Value(src))))
		w.WriteString("</code></pre>\n")
	}
	return ast.WalkSkipChildren, nil
}

func (r *renderer) fencedCode(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.FencedCodeBlock)
	lang := string(n.Language(src))
	switch lang {
	case "figure":
		r.figure(w, n)
		return ast.WalkSkipChildren, nil
	case "output":
		w.WriteString(`<pre class="output" tabindex="0"><code>`)
		w.WriteString(html.EscapeString(strings.TrimSuffix(string(n.Lines().Value(src)), "\n")))
		w.WriteString("</code></pre>\n")
		return ast.WalkSkipChildren, nil
	}
	class := ""
	if lang != "" {
		class = ` class="language-` + html.EscapeString(lang) + `"`
	}
	fmt.Fprintf(w, `<pre class="code" tabindex="0"%s><code%s>`, wide(string(n.Lines().Value(src))), class)
	w.WriteString(r.b.highlight(lang, string(n.Lines().Value(src))))
	w.WriteString("</code></pre>\n")
	return ast.WalkSkipChildren, nil
}

func (r *renderer) taskCheckBox(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		if node.(*east.TaskCheckBox).IsChecked {
			w.WriteString(`<span class="task done" role="img" aria-label="done">☑</span> `)
		} else {
			w.WriteString(`<span class="task" role="img" aria-label="to do">☐</span> `)
		}
	}
	return ast.WalkContinue, nil
}

var alertTitles = map[string]string{
	"note": "Note", "tip": "Tip", "important": "Important", "warning": "Warning", "caution": "Caution",
}

func (r *renderer) alert(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*page.Alert)
	if entering {
		fmt.Fprintf(w, `<div class="callout callout-%s" role="note"><p class="callout-title">%s</p>`, n.AlertType, alertTitles[n.AlertType])
		w.WriteString("\n")
	} else {
		w.WriteString("</div>\n")
	}
	return ast.WalkContinue, nil
}

// text writes a text node as goldmark's HTML renderer does, with the
// page's glossary links opened and closed where the glossary linker found
// the terms: the AST itself is never changed.
func (r *renderer) text(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Text)
	seg := n.Segment
	if n.IsRaw() {
		ghtml.DefaultWriter.RawWrite(w, seg.Value(src))
		return ast.WalkContinue, nil
	}
	at := seg.Start
	for _, m := range r.p.terms[n] {
		ghtml.DefaultWriter.Write(w, src[at:m.at])
		at = m.at
		if m.entry == nil {
			w.WriteString("</a>")
			continue
		}
		href := r.href("glossary/"+m.entry.slug+".html", "")
		if r.print {
			href = fragment("g-" + m.entry.slug)
		}
		fmt.Fprintf(w, `<a class="term" href="%s" title="%s">`, href, html.EscapeString(m.entry.fm().Short))
	}
	ghtml.DefaultWriter.Write(w, src[at:seg.Stop])
	if n.HardLineBreak() {
		w.WriteString("<br>\n")
	} else if n.SoftLineBreak() {
		w.WriteByte('\n')
	}
	return ast.WalkContinue, nil
}

// resolve turns a link destination written in Markdown into an href,
// recording internal links for the anchor check. It reports an error and
// returns "" for a link that cannot work.
func (r *renderer) resolve(dest string, off int, image bool) string {
	u, err := url.Parse(dest)
	if err != nil {
		r.errorf(off, "bad link %q: %v", dest, err)
		return ""
	}
	switch {
	case u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "mailto":
		if image {
			r.errorf(off, "image %q is not part of the book: images must be files in the book, so that no request leaves the page", dest)
			return ""
		}
		return dest
	case u.Scheme != "" || u.Host != "":
		r.errorf(off, "unsupported link %q: use a relative link to a .md page or file of the book, or an http(s) URL", dest)
		return ""
	case u.Path == "" && u.RawQuery == "":
		if u.Fragment == "" {
			r.errorf(off, "empty link")
			return ""
		}
		r.addLink(off, r.p, u.Fragment)
		return fragment(r.id(u.Fragment))
	case path.IsAbs(u.Path):
		r.errorf(off, "link %q is absolute: write a link relative to this page, so that the site works from any folder", dest)
		return ""
	}
	target := path.Join(path.Dir(r.p.path), u.Path)
	if strings.HasPrefix(target, "../") || target == ".." {
		r.errorf(off, "link %q leaves the book", dest)
		return ""
	}
	if strings.HasSuffix(u.Path, ".md") {
		t := r.b.bySrc[target]
		if t == nil {
			r.errorf(off, "%s", r.b.missing("page", target))
			return ""
		}
		if image {
			r.errorf(off, "an image cannot be a page: %s", target)
			return ""
		}
		if u.Fragment != "" {
			r.addLink(off, t, u.Fragment)
		}
		if r.print && r.b.inPrint[t] {
			return fragment(printID(t, u.Fragment))
		}
		return r.href(t.out, u.Fragment)
	}
	if strings.HasSuffix(u.Path, ".html") {
		r.errorf(off, "link %q points at generated HTML: link to the .md page instead", dest)
		return ""
	}
	if !r.b.files[target] {
		r.errorf(off, "%s", r.b.missing("file", target))
		return ""
	}
	if why := r.b.publishable(target, image); why != "" {
		r.errorf(off, "%s %q: %s", map[bool]string{false: "link", true: "image"}[image], dest, why)
		return ""
	}
	r.b.useFile(target)
	return r.href(target, u.Fragment)
}

// missing says why the book has no page or file (kind) target, which a
// page links to: it is not there, or reading it says why not (a symbolic
// link on its path leads out of the book).
func (b *build) missing(kind, target string) string {
	if _, d := b.read(target, page.MaxAssetBytes, "a file of the book"); d != nil && !isNotExist(d.Err) {
		return fmt.Sprintf("link to %s: %s", target, d.Msg)
	}
	return fmt.Sprintf("link to a missing %s: %s", kind, target)
}

// check writes a checked prose value as its text: the kernel verified it.
func (r *renderer) check(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		ch := node.(*page.CheckNode).Check
		fmt.Fprintf(w, `<span class="checked" title="Checked by the build: %s"%s>`, html.EscapeString(ch.Expr), liveCheckAttrs(r, ch))
	} else {
		w.WriteString("</span>")
	}
	return ast.WalkContinue, nil
}

func (r *renderer) link(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	if entering {
		href := r.resolve(string(n.Destination), lineOf(n), false)
		external := strings.HasPrefix(href, "http:") || strings.HasPrefix(href, "https:")
		w.WriteString(`<a href="`)
		w.WriteString(html.EscapeString(href))
		w.WriteString(`"`)
		if n.Title != nil {
			w.WriteString(` title="`)
			w.WriteString(html.EscapeString(string(n.Title)))
			w.WriteString(`"`)
		}
		if external {
			w.WriteString(` class="external" rel="noopener"`)
		}
		w.WriteString(">")
	} else {
		w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

// lineOf returns a source offset for an inline node.
func lineOf(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock {
			return lineStart(p)
		}
	}
	return -1
}

func (r *renderer) image(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.Image)
	href := r.resolve(string(n.Destination), lineOf(n), true)
	fmt.Fprintf(w, `<img src="%s" alt="%s"`, html.EscapeString(href), html.EscapeString(textOf(n, src)))
	if n.Title != nil {
		fmt.Fprintf(w, ` title="%s"`, html.EscapeString(string(n.Title)))
	}
	w.WriteString(` loading="lazy">`)
	return ast.WalkSkipChildren, nil
}

// allowedTag matches the raw HTML authors may write inline: a few
// attribute-free phrasing tags, and comments.
var allowedTag = regexp.MustCompile(`^(?:</?(?:sub|sup|kbd|br|mark|small|abbr|b|i|em|strong|s|u|wbr)\s*/?>|<!--[\s\S]*-->)$`)

func (r *renderer) rawHTML(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	tag := string(n.Segments.Value(src))
	switch {
	case strings.HasPrefix(tag, "<!--"):
	case allowedTag.MatchString(tag):
		w.WriteString(tag)
	default:
		off := -1
		if n.Segments.Len() > 0 {
			off = n.Segments.At(0).Start
		}
		r.errorf(off, "raw HTML %q is not allowed: use Markdown (only <sub>, <sup>, <kbd>, <br>, <mark>, <abbr>, <b>, <i>, <em>, <strong>, <small>, <s>, <u> and comments pass)", tag)
	}
	return ast.WalkSkipChildren, nil
}

func (r *renderer) htmlBlock(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.HTMLBlock)
	raw := n.Lines().Value(src)
	if n.HasClosure() {
		raw = append(raw, n.ClosureLine.Value(src)...)
	}
	text := strings.TrimSpace(string(raw))
	if n.HTMLBlockType == ast.HTMLBlockType2 || strings.HasPrefix(text, "<!--") && strings.HasSuffix(text, "-->") {
		return ast.WalkSkipChildren, nil // a comment
	}
	r.errorf(lineStart(n), "raw HTML blocks are not allowed: use Markdown (HTML comments are fine)")
	return ast.WalkSkipChildren, nil
}
