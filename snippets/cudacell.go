//go:build !js

package snippets

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/warpbook/warpbook/engine/ptxas"
	"github.com/warpbook/warpbook/snippets/cuda"
	"github.com/warpbook/warpbook/snippets/page"
)

// CUDA is the compiler of a page's CUDA cells: NVIDIA's toolkit, found by
// cuda.Find, with its cache (see package cuda). The browser kernel has
// none.
type CUDA = cuda.Compiler

// checkCUDA compiles the page's selected CUDA cells and checks their
// recorded blocks. Without a compiler they are skipped, their blocks
// shown as they are; their attributes are checked all the same.
func (k *Kernel) checkCUDA(ctx context.Context, p *page.Page) []*CUDAResult {
	out := make([]*CUDAResult, len(p.CUDA))
	for i, c := range p.CUDA {
		if k.cudaSelected(c) {
			out[i] = k.checkCUDACell(ctx, c)
		}
	}
	return out
}

func (k *Kernel) checkCUDACell(ctx context.Context, c *page.CUDACell) *CUDAResult {
	cr := &CUDAResult{ID: c.ID()}
	fail := func(at page.Pos, err error, format string, args ...any) {
		cr.Diagnostics = append(cr.Diagnostics, &page.Diagnostic{Pos: at, ID: c.ID(), Msg: fmt.Sprintf(format, args...), Err: err})
		cr.Status = StatusFail
	}
	for _, a := range c.Attrs.Archs {
		if err := cuda.CheckArch(a); err != nil {
			fail(c.Attrs.ArchPos, nil, "%v", err)
		}
	}
	if err := cuda.CheckFlags(c.Attrs.Flags); err != nil {
		fail(c.Attrs.FlagsPos, nil, "%v", err)
	}
	if cr.Status == StatusFail {
		return cr
	}
	if k.CUDA == nil {
		cr.Status, cr.Skip = StatusSkip, ErrNoCUDA.Error()
		return cr
	}
	cr.Toolkit = k.CUDA.Toolkit.String()
	line := c.Pos.Line + 1
	if len(c.Lines) > 0 {
		line = c.Lines[0].Pos.Line
	}
	start := time.Now()
	res, err := k.CUDA.Compile(ctx, cuda.Job{Source: c.Source(), Archs: c.Attrs.Archs, Flags: c.Attrs.Flags, File: c.Pos.File, Line: line})
	cr.Elapsed = time.Since(start)
	var ce *cuda.Error
	switch {
	case errors.As(err, &ce):
		for _, m := range ce.Messages {
			fail(cudaPos(c, m), ce.Err, "%s", cudaText(m))
		}
		return cr
	case err != nil:
		fail(c.Pos, err, "compiling: %v", err)
		return cr
	}
	for _, m := range res.Warnings {
		cr.Warnings = append(cr.Warnings, &page.Diagnostic{Pos: cudaPos(c, m), ID: c.ID(), Msg: cudaText(m)})
	}
	kernels, funcs := compiledKernels(c, res)
	cr.Resources = ptxas.FormatTable(kernels)
	at := c.ResourcesPos
	if c.Resources == nil {
		at = c.Pos
	}
	if d := compareBlock(c, at, "resources", c.Recorded(), cr.Resources, c.Resources == nil); d != nil {
		cr.Diagnostics, cr.Status = append(cr.Diagnostics, d), StatusFail
	}
	cr.SASS = map[int]string{}
	for _, s := range c.SASS {
		f, err := sassKernel(s, kernels, funcs)
		if err != nil {
			fail(s.Pos, nil, "%s: %v", s.ID(), err)
			continue
		}
		sel := cuda.Selection{Context: s.Context, Raw: s.Raw, Control: s.Control}
		for re, dst := range map[string]**regexp.Regexp{s.Match: &sel.Match, s.From: &sel.From, s.To: &sel.To} {
			if re != "" {
				*dst = regexp.MustCompile(re) // the page model compiled it
			}
		}
		text, err := cuda.Excerpt(f.SASS, sel)
		if err != nil {
			fail(s.Pos, nil, "%s: the SASS of %s: %v", s.ID(), kernelLabel(s), err)
			continue
		}
		cr.SASS[s.Index] = text
		if d := compareBlock(c, s.Pos, "sass", s.Expected(), text, false); d != nil {
			cr.Diagnostics, cr.Status = append(cr.Diagnostics, d), StatusFail
		}
	}
	if !cudaUpdatable(cr) {
		for _, d := range cr.Diagnostics {
			d.Hint = ""
		}
	}
	return cr
}

