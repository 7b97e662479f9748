package site

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// The files of a book that the site publishes beside its pages: those a
// page links to or shows, of the kinds in [fileTypes], each from the
// page's link. A book comes from pull requests and the site is served on
// an origin it may share with others (a user's GitHub Pages site serves
// every project of the user from one origin, with one localStorage), so
// the site publishes no file a browser would run as a document of that
// origin: no HTML (.html, .htm, .xhtml, .xht), no XML, no script, no
// WebAssembly. An SVG is a document too when opened on its own, with
// its scripts; the site publishes one only when [checkSVG] finds it a
// static drawing. A link to any other kind is an error at the link.

// A fileType is a kind of file the site publishes.
type fileType struct {
	mime  string // the type a server gives it
	image bool   // a page may show it as an image
}

// fileTypes are the kinds of book files the site publishes, by extension
// (lower case): images, and the data and documents a page may link to.
var fileTypes = map[string]fileType{
	".png":  {"image/png", true},
	".jpg":  {"image/jpeg", true},
	".jpeg": {"image/jpeg", true},
	".gif":  {"image/gif", true},
	".webp": {"image/webp", true},
	".avif": {"image/avif", true},
	".svg":  {"image/svg+xml", true}, // when checkSVG passes it
	".pdf":  {"application/pdf", false},
	".csv":  {"text/csv; charset=utf-8", false},
	".tsv":  {"text/tab-separated-values; charset=utf-8", false},
	".txt":  {"text/plain; charset=utf-8", false},
}

// ContentType returns the type a server should give the site's file name,
// by its extension: the type of a book file the site publishes
// ([fileTypes]), or of a file the site makes; "" for an extension the
// site never writes.
func ContentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if t, ok := fileTypes[ext]; ok {
		return t.mime
	}
	switch ext {
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".json":
		return "application/json"
	case ".wasm":
		return "application/wasm"
	}
	return ""
}

// publishable says why the book file p, linked from a page (shown as an
// image when image is set), cannot be published; "" when it can.
func (b *build) publishable(p string, image bool) string {
	ext := strings.ToLower(path.Ext(p))
	t, ok := fileTypes[ext]
	switch {
	case !ok:
		kind := ext + " files"
		if ext == "" {
			kind = "files without an extension"
		}
		return fmt.Sprintf("the site does not publish %s, which a browser could open as documents of the site and run (it publishes %s)", kind, typeList(false))
	case image && !t.image:
		return fmt.Sprintf("an image is a %s file", typeList(true))
	case ext == ".svg":
		data, d := b.read(p, maxSVGBytes, "an SVG file")
		if d != nil {
			return d.Msg
		}
		if err := checkSVG(data); err != nil {
			return fmt.Sprintf("%v; the site publishes an SVG only when it is a static drawing, since one opened on its own runs as a document of the site", err)
		}
	}
	return ""
}

// typeList lists the published extensions: those of images, or all.
func typeList(images bool) string {
	var exts []string
	for ext, t := range fileTypes {
		if t.image || !images {
			exts = append(exts, ext)
		}
	}
	slices.Sort(exts)
	return strings.Join(exts[:len(exts)-1], ", ") + " or " + exts[len(exts)-1]
}

// maxSVGBytes bounds the SVG files the site checks and publishes.
const maxSVGBytes = 4 << 20

// svgNS is the namespace of SVG elements.
const svgNS = "http://www.w3.org/2000/svg"

// svgElements are the SVG elements a published drawing may hold: shapes,
// text, structure, paint servers, clipping, masking and filters. Left out:
// script, foreignObject (HTML inside), a (a link), the animation elements
// (which can set an attribute such as href), image (checked on its own)
// and anything else.
var svgElements = setOf(`svg g defs title desc metadata symbol use switch view
	path rect circle ellipse line polyline polygon text tspan textPath
	linearGradient radialGradient stop pattern clipPath mask marker style
	filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix
	feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood feFuncA
	feFuncB feFuncG feFuncR feGaussianBlur feMerge feMergeNode feMorphology
	feOffset fePointLight feSpecularLighting feSpotLight feTile feTurbulence image`)

// setOf returns the set of the space-separated words in s.
func setOf(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}

// metadataNS are the namespaces of the metadata drawing programs write
// (Inkscape, Sodipodi, RDF with Dublin Core and Creative Commons), whose
// elements a browser keeps in the document but never runs or draws.
var metadataNS = map[string]bool{
	"http://www.inkscape.org/namespaces/inkscape":            true,
	"http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd":     true,
	"http://inkscape.sourceforge.net/DTD/sodipodi-0.dtd":     true,
	"http://www.w3.org/1999/02/22-rdf-syntax-ns#":            true,
	"http://purl.org/dc/elements/1.1/":                       true,
	"http://creativecommons.org/ns#":                         true,
	"http://web.resource.org/cc/":                            true,
	"http://www.w3.org/XML/1998/namespace":                   true,
	"http://www.w3.org/1999/xlink":                           true,
	"http://www.w3.org/2000/xmlns/":                          true,
	"http://ns.adobe.com/AdobeIllustrator/10.0/":             true,
	"http://ns.adobe.com/SaveForWeb/1.0/":                    true,
	"http://ns.adobe.com/Extensibility/1.0/":                 true,
	"http://ns.adobe.com/Flows/1.0/":                         true,
	"http://ns.adobe.com/ImageReplacement/1.0/":              true,
	"http://ns.adobe.com/GenericCustomNamespace/1.0/":        true,
	"http://ns.adobe.com/Variables/1.0/":                     true,
	"http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/":      true,
	"http://www.bohemiancoding.com/sketch/ns":                true,
	"http://www.serif.com/":                                  true,
	"https://boxy-svg.com":                                   true,
	"http://schemas.microsoft.com/visio/2003/SVGExtensions/": true,
}

