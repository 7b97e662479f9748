package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// Provenance says where the book's source comes from, for the notes that
// tell a reader what verified a page and how to check it again. The
// command fills it in (from git and SOURCE_DATE_EPOCH); the site never
// reads a clock, so that two builds of the same source are the same bytes.
// The zero value names the source by the hash of its files only.
type Provenance struct {
	// Commit is the git commit the book was built from; "" when the book
	// is not in a git checkout.
	Commit string
	// Dirty reports that the book's files differ from Commit (uncommitted
	// or untracked changes): the content hash then names the source.
	Dirty bool
	// Date is when the book was verified, as the build states it: from
	// SOURCE_DATE_EPOCH, else the commit's date; zero when neither is
	// known, and then no date is shown.
	Date time.Time
	// Prefix is the book's directory inside the repository ("book/"), for
	// source links and commands; "" for the repository root.
	Prefix string
}

// bookData is one read of every file of the book a build reads, as the
// build reads them ([page.ReadFile]).
type bookData struct {
	// hash names the source when no commit does, and keys the stamp. A
	// file the build would refuse (not a regular file, too large, a link
	// out of the book) is hashed as the reason, never read, and left to
	// the build to report.
	hash string
	// files lists the book's files in path order ([bookFiles]).
	files []string
	// data holds the contents of the files that read without an error.
	data map[string][]byte
}

// readBook reads every file of the book once, on all CPUs, and hashes
// them in path order.
func readBook(fsys fs.FS) (bookData, error) {
	files, err := bookFiles(fsys)
	type read struct {
		path string
		data []byte
		err  error
	}
	reads := make([]*read, len(files))
	for i, p := range files {
		reads[i] = &read{path: p}
	}
	parallel(reads, func(r *read) {
		max := int64(page.MaxAssetBytes)
		if strings.HasSuffix(r.path, ".md") {
			max = page.MaxPageBytes
		}
		r.data, r.err = page.ReadFile(fsys, r.path, max, "a file of the book")
	})
	book := bookData{files: files, data: make(map[string][]byte, len(files))}
	h := sha256.New()
	for _, r := range reads {
		if r.err != nil {
			fmt.Fprintf(h, "%s\x00error\x00%s\x00", r.path, r.err)
			continue
		}
		fmt.Fprintf(h, "%s\x00%d\x00", r.path, len(r.data))
		h.Write(r.data)
		book.data[r.path] = r.data
	}
	book.hash = hex.EncodeToString(h.Sum(nil))
	return book, err
}

// repoPath returns the path of a book file as the site names it to
// readers (in commands, source links and the live book's messages): from
// the repository's root ("book/occupancy.md"), or from the book's own
// directory without a repository ("occupancy.md"). It never holds the
// directory the build was run from or given, so that the site is the
// same bytes from any directory and publishes no path of the machine
// that built it.
func (b *build) repoPath(p string) string {
	return path.Join(b.opts.Provenance.Prefix, p)
}

// sourceURL returns the address of line (0: the top) of book file p in the
// book's repository, "" without a repository.
func (b *build) sourceURL(p string, line int) string {
	repo := strings.TrimSuffix(b.settings.Repository, "/")
	if repo == "" {
		return ""
	}
	rev := b.opts.Provenance.Commit
	if rev == "" || b.opts.Provenance.Dirty {
		rev = "HEAD"
	}
	u := repo + "/blob/" + rev + "/" + escapeURL(b.repoPath(p), pathSafe)
	if line > 0 {
		u += fmt.Sprintf("#L%d", line)
	}
	return u
}

// sourceName says what the book was built from: a commit, or the content
// hash when the book is not at a commit.
func (b *build) sourceName() (short, long string) {
	hash := b.book.hash[:12]
	switch {
	case b.opts.Provenance.Commit != "" && !b.opts.Provenance.Dirty:
		return "commit " + b.opts.Provenance.Commit[:min(12, len(b.opts.Provenance.Commit))], "git commit " + b.opts.Provenance.Commit
	case b.opts.Provenance.Commit != "":
		return fmt.Sprintf("commit %s with changes, content %s", b.opts.Provenance.Commit[:min(12, len(b.opts.Provenance.Commit))], hash),
			fmt.Sprintf("git commit %s with uncommitted changes; the sha256 of the book's files is %s", b.opts.Provenance.Commit, b.book.hash)
	}
	return "content " + hash, "the book is not a git checkout: this is the sha256 of its files, " + b.book.hash
}

// verifiedDate is the date the page states it was verified on, "" when the
// build was not given one.
func (b *build) verifiedDate() string {
	if b.opts.Provenance.Date.IsZero() {
		return ""
	}
	return b.opts.Provenance.Date.UTC().Format("2 January 2006")
}

