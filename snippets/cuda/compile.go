package cuda

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Job is one CUDA source to compile.
type Job struct {
	// Source is the CUDA source: device code, and host code nvcc parses
	// but never compiles.
	Source string
	// Archs are the architectures to compile for, from Archs: "sm_80",
	// "sm_90a". Each gets its own device-only compile (-cubin).
	Archs []string
	// Flags are the page's nvcc flags, from the allow-list (see FlagHelp).
	Flags []string
	// File is the page that holds the source and Line the line of the
	// page where the source's first line is (1-based): every message is
	// positioned in the page. Line 0 positions messages in the source.
	File string
	Line int
}

// Limits cap one compiler run. A zero field takes its default.
type Limits struct {
	// Time is the wall-clock time of one run (nvcc, or cuobjdump); the
	// process group is killed when it is up. Default 60 s; each process
	// also gets as many seconds of CPU time.
	Time time.Duration
	// Memory is the address space of each process of a run (RLIMIT_AS),
	// in bytes. Default 2 GiB: the book's kernels need under 256 MiB.
	Memory int64
	// FileSize is the largest file a run may write (RLIMIT_FSIZE), in
	// bytes: the preprocessed source, the PTX, the cubin. Default 256 MiB.
	FileSize int64
	// Output is the most a run may print, in bytes (the SASS listing
	// included). Default 16 MiB.
	Output int64
	// Source is the largest source accepted, in bytes. Default 256 KiB.
	Source int
}

// DefaultLimits are the limits a zero Limits field takes.
var DefaultLimits = Limits{Time: 60 * time.Second, Memory: 2 << 30, FileSize: 256 << 20, Output: 16 << 20, Source: 256 << 10}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Time > 0 {
		d.Time = l.Time
	}
	if l.Memory > 0 {
		d.Memory = l.Memory
	}
	if l.FileSize > 0 {
		d.FileSize = l.FileSize
	}
	if l.Output > 0 {
		d.Output = l.Output
	}
	if l.Source > 0 {
		d.Source = l.Source
	}
	return d
}

// Compiler compiles CUDA sources with a toolkit, caching the results.
type Compiler struct {
	// Toolkit is the toolkit to compile with (see Find). Required.
	Toolkit *Toolkit
	// CacheDir is where results are cached (under CacheDir/cuda), keyed
	// by everything that decides them; "" caches nothing.
	CacheDir string
	// Limits cap each compiler run.
	Limits Limits
}

// Result is what a compile gives, for every architecture of the Job.
type Result struct {
	// Toolkit is the nvcc release that compiled ("12.4.131") and
	// HostCompiler the first line of the host compiler's --version.
	Toolkit      string
	HostCompiler string
	// Functions holds, architecture by architecture in the Job's order,
	// the functions ptxas reported, in its order, with their SASS.
	Functions []Function
	// Warnings are the compilers' warnings, positioned in the page; a
	// warning every architecture gives is listed once, without an Arch.
	Warnings []Message
}

