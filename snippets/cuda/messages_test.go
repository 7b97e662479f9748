package cuda

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestParseMessages reads what nvcc 12.4 printed for failing and warning
// compiles (testdata/messages: each .cu and its output, captured from the
// toolkit) into positioned messages with no host path.
func TestParseMessages(t *testing.T) {
	n := newNeutralizer(map[string]string{"/tmp/cu": "", "/work/cudafetch/tree/usr/include": "<cuda>/include", "/work/cudafetch/tree/usr": "<cuda>"})
	for _, c := range []struct {
		name string
		want []srcMessage
	}{
		{"edg", []srcMessage{
			{2, 10, "error", `identifier "undefined_thing" is undefined`}, // after a tab: byte 10
			{3, 22, "error", `identifier "nothere" is undefined`},
		}},
		{"gcc", []srcMessage{{1, 10, "error", "nothere.h: No such file or directory"}}},
		{"warn", []srcMessage{
			{2, 2, "warning", "#warning hi [-Wcpp]"},
			{1, 0, "warning", `variable "unused" was declared but never referenced`}, // nvcc quotes the line after macros: no column
		}},
		{"ptxas", []srcMessage{
			{0, 0, "error", "ptxas: PTX line 23: Unknown modifier '.instr'"},
			{0, 0, "error", "ptxas: PTX line 23: Not a name of any known instruction: 'bogus'"},
			{0, 0, "error", "ptxas: PTX line 23: Unknown symbol '%r1'"},
			{0, 0, "error", "ptxas: Ptx assembly aborted due to errors"},
		}},
		{"header", []srcMessage{{1, 0, "error", "<cuda>/include/cuda_fp16.h:4100:10: nv/target: No such file or directory"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile("testdata/messages/" + c.name + ".cu")
			if err != nil {
				t.Fatal(err)
			}
			out, err := os.ReadFile("testdata/messages/" + c.name + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			got := parseMessages(string(out), src, n, "error")
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got\n%+v\nwant\n%+v", got, c.want)
			}
		})
	}
	// The instantiation context stays with its message.
	src, _ := os.ReadFile("testdata/messages/instantiation.cu")
	out, _ := os.ReadFile("testdata/messages/instantiation.txt")
	got := parseMessages(string(out), src, n, "error")
	if len(got) != 1 || got[0].Line != 1 || got[0].Col != 50 || !strings.HasPrefix(got[0].Text, "excessive recursion at instantiation of member \"F<N>::v [with N=200]\"\ndetected during:\ninstantiation of class") ||
		!strings.HasSuffix(got[0].Text, `instantiation of class "F<N> [with N=0]" at line 2`) {
		t.Errorf("%+v", got)
	}
}

// TestNeutralizer: the work directory goes, the toolkit's directories
// become <cuda>, any other absolute path <host>/ and its base name.
func TestNeutralizer(t *testing.T) {
	n := newNeutralizer(map[string]string{"/tmp/warpbook-cuda-123": "", "/home/u/.cache/warpbook-cuda/12.4.131/usr/lib/nvidia-cuda-toolkit/bin/../../../include": "<cuda>/include", "/home/u/.cache/warpbook": "<cache>"})
	for in, want := range map[string]string{
		"/tmp/warpbook-cuda-123/tmpxft_0000086d_00000000-6_cell.ptx, line 3":                            "cell.ptx, line 3",
		"in /home/u/.cache/warpbook-cuda/12.4.131/usr/include/mma.h:3":                                  "in <cuda>/include/mma.h:3",
		"in /home/u/.cache/warpbook-cuda/12.4.131/usr/lib/nvidia-cuda-toolkit/bin/../../../include/x.h": "in <cuda>/include/x.h",
		"entry /home/u/.cache/warpbook/cuda/ab/abc.json":                                                "entry <cache>/cuda/ab/abc.json",
		"/usr/include/c++/12/bits/stl_vector.h:3: note":                                                 "<host>/stl_vector.h:3: note",
		`cannot open "/etc/passwd"`:                                                                     `cannot open "<host>/passwd"`,
		"a /* comment */ and 1/2":                                                                       "a /* comment */ and 1/2",
	} {
		if got := n.text(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}
