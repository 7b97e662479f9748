package cuda

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// FetchCommand is the command that fetches the toolkit warpbook uses, run
// from the repository's root.
const FetchCommand = "tools/cuda/fetch"

// FetchedVersion is the release tools/cuda/fetch fetches.
const FetchedVersion = "12.4.131"

// Toolkit is a CUDA toolkit found on this machine, with the host compiler
// nvcc runs and the tools a compile needs. Make one with Find.
type Toolkit struct {
	// NVCC is the nvcc to run.
	NVCC string `json:"nvcc"`
	// Version is nvcc's release, "12.4.131" (from "V12.4.131").
	Version string `json:"version"`
	// VersionText is all nvcc --version prints; cache keys hold it.
	VersionText string `json:"-"`
	// From says how it was found: "WARPBOOK_CUDA", "PATH" or "fetched".
	From string `json:"from"`
	// Root is the toolkit's directory (nvcc's TOP) and IncludeDir the
	// directory of its headers, the only ones a page may include.
	Root       string `json:"root"`
	IncludeDir string `json:"include_dir"`
	// Cuobjdump lists a cubin's SASS.
	Cuobjdump string `json:"cuobjdump"`
	// HostCompiler is the C++ compiler nvcc preprocesses with (-ccbin),
	// and HostVersion the first line of its --version.
	HostCompiler string `json:"host_compiler"`
	HostVersion  string `json:"host_version"`

	prlimit string // util-linux's prlimit, which caps a compile
	path    string // PATH of a compile: the toolkit's directories only
}

// String says which toolkit it is, for a report: "CUDA 12.4.131 (fetched,
// g++-12 (Debian 12.2.0-14) 12.2.0)".
func (t *Toolkit) String() string {
	return fmt.Sprintf("CUDA %s (%s; host compiler %s)", t.Version, t.From, t.HostVersion)
}

// FetchedDir returns where tools/cuda/fetch puts the toolkit:
// $XDG_CACHE_HOME/warpbook-cuda/12.4.131 (~/.cache when XDG_CACHE_HOME
// is unset). It is apart from warpbook's result cache, which is pruned.
func FetchedDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the cache directory: %w", err)
	}
	return filepath.Join(d, "warpbook-cuda", FetchedVersion), nil
}

// Find finds the toolkit to use: nvcc from WARPBOOK_CUDA (the path of an
// nvcc, or of a toolkit directory holding bin/nvcc or Debian's
// usr/lib/nvidia-cuda-toolkit/bin/nvcc), else the nvcc on PATH when it is
// release 12.4 or later, else the copy tools/cuda/fetch fetched. With none
// it returns an error that wraps ErrNoToolkit and says how to get one. It
// also finds the host compiler (Debian's g++-12 when there is one: CUDA
// 12.4 takes g++ 6 to 13), cuobjdump, and util-linux's prlimit.
func Find(ctx context.Context) (*Toolkit, error) {
	nvcc, from, err := findNVCC(ctx)
	if err != nil {
		return nil, err
	}
	return describe(ctx, nvcc, from)
}

