package snippets

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
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

// runNative builds the page's sessions into programs with the Go toolchain
// (one go build for the page, through an overlay, so nothing is written to
// the source tree), runs them, and returns an outcome per unit.
func (k *Kernel) runNative(ctx context.Context, pl *plan, need map[*unit]bool, v Verifier) (map[int]*worker.Outcome, Diagnostics) {
	pageDiag := func(format string, args ...any) Diagnostics {
		return Diagnostics{&Diagnostic{Pos: Pos{File: pl.page.Path}, Msg: "native: " + fmt.Sprintf(format, args...)}}
	}
	out := map[int]*worker.Outcome{}
	cache := k.cache()
	keys := pl.keys(v, "native")
	var build []*session
	for _, s := range pl.sessions {
		if s.broken || len(s.units) == 0 {
			continue
		}
		hit, any := true, false
		for _, u := range s.units {
			if !need[u] {
				continue
			}
			any = true
			if o := cache.get(keys[u]); o != nil {
				out[u.index] = o
			} else {
				hit = false
			}
		}
		if any && !hit {
			build = append(build, s)
		}
	}
	if len(build) == 0 {
		return out, nil
	}
	root, err := k.moduleRoot()
	if err != nil {
		return out, pageDiag("%v", err)
	}
	tmp, err := os.MkdirTemp("", "warpbook-native-")
	if err != nil {
		return out, pageDiag("%v", err)
	}
	defer os.RemoveAll(tmp)
	sum := sha256.Sum256([]byte(pl.page.Path))
	base := path.Join("_wbnative", hex.EncodeToString(sum[:6]))
	overlay := map[string]string{}
	var pkgs []string
	for _, s := range build {
		dir := path.Join(base, fmt.Sprintf("s%d", s.id))
		files := map[string]string{"main.go": s.mainGo}
		if !s.program {
			files["wb.go"] = worker.HelperGo
		}
		for name, src := range files {
			f := filepath.Join(tmp, fmt.Sprintf("s%d_%s", s.id, name))
			if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
				return out, pageDiag("%v", err)
			}
			overlay[filepath.Join(root, filepath.FromSlash(dir), name)] = f
		}
		pkgs = append(pkgs, modulePath+"/"+dir)
	}
	ob, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovl := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovl, ob, 0o644); err != nil {
		return out, pageDiag("%v", err)
	}
	bin := filepath.Join(tmp, "bin") + string(filepath.Separator)
	args := append([]string{"build", "-overlay", ovl, "-o", bin}, pkgs...)
	cmd := exec.CommandContext(ctx, k.goCommand(), args...)
	cmd.Dir = root
	// The toolchain is trusted, the code it builds is not: no cgo (whose
	// #cgo lines run compilers with the page's flags) and no toolchain
	// download.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOTOOLCHAIN=local")
	if b, err := cmd.CombinedOutput(); err != nil {
		msg := strings.ReplaceAll(strings.TrimSpace(string(b)), pageFile, pl.page.Path)
		return out, pageDiag("go build failed: %v\n%s", err, msg)
	}
	for _, s := range build {
		exe := filepath.Join(tmp, "bin", fmt.Sprintf("s%d", s.id))
		var units []worker.Unit
		timeouts := map[int]time.Duration{}
		for _, u := range s.units {
			if need[u] {
				units = append(units, worker.Unit{U: u.index, Session: s.id})
				timeouts[u.index] = u.timeout
			}
		}
		lim := worker.Limits{Timeout: timeouts, Startup: startupTimeout, Output: k.outputLimit(), Memory: k.memoryLimit(),
			Program: true, Raw: s.program}
		for n, o := range worker.Run(ctx, units, lim, worker.Program(exe), k.memoryLimit()) {
			out[n] = o
			if o.Finished() {
				cache.put(keys[pl.units[n]], o)
			}
		}
	}
	return out, nil
}