// Kernel returns the kernel (an entry function) named name compiled for
// arch. name is the mangled name, the demangled one
// ("saxpy(int, float, float const*, float*)"), or the demangled one
// without its parameters ("saxpy", "tiled<32>") when that names one kernel.
func (r *Result) Kernel(name, arch string) (Function, bool) {
	var found []Function
	for _, f := range r.Functions {
		if f.Arch != arch || !f.Entry {
			continue
		}
		if f.Name == name || f.Demangled == name {
			return f, true
		}
		if bare, _, ok := strings.Cut(f.Demangled, "("); ok && strings.TrimPrefix(bare, "void ") == name {
			found = append(found, f)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return Function{}, false
}

// Compile compiles job for each of its architectures: device code only
// (nvcc -cubin -Xptxas -v, then cuobjdump -sass), never linked, never
// run. Before any compiler runs, the flags are checked against the
// allow-list and the source against what a page may contain (see the
// package documentation). A compile that gives no result returns an
// *Error whose messages are positioned in the page.
func (c *Compiler) Compile(ctx context.Context, job Job) (*Result, error) {
	tk := c.Toolkit
	if tk == nil {
		return nil, errors.New("cuda: Compiler.Toolkit is nil (see cuda.Find)")
	}
	lim := c.Limits.withDefaults()
	refuse := func(line, col int, format string, args ...any) *Error {
		return &Error{Kind: Refused, Messages: []Message{job.at(line, col, "error", "", format, args...)}}
	}
	if len(job.Source) > lim.Source {
		return nil, refuse(0, 0, "the CUDA source is %d bytes, more than the %d a cell may hold", len(job.Source), lim.Source)
	}
	if len(job.Archs) == 0 {
		return nil, refuse(0, 0, "no architecture to compile for (name one or more of %s)", strings.Join(Archs, ", "))
	}
	seen := map[string]bool{}
	for _, a := range job.Archs {
		if err := CheckArch(a); err != nil {
			return nil, refuse(0, 0, "%v", err)
		}
		if seen[a] {
			return nil, refuse(0, 0, "architecture %s is named twice", a)
		}
		seen[a] = true
	}
	args, defines, err := nvccFlags(job.Flags)
	if err != nil {
		return nil, refuse(0, 0, "%v", err)
	}
	src := []byte(job.Source)
	inSource, inFlags := checkSource(src, defines, tk.hasHeader)
	if len(inSource)+len(inFlags) > 0 {
		e := &Error{Kind: Refused}
		for _, p := range inFlags {
			e.Messages = append(e.Messages, job.at(0, 0, "error", "", "in the -D flags: %s", p.msg))
		}
		for _, p := range inSource {
			line, col := position(src, p.off)
			e.Messages = append(e.Messages, job.at(line, col, "error", "", "%s", p.msg))
		}
		return nil, e
	}

	res := &Result{Toolkit: tk.Version, HostCompiler: tk.HostVersion}
	warned := map[srcMessage][]string{} // warning → the archs that gave it
	var order []srcMessage
	for _, arch := range job.Archs {
		key := c.key(job, args, arch)
		e := c.cacheGet(key, arch)
		if e == nil {
			if e, err = c.compileArch(ctx, job, src, args, arch, lim); err != nil {
				return nil, err
			}
			c.cachePut(key, e)
		}
		res.Functions = append(res.Functions, e.Functions...)
		for _, w := range e.Warnings {
			if warned[w] == nil {
				order = append(order, w)
			}
			warned[w] = append(warned[w], arch)
		}
	}
	for _, w := range order {
		arch := ""
		if archs := warned[w]; len(archs) < len(job.Archs) {
			arch = strings.Join(archs, ", ")
		}
		res.Warnings = append(res.Warnings, job.at(w.Line, w.Col, w.Severity, arch, "%s", w.Text))
	}
	return res, nil
}

// position returns the 1-based line and byte column of offset off of src.
func position(src []byte, off int) (line, col int) {
	line, start := 1, 0
	for i := 0; i < off && i < len(src); i++ {
		if src[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, off - start + 1
}

// entry is one architecture's compile: what the cache keeps.
type entry struct {
	Arch      string       `json:"arch"`
	Functions []Function   `json:"functions"`
	Warnings  []srcMessage `json:"warnings"`
}

// compileArch compiles src for arch in a new, empty work directory.
func (c *Compiler) compileArch(ctx context.Context, job Job, src []byte, args []string, arch string, lim Limits) (*entry, error) {
	tk := c.Toolkit
	work, err := os.MkdirTemp("", "warpbook-cuda-")
	if err != nil {
		return nil, fmt.Errorf("cuda: %w", err)
	}
	defer os.RemoveAll(work)
	for _, d := range []string{"home", "tmp"} {
		if err := os.Mkdir(filepath.Join(work, d), 0o700); err != nil {
			return nil, fmt.Errorf("cuda: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, cellName), src, 0o600); err != nil {
		return nil, fmt.Errorf("cuda: %w", err)
	}
	names := map[string]string{work: "", tk.IncludeDir: "<cuda>/include", tk.Root: "<cuda>", filepath.Dir(tk.NVCC): "<cuda>/bin"}
	if c.CacheDir != "" {
		names[c.CacheDir] = "<cache>"
	}
	if home, err := os.UserHomeDir(); err == nil {
		names[home] = "~"
	}
	if real, err := filepath.EvalSymlinks(work); err == nil {
		names[real] = ""
	}
	n := newNeutralizer(names)
	env := []string{"PATH=" + tk.path, "HOME=" + filepath.Join(work, "home"), "TMPDIR=" + filepath.Join(work, "tmp"), "LC_ALL=C", "LANG=C"}

	fail := func(kind Kind, cause error, out, def string) *Error {
		e := &Error{Kind: kind, Err: cause}
		for _, m := range parseMessages(out, src, n, def) {
			if m.Severity == "error" || kind != Failed {
				e.Messages = append(e.Messages, job.at(m.Line, m.Col, m.Severity, arch, "%s", m.Text))
			}
		}
		return e
	}
	nvccArgs := append([]string{"-ccbin", tk.HostCompiler, "-cubin", "-arch=" + arch, "-Xptxas", "-v"}, args...)
	nvccArgs = append(nvccArgs, "-o", "cell.cubin", cellName)
	r, err := c.run(ctx, lim, work, env, tk.NVCC, nvccArgs...)
	if err != nil {
		return nil, runError(ctx, job, arch, err)
	}
	out := r.out
	if r.stop != nil {
		e := fail(Stopped, r.stop, out, "error")
		e.Messages = append([]Message{job.at(0, 0, "error", arch, "%s", stopMessage(r.stop, lim))}, e.Messages...)
		return nil, e
	}
	if r.failed {
		e := fail(Failed, nil, out, "error")
		if len(e.Messages) == 0 {
			e.Messages = []Message{job.at(0, 0, "error", arch, "nvcc failed and said nothing")}
		}
		return nil, e
	}
	functions, err := Parse(strings.NewReader(out))
	if err != nil {
		return nil, &Error{Kind: Broken, Err: err, Messages: []Message{job.at(0, 0, "error", arch, "reading ptxas's report: %s", n.text(err.Error()))}}
	}
	var warnings []srcMessage
	for _, m := range parseMessages(out, src, n, "warning") {
		if m.Severity != "error" {
			warnings = append(warnings, m)
		}
	}

	r, err = c.run(ctx, lim, work, env, tk.Cuobjdump, "-sass", "cell.cubin")
	if err != nil {
		return nil, runError(ctx, job, arch, err)
	}
	if r.stop != nil {
		return nil, &Error{Kind: Stopped, Err: r.stop, Messages: []Message{job.at(0, 0, "error", arch, "cuobjdump -sass: %s", stopMessage(r.stop, lim))}}
	}
	listing := r.out
	if r.failed {
		return nil, &Error{Kind: Broken, Messages: []Message{job.at(0, 0, "error", arch, "cuobjdump -sass failed: %s", clip(n.text(listing)))}}
	}
	sass, err := SplitSASS(listing)
	if err != nil {
		return nil, &Error{Kind: Broken, Err: err, Messages: []Message{job.at(0, 0, "error", arch, "reading cuobjdump's listing: %s", n.text(err.Error()))}}
	}
	for i := range functions {
		f := &functions[i]
		if f.Arch != arch {
			return nil, &Error{Kind: Broken, Messages: []Message{job.at(0, 0, "error", arch, "ptxas reports %s for %s, not %s", f.Name, f.Arch, arch)}}
		}
		f.SASS = sass[f.Name]
		if f.SASS == "" && f.Entry {
			return nil, &Error{Kind: Broken, Messages: []Message{job.at(0, 0, "error", arch, "cuobjdump lists no SASS for kernel %s", f.Name)}}
		}
	}
	return &entry{Arch: arch, Functions: functions, Warnings: warnings}, nil
}

// runError is the error of a run that did not run to its end: a Stopped
// *Error when ctx is done.
func runError(ctx context.Context, job Job, arch string, err error) error {
	if ctx.Err() != nil {
		return &Error{Kind: Stopped, Err: ctx.Err(), Messages: []Message{job.at(0, 0, "error", arch, "the compile was stopped: %v", ctx.Err())}}
	}
	return err
}
