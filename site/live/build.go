//go:build !js

package live

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	_ "embed" // the kernel's main, see kernelMain
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/warpbook/warpbook/internal/cachefile"
	"github.com/warpbook/warpbook/internal/source"
	"github.com/warpbook/warpbook/snippets"
)

// KernelPackage is the import path of the browser kernel's main package.
const KernelPackage = "github.com/warpbook/warpbook/site/live/kernel"

// PracticePackage is the import path of the practice page's module: the
// generated problems (package problems) and the engine, without the
// snippets kernel.
const PracticePackage = "github.com/warpbook/warpbook/site/live/practice"

// kernelMain is the kernel's main file. It is embedded only so that the
// warpbook command, which depends on every other package the kernel is
// built from, changes whenever the kernel could: a build stamp that trusts
// the command's fingerprint then never keeps a site with a stale kernel.
//
//go:embed kernel/main.go
var kernelMain []byte

// practiceMain is the practice module's main file, embedded for the same
// reason as kernelMain.
//
//go:embed practice/main.go
var practiceMain []byte

// buildFlags are the go build flags of the kernel: no paths or version
// control state in the binary (a build depends only on its sources), no
// symbol table, and inlining only in the runtime (the last -gcflags that
// matches a package wins). Without inlining the module is much smaller
// gzipped (no copies of inlined bodies, and no inlining tables in its
// data), which the kernel's 4 MB budget needs; inlining in the runtime
// alone, where the interpreter's time goes (allocation, maps, interface
// conversions), costs little of that and makes the kernel's start and its
// runs faster than with no inlining at all. Inlining in reflect as well
// made it larger and no faster. See docs/live-book.md; docs/benchmarks.md
// has the figures and the benchmarks that measure them (site/live's
// BenchmarkBuild, site's BenchmarkBrowserKernel).
var buildFlags = []string{"-trimpath", "-buildvcs=false", "-gcflags=all=-l", "-gcflags=runtime=", "-gcflags=internal/runtime/...=", "-ldflags=-s -w"}

// ErrNoToolchain is wrapped by Build's error when there is no Go toolchain
// to build the kernel with.
var ErrNoToolchain = errors.New("no Go toolchain")

// ErrNotModule is wrapped by Build's error when the Go command does not
// find the kernel's package in the module warpbook was built from (or
// warpbook does not know where that is: it was built with -trimpath).
var ErrNotModule = errors.New("not in the warpbook module")

// A Kernel is a built browser kernel.
type Kernel struct {
	// Script is assets/kernel.js: the Go runtime's support script
	// (wasm_exec.js) and the module, gzipped and in base64, for a page to
	// load with a <script> element (file:// refuses to fetch a .wasm).
	Script []byte
	// Key is the hash of everything the module was built from.
	Key string
	// Go is the version of the toolchain that built it.
	Go string
	// Wasm and Gzip are the module's size in bytes, and gzipped.
	Wasm, Gzip int
	// Cached reports that the kernel came from the cache.
	Cached bool
}

// Builder builds the browser kernel with the Go toolchain, once, and
// keeps it in a cache by the content of its inputs: every file of the
// module's packages it is built from, the versions of its dependencies,
// go.mod and go.sum, the toolchain's version and the build's settings. A
// second build of unchanged sources only checks the sizes and times of
// those files. This file is not built into the browser kernel (js), which
// imports the package for its [Server], so that the kernel does not
// import compress/gzip (nor compress/flate's tables).
type Builder struct {
	// Dir is where the go command runs, inside the warpbook module; ""
	// means the module this executable was built from (see package
	// source), never one found from the working directory, which may be
	// a pull request's book with a go.mod of its own: the kernel is
	// published, and runs in every reader's browser.
	Dir string
	// CacheDir holds built kernels; "" builds every time.
	CacheDir string
	// Package is the main package to build: "" (KernelPackage), or
	// PracticePackage for the practice page's module, which the same
	// rules build, cache and wrap.
	Package string

	once sync.Once
	k    *Kernel
	err  error
}

