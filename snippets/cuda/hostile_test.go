package cuda

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostileIncludes are sources that try to read a host file: a file of
// this machine (path, marker) by every spelling, /dev/zero and
// /proc/self/environ.
func hostileIncludes(hostFile string) map[string]string {
	rel, _ := filepath.Rel("/", hostFile)
	return map[string]string{
		"host file":           "#include <" + hostFile + ">\n",
		"host file quoted":    "#include \"" + hostFile + "\"\n",
		"host file relative":  "#include <" + strings.Repeat("../", 12) + rel + ">\n",
		"host file computed":  "#define F \"" + hostFile + "\"\n#include F\n",
		"host file spliced":   "#\\\ninclude \"" + hostFile + "\"\n",
		"host file comment":   "/**/#include \"" + hostFile + "\"\n",
		"host file digraph":   "%:include \"" + hostFile + "\"\n",
		"host file next":      "#include_next <" + hostFile + ">\n",
		"host file pragma":    "_Pragma(\"GCC dependency \\\"" + hostFile + "\\\"\")\n",
		"dev zero":            "#include </dev/zero>\n",
		"proc environ":        "#include </proc/self/environ>\n",
		"proc environ quoted": "__global__ void k() {}\n#include \"/proc/self/environ\"\n",
	}
}

// TestHostileIncludes: every way of including a host file is refused
// before any compiler runs, with a message that shows neither the host's
// paths nor what its files hold. It needs no toolkit: the compiler given
// does not exist, so a source the check let through would fail to start
// rather than be refused. With a toolkit (and without -short) it runs
// again through it.
func TestHostileIncludes(t *testing.T) {
	marker := fmt.Sprintf("warpbook-secret-%d", os.Getpid())
	t.Setenv("WARPBOOK_TEST_SECRET", marker) // in /proc/self/environ
	hostFile := filepath.Join(t.TempDir(), "secret.h")
	if err := os.WriteFile(hostFile, []byte("#error "+marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inc := t.TempDir()
	if err := os.WriteFile(filepath.Join(inc, "cuda_runtime.h"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	toolkits := map[string]*Toolkit{"no toolkit": {IncludeDir: inc, NVCC: "/nonexistent/nvcc", prlimit: "/nonexistent/prlimit"}}
	found.Do(func() { found.tk, found.err = Find(context.Background()) })
	if !testing.Short() && (found.err == nil || os.Getenv("WARPBOOK_CUDA_REQUIRE") != "") {
		toolkits["toolkit"] = needToolkit(t)
	}
	for tkName, tk := range toolkits {
		c := &Compiler{Toolkit: tk}
		for name, src := range hostileIncludes(hostFile) {
			_, err := c.Compile(context.Background(), Job{Source: src, Archs: []string{"sm_80"}, File: "book/evil.md", Line: 7})
			var e *Error
			if !errors.As(err, &e) || e.Kind != Refused {
				t.Errorf("%s, %s: %v; want it refused", tkName, name, err)
				continue
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "book/evil.md:") {
				t.Errorf("%s, %s: not positioned in the page: %s", tkName, name, msg)
			}
			for _, leak := range []string{marker, hostFile, filepath.Dir(hostFile), "/dev/zero", "/proc/self"} {
				if strings.Contains(msg, leak) {
					t.Errorf("%s, %s: the message shows %q: %s", tkName, name, leak, msg)
				}
			}
		}
	}
}

// TestHostileHugeSource: a source over the cap is refused unread.
func TestHostileHugeSource(t *testing.T) {
	c := &Compiler{Toolkit: &Toolkit{}}
	src := strings.Repeat("// padding\n", DefaultLimits.Source/11+1)
	_, err := c.Compile(context.Background(), Job{Source: src, Archs: []string{"sm_80"}, File: "book/big.md", Line: 3})
	var e *Error
	if !errors.As(err, &e) || e.Kind != Refused || !strings.Contains(err.Error(), "book/big.md:3: error: the CUDA source is") || !strings.Contains(err.Error(), "more than the 262144 a cell may hold") {
		t.Errorf("%v", err)
	}
}

// TestHostileBombs: sources that would keep the compiler busy without end
// are stopped by the caps, each with a message naming the cap. The caps
// are set low so that each test takes seconds.
func TestHostileBombs(t *testing.T) {
	tk := needToolkit(t)
	var deep, wide, loud strings.Builder
	deep.WriteString("#define A0 x x x x\n")
	wide.WriteString("#define A0 x x x x\n")
	for i := 1; i < 30; i++ {
		fmt.Fprintf(&deep, "#define A%d A%d A%d A%d A%d\n", i, i-1, i-1, i-1, i-1)
		if i <= 10 {
			fmt.Fprintf(&wide, "#define A%d A%d A%d A%d A%d\n", i, i-1, i-1, i-1, i-1)
		}
	}
	deep.WriteString("int v[] = { A29 };\n")
	for i := 0; i < 200; i++ {
		wide.WriteString("A10\n")
	}
	for i := 0; i < 5000; i++ {
		loud.WriteString("#warning this line is printed with its source\n")
	}
	const templateBomb = `template <int N, int M> struct B { static constexpr long v = B<N - 1, 2 * M>::v + B<N - 1, 2 * M + 1>::v; };
template <int M> struct B<0, M> { static constexpr long v = M; };
__global__ void k(long* out) { *out = B<40, 0>::v; }
`
	for _, c := range []struct {
		name, src string
		lim       Limits
		cause     error
		want      string
	}{
		{"template bomb", templateBomb, Limits{Memory: 512 << 20}, ErrMemoryLimit, "ran out of its 512 MiB of memory"},
		{"macro bomb, deep", deep.String(), Limits{Time: 2 * time.Second}, ErrTimeLimit, "stopped after 2s, the time limit"},
		{"macro bomb, wide", wide.String(), Limits{FileSize: 4 << 20}, ErrFileLimit, "wrote a file larger than 4 MiB"},
		{"warnings", loud.String(), Limits{Output: 64 << 10}, ErrOutputLimit, "printed more than 64 KiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			comp := &Compiler{Toolkit: tk, Limits: c.lim}
			_, err := comp.Compile(context.Background(), Job{Source: c.src, Archs: []string{"sm_80"}, File: "book/bomb.md", Line: 5})
			var e *Error
			if !errors.As(err, &e) || e.Kind != Stopped || !errors.Is(err, c.cause) {
				t.Fatalf("%v; want it stopped by %v", err, c.cause)
			}
			if first := e.Messages[0].String(); !strings.HasPrefix(first, "book/bomb.md:5: error: sm_80: stopped") || !strings.Contains(first, c.want) {
				t.Errorf("first message %q; want ...%s", first, c.want)
			}
			noHostPath(t, tk, err.Error())
		})
	}
}
