package cuda

import (
	"github.com/warpbook/warpbook/engine/ptxas"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/internal/cachefile"
)

// TestCacheEntries: an entry written is read back; an entry that is not
// a regular file, too large, not one this user's warpbook wrote (see
// package cachefile), not strict JSON or out of range is a miss.
func TestCacheEntries(t *testing.T) {
	c := &Compiler{Toolkit: &Toolkit{VersionText: "nvcc 12.4", HostVersion: "g++-12"}, CacheDir: t.TempDir()}
	job := Job{Source: "__global__ void k() {}\n"}
	key := c.key(job, nil, "sm_80")
	good := &entry{Arch: "sm_80", Functions: []Function{{Name: "_Z1kv", Demangled: "k()", Arch: "sm_80", Entry: true, Line: 2,
		Resources: ptxas.Resources{Registers: 4, ConstMem: []ptxas.ConstBank{{Bank: 0, Bytes: 352}}}, SASS: "\t\tFunction : _Z1kv\n\t\t.....\n"}},
		Warnings: []srcMessage{{1, 3, "warning", "w"}}}
	c.cachePut(key, good)
	if got := c.cacheGet(key, "sm_80"); got == nil || got.Functions[0].Resources.Registers != 4 || got.Warnings[0].Text != "w" {
		t.Fatalf("read back %+v", got)
	}
	if c.cacheGet(key, "sm_90a") != nil {
		t.Error("an sm_80 entry was read for sm_90a")
	}
	// Everything that decides a result is in the key.
	for _, other := range []string{
		c.key(Job{Source: job.Source + " "}, nil, "sm_80"),
		c.key(job, []string{"-G"}, "sm_80"),
		c.key(job, nil, "sm_86"),
		(&Compiler{Toolkit: &Toolkit{VersionText: "nvcc 12.5", HostVersion: "g++-12"}}).key(job, nil, "sm_80"),
		(&Compiler{Toolkit: &Toolkit{VersionText: "nvcc 12.4", HostVersion: "g++-13"}}).key(job, nil, "sm_80"),
	} {
		if other == key {
			t.Error("two different compiles share a key")
		}
	}

	p := c.cachePath(key)
	data, err := cachefile.Read(p, maxEntry)
	if err != nil {
		t.Fatal(err)
	}
	valid := string(data)
	// The same entry, well-formed, but not written by this user's
	// warpbook (a forged one, or an older warpbook's).
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := c.cacheGet(key, "sm_80"); got != nil {
		t.Errorf("an untagged entry was read: %+v", got)
	}
	for name, bad := range map[string]string{
		"unknown field":  strings.Replace(valid, `"arch":"sm_80"`, `"arch":"sm_80","x":1`, 1),
		"trailing data":  valid + "{}",
		"negative regs":  strings.Replace(valid, `"registers":4`, `"registers":-4`, 1),
		"too many regs":  strings.Replace(valid, `"registers":4`, `"registers":256`, 1),
		"wrong demangle": strings.Replace(valid, `"demangled":"k()"`, `"demangled":"evil()"`, 1),
		"no SASS":        strings.Replace(valid, `"sass":"\t\tFunction : _Z1kv\n\t\t.....\n"`, `"sass":""`, 1),
		"bad severity":   strings.Replace(valid, `"severity":"warning"`, `"severity":"error"`, 1),
		"not JSON":       "{",
		"too large":      strings.Repeat(" ", maxEntry+1),
	} {
		if bad == valid {
			t.Fatalf("%s: the replacement did not apply to %s", name, valid)
		}
		// Tagged as this user's warpbook tags, so that the checks of
		// the contents are what refuses it.
		if err := cachefile.Write(p, []byte(bad)); err != nil {
			t.Fatal(err)
		}
		if got := c.cacheGet(key, "sm_80"); got != nil {
			t.Errorf("%s: read %+v", name, got)
		}
	}
	// A link is not followed, whatever it points at.
	target := filepath.Join(t.TempDir(), "real.json")
	if err := os.WriteFile(target, data, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(p)
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	if got := c.cacheGet(key, "sm_80"); got != nil {
		t.Error("an entry was read through a symbolic link")
	}
	os.Remove(p)
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := c.cacheGet(key, "sm_80"); got != nil {
		t.Error("a directory was read as an entry")
	}
}
