package cuda

import (
	"fmt"
	"regexp"
	"strings"
)

// Archs lists the architectures a [Job] may name, oldest first: every real
// architecture CUDA 12.4 compiles for. Blackwell (sm_100, sm_120) needs
// CUDA 12.8 and is modelled only.
var Archs = []string{"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"}

// CheckArch reports whether nvcc may be asked for arch: an error names
// the architectures it may.
func CheckArch(arch string) error {
	for _, a := range Archs {
		if a == arch {
			return nil
		}
	}
	return fmt.Errorf("architecture %q is not one CUDA 12.4 compiles for (%s)", arch, strings.Join(Archs, ", "))
}

// The flags a page may give nvcc, by name (one leading dash or two, as
// nvcc takes either, but one for its short names) and the values each
// takes.
var allowedFlags = []struct {
	name   string
	short  bool           // nvcc's short name: one dash only
	values *regexp.Regexp // nil: the flag takes no value
	doc    string
}{
	{"maxrregcount", false, regexp.MustCompile(`^([1-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])$`), "=N, 1 to 255: the most registers per thread"},
	{"use_fast_math", false, nil, ": fast, approximate math"},
	{"G", true, nil, ": device debug code (no optimisation)"},
	{"lineinfo", true, nil, ": line information"},
	{"ftz", false, regexp.MustCompile(`^(true|false)$`), "=true|false"},
	{"prec-div", false, regexp.MustCompile(`^(true|false)$`), "=true|false"},
	{"prec-sqrt", false, regexp.MustCompile(`^(true|false)$`), "=true|false"},
	{"fmad", false, regexp.MustCompile(`^(true|false)$`), "=true|false"},
	{"std", false, regexp.MustCompile(`^c\+\+(17|20)$`), "=c++17|c++20"},
	{"extra-device-vectorization", false, nil, ""},
	{"expt-relaxed-constexpr", false, nil, ""},
	{"extended-lambda", false, nil, ""},
	{"restrict", false, nil, ""},
}

var (
	optLevel   = regexp.MustCompile(`^-O[0-3]$`)
	defineFlag = regexp.MustCompile(`^-D([A-Za-z][A-Za-z0-9_]{0,63})(=([A-Za-z0-9_.+-]{0,64}))?$`)
)

// FlagHelp says which flags a page may give, for messages and docs.
func FlagHelp() string {
	var b strings.Builder
	b.WriteString("-O0 to -O3 (ptxas's optimisation level), -DNAME or -DNAME=VALUE (NAME a letter then letters, digits or _; VALUE letters, digits, _ . + -)")
	for _, f := range allowedFlags {
		dash := "--"
		if f.short {
			dash = "-"
		}
		fmt.Fprintf(&b, ", %s%s", dash, f.name)
		if f.values != nil {
			b.WriteString(strings.SplitN(f.doc, ":", 2)[0])
		}
	}
	return b.String()
}

// CheckFlags reports whether a page may give nvcc flags: an error names
// the first flag that is not allowed and the ones that are.
func CheckFlags(flags []string) error {
	_, _, err := nvccFlags(flags)
	return err
}

// nvccFlags checks the flags a page gives against the allow-list and
// returns nvcc's arguments for them, with the macros they define (as
// "#define NAME VALUE" lines, which the source check reads as if they
// came first in the source).
func nvccFlags(flags []string) (args []string, defines string, err error) {
	for _, f := range flags {
		switch {
		case optLevel.MatchString(f):
			// nvcc's own -O is the host compiler's; a device-only
			// compile takes the level of ptxas.
			args = append(args, "-Xptxas", f)
			continue
		case defineFlag.MatchString(f):
			m := defineFlag.FindStringSubmatch(f)
			value := "1"
			if m[2] != "" {
				value = m[3]
			}
			defines += "#define " + m[1] + " " + value + "\n"
			args = append(args, f)
			continue
		}
		long := strings.HasPrefix(f, "--")
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(f, "-"), "-"), "=")
		ok := false
		for _, a := range allowedFlags {
			if a.name == name && strings.HasPrefix(f, "-") && !(long && a.short) {
				ok = (a.values == nil && !hasValue) || (a.values != nil && hasValue && a.values.MatchString(value))
			}
		}
		if !ok {
			return nil, "", fmt.Errorf("flag %q is not allowed in a CUDA cell; the allowed flags are %s", clip(f), FlagHelp())
		}
		args = append(args, f)
	}
	return args, defines, nil
}