// findNVCC picks the nvcc, in Find's order.
func findNVCC(ctx context.Context) (nvcc, from string, err error) {
	if v := os.Getenv("WARPBOOK_CUDA"); v != "" {
		fi, err := os.Stat(v)
		if err != nil {
			return "", "", fmt.Errorf("WARPBOOK_CUDA=%s: %w", v, err)
		}
		if !fi.IsDir() {
			return v, "WARPBOOK_CUDA", nil
		}
		for _, rel := range []string{"bin/nvcc", "usr/lib/nvidia-cuda-toolkit/bin/nvcc", "lib/nvidia-cuda-toolkit/bin/nvcc"} {
			if p := filepath.Join(v, rel); isExecutable(p) {
				return p, "WARPBOOK_CUDA", nil
			}
		}
		return "", "", fmt.Errorf("WARPBOOK_CUDA=%s: no bin/nvcc (nor Debian's usr/lib/nvidia-cuda-toolkit/bin/nvcc) in that directory", v)
	}
	var skipped string
	if p, err := exec.LookPath("nvcc"); err == nil {
		text, err := nvccVersion(ctx, p)
		switch ver, ok := release(text); {
		case err != nil:
			skipped = fmt.Sprintf("; the nvcc on PATH (%s) does not run: %v", p, err)
		case !ok || ver.less(release124):
			skipped = fmt.Sprintf("; the nvcc on PATH (%s) is release %s, older than 12.4", p, ver)
		default:
			return p, "PATH", nil
		}
	}
	dir, err := FetchedDir()
	if err == nil {
		p := filepath.Join(dir, "usr/lib/nvidia-cuda-toolkit/bin/nvcc")
		if _, serr := os.Stat(filepath.Join(dir, ".warpbook-cuda")); serr == nil && isExecutable(p) {
			return p, "fetched", nil
		}
	} else {
		dir = "the user cache directory"
	}
	return "", "", fmt.Errorf("%w: WARPBOOK_CUDA is not set, there is no nvcc 12.4 or later on PATH%s, and %s has not fetched one into %s; run %s (it downloads about 1 GB of Debian's packages and keeps 170 MB), or set WARPBOOK_CUDA to an nvcc or a toolkit directory",
		ErrNoToolkit, skipped, FetchCommand, dir, FetchCommand)
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// version is a release number, 12.4.131.
type version []int

var release124 = version{12, 4}

func (v version) less(w version) bool { return slices.Compare(v, w) < 0 }

func (v version) String() string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ".")
}

var releaseRe = regexp.MustCompile(`release [0-9.]+, V([0-9]+(?:\.[0-9]+)*)`)

// release reads the release from nvcc --version: "V12.4.131".
func release(text string) (version, bool) {
	m := releaseRe.FindStringSubmatch(text)
	if m == nil {
		return nil, false
	}
	var v version
	for _, f := range strings.Split(m[1], ".") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, false
		}
		v = append(v, n)
	}
	return v, true
}

func nvccVersion(ctx context.Context, nvcc string) (string, error) {
	cmd := exec.CommandContext(ctx, nvcc, "--version")
	cmd.Env = []string{"PATH=" + filepath.Dir(nvcc), "LC_ALL=C"}
	out, err := cmd.Output()
	return string(out), err
}

// hostCompilers are the host compilers Find tries, in order: Debian's
// g++-12 first (bookworm's, and one CUDA 12.4 supports), then the other
// versions 12.4 supports.
var hostCompilers = []string{"g++-12", "g++-13", "g++-11", "g++-10", "g++-9", "g++"}

// describe runs nvcc to learn the rest of the toolkit.
func describe(ctx context.Context, nvcc, from string) (*Toolkit, error) {
	nvcc, err := filepath.Abs(nvcc)
	if err != nil {
		return nil, err
	}
	text, err := nvccVersion(ctx, nvcc)
	if err != nil {
		return nil, fmt.Errorf("%s --version: %w", nvcc, err)
	}
	ver, ok := release(text)
	if !ok {
		return nil, fmt.Errorf("%s --version does not say its release (no \"release X.Y, VX.Y.Z\")", nvcc)
	}
	t := &Toolkit{NVCC: nvcc, Version: ver.String(), VersionText: text, From: from}
	if t.prlimit, err = exec.LookPath("prlimit"); err != nil {
		return nil, errors.New("prlimit (util-linux) is needed to cap a CUDA compile's memory; install util-linux")
	}
	for _, name := range hostCompilers {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		out, err := exec.CommandContext(ctx, p, "-dumpfullversion").Output()
		if err != nil {
			continue
		}
		major, _ := strconv.Atoi(strings.SplitN(strings.TrimSpace(string(out)), ".", 2)[0])
		if major < 6 || major > 13 {
			continue
		}
		out, err = exec.CommandContext(ctx, p, "--version").Output()
		if err != nil {
			continue
		}
		t.HostCompiler = p
		t.HostVersion = strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
		break
	}
	if t.HostCompiler == "" {
		return nil, fmt.Errorf("no host C++ compiler for nvcc %s: it needs g++ 6 to 13 (%s); install g++-12", t.Version, strings.Join(hostCompilers, ", "))
	}
	if err := t.profile(ctx); err != nil {
		return nil, fmt.Errorf("%s: %w", nvcc, err)
	}
	return t, nil
}

