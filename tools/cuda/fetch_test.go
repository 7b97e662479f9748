// Package fetch tests tools/cuda/fetch, the script that fetches the CUDA
// toolkit: it has no Go code of its own.
package fetch

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestFetchRefusesCorruptDebs: a .deb whose SHA-256 is not the pinned one
// is refused, and nothing is left in the cache that a later run or the
// finder would trust.
func TestFetchRefusesCorruptDebs(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the pinned packages are for linux/amd64")
	}
	for _, tool := range []string{"bash", "apt-get", "dpkg-deb", "sha256sum", "md5sum", "flock"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: not a Debian machine", tool)
		}
	}
	if _, err := os.Stat("/usr/share/keyrings/debian-archive-keyring.gpg"); err != nil {
		t.Skip("no Debian archive keyring")
	}
	cache, debs := t.TempDir(), t.TempDir()
	for _, name := range []string{"nvidia-cuda-toolkit_12.4.131~12.4.1-2_amd64.deb", "nvidia-cuda-dev_12.4.127~12.4.1-2_amd64.deb", "libcu++-dev_2.3.2-2_all.deb"} {
		if err := os.WriteFile(filepath.Join(debs, name), []byte("not the package\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("bash", "fetch")
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache, "WARPBOOK_CUDA_DEBS="+debs)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "nvidia-cuda-toolkit_12.4.131~12.4.1-2_amd64.deb has SHA-256") || !strings.Contains(string(out), "refusing it") {
		t.Fatalf("%v: %s", err, out)
	}
	ents, _ := os.ReadDir(filepath.Join(cache, "warpbook-cuda"))
	for _, e := range ents {
		if e.Name() != ".lock" {
			t.Errorf("a refused fetch left %s", e.Name())
		}
	}

	print := exec.Command("bash", "fetch", "--print")
	print.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
	got, err := print.Output()
	if want := filepath.Join(cache, "warpbook-cuda/12.4.131/usr/lib/nvidia-cuda-toolkit/bin/nvcc") + "\n"; err != nil || string(got) != want {
		t.Errorf("--print: %q, %v; want %q", got, err, want)
	}
}
