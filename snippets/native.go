package snippets

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/warpbook/warpbook/snippets/internal/worker"
)

// modulePath is the module the generated native programs are built in.
const modulePath = "github.com/warpbook/warpbook"

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

// moduleRoot finds the warpbook module the go command works in.
func (k *Kernel) moduleRoot() (string, error) {
	gomod, err := goEnv(k.goCommand(), "GOMOD")
	if err != nil {
		return "", err
	}
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("native runs must start inside the warpbook module (no go.mod here)")
	}
	b, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	if !bytes.HasPrefix(b, []byte("module "+modulePath+"\n")) {
		return "", fmt.Errorf("native runs must start inside module %s, not %s", modulePath, gomod)
	}
	return filepath.Dir(gomod), nil
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
// the source tree): one invocation links them all in parallel, where one
// per page would pay the go command's start-up for each. If that build
// fails, each page is built on its own, so that a page that does not build
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
		pr.ndiags = append(pr.ndiags, &Diagnostic{Pos: Pos{File: pr.pl.page.Path}, Msg: "native: " + fmt.Sprintf(format, args...)})
		pr.nativeX = nil
	}
	root, err := k.moduleRoot()
	if err != nil {
		for _, pr := range todo {
			fail(pr, "%v", err)
		}
		return "", nil
	}
	tmp, err := os.MkdirTemp("", "warpbook-native-")
	if err != nil {
		return "", err
	}
	// The sources of each page's sessions, in the overlay. go build -o
	// DIR/ names an executable after its package's last element: p3s0 is
	// the first session of the fourth page.
	overlay := map[string]string{}
	pkgs := map[*pageRun][]string{}
	bin := filepath.Join(tmp, "bin")
	for i, pr := range todo {
		pr.nativeX = map[*session]string{}
		for _, s := range pr.build {
			name := fmt.Sprintf("p%ds%d", i, s.id)
			files := map[string]string{"main.go": s.mainGo}
			if !s.program {
				files["wb.go"] = worker.HelperGo
			}
			for file, src := range files {
				f := filepath.Join(tmp, name+"_"+file)
				if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
					return tmp, err
				}
				overlay[filepath.Join(root, "_wbnative", name, file)] = f
			}
			pkgs[pr] = append(pkgs[pr], modulePath+"/_wbnative/"+name)
			pr.nativeX[s] = filepath.Join(bin, name)
		}
	}
	ob, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovl := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovl, ob, 0o644); err != nil {
		return tmp, err
	}
	gobuild := func(pkgs []string) ([]byte, error) {
		// No symbol table and no DWARF: nothing debugs these programs,
		// and leaving them out halves the time spent linking them.
		args := append([]string{"build", "-ldflags=-s -w", "-overlay", ovl, "-o", bin + string(filepath.Separator)}, pkgs...)
		cmd := exec.CommandContext(ctx, k.goCommand(), args...)
		cmd.Dir = root
		// The toolchain is trusted, the code it builds is not: no cgo
		// (whose #cgo lines run compilers with the page's flags) and no
		// toolchain download.
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOTOOLCHAIN=local")
		return cmd.CombinedOutput()
	}
	var all []string
	for _, pr := range todo {
		all = append(all, pkgs[pr]...)
	}
	b, err := gobuild(all)
	if err == nil {
		return tmp, nil
	}
	if len(todo) == 1 {
		fail(todo[0], "go build failed: %v\n%s", err, buildMessage(b, todo[0]))
		return tmp, nil
	}
	for _, pr := range todo {
		if b, err := gobuild(pkgs[pr]); err != nil {
			fail(pr, "go build failed: %v\n%s", err, buildMessage(b, pr))
		}
	}
	return tmp, nil
}

// buildMessage is what go build printed, with the page's generated file
// name replaced by its path.
func buildMessage(b []byte, pr *pageRun) string {
	return strings.ReplaceAll(strings.TrimSpace(string(b)), pageFile, pr.pl.page.Path)
}

// runNative runs the page's sessions built natively and returns an outcome
// per unit (those from the cache included).
func (k *Kernel) runNative(ctx context.Context, pr *pageRun) map[int]*worker.Outcome {
	cache := k.cache()
	for _, s := range pr.build {
		exe := pr.nativeX[s]
		if exe == "" {
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
		for n, o := range worker.Run(ctx, units, lim, worker.Program(exe), k.memoryLimit()) {
			pr.native[n] = o
			if o.Finished() {
				cache.put(pr.nkeys[pr.pl.units[n]], o)
			}
		}
	}
	return pr.native
}
