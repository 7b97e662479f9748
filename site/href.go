package site

import (
	"path"
	"strings"
)

// Addresses. Every address of a file of the site that the site writes, in
// a page, a script or the search index, is made here, from output paths:
// [href] (relative to the page being written), [rootRef] (relative to the
// site's root, for the scripts and the 404 page) and [fragment]. A book's
// file names come from pull requests like its pages, so an address is
// always written so that no name can change what it is: every byte
// outside a small set ([urlSafe]) is percent-encoded, so that a quote, an
// ampersand, a backslash, a "?" or a "#" in a name stays part of the path
// and nothing needs HTML escaping to stay in its attribute, and a relative
// address whose first segment holds a colon ("javascript:alert(1).html",
// from a page named javascript:alert(1).md) starts with "./", so that no
// browser reads the name as a scheme (RFC 3986, section 4.2).

// href returns the address of output path to, with the fragment frag (as
// the id it names; "" for none), from the page at output path from:
// relative, escaped and scheme-safe (see above).
func href(from, to, frag string) string {
	return rootRef(relPath(from, to), frag)
}

// rootRef returns output path p, with the fragment frag ("" for none), as
// an address relative to the site's root (or, in general, to the
// directory p is relative to): escaped and scheme-safe.
func rootRef(p, frag string) string {
	return schemeSafe(escapeURL(p, pathSafe)) + fragment(frag)
}

// fragment returns "#" and the escaped id, or "" for no id.
func fragment(id string) string {
	if id == "" {
		return ""
	}
	return "#" + escapeURL(id, fragmentSafe)
}

// relPath returns the relative path from the page at output path from to
// the output path to.
func relPath(from, to string) string {
	fromDir := path.Dir(from)
	if fromDir == "." {
		return to
	}
	up := 0
	for fromDir != "." && !strings.HasPrefix(to, fromDir+"/") {
		fromDir = path.Dir(fromDir)
		up++
	}
	if fromDir != "." {
		to = strings.TrimPrefix(to, fromDir+"/")
	}
	return strings.Repeat("../", up) + to
}

// schemeSafe returns a relative reference that no reader takes for one
// with a scheme: "./" goes before a first segment that holds a colon.
func schemeSafe(ref string) string {
	first, _, _ := strings.Cut(ref, "/")
	if strings.Contains(first, ":") {
		return "./" + ref
	}
	return ref
}

// The bytes an address keeps as they are; every other byte is
// percent-encoded. They are RFC 3986's unreserved characters, the
// sub-delimiters but "&" and "'" (which mean something in HTML), ":" and
// "@", and "/" in a path, "?" in a fragment.
// A value inside a fragment's parameter ("#chapter=VALUE") keeps only
// the unreserved characters.
const (
	unreserved   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
	urlSafe      = unreserved + "!$()*+,;=:@"
	pathSafe     = urlSafe + "/"
	fragmentSafe = urlSafe + "/?"
)

// escapeURL percent-encodes every byte of s that is not in keep.
func escapeURL(s, keep string) string {
	n := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(keep, s[i]) < 0 {
			n++
		}
	}
	if n == 0 {
		return s
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strings.IndexByte(keep, c) >= 0 {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b)
}