// Kernel builds the kernel, or returns it from the cache; later calls
// return the first call's answer.
func (b *Builder) Kernel(ctx context.Context) (*Kernel, error) {
	b.once.Do(func() { b.k, b.err = b.build(ctx) })
	return b.k, b.err
}

// pkg returns the main package the builder builds.
func (b *Builder) pkg() string {
	if b.Package != "" {
		return b.Package
	}
	return KernelPackage
}

func (b *Builder) goCmd() (string, error) {
	p, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("%w (go is not in PATH)", ErrNoToolchain)
	}
	return p, nil
}

// command returns a go command for the kernel's platform, in dir: the
// command (args[0]) with -C dir, so that this process does not look at
// dir itself (os/exec stats a command's Dir, and go test's cache would
// then depend on the module root's time, which a site's build changes).
func (b *Builder) command(ctx context.Context, goExe, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, goExe, append([]string{args[0], "-C", dir}, args[1:]...)...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0", "GOWORK=off")
	return cmd
}

// dir returns the directory the go command runs in (see Dir).
func (b *Builder) dir() (string, error) {
	if b.Dir != "" {
		return b.Dir, nil
	}
	d, err := source.Dir()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNotModule, err)
	}
	return d, nil
}

func (b *Builder) run(ctx context.Context, goExe string, args ...string) ([]byte, error) {
	dir, err := b.dir()
	if err != nil {
		return nil, err
	}
	cmd := b.command(ctx, goExe, dir, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("go %s: %s", args[0], msg)
	}
	return out, nil
}

func (b *Builder) build(ctx context.Context) (*Kernel, error) {
	goExe, err := b.goCmd()
	if err != nil {
		return nil, err
	}
	in, err := b.inputs(ctx, goExe)
	if err != nil {
		return nil, err
	}
	if k := b.cached(in.key); k != nil {
		return k, nil
	}
	dir, err := os.MkdirTemp("", "warpbook-kernel-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	wasm := filepath.Join(dir, "kernel.wasm")
	args := append(append([]string{"build"}, buildFlags...), "-o", wasm, b.pkg())
	if _, err := b.run(ctx, goExe, args...); err != nil {
		return nil, fmt.Errorf("build %s: %w", b.pkg(), err)
	}
	mod, err := os.ReadFile(wasm)
	if err != nil {
		return nil, err
	}
	execJS, err := os.ReadFile(in.wasmExec)
	if err != nil {
		return nil, fmt.Errorf("the Go toolchain's WebAssembly support script: %w", err)
	}
	k, err := newKernel(b.pkg(), mod, execJS, in.key, in.goVersion)
	if err != nil {
		return nil, err
	}
	b.store(k)
	return k, nil
}

// newKernel packs the module of main package pkg and the support script
// into a kernel script.
func newKernel(pkg string, mod, execJS []byte, key, goVersion string) (*Kernel, error) {
	mod, err := packData(mod)
	if err != nil {
		return nil, fmt.Errorf("the browser kernel: %w", err)
	}
	if mod, err = capMemory(mod, snippets.DefaultMemoryLimit); err != nil {
		return nil, fmt.Errorf("the browser kernel: %w", err)
	}
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	zw.Write(mod)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	meta, err := json.Marshal(map[string]any{"go": goVersion, "key": key, "exec": string(execJS), "size": len(mod)})
	if err != nil {
		return nil, err
	}
	var s bytes.Buffer
	what := "The warpbook browser kernel (package site/live)"
	if pkg != KernelPackage {
		what = "The warpbook module " + strings.TrimPrefix(pkg, "github.com/warpbook/warpbook/")
	}
	fmt.Fprintf(&s, "// %s: %s, %d bytes of WebAssembly, %d gzipped. Generated by warpbook build.\n", what, goVersion, len(mod), gz.Len())
	s.WriteString("window.warpbookKernelData = ")
	s.Write(meta[:len(meta)-1])
	s.WriteString(`,"wasm":"`)
	s.WriteString(base64.StdEncoding.EncodeToString(gz.Bytes()))
	s.WriteString("\"};\n")
	return &Kernel{Script: s.Bytes(), Key: key, Go: goVersion, Wasm: len(mod), Gzip: gz.Len()}, nil
}

// inputs is what a kernel is built from.
type inputs struct {
	key       string
	goVersion string
	wasmExec  string // the toolchain's wasm_exec.js
}

// stampFile records, for one module directory, the key of its kernel's
// inputs and the size and time of every file behind it, so that an
// unchanged tree needs no go list.
type stampFile struct {
	Key       string     `json:"key"`
	GoVersion string     `json:"go"`
	WasmExec  string     `json:"wasmExec"`
	Env       string     `json:"env"`
	Files     []fileStat `json:"files"`
}

type fileStat struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
}