// checkSVG reports why an SVG file is not a static drawing, which the
// site may publish, or nil. It parses the file as XML, strictly, and
// allows only: the SVG elements in [svgElements] and the metadata of
// drawing programs ([metadataNS]); no document type (whose entities a
// browser expands into markup) and no processing instruction but the XML
// declaration (an xml-stylesheet one loads a style sheet or XSLT); no
// event handler attribute (on...); links (href) only to a fragment of the
// drawing itself, or, on an image, to a PNG, JPEG, GIF or WebP in a data:
// URL; and no url() but of a fragment, no @import and no CSS escape in
// styles and attributes, so that the drawing loads nothing. A browser runs
// nothing in what is left.
func checkSVG(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	root := true
	var open []xml.Name // the elements the decoder is in
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if root {
				return errors.New("the SVG has no <svg> element")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("the SVG is not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.Directive:
			return errors.New("the SVG has a document type declaration (<!DOCTYPE>), whose entities a browser expands into markup")
		case xml.ProcInst:
			if tok.Target != "xml" {
				return fmt.Errorf("the SVG has a <?%s?> processing instruction", tok.Target)
			}
		case xml.StartElement:
			if err := checkSVGElement(tok, root); err != nil {
				line, _ := d.InputPos()
				return fmt.Errorf("line %d of the SVG: %v", line, err)
			}
			root = false
			open = append(open, tok.Name)
		case xml.EndElement:
			open = open[:len(open)-1]
		case xml.CharData:
			// A style sheet: the text of a <style>.
			if n := len(open); n > 0 && open[n-1] == (xml.Name{Space: svgNS, Local: "style"}) {
				if err := checkCSS(string(tok)); err != nil {
					line, _ := d.InputPos()
					return fmt.Errorf("line %d of the SVG: <style>: %v", line, err)
				}
			}
		}
	}
}

// checkSVGElement checks one element of an SVG file and its attributes.
func checkSVGElement(e xml.StartElement, root bool) error {
	name := e.Name.Local
	switch {
	case e.Name.Space == svgNS && svgElements[name]:
	case e.Name.Space == svgNS:
		return fmt.Errorf("a <%s> element", name)
	case metadataNS[e.Name.Space] && !root:
	default:
		return fmt.Errorf("a <%s> element in the namespace %q: want SVG's, %s", name, e.Name.Space, svgNS)
	}
	if root && name != "svg" {
		return fmt.Errorf("the document is a <%s>, not an <svg>", name)
	}
	for _, a := range e.Attr {
		key := a.Name.Local
		if a.Name.Space != "" {
			key = a.Name.Space + " " + key
		}
		v := strings.ToLower(strings.Join(strings.Fields(a.Value), ""))
		switch {
		case strings.HasPrefix(strings.ToLower(a.Name.Local), "on"):
			return fmt.Errorf("the event handler %s on <%s>", a.Name.Local, name)
		case a.Name.Local == "href" && (a.Name.Space == "" || a.Name.Space == "http://www.w3.org/1999/xlink"):
			if strings.HasPrefix(v, "#") {
				continue
			}
			if name == "image" && (strings.HasPrefix(v, "data:image/png;") || strings.HasPrefix(v, "data:image/jpeg;") ||
				strings.HasPrefix(v, "data:image/gif;") || strings.HasPrefix(v, "data:image/webp;")) {
				continue
			}
			return fmt.Errorf("<%s> links to %.40q: a drawing may link only to its own parts (#id), and an image only to a PNG, JPEG, GIF or WebP data: URL", name, a.Value)
		case strings.Contains(v, "javascript:") || strings.Contains(v, "vbscript:"):
			return fmt.Errorf("the attribute %s holds a script address", key)
		}
		// SVG's own attributes (style, and the presentation attributes
		// such as fill) are read as CSS; metadata is not.
		if a.Name.Space == "" {
			if err := checkCSS(a.Value); err != nil {
				return fmt.Errorf("the attribute %s on <%s>: %v", key, name, err)
			}
		}
	}
	if name == "image" && !slices.ContainsFunc(e.Attr, func(a xml.Attr) bool { return a.Name.Local == "href" }) {
		return errors.New("an <image> without an href")
	}
	return nil
}

// checkCSS refuses what in a style sheet or an attribute could load
// something: url() of anything but a fragment of the drawing, @import,
// and CSS escapes (which could spell either).
func checkCSS(s string) error {
	low := strings.ToLower(s)
	if strings.Contains(low, "@import") {
		return errors.New("@import loads a style sheet")
	}
	if strings.Contains(s, `\`) {
		return errors.New(`a CSS escape (\)`)
	}
	for rest := low; ; {
		i := strings.Index(rest, "url(")
		if i < 0 {
			return nil
		}
		rest = strings.TrimLeft(rest[i+len("url("):], " \t\r\n\f'\"")
		if !strings.HasPrefix(rest, "#") {
			return errors.New("url() of something outside the drawing (only url(#id) is allowed)")
		}
	}
}
