package site

import (
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/snippets/page"
)

// idAttr finds the ids of a page the site wrote.
var idAttr = regexp.MustCompile(` id="([^"]+)"`)

// checkLinks checks every internal link's anchor against the ids of the
// page it points at.
func (b *build) checkLinks() error {
	ids := map[*htmlPage]map[string]bool{}
	for _, l := range b.links {
		if l.frag == "" {
			continue
		}
		set := ids[l.target]
		if set == nil {
			set = map[string]bool{}
			for _, m := range idAttr.FindAllSubmatch(b.out[l.target.out], -1) {
				set[unescapeAttr(string(m[1]))] = true
			}
			ids[l.target] = set
		}
		if !set[l.frag] {
			msg := fmt.Sprintf("broken anchor: %s has no #%s", l.target.path, l.frag)
			if l.target == l.from {
				msg = fmt.Sprintf("broken anchor: this page has no #%s", l.frag)
			}
			if near := nearestID(l.frag, set); near != "" {
				msg += fmt.Sprintf(" (did you mean #%s?)", near)
			}
			b.addErrs(&page.Diagnostic{Pos: l.pos, Msg: msg})
		}
	}
	return nil
}

func unescapeAttr(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return strings.NewReplacer("&amp;", "&", "&#34;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">").Replace(s)
}

// nearestID suggests the id closest to want, by edit distance (see
// page.Nearest), leaving out the site's own ids.
func nearestID(want string, ids map[string]bool) string {
	var cands []string
	for id := range ids {
		if !strings.HasPrefix(id, "wb-") {
			cands = append(cands, id)
		}
	}
	return page.Nearest(want, cands)
}

// finish refuses drafts in strict mode and adds the assets and the files
// pages link to (render made the search index, live the pages' scripts).
func (b *build) finish() error {
	if b.opts.Strict {
		for _, p := range b.pages {
			if p.draft != "" {
				b.errorf(p.path, p.fmLine(), "draft (%s): --strict refuses to build while pages are drafts", p.draft)
			}
		}
	}
	assets, err := fs.Sub(embedded, "assets")
	if err != nil {
		return err
	}
	err = fs.WalkDir(assets, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(assets, p)
		if err != nil {
			return err
		}
		b.put("assets/"+p, data)
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range slices.Sorted(maps.Keys(b.used)) {
		data, rerr := b.read(p, page.MaxAssetBytes, "a file of the book")
		if rerr != nil {
			b.addErrs(rerr)
			continue
		}
		if _, clash := b.out[p]; clash || slices.Contains([]string{"assets"}, strings.Split(p, "/")[0]) {
			b.errorf(p, 0, "file %s clashes with a file the site generates; rename it", p)
			continue
		}
		b.put(p, data)
	}
	return nil
}
