package site_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
// Each iteration builds with both tools in turn (warpbook cold, hugo cold,
// warpbook with nothing changed, hugo again), so that a change of load on
// a shared machine falls on both alike; the medians of each kind and their
// ratios are reported as metrics and logged. docs/benchmarks.md reports them.
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
	hugo, err := exec.LookPath("hugo")
	if err != nil {
		b.Log("hugo is not installed: no comparison (apt-get install hugo)")
	}
	out := filepath.Join(dir, "site")
	hout := filepath.Join(dir, "hugo-public")
	hcache := filepath.Join(dir, "hugo-cache")
	build := func() { runBench(b, exe, "build", "--book", book, "-o", out) }
	hbuild := func() { runBench(b, hugo, "--quiet", "-s", hugoDir, "-d", hout, "--cacheDir", hcache) }
	times := map[string][]time.Duration{}
	timed := func(name string, do func()) {
		t0 := time.Now()
		do()
		times[name] = append(times[name], time.Since(t0))
	}
	for b.Loop() {
		os.RemoveAll(out)
		os.RemoveAll(cache)
		timed("warpbook-cold", build)
		if hugo != "" {
			os.RemoveAll(hout)
			os.RemoveAll(hcache)
			os.RemoveAll(filepath.Join(hugoDir, "resources"))
			timed("hugo-cold", hbuild)
		}
		timed("warpbook-no-change", build)
		if hugo != "" {
			timed("hugo-no-change", hbuild)
		}
	}
	med := map[string]time.Duration{}
	for name, ts := range times {
		slices.Sort(ts)
		med[name] = ts[len(ts)/2]
		b.ReportMetric(float64(med[name])/1e6, name+"-ms")
	}
	if hugo == "" {
		return
	}
	for _, kind := range []string{"cold", "no-change"} {
		w, h := med["warpbook-"+kind], med["hugo-"+kind]
		b.ReportMetric(float64(h)/float64(w), kind+"-hugo/warpbook")
		b.Logf("%s, medians of %d: warpbook %v (%v to %v), hugo %v (%v to %v): %.1f× faster", kind, len(times["hugo-"+kind]),
			w.Round(time.Millisecond), times["warpbook-"+kind][0].Round(time.Millisecond), times["warpbook-"+kind][len(times["warpbook-"+kind])-1].Round(time.Millisecond),
			h.Round(time.Millisecond), times["hugo-"+kind][0].Round(time.Millisecond), times["hugo-"+kind][len(times["hugo-"+kind])-1].Round(time.Millisecond),
			float64(h)/float64(w))
	}
}
