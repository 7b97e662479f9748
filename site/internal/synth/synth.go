// Package synth writes the synthetic book of the site's speed benchmark:
// 200 pages of 8 KB with three display-only Go blocks each, as a warpbook
// book and, page for page, as a Hugo site.
package synth

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Pages and PageSize describe the synthetic book.
const (
	Pages    = 200
	PageSize = 8 << 10
)

var benchWords = strings.Fields(`warp scheduler issue slot occupancy register file shared memory latency
	hiding eligible stall scoreboard throughput instruction pipeline block thread lane sub-partition
	cycle memory load store arithmetic dependency compiler hardware kernel launch grid resident
	limit granularity allocation bandwidth queue little law wait barrier divergence branch`)

// Write writes the same 200 pages twice, under dir/book and dir/hugo: as a warpbook book and as a
// Hugo site with minimal layouts that render what warpbook renders
// (sidebar, contents, previous/next, highlighted code with CSS classes).
func Write(dir string) (book, hugo string, err error) {
	book = filepath.Join(dir, "book")
	hugo = filepath.Join(dir, "hugo")
	for _, d := range []string{book, filepath.Join(hugo, "content"), filepath.Join(hugo, "layouts", "_default")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", "", err
		}
	}
	seed := uint32(1)
	word := func() string {
		seed = seed*1664525 + 1013904223
		return benchWords[int(seed>>8)%len(benchWords)]
	}
	var summary strings.Builder
	summary.WriteString("# Summary\n\n")
	for i := 1; i <= Pages; i++ {
		name := fmt.Sprintf("page-%03d.md", i)
		title := fmt.Sprintf("Page %d: %s %s", i, word(), word())
		fmt.Fprintf(&summary, "- [%s](%s)\n", title, name)
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: %q\n---\n\n# %s\n\n", title, title)
		block := 0
		for section := 1; b.Len() < PageSize-200; section++ {
			fmt.Fprintf(&b, "## Section %d on %s\n\n", section, word())
			for p := 0; p < 3; p++ {
				for w := 0; w < 60; w++ {
					if w > 0 {
						b.WriteByte(' ')
					}
					if w%17 == 5 {
						b.WriteString("**" + word() + "**")
					} else {
						b.WriteString(word())
					}
				}
				b.WriteString(".\n\n")
			}
			if block < 3 {
				block++
				fmt.Fprintf(&b, "```go\n// block %d of page %d\nfunc step%d(warps []int, cycle int) (issued int) {\n\tfor i, w := range warps {\n\t\tif w > cycle && i%%4 == %d {\n\t\t\tissued++ // one per scheduler\n\t\t}\n\t}\n\treturn issued * %d\n}\n```\n\n", block, i, block, block%4, i)
			}
			fmt.Fprintf(&b, "- %s %s\n- %s %s\n\n", word(), word(), word(), word())
		}
		for ; block < 3; block++ {
			fmt.Fprintf(&b, "```go\nfunc extra%d() int { return %d }\n```\n\n", block, i)
		}
		if i < Pages {
			fmt.Fprintf(&b, "Next: [page %d](page-%03d.md).\n", i+1, i+1)
		}
		for _, d := range []string{book, filepath.Join(hugo, "content")} {
			if err := os.WriteFile(filepath.Join(d, name), []byte(b.String()), 0o644); err != nil {
				return "", "", err
			}
		}
	}
	files := map[string]string{
		filepath.Join(book, "SUMMARY.md"): summary.String(),
		filepath.Join(book, "book.yaml"):  "title: Synthetic\n",
		filepath.Join(hugo, "hugo.toml"): `baseURL = "/"
title = "Synthetic"
relativeURLs = true
disableKinds = ["taxonomy", "term", "RSS", "sitemap"]
[markup.highlight]
noClasses = false
[markup.tableOfContents]
startLevel = 2
endLevel = 3
`,
		filepath.Join(hugo, "layouts", "_default", "baseof.html"): `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} · {{ .Site.Title }}</title>
<link rel="stylesheet" href="/style.css"></head>
<body><nav><ol>{{ range .Site.RegularPages.ByTitle }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ol></nav>
<main>{{ block "main" . }}{{ end }}</main></body></html>
`,
		filepath.Join(hugo, "layouts", "_default", "single.html"): `{{ define "main" }}<aside>{{ .TableOfContents }}</aside><article>{{ .Content }}</article>
<nav>{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }} {{ with .NextInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav>{{ end }}
`,
		filepath.Join(hugo, "layouts", "_default", "list.html"): `{{ define "main" }}<h1>{{ .Title }}</h1>{{ end }}
`,
		filepath.Join(hugo, "layouts", "index.html"): `{{ define "main" }}<h1>{{ .Site.Title }}</h1>{{ end }}
`,
	}
	for p, s := range files {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			return "", "", err
		}
	}
	return book, hugo, nil
}