func stat(p string) fileStat {
	fi, err := os.Stat(p)
	if err != nil {
		return fileStat{Path: p, Size: -1}
	}
	return fileStat{Path: p, Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
}

// envKey is the part of the environment that changes what go build does.
func envKey(goExe string) string {
	var b strings.Builder
	for _, v := range []string{"GOFLAGS", "GOEXPERIMENT", "GOWASM", "GOTOOLCHAIN", "GOROOT", "GOPATH", "GOMODCACHE", "GOWORK"} {
		fmt.Fprintf(&b, "%s=%s\x00", v, os.Getenv(v))
	}
	st := stat(goExe)
	fmt.Fprintf(&b, "go=%s %d %d\x00", goExe, st.Size, st.MTime)
	return b.String()
}

func (b *Builder) stampPath() string {
	if b.CacheDir == "" {
		return ""
	}
	wd, err := b.dir()
	if err != nil {
		return ""
	}
	abs, _ := filepath.Abs(wd)
	if b.Package != "" && b.Package != KernelPackage {
		abs += "\x00" + b.Package
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(b.CacheDir, "stamp-"+hex.EncodeToString(sum[:8])+".json")
}

// inputs hashes what the kernel is built from: from the stamp when no
// file behind it changed, else from go list.
func (b *Builder) inputs(ctx context.Context, goExe string) (*inputs, error) {
	env := envKey(goExe)
	sp := b.stampPath()
	if sp != "" {
		var st stampFile
		if data, err := cachefile.Read(sp, maxStampBytes); err == nil && json.Unmarshal(data, &st) == nil && st.Env == env && st.Key != "" {
			if !slices.ContainsFunc(st.Files, func(f fileStat) bool { return stat(f.Path) != f }) {
				return &inputs{key: st.Key, goVersion: st.GoVersion, wasmExec: st.WasmExec}, nil
			}
		}
	}
	envOut, err := b.run(ctx, goExe, "env", "-json", "GOVERSION", "GOROOT", "GOMODCACHE", "GOMOD", "GOFLAGS", "GOEXPERIMENT", "GOWASM")
	if err != nil {
		return nil, err
	}
	var ge map[string]string
	if err := json.Unmarshal(envOut, &ge); err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	if ge["GOMOD"] == "" || ge["GOMOD"] == os.DevNull {
		return nil, fmt.Errorf("%w: the go command finds no go.mod here", ErrNotModule)
	}
	out, err := b.run(ctx, goExe, "list", "-deps", "-json=ImportPath,Dir,Standard,GoFiles,EmbedFiles,Module", b.pkg())
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotModule, err)
	}
	type module struct {
		Path, Version, Sum, Dir string
		Main                    bool
	}
	type pkg struct {
		ImportPath, Dir     string
		Standard            bool
		GoFiles, EmbedFiles []string
		Module              *module
	}
	h := sha256.New()
	fmt.Fprintf(h, "flags=%q\x00go=%s\x00", buildFlags, ge["GOVERSION"])
	if b.pkg() != KernelPackage {
		fmt.Fprintf(h, "main=%s\x00", b.pkg())
	}
	for _, k := range []string{"GOFLAGS", "GOEXPERIMENT", "GOWASM"} {
		fmt.Fprintf(h, "%s=%s\x00", k, ge[k])
	}
	var files []string
	add := func(p string) error {
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "file %s %d\x00", filepath.Base(p), len(data))
		h.Write(data)
		files = append(files, p)
		return nil
	}
	wasmExec := filepath.Join(ge["GOROOT"], "lib", "wasm", "wasm_exec.js")
	gomod := ge["GOMOD"]
	for _, p := range []string{wasmExec, gomod, strings.TrimSuffix(gomod, ".mod") + ".sum"} {
		if err := add(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		if p.Standard {
			continue // the toolchain's version covers it
		}
		fmt.Fprintf(h, "pkg %s\x00", p.ImportPath)
		if m := p.Module; m != nil && !m.Main && m.Version != "" && strings.HasPrefix(p.Dir, ge["GOMODCACHE"]) {
			fmt.Fprintf(h, "mod %s@%s %s\x00", m.Path, m.Version, m.Sum)
			continue // the module cache is read-only: the version names it
		}
		for _, f := range slices.Concat(p.GoFiles, p.EmbedFiles) {
			if err := add(filepath.Join(p.Dir, f)); err != nil {
				return nil, err
			}
		}
		files = append(files, p.Dir) // a new file changes its time
	}
	in := &inputs{key: hex.EncodeToString(h.Sum(nil))[:32], goVersion: ge["GOVERSION"], wasmExec: wasmExec}
	if sp != "" {
		st := stampFile{Key: in.key, GoVersion: in.goVersion, WasmExec: wasmExec, Env: env}
		for _, f := range files {
			st.Files = append(st.Files, stat(f))
		}
		if data, err := json.Marshal(st); err == nil {
			_ = cachefile.Write(sp, data) // a lost stamp costs the next build a go list
		}
	}
	return in, nil
}

