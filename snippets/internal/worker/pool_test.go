package worker

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary serve as a pooled worker.
func TestMain(m *testing.M) {
	if os.Getenv(EnvVar) == "1" {
		os.Exit(ServeStdio())
	}
	os.Exit(m.Run())
}

// TestPool: jobs share one worker process while they end cleanly; a job
// that kills its worker (a limit) leaves the pool and the next job gets a
// new process, with nothing of the killed job's session.
func TestPool(t *testing.T) {
	pool := &Pool{}
	defer pool.Close()
	lim := Limits{Timeout: map[int]time.Duration{0: 5 * time.Second, 1: 5 * time.Second}, Startup: time.Minute, Output: 1 << 20}
	run := func(lim Limits, units ...Unit) (map[int]*Outcome, int) {
		t.Helper()
		var pid int
		start := func(ctx context.Context, j *Job) (Proc, error) {
			p, err := pool.Start(ctx, j)
			if err == nil {
				pid = p.Pid()
			}
			return p, err
		}
		return Run(context.Background(), units, lim, start, 0, nil), pid
	}
	print := func(u int, s string) Unit {
		return Unit{U: u, Chunks: []string{"package main\nimport (\n\"fmt\"\n\"strings\"\n)\nvar _ = strings.Repeat\n", ";\nfmt.Println(" + s + ")\n"}, Stmt: []bool{false, true}}
	}
	got, first := run(lim, print(0, `"one"`))
	if got[0].Output != "one\n" {
		t.Fatalf("first job: %+v", got[0])
	}
	got, second := run(lim, Unit{U: 0, Chunks: []string{";\nx := 42\n_ = x\n"}, Stmt: []bool{true}}, print(1, `"two"`))
	if second != first || got[1].Output != "two\n" {
		t.Fatalf("second job ran in process %d, not %d, or printed %+v", second, first, got[1])
	}
	// A job that floods its output is killed: its process leaves the pool.
	small := lim
	small.Output = 10
	got, _ = run(small, print(0, `strings.Repeat("x", 100)`))
	if got[0].Limit != OutputLimit {
		t.Fatalf("flood: %+v", got[0])
	}
	got, fourth := run(lim, Unit{U: 0, Chunks: []string{";\nfmt.Println(x)\n"}, Stmt: []bool{true}})
	if fourth == first || got[0].Error == nil || !strings.Contains(*got[0].Error, "undefined") {
		t.Errorf("after a kill: process %d (the killed one was %d), outcome %+v", fourth, first, got[0])
	}
}