// compiledKernels returns the kernels of a compile as the resources
// table lists them, in the order of the source (ptxas reports a module's
// kernels last first), each architecture in the cell's order; and each
// kernel's function, by name and architecture.
func compiledKernels(c *page.CUDACell, res *cuda.Result) ([]ptxas.Kernel, map[[2]string]cuda.Function) {
	var entries []cuda.Function
	for _, f := range res.Functions {
		if f.Entry {
			entries = append(entries, f)
		}
	}
	// A kernel is named without its parameters unless another kernel of
	// the cell has the same name without them.
	bare := func(f cuda.Function) string {
		name, _, _ := strings.Cut(f.Demangled, "(")
		return strings.TrimPrefix(name, "void ")
	}
	mangled := map[string]map[string]bool{}
	for _, f := range entries {
		if mangled[bare(f)] == nil {
			mangled[bare(f)] = map[string]bool{}
		}
		mangled[bare(f)][f.Name] = true
	}
	name := func(f cuda.Function) string {
		if len(mangled[bare(f)]) > 1 {
			return strings.TrimPrefix(f.Demangled, "void ")
		}
		return bare(f)
	}
	var order []string // mangled names, in the order of the source
	for _, f := range slices.Backward(entries) {
		if !slices.Contains(order, f.Name) {
			order = append(order, f.Name)
		}
	}
	funcs := map[[2]string]cuda.Function{}
	var ks []ptxas.Kernel
	for _, m := range order {
		for _, arch := range c.Attrs.Archs {
			for _, f := range entries {
				if f.Name == m && f.Arch == arch {
					n := name(f)
					funcs[[2]string{n, arch}] = f
					ks = append(ks, ptxas.Kernel{Cell: c.ID(), Name: n, Arch: arch, Resources: f.Resources})
				}
			}
		}
	}
	return ks, funcs
}

// sassKernel returns the compiled function a sass block quotes.
func sassKernel(s *page.SASSBlock, ks []ptxas.Kernel, funcs map[[2]string]cuda.Function) (cuda.Function, error) {
	arch := s.ArchOrDefault()
	var names []string
	for _, k := range ks {
		if k.Arch == arch {
			names = append(names, k.Name)
		}
	}
	name := s.Kernel
	switch {
	case name == "" && len(names) == 1:
		name = names[0]
	case name == "":
		return cuda.Function{}, fmt.Errorf("the cell compiles %d kernels for %s: name one with kernel= (%s)", len(names), arch, strings.Join(names, ", "))
	}
	f, ok := funcs[[2]string{name, arch}]
	if !ok {
		return cuda.Function{}, fmt.Errorf("no kernel %q compiled for %s (the cell's are %s)", name, arch, strings.Join(names, ", "))
	}
	return f, nil
}

// cudaPos is where in the page a compiler's message is: its line of the
// cell's source (and its column there, when it has one), else the cell's
// opening fence.
func cudaPos(c *page.CUDACell, m cuda.Message) page.Pos {
	if m.SourceLine < 1 || m.SourceLine > len(c.Lines) {
		return c.Pos
	}
	p := c.Lines[m.SourceLine-1].Pos
	if m.Col > 0 {
		p.Col += m.Col - 1
	}
	return p
}

// cudaText is a compiler's message for a diagnostic: its architecture and
// severity when they say something, and its lines of context joined to its
// first.
func cudaText(m cuda.Message) string {
	var b strings.Builder
	if m.Arch != "" {
		b.WriteString(m.Arch + ": ")
	}
	if m.Severity != "error" {
		b.WriteString(m.Severity + ": ")
	}
	b.WriteString(strings.Join(strings.Split(strings.TrimSpace(m.Text), "\n"), "; "))
	return b.String()
}
