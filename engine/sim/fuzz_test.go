package sim

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// FuzzParseWorkload: no input makes ParseWorkload, ParseProgram or Run
// panic, hang or run away with memory (the limits of limits.go bound the
// input); every error is a *Error for the file; a program that parses
// prints as a program that parses back to the same text; a workload that
// parses either runs or fails with an error.
func FuzzParseWorkload(f *testing.F) {
	if data, err := os.ReadFile("testdata/example.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("gpu: volta\npolicy: two_level:2\nlaunch: {block: 96, blocks: 3, resident: 1}\nmemory: {model: queue, lg_queue: 2, mem_queue: 3}\nprogram:\n" +
		"  - {op: BRA, lanes: \"0-15\", then: [{op: LDS, dst: r1, src: [r0]}], else: [{op: MUFU, dst: r1, src: [r0]}]}\n" +
		"  - {op: BRA, warps: \"1\", then: [{op: NANOSLEEP, cycles: 7}]}\n  - {op: BAR}\n  - {op: STG, src: [r1]}\n  - {op: EXIT}\n"))
	f.Add([]byte("gpu: toy\nlaunch: {block: 32}\nprogram:\n  - loop: 3\n    body:\n      - {op: FFMA, dst: r0, src: [r0, r1], ilp: 3}\n"))
	f.Add([]byte("- loop: 2\n  body:\n    - {op: LDG, dst: r2, src: [r3], level: l2, width: 16}\n- {op: BRA, warps: \"0-3\", then: [{op: BAR}]}\n"))
	f.Add([]byte("gpu: [\n"))
	f.Add([]byte("program: *x\n"))
	f.Add([]byte(laughs()))
	f.Add([]byte("program: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n"))
	f.Add([]byte("program:\n  " + strings.Repeat("- ", 100) + "x\n"))
	f.Add([]byte("a: &a {b: *a}\n"))
	f.Add([]byte("gpu: toy # é\nlaunch: {block: 32}\nprogram:\n  - {op: FFMA, dst: é}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(err error) {
			var e *Error
			if !errors.As(err, &e) || e.File != "fuzz.yaml" {
				t.Fatalf("error %T %q: want a *sim.Error for fuzz.yaml", err, err)
			}
		}
		if p, err := ParseProgram("fuzz.yaml", data); err != nil {
			check(err)
		} else {
			again, err := ParseProgram("fuzz.yaml", []byte(p.String()))
			if err != nil || again.String() != p.String() {
				t.Fatalf("program prints as\n%s\nwhich parses back as %v, %v", p, again, err)
			}
		}
		w, err := ParseWorkload("fuzz.yaml", data)
		if err != nil {
			check(err)
			return
		}
		_, _ = Config{MaxCycles: 20000}.Run(w)
	})
}
