package site_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/internal/synth"
)

// BenchmarkBuild builds the synthetic 200-page book in process: the cost
// of the site alone, without process start-up or writing files.
// tools/warpbook's BenchmarkBuildVsHugo compares whole builds with Hugo.
func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	if _, _, err := synth.Write(dir); err != nil {
		b.Fatal(err)
	}
	fsys := os.DirFS(filepath.Join(dir, "book"))
	for b.Loop() {
		if _, err := site.Build(context.Background(), fsys, site.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func runBench(b *testing.B, name string, args ...string) {
	b.Helper()
	cmd := exec.Command(name, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// BenchmarkBuildVsHugo is the site's speed benchmark: the synthetic book
// of 200 pages (8 KB each, three display-only Go blocks each) built by the
// warpbook command, cold and again with nothing changed, and the same
// pages built by Debian's hugo in the same run when it is installed. Both
// run as separate processes, start-up included. Run with
//
//	go test -run XXX -bench BuildVsHugo -benchtime 10x -v ./site
//
// The ratios are logged at the end; README.md reports them.
func BenchmarkBuildVsHugo(b *testing.B) {
	dir := b.TempDir()
	book, hugoDir, err := synth.Write(dir)
	if err != nil {
		b.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	b.Setenv("XDG_CACHE_HOME", cache)
	exe := filepath.Join(dir, "warpbook")
	if out, err := exec.Command("go", "build", "-o", exe, "../tools/warpbook").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	per := map[string]time.Duration{}
	measure := func(name string, setup func(), do func()) {
		b.Run(name, func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				b.StopTimer()
				setup()
				b.StartTimer()
				t0 := time.Now()
				do()
				total += time.Since(t0)
			}
			per[name] = total / time.Duration(b.N)
		})
	}

	out := filepath.Join(dir, "site")
	build := func() { runBench(b, exe, "build", "--book", book, "-o", out) }
	measure("warpbook/cold", func() {
		os.RemoveAll(out)
		os.RemoveAll(cache)
	}, build)
	measure("warpbook/no-change", build, build)

	hugo, err := exec.LookPath("hugo")
	if err != nil {
		b.Log("hugo is not installed: no comparison (apt-get install hugo)")
		return
	}
	hout := filepath.Join(dir, "hugo-public")
	hcache := filepath.Join(dir, "hugo-cache")
	hbuild := func() { runBench(b, hugo, "--quiet", "-s", hugoDir, "-d", hout, "--cacheDir", hcache) }
	measure("hugo/cold", func() {
		os.RemoveAll(hout)
		os.RemoveAll(hcache)
		os.RemoveAll(filepath.Join(hugoDir, "resources"))
	}, hbuild)
	measure("hugo/no-change", hbuild, hbuild)

	if per["warpbook/cold"] > 0 && per["warpbook/no-change"] > 0 {
		b.Logf("cold: warpbook %v, hugo %v: %.1f× faster", per["warpbook/cold"], per["hugo/cold"],
			float64(per["hugo/cold"])/float64(per["warpbook/cold"]))
		b.Logf("no-change rebuild: warpbook %v, hugo %v: %.1f× faster", per["warpbook/no-change"], per["hugo/no-change"],
			float64(per["hugo/no-change"])/float64(per["warpbook/no-change"]))
	}
}
