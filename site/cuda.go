package site

import (
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"

	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/cuda"
	"github.com/warpbook/warpbook/snippets/page"
)

// cudaResult returns the kernel's result for CUDA cell c, or nil.
func (r *renderer) cudaResult(c *page.CUDACell) *snippets.CUDAResult {
	if r.p.results == nil || c.Index >= len(r.p.results.CUDA) {
		return nil
	}
	return r.p.results.CUDA[c.Index]
}

// cudaMark says how far the build checked a CUDA cell's recorded blocks:
// compiled and matched, recorded but not compiled here (no toolkit), or
// not checked at all (a build without a kernel).
func cudaMark(res *snippets.CUDAResult) string {
	switch {
	case res == nil:
		return `<span class="unverified">not verified in this build</span>`
	case res.Status == snippets.StatusPass:
		return `<span class="verified">✓ verified: compiled in this build</span>`
	}
	return `<span class="unverified">as recorded: not compiled in this build</span>`
}

// cudaCell writes a CUDA cell: its source, highlighted, under a line that
// names its architectures and flags, then its resources block marked as
// the compiler's figures, then where it is and the command that checks
// it. Its Edit (a details element: no script) says what compiling it
// takes.
func (r *renderer) cudaCell(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	c := node.(*page.CUDANode).Cell
	res := r.cudaResult(c)
	id := r.id("cuda-" + c.ID())
	fmt.Fprintf(w, `<div class="cell cuda-cell" id="%s">`+"\n", html.EscapeString(id))
	archs := make([]string, len(c.Attrs.Archs))
	for i, a := range c.Attrs.Archs {
		archs[i] = "<code>" + html.EscapeString(a) + "</code>"
	}
	fmt.Fprintf(w, `<p class="cuda-head">CUDA, compiled for %s`, strings.Join(archs, ", "))
	if len(c.Attrs.Flags) > 0 {
		fmt.Fprintf(w, ` with <code>%s</code>`, html.EscapeString(strings.Join(c.Attrs.Flags, " ")))
	}
	w.WriteString("</p>\n")
	code := strings.TrimSuffix(c.Source(), "\n")
	fmt.Fprintf(w, `<pre class="code" tabindex="0"%s><code class="language-cuda">`, wide(code))
	w.WriteString(r.b.highlight("cuda", code))
	w.WriteString("</code></pre>\n")
	file := r.b.repoPath(r.p.path)
	test := fmt.Sprintf("warpbook test -run '^%s$' %s", c.ID(), file)
	if !r.print {
		// Edit, without script: what changing the kernel takes.
		fmt.Fprintf(w, `<details class="cuda-edit"><summary>Edit</summary><p>Compiling CUDA needs NVIDIA's toolkit on your machine, not in this page: in a clone of the book's repository run <code>%s</code>, edit <code>%s</code>, and run <code>%s</code> (<code>-update</code> records the new registers and SASS).</p></details>`+"\n",
			html.EscapeString(cuda.FetchCommand), html.EscapeString(file), html.EscapeString(test))
	}
	output(w, "ptxas: registers per thread, sizes in bytes", cudaMark(res), c.Recorded())
	loc := fmt.Sprintf("%s:%d", file, c.Pos.Line)
	w.WriteString(`<p class="cell-meta">`)
	if u := r.b.sourceURL(r.p.path, c.Pos.Line); u != "" {
		fmt.Fprintf(w, `<a href="%s" rel="noopener">%s</a>`, html.EscapeString(u), html.EscapeString(loc))
	} else {
		w.WriteString(html.EscapeString(loc))
	}
	w.WriteString("</p>\n</div>\n")
	return ast.WalkSkipChildren, nil
}

// sassAddrRE finds the instructions of a raw listing by their addresses.
var sassAddrRE = regexp.MustCompile(`(?m)^\s*/\*[0-9a-f]{4,}\*/`)

// sass writes a sass block: the instructions it quotes, marked as the
// compiler's, under a line that says whose they are and how they were
// chosen.
func (r *renderer) sass(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	s := node.(*page.SASSNode).SASS
	kernel := s.Kernel
	if kernel == "" && len(s.Cell.Kernels) > 0 {
		kernel = s.Cell.Kernels[0].Name
	}
	label := "SASS"
	if kernel != "" {
		label += " of <code>" + html.EscapeString(kernel) + "</code>"
	}
	label += " for <code>" + html.EscapeString(s.ArchOrDefault()) + "</code>"
	var how []string
	if s.Match != "" {
		how = append(how, "the instructions matching <code>"+html.EscapeString(s.Match)+"</code>")
	}
	if s.From != "" {
		how = append(how, "from <code>"+html.EscapeString(s.From)+"</code>")
	}
	if s.To != "" {
		how = append(how, "to <code>"+html.EscapeString(s.To)+"</code>")
	}
	if len(how) > 0 {
		label += ", " + strings.Join(how, " ")
	}
	if s.Control {
		label += ", with each instruction's control information"
	}
	label += " (cuobjdump)"
	w.WriteString(`<div class="sass-block">` + "\n")
	if s.Whole() {
		// The whole listing is for the Go snippets, which print it line by
		// line beside its stalls: the page's source carries it to the
		// browser kernel when a reader runs them, and the page does not
		// weigh it twice.
		n := len(sassAddrRE.FindAllStringIndex(s.Expected(), -1))
		label += fmt.Sprintf(": the whole listing, %d instructions, which the Go snippets run on the simulator", n)
		fmt.Fprintf(w, `<div class="output-wrap empty"><p class="output-label">%s %s</p></div>`+"\n", label, cudaMark(r.cudaResult(s.Cell)))
		w.WriteString("</div>\n")
		return ast.WalkSkipChildren, nil
	}
	output(w, label, cudaMark(r.cudaResult(s.Cell)), s.Expected())
	w.WriteString("</div>\n")
	return ast.WalkSkipChildren, nil
}
