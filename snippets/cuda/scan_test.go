package cuda

import (
	"strings"
	"testing"
)

// fakeHeaders stands for a toolkit's include directory.
func fakeHeaders(name string) bool {
	switch name {
	case "cuda_fp16.h", "cuda/barrier", "mma.h", "cooperative_groups.h":
		return true
	}
	return false
}

// TestCheckSource: what the source check accepts, and what it refuses
// with the line, column and words of its message. Each refused case is a
// way to make the preprocessor read a host file, or to hide a directive
// from a check that does not read the source as the preprocessor does.
func TestCheckSource(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line, col int    // of the first problem; 0: accepted
		want      string // in its message
	}{
		{"kernel", "#include <cuda_fp16.h>\n#include <cuda/barrier>\n__global__ void k(float* p) { p[0] = 1.0f; }\n", 0, 0, ""},
		{"macros and pragmas", "#define N 4\n#if N > 2\n#pragma unroll 4\n#endif\n__global__ void k() { _Pragma(\"unroll\") for (;;) {} }\n#pragma nv_diag_suppress 177\n#pragma GCC diagnostic push\n", 0, 0, ""},
		{"multi-line macro", "#define SQ(x) \\\n  ((x) * (x))\nint a = SQ(2);\n", 0, 0, ""},
		{"strings hide nothing", "const char* s = \"#include </etc/passwd>\";\nchar c = '#'; int n = 1'000'000;\n", 0, 0, ""},
		{"comment hides nothing", "// #include \"/etc/passwd\"\n/* #include \"/etc/passwd\" */\n", 0, 0, ""},
		{"CRLF", "#include <mma.h>\r\nint x;\r\n", 0, 0, ""},

		{"quoted include", "int a;\n#include \"/etc/passwd\"\n", 2, 1, "as <name>"},
		{"quoted relative", "#include \"secret.h\"\n", 1, 1, "as <name>"},
		{"absolute", "#include </etc/passwd>\n", 1, 1, "an absolute path"},
		{"dev zero", "  #  include </dev/zero>\n", 1, 3, "an absolute path"},
		{"proc", "#include </proc/self/environ>\n", 1, 1, "an absolute path"},
		{"dot dot", "#include <../../../../etc/passwd>\n", 1, 1, "a header name is"},
		{"dot dot inside", "#include <cuda/../../../etc/passwd>\n", 1, 1, "a header name is"},
		{"host header", "#include <stdio.h>\n", 1, 1, "not a header of the CUDA toolkit"},
		{"computed", "#define F \"/etc/passwd\"\n#include F\n", 2, 1, "as <name>"},
		{"computed angle", "#define F </etc/passwd>\n#include F\n", 2, 1, "as <name>"},
		{"comment before", "/**/#include \"/etc/passwd\"\n", 1, 5, "as <name>"},
		{"comment inside", "#include /* x */ <mma.h>\n", 1, 1, "as <name>"},
		{"comment after", "#include <mma.h> // fine?\n", 1, 1, "as <name>"},
		{"header name with comment", "#include <a/*>\n#include \"/etc/passwd\"\n*/\n", 1, 1, "a header name is"},
		{"comment spanning to the name", "#/*\n*/include \"/etc/passwd\"\n", 1, 1, "as <name>"},
		{"splice in directive", "#\\\ninclude <mma.h>\n", 1, 1, "split by backslash-newline"},
		{"splice in name", "#inc\\\nlude <mma.h>\n", 1, 1, "split by backslash-newline"},
		{"splice with blanks", "#inc\\  \nlude <mma.h>\n", 1, 1, "split by backslash-newline"},
		{"splice in include line", "#include <mma\\\n.h>\n", 1, 1, "split by backslash-newline"},
		{"include_next", "#include_next <mma.h>\n", 1, 1, "#include_next is not accepted: it reads a file"},
		{"import", "#import <mma.h>\n", 1, 1, "#import is not accepted"},
		{"embed", "unsigned char d[] = {\n#embed \"/etc/passwd\"\n};\n", 2, 1, "#embed is not accepted"},
		{"line", "#line 10 \"/etc/passwd\"\n", 1, 1, "#line is not accepted"},
		{"line marker", "# 1 \"/etc/passwd\"\n", 1, 3, "a line marker"},
		{"ident", "#ident \"x\"\n", 1, 1, "#ident is not accepted"},
		{"digraph", "%:include <mma.h>\n", 1, 1, "digraph %:"},
		{"digraph paste", "#define C(a, b) a %:%: b\n", 1, 19, "digraph %:"},
		{"trigraph", "??=include \"/etc/passwd\"\n", 1, 1, "trigraph ??="},
		{"has_include", "#if __has_include(</etc/passwd>)\n#endif\n", 1, 5, "__has_include looks for files"},
		{"has_include_next", "#if __has_include_next(<x>)\n#endif\n", 1, 5, "__has_include_next"},
		{"pragma dependency", "#pragma GCC dependency \"/etc/passwd\"\n", 1, 1, "#pragma GCC dependency is not accepted"},
		{"pragma spaced", "#  pragma   GCC   dependency \"/etc/passwd\"\n", 1, 1, "#pragma GCC dependency"},
		{"pragma split", "#pragma GCC \\\ndependency \"/etc/passwd\"\n", 1, 1, "split by backslash-newline"},
		{"_Pragma dependency", "_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")\n", 1, 9, "#pragma GCC dependency"},
		{"_Pragma computed", "#define P(x) _Pragma(#x)\nP(GCC dependency \"/etc/passwd\")\n", 1, 14, "_Pragma must be given one string literal"},
		{"pasted _Pragma", "#define C(a, b) a##b\nC(_Pra, gma)(\"GCC dependency \\\"/etc/passwd\\\"\")\n", 2, 3, "a paste (##) could make _Pragma"},
		{"pasted has_include", "#define C(a, b) a##b\n#if C(__has, _include)(</etc/passwd>)\n#endif\n", 2, 7, "could make __has_"},
		{"date", "const char* d = __DATE__;\n", 1, 17, "__DATE__"},
		{"timestamp", "const char* d = __TIMESTAMP__;\n", 1, 17, "__TIMESTAMP__"},
		{"raw string", "const char* s = R\"x(\n#include </etc/passwd>\n)x\";\n", 1, 17, "raw string"},
		{"ucn", "int \\u0061 = 1;\n", 1, 5, "a backslash outside a string"},
		{"nul", "int a;\x00\n", 1, 7, "NUL"},
		{"not utf-8", "int a; // \xff\n", 1, 11, "not UTF-8"},
		{"bare CR", "int a;\r#include \"/etc/passwd\"\n", 1, 7, "carriage return"},
		{"unterminated comment", "int a; /* \n#include </etc/passwd>\n", 1, 8, "does not end"},
		{"if 0 is no hiding place", "#if 0\n#include \"/etc/passwd\"\n#endif\n", 2, 1, "as <name>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			probs, _ := checkSource([]byte(c.src), "", fakeHeaders)
			if c.line == 0 {
				if len(probs) > 0 {
					line, col := position([]byte(c.src), probs[0].off)
					t.Fatalf("refused at %d:%d: %s", line, col, probs[0].msg)
				}
				return
			}
			if len(probs) == 0 {
				t.Fatalf("accepted; want %d:%d %q", c.line, c.col, c.want)
			}
			line, col := position([]byte(c.src), probs[0].off)
			if line != c.line || col != c.col || !strings.Contains(probs[0].msg, c.want) {
				t.Errorf("%d:%d: %s; want %d:%d ...%s", line, col, probs[0].msg, c.line, c.col, c.want)
			}
			for _, p := range probs {
				if strings.Contains(p.msg, "/etc/passwd") || strings.Contains(p.msg, "/proc") || strings.Contains(p.msg, "/dev/zero") {
					t.Errorf("the message repeats a host path: %s", p.msg)
				}
			}
		})
	}
}

