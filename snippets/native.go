package snippets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/warpbook/warpbook/internal/source"
	"github.com/warpbook/warpbook/snippets/internal/worker"
	"github.com/warpbook/warpbook/snippets/page"
	"github.com/warpbook/warpbook/snippets/symbols"
)

// modulePath is the module the generated native programs are built in.
const modulePath = "github.com/warpbook/warpbook"

// hasProcesses reports whether the platform has processes to build and
// run programs with: a kernel runs pages natively as well when it has them
// and [Kernel.Native] asks for it. The browser kernel (js/wasm) has none.
// Every native path starts with a test of this constant, not of a method,
// so that the compiler drops the path from the browser kernel, which is
// built without inlining (a call would keep all of the native code).
const hasProcesses = runtime.GOOS != "js"

func (k *Kernel) goCommand() string {
	if k.GoCommand != "" {
		return k.GoCommand
	}
	return "go"
}

var (
	goEnvMu    sync.Mutex
	goEnvCache = map[string]string{}
)

// goEnv runs "go env NAME" once per go command and name.
func goEnv(goCmd, name string) (string, error) {
	goEnvMu.Lock()
	defer goEnvMu.Unlock()
	key := goCmd + "\x00" + name
	if v, ok := goEnvCache[key]; ok {
		return v, nil
	}
	out, err := exec.Command(goCmd, "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("%s env %s: %w", goCmd, name, err)
	}
	v := strings.TrimSpace(string(out))
	goEnvCache[key] = v
	return v, nil
}

func (k *Kernel) nativeVersion() string {
	v, err := goEnv(k.goCommand(), "GOVERSION")
	if err != nil {
		return "unavailable"
	}
	return v
}

// moduleRoot returns the warpbook module that native programs are built
// in: the one this executable was built from (see package source), never
// one the go command finds from the working directory, which may be a
// pull request's book with a go.mod and an engine of its own. Its engine
// must be the one the interpreter's symbols were generated from: native
// runs compare the two.
func (k *Kernel) moduleRoot() (string, error) {
	root := k.moduleDir
	if root == "" {
		var err error
		if root, err = source.Dir(); err != nil {
			return "", err
		}
	}
	fp, err := source.Fingerprint(root, nil)
	if err != nil {
		return "", err
	}
	if fp != symbols.EngineFingerprint {
		return "", fmt.Errorf("the engine in %s (fingerprint %s) is not the one this warpbook was built with (%s): rebuild warpbook from it, after go generate ./snippets/...", root, fp, symbols.EngineFingerprint)
	}
	return root, nil
}

// prepareNative finds the page's sessions whose native outcomes are not in
// the cache: those the native build compiles.
func (k *Kernel) prepareNative(pr *pageRun) {
	pl := pr.pl
	cache := k.cache()
	pr.native = map[int]*worker.Outcome{}
	pr.nkeys = pl.keys(pr.r.Verifier, "native")
	for _, s := range pl.sessions {
		if s.broken || len(s.units) == 0 {
			continue
		}
		hit, any := true, false
		for _, u := range s.units {
			if !pr.need[u] {
				continue
			}
			any = true
			if o := cache.get(pr.nkeys[u]); o != nil {
				pr.native[u.index] = o
			} else {
				hit = false
			}
		}
		if any && !hit {
			pr.build = append(pr.build, s)
		}
	}
}