// profile asks nvcc (--dryrun) where its headers and tools are, as its
// nvcc.profile says.
func (t *Toolkit) profile(ctx context.Context) error {
	dir, err := os.MkdirTemp("", "warpbook-cuda-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, t.NVCC, "--dryrun", "-ccbin", t.HostCompiler, "-cubin", "-arch=sm_80", "-o", "x.cubin", cellName)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + filepath.Dir(t.NVCC), "HOME=" + dir, "TMPDIR=" + dir, "LC_ALL=C"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("nvcc --dryrun: %v: %s", err, clip(string(out)))
	}
	vars := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "#$ "); ok {
			if name, value, ok := strings.Cut(rest, "="); ok && !strings.Contains(name, " ") {
				vars[name] = strings.TrimSpace(value)
			}
		}
	}
	here := cmp.Or(vars["_HERE_"], filepath.Dir(t.NVCC))
	t.Root = filepath.Clean(vars["TOP"])
	if vars["TOP"] == "" {
		t.Root = filepath.Dir(filepath.Clean(here))
	}
	var includes []string
	for _, f := range regexp.MustCompile(`-I"?([^" ]+)"?`).FindAllStringSubmatch(vars["INCLUDES"], -1) {
		includes = append(includes, f[1])
	}
	includes = append(includes, filepath.Join(here, "../include"), filepath.Join(here, "../../../include"), "/usr/include")
	for _, d := range includes {
		if fi, err := os.Stat(filepath.Join(d, "cuda_runtime.h")); err == nil && fi.Mode().IsRegular() {
			t.IncludeDir = filepath.Clean(d)
			break
		}
	}
	if t.IncludeDir == "" {
		return errors.New("no cuda_runtime.h in the include directories nvcc.profile names")
	}
	// The tools: where nvcc's PATH finds them.
	var dirs []string
	for _, d := range filepath.SplitList(vars["PATH"]) {
		if d != "" {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	find := func(name string) string {
		for _, d := range dirs {
			if p := filepath.Join(d, name); isExecutable(p) {
				return p
			}
		}
		return ""
	}
	for _, tool := range []string{"ptxas", "cicc", "cuobjdump", "nvdisasm"} {
		if find(tool) == "" {
			return fmt.Errorf("no %s where nvcc looks for it (%s)", tool, strings.Join(dirs, ":"))
		}
	}
	t.Cuobjdump = find("cuobjdump")
	seen := map[string]bool{}
	var path []string
	for _, p := range []string{filepath.Dir(t.NVCC), filepath.Dir(find("ptxas")), filepath.Dir(find("cicc")), filepath.Dir(t.Cuobjdump), filepath.Dir(find("nvdisasm"))} {
		if !seen[p] {
			seen[p] = true
			path = append(path, p)
		}
	}
	t.path = strings.Join(path, string(filepath.ListSeparator))
	return nil
}

// hasHeader reports whether name is a regular file of the toolkit's
// include directory, not found through a link that leaves it.
func (t *Toolkit) hasHeader(name string) bool {
	if !headerName.MatchString(name) {
		return false
	}
	p := filepath.Join(t.IncludeDir, filepath.FromSlash(name))
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	root, err := filepath.EvalSymlinks(t.IncludeDir)
	if err != nil {
		return false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
