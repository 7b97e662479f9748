package snippets

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/warpbook/warpbook/snippets/internal/worker"
)

// benchSnippet is a typical book snippet: compute occupancy on a preset
// and print it. %d makes each iteration's source different, so that no
// cache (yaegi's or the go command's) serves a repeat.
const benchSnippet = `r, _ := occupancy.Compute(gpu.A100(), occupancy.Kernel{BlockSize: 128, Registers: 32 + %d%%32})
fmt.Println(r.ActiveWarps, r.Occupancy)
`

const benchImports = "package main\nimport (\n\"fmt\"\n\"github.com/warpbook/warpbook/engine/gpu\"\n\"github.com/warpbook/warpbook/engine/occupancy\"\n)\n"

// BenchmarkSnippet measures the cost of one snippet four ways, in one run:
// evaluated in a warm shared session, in a fresh interpreter, in a fresh
// worker process (what warpbook test does per page), and compiled as a
// program with "go run" (what -native does per page). Compare the ns/op.
//
//	go test -run '^$' -bench Snippet -benchtime 3s ./snippets/
func BenchmarkSnippet(b *testing.B) {
	b.Run("session", func(b *testing.B) {
		it, err := worker.NewInterpreter(io.Discard, io.Discard, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := it.Eval(benchImports); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := it.Eval(";\n" + fmt.Sprintf(benchSnippet, i)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fresh", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			it, err := worker.NewInterpreter(io.Discard, io.Discard, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := it.Eval(benchImports); err != nil {
				b.Fatal(err)
			}
			if _, err := it.Eval(";\n" + fmt.Sprintf(benchSnippet, i)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("worker", func(b *testing.B) {
		lim := worker.Limits{Timeout: map[int]time.Duration{0: time.Minute, 1: time.Minute}, Startup: time.Minute}
		for i := 0; i < b.N; i++ {
			units := []worker.Unit{
				{U: 0, Chunks: []string{benchImports}},
				{U: 1, Chunks: []string{";\n" + fmt.Sprintf(benchSnippet, i)}},
			}
			pool := &worker.Pool{}
			got := worker.Run(context.Background(), units, lim, pool.Start, 0, nil)
			pool.Close()
			if o := got[1]; !o.Finished() || o.Error != nil {
				b.Fatalf("worker: %+v", o)
			}
		}
	})
	b.Run("go-run", func(b *testing.B) {
		root, err := (&Kernel{}).moduleRoot()
		if err != nil {
			b.Skip(err)
		}
		dir := b.TempDir()
		src := filepath.Join(dir, "main.go")
		ovl := filepath.Join(dir, "overlay.json")
		target := filepath.Join(root, "_wbbench", "main.go")
		writeFileT(b, ovl, fmt.Sprintf(`{"Replace":{%q:%q}}`, target, src))
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			prog := benchImports + "func main() {\n" + fmt.Sprintf(benchSnippet, i) + "}\n"
			writeFileT(b, src, prog)
			cmd := exec.Command("go", "run", "-overlay", ovl, "./_wbbench")
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("go run: %v\n%s", err, out)
			}
		}
	})
}