// buildNative compiles the sessions of every page that needs them with the
// Go toolchain, in one go build through an overlay (nothing is written to
// the source tree): one invocation compiles them all in parallel, where
// one per page would pay the go command's start-up for each.
//
// Linking is most of a session's build, so the sessions that initialize
// nothing of their own (see [foldable]) are packages of one executable,
// which runs the session its argument names: one link for all of them.
// The others, and complete programs, are executables of their own. If
// that build fails, each page is built on its own (its foldable sessions
// in an executable of the page's), so that a page that does not build
// fails alone. It returns the directory to remove when the run is over.
func (k *Kernel) buildNative(ctx context.Context, runs []*pageRun) (string, error) {
	var todo []*pageRun
	for _, pr := range runs {
		if len(pr.build) > 0 {
			todo = append(todo, pr)
		}
	}
	if len(todo) == 0 {
		return "", nil
	}
	fail := func(pr *pageRun, format string, args ...any) {
		pr.ndiags = append(pr.ndiags, &page.Diagnostic{Pos: page.Pos{File: pr.pl.page.Path}, Msg: "native: " + fmt.Sprintf(format, args...)})
		pr.nativeX = nil
	}
	root, err := k.moduleRoot()
	if err != nil {
		for _, pr := range todo {
			fail(pr, "%v", err)
		}
		return "", nil
	}
	ovDir, err := overlayDir(root)
	if err != nil {
		return "", err
	}
	pkgPath := modulePath + "/" + ovDir + "/"
	// The sources are written into a new directory of the run's own,
	// readable by this user alone (MkdirTemp makes it 0700).
	tmp, err := os.MkdirTemp("", "warpbook-native-")
	if err != nil {
		return "", err
	}
	// The sources of each page's sessions, in the overlay. go build -o
	// DIR/ names an executable after its package's last element: p3s0 is
	// the first session of the fourth page, p3 runs the fourth page's
	// foldable sessions, and all runs every page's.
	overlay := map[string]string{}
	add := func(pkg, file, src string) error {
		f := filepath.Join(tmp, pkg+"_"+file)
		overlay[filepath.Join(root, ovDir, pkg, file)] = f
		return os.WriteFile(f, []byte(src), 0o600)
	}
	own := map[*pageRun][]string{}    // a page's sessions built as executables of their own
	folded := map[*pageRun][]string{} // and as packages of a shared one
	bin := filepath.Join(tmp, "bin")
	for i, pr := range todo {
		pr.nativeX = map[*session]nativeExe{}
		for _, s := range pr.build {
			name := fmt.Sprintf("p%ds%d", i, s.id)
			var err error
			switch {
			case s.program:
				err = add(name, "main.go", s.mainGo)
			case s.foldable && strings.HasPrefix(s.mainGo, "package main\n"):
				src := strings.TrimPrefix(s.mainGo, "package main\n")
				err = errors.Join(add(name, "main.go", "package "+name+"\n"+src), add(name, "wb.go", worker.HelperPackage(name)))
				folded[pr] = append(folded[pr], name)
				pr.nativeX[s] = nativeExe{path: filepath.Join(bin, "all"), arg: name}
			default:
				err = errors.Join(add(name, "main.go", s.mainGo), add(name, "wb.go", worker.HelperGo))
			}
			if err != nil {
				return tmp, err
			}
			if _, ok := pr.nativeX[s]; !ok {
				own[pr] = append(own[pr], pkgPath+name)
				pr.nativeX[s] = nativeExe{path: filepath.Join(bin, name)}
			}
		}
		if len(folded[pr]) > 0 {
			if err := add(fmt.Sprintf("p%d", i), "main.go", dispatcher(pkgPath, folded[pr])); err != nil {
				return tmp, err
			}
		}
	}
	if err := addBookPackages(root, tmp, overlay, todo); err != nil {
		return tmp, err
	}
	var all, every []string
	for _, pr := range todo {
		all = append(all, folded[pr]...)
		every = append(every, own[pr]...)
	}
	if len(all) > 0 {
		if err := add("all", "main.go", dispatcher(pkgPath, all)); err != nil {
			return tmp, err
		}
		every = append(every, pkgPath+"all")
	}
	ob, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovl := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovl, ob, 0o644); err != nil {
		return tmp, err
	}
	gobuild := func(pkgs []string) ([]byte, error) {
		// No symbol table and no DWARF: nothing debugs these programs,
		// and leaving them out halves the time spent linking them.
		// -C root rather than the command's Dir: os/exec stats a Dir, and
		// go test's cache would then depend on the module root's time.
		args := append([]string{"build", "-C", root, "-ldflags=-s -w", "-overlay", ovl, "-o", bin + string(filepath.Separator)}, pkgs...)
		cmd := exec.CommandContext(ctx, k.goCommand(), args...)
		// The toolchain is trusted, the code it builds is not: no cgo
		// (whose #cgo lines run compilers with the page's flags), no
		// toolchain download, and the module alone (no go.work from
		// the directories above it).
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOTOOLCHAIN=local", "GOWORK=off")
		return cmd.CombinedOutput()
	}
	b, err := gobuild(every)
	if err == nil {
		return tmp, nil
	}
	if len(todo) == 1 {
		fail(todo[0], "go build failed: %v\n%s", err, buildMessage(b, ovDir, todo[0]))
		return tmp, nil
	}
	for i, pr := range todo {
		pkgs := own[pr]
		if len(folded[pr]) > 0 {
			dir := fmt.Sprintf("p%d", i)
			pkgs = append(pkgs, pkgPath+dir)
			for s, x := range pr.nativeX {
				if x.arg != "" {
					pr.nativeX[s] = nativeExe{path: filepath.Join(bin, dir), arg: x.arg}
				}
			}
		}
		if b, err := gobuild(pkgs); err != nil {
			fail(pr, "go build failed: %v\n%s", err, buildMessage(b, ovDir, pr))
		}
	}
	return tmp, nil
}

