package sim

import (
	"os"
	"testing"
)

// FuzzParseWorkload: no input makes ParseWorkload or Run panic; a workload
// that parses either runs or fails with an error.
func FuzzParseWorkload(f *testing.F) {
	if data, err := os.ReadFile("testdata/example.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("gpu: volta\npolicy: two_level:2\nlaunch: {block: 96, blocks: 3, resident: 1}\nmemory: {model: queue, lg_queue: 2}\nprogram:\n" +
		"  - {op: BRA, lanes: \"0-15\", then: [{op: LDS, dst: r1, src: [r0]}], else: [{op: MUFU, dst: r1, src: [r0]}]}\n" +
		"  - {op: BRA, warps: \"1\", then: [{op: NANOSLEEP, cycles: 7}]}\n  - {op: BAR}\n  - {op: STG, src: [r1]}\n  - {op: EXIT}\n"))
	f.Add([]byte("gpu: toy\nlaunch: {block: 32}\nprogram:\n  - loop: 3\n    body:\n      - {op: FFMA, dst: r0, src: [r0, r1], ilp: 3}\n"))
	f.Add([]byte("gpu: [\n"))
	f.Add([]byte("program: *x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ParseWorkload("fuzz.yaml", data)
		if err != nil {
			return
		}
		_, _ = Config{MaxCycles: 20000}.Run(w)
	})
}