// provenanceNote is the note at the end of a page that says what verified
// its snippets and checked values, from what source, and how to check
// them again; for a page without them, where its source is.
func (r *renderer) provenanceNote() string {
	b := r.b
	p := r.p
	if p.snip == nil || r.print {
		return ""
	}
	var w strings.Builder
	w.WriteString(`<aside class="provenance" aria-label="Provenance">` + "\n")
	short, long := b.sourceName()
	src := b.sourceURL(p.path, 0)
	file := b.repoPath(p.path)
	cells, checks := len(p.snip.Cells), len(p.snip.Checks)
	switch {
	case cells+checks > 0 && p.results != nil:
		v := p.results.Verifier
		w.WriteString(`<p><span class="verified">✓</span> `)
		fmt.Fprintf(&w, "%s and %s on this page were run and checked", plural(cells, "snippet", "snippets"), plural(checks, "value", "values"))
		b.writeDate(&w)
		fmt.Fprintf(&w, ` from <abbr title="%s">%s</abbr>`, html.EscapeString(long), html.EscapeString(short))
		engine := "a hash of the engine packages' source"
		if b.opts.Provenance.Commit != "" {
			engine += ", as of that commit"
		}
		fmt.Fprintf(&w, `, by %s with <abbr title="%s">engine %s</abbr> (%s`,
			html.EscapeString(v.Tool), html.EscapeString(engine), html.EscapeString(v.Engine[:min(12, len(v.Engine))]), html.EscapeString(v.Go))
		if v.Native != "" {
			fmt.Fprintf(&w, ", and compiled with %s", html.EscapeString(v.Native))
		}
		w.WriteString(").</p>\n")
	case cells+checks > 0:
		fmt.Fprintf(&w, `<p>%s and %s on this page were not run in this build of <abbr title="%s">%s</abbr>`,
			plural(cells, "snippet", "snippets"), plural(checks, "value", "values"), html.EscapeString(long), html.EscapeString(short))
		b.writeDate(&w)
		w.WriteString(".</p>\n")
	default:
		fmt.Fprintf(&w, `<p>Built from <abbr title="%s">%s</abbr>`, html.EscapeString(long), html.EscapeString(short))
		b.writeDate(&w)
		w.WriteString(".</p>\n")
	}
	if cells+checks > 0 {
		w.WriteString(`<p>Check it yourself: `)
		if repo := b.settings.Repository; repo != "" && b.opts.Provenance.Commit != "" && !b.opts.Provenance.Dirty {
			fmt.Fprintf(&w, `<code>git clone %s &amp;&amp; cd %s &amp;&amp; git checkout %s</code>, then `,
				html.EscapeString(repo), html.EscapeString(path.Base(strings.TrimSuffix(strings.TrimSuffix(repo, "/"), ".git"))), html.EscapeString(b.opts.Provenance.Commit[:min(12, len(b.opts.Provenance.Commit))]))
		}
		fmt.Fprintf(&w, `<code>%s</code>.</p>`+"\n", html.EscapeString(snippets.TestCommand(file)))
	}
	if src != "" {
		fmt.Fprintf(&w, `<p>Source: <a href="%s" rel="noopener">%s</a></p>`+"\n", html.EscapeString(src), html.EscapeString(file))
	}
	w.WriteString("</aside>\n")
	return w.String()
}

// writeDate writes " on DATE" when the build was given a date.
func (b *build) writeDate(w *strings.Builder) {
	if d := b.verifiedDate(); d != "" {
		fmt.Fprintf(w, ` on <time datetime="%s">%s</time>`, b.opts.Provenance.Date.UTC().Format("2006-01-02"), d)
	}
}

// cellMeta is the line under a runnable snippet: where it is in the
// source, and the command that runs the page up to it.
func (r *renderer) cellMeta(c *page.Cell) string {
	b := r.b
	file := b.repoPath(r.p.path)
	loc := fmt.Sprintf("%s:%d", file, c.Pos.Line)
	var w strings.Builder
	w.WriteString(`<p class="cell-meta">`)
	if u := b.sourceURL(r.p.path, c.Pos.Line); u != "" {
		fmt.Fprintf(&w, `<a href="%s" rel="noopener">%s</a>`, html.EscapeString(u), html.EscapeString(loc))
	} else {
		w.WriteString(html.EscapeString(loc))
	}
	fmt.Fprintf(&w, ` · <code>%s</code></p>`, html.EscapeString(snippets.RunCommand(c, file)))
	return w.String()
}