// foldable reports whether a session's program (package main, with
// [worker.HelperGo] beside it), parsed as f, can be a package of an
// executable shared with other sessions: it has no init function and no
// package-level variable with an initializer (but the kernel's cuda),
// whose initialization would run in every session's process, and it does
// not declare [worker.HelperEntry].
func foldable(f *ast.File) bool {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && (d.Name.Name == "init" || d.Name.Name == worker.HelperEntry) {
				return false
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.ValueSpec:
					// The kernel's own cuda (see cudaDecl) only builds a
					// value: a session's cells declare no package-level
					// variable of their own (a var is a statement).
					if d.Tok == token.VAR && len(sp.Values) > 0 && !(len(sp.Names) == 1 && sp.Names[0].Name == cudaVar) {
						return false
					}
					for _, n := range sp.Names {
						if n.Name == worker.HelperEntry {
							return false
						}
					}
				case *ast.TypeSpec:
					if sp.Name.Name == worker.HelperEntry {
						return false
					}
				}
			}
		}
	}
	return true
}

// dispatcher is the main package of an executable whose packages are the
// sessions pkgs (each at pkgPath and its name): it runs the one its
// argument names.
func dispatcher(pkgPath string, pkgs []string) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport (\n\t\"os\"\n\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, "\t%s %q\n", p, pkgPath+p)
	}
	b.WriteString(")\n\nfunc main() {\n\tif len(os.Args) != 2 {\n\t\tos.Exit(2)\n\t}\n\tswitch os.Args[1] {\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, "\tcase %q:\n\t\t%s.%s()\n", p, p, worker.HelperEntry)
	}
	b.WriteString("\tdefault:\n\t\tos.Exit(2)\n\t}\n}\n")
	return b.String()
}

// buildMessage is what go build printed, with the page's generated file
// name replaced by its path and the run's package directory ovDir by
// _wbnative (a message is the same from one run to the next).
func buildMessage(b []byte, ovDir string, pr *pageRun) string {
	msg := strings.ReplaceAll(strings.TrimSpace(string(b)), pageFile, pr.pl.page.Path)
	return strings.ReplaceAll(msg, ovDir, "_wbnative")
}

// runNative runs the page's sessions built natively and returns an outcome
// per unit (those from the cache included).
func (k *Kernel) runNative(ctx context.Context, pr *pageRun) map[int]*worker.Outcome {
	cache := k.cache()
	for _, s := range pr.build {
		exe, ok := pr.nativeX[s]
		if !ok {
			continue
		}
		var units []worker.Unit
		timeouts := map[int]time.Duration{}
		for _, u := range s.units {
			if pr.need[u] {
				units = append(units, worker.Unit{U: u.index, Session: s.id})
				timeouts[u.index] = u.timeout
			}
		}
		lim := worker.Limits{Timeout: timeouts, Startup: startupTimeout, Output: k.outputLimit(), Memory: k.memoryLimit(),
			Program: true, Raw: s.program}
		var args []string
		if exe.arg != "" {
			args = []string{exe.arg}
		}
		for n, o := range worker.Run(ctx, units, lim, worker.Program(exe.path, args...), k.memoryLimit(), nil) {
			pr.native[n] = o
			if o.Finished() {
				cache.put(pr.nkeys[pr.pl.units[n]], o)
			}
		}
	}
	return pr.native
}