func (b *Builder) cachePath(key string) string {
	if b.CacheDir == "" {
		return ""
	}
	return filepath.Join(b.CacheDir, "kernel-"+key+".js")
}

// maxKernelBytes bounds a kept kernel script, and maxStampBytes a stamp.
const (
	maxKernelBytes = 64 << 20
	maxStampBytes  = 16 << 20
)

// cached returns the kernel built from key before, or nil. The site
// publishes the script as it is: the cache's entries are read through
// package cachefile, so only a kernel this user's warpbook built is used.
func (b *Builder) cached(key string) *Kernel {
	p := b.cachePath(key)
	if p == "" {
		return nil
	}
	script, err := cachefile.Read(p, maxKernelBytes)
	if err != nil {
		return nil
	}
	meta, err := cachefile.Read(p+".json", 1<<10)
	if err != nil {
		return nil
	}
	var k Kernel
	if json.Unmarshal(meta, &k) != nil || k.Key != key {
		return nil
	}
	k.Script, k.Cached = script, true
	return &k
}

// store keeps a built kernel in the cache; a failure only costs the next
// build its shortcut.
func (b *Builder) store(k *Kernel) {
	p := b.cachePath(k.Key)
	if p == "" {
		return
	}
	meta, err := json.Marshal(Kernel{Key: k.Key, Go: k.Go, Wasm: k.Wasm, Gzip: k.Gzip})
	if err != nil {
		return
	}
	if cachefile.Write(p, k.Script) == nil {
		_ = cachefile.Write(p+".json", meta)
	}
}

// DefaultCacheDir is where the warpbook command keeps built kernels:
// warpbook/kernel in the user's cache directory.
func DefaultCacheDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "warpbook", "kernel"), nil
}

var _, _ = kernelMain, practiceMain