// TestCheckDefines: the -D flags' macros are checked as source too.
func TestCheckDefines(t *testing.T) {
	_, args, err := flagsFor(t, "-DP=_Pragma")
	if err != nil {
		t.Fatal(err)
	}
	if _, inFlags := checkSource([]byte("P(\"GCC dependency \\\"/etc/passwd\\\"\")\n"), args, fakeHeaders); len(inFlags) == 0 {
		t.Error("-DP=_Pragma accepted")
	}
	_, args, _ = flagsFor(t, "-DN=4")
	if in, inFlags := checkSource([]byte("int a[N];\n"), args, fakeHeaders); len(in)+len(inFlags) > 0 {
		t.Errorf("-DN=4 refused: %v %v", in, inFlags)
	}
}

func flagsFor(t *testing.T, flags ...string) ([]string, string, error) {
	t.Helper()
	return nvccFlags(flags)
}

// TestFlags: the allow-list, and nvcc's arguments for each flag.
func TestFlags(t *testing.T) {
	args, defines, err := nvccFlags([]string{"-maxrregcount=32", "--use_fast_math", "-O1", "-lineinfo", "-G", "-DTILE=32", "-DDEBUG", "-ftz=true", "--std=c++20"})
	if err != nil {
		t.Fatal(err)
	}
	want := "-maxrregcount=32 --use_fast_math -Xptxas -O1 -lineinfo -G -DTILE=32 -DDEBUG -ftz=true --std=c++20"
	if strings.Join(args, " ") != want || defines != "#define TILE 32\n#define DEBUG 1\n" {
		t.Errorf("args %q defines %q", strings.Join(args, " "), defines)
	}
	for _, bad := range []string{
		"-I/etc", "-include", "/etc/passwd", "-Xcompiler", "-Xptxas=-v", "-ccbin=/bin/sh", "-o", "--output-file=x",
		"-maxrregcount=0", "-maxrregcount=256", "-maxrregcount=1e3", "-O4", "-O", "--G", "--lineinfo",
		"-D", "-D_X", "-D__CUDA_ARCH__=1", "-DX=\"a\"", "-DX=a b", "-DX=(1)", "-std=c++11", "-ftz=1", "--use_fast_math=true",
		"-DX=" + strings.Repeat("1", 65),
	} {
		if _, _, err := nvccFlags([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestArchs(t *testing.T) {
	for _, a := range []string{"sm_50", "sm_80", "sm_90a"} {
		if err := CheckArch(a); err != nil {
			t.Error(err)
		}
	}
	for _, a := range []string{"sm_100", "compute_80", "sm_80 -I/etc", "sm_35", ""} {
		if CheckArch(a) == nil {
			t.Errorf("%q accepted", a)
		}
	}
}
