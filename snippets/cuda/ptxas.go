package cuda

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/ianlancetaylor/demangle"
	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/ptxas"
)

// Function is one function of a compiled module, for one architecture.
type Function struct {
	// Name is the symbol as ptxas and cuobjdump print it: mangled, unless
	// the function is extern "C".
	Name string `json:"name"`
	// Demangled is the C++ name ("saxpy(int, float, float const*,
	// float*)"), or Name when it is not mangled.
	Demangled string `json:"demangled"`
	// Arch is the architecture it was compiled for, "sm_80" or "sm_90a".
	Arch string `json:"arch"`
	// Entry reports a kernel (a __global__ function); ptxas reports the
	// stack of the device functions it does not inline too.
	Entry bool `json:"entry"`
	// Resources are ptxas's figures. A device function has only its stack
	// and spills.
	Resources ptxas.Resources `json:"resources"`
	// SASS is the function's part of cuobjdump -sass, verbatim: from its
	// "Function :" line to the dotted line that ends it, each instruction
	// followed by its second 64-bit word (the control information). Empty
	// when parsed from a ptxas log.
	SASS string `json:"sass,omitempty"`
	// Line is the line of the ptxas output where the function starts.
	Line int `json:"line"`
}

// CC returns the compute capability of Arch: 9.0 for "sm_90a".
func (f Function) CC() (gpu.CC, error) { return ArchCC(f.Arch) }

// ArchCC returns the compute capability of an architecture name such as
// "sm_80", "sm_90a" or "sm_100f": the suffix of an architecture-specific
// target does not change it.
func ArchCC(arch string) (gpu.CC, error) {
	return gpu.ParseCC(strings.TrimRight(arch, "af"))
}

// Demangle returns the C++ name of a mangled symbol, or name itself when it
// is not one (an extern "C" kernel).
func Demangle(name string) string {
	if s, err := demangle.ToString(name); err == nil {
		return s
	}
	return name
}

// A ParseError is a line of ptxas output that Parse cannot read.
type ParseError struct {
	Line int // 1-based line of the input
	Err  error
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

func (e *ParseError) Unwrap() error { return e.Err }

// MaxLineLength bounds one line of ptxas output that Parse reads: ptxas's
// own lines are short; a longer one is not ptxas output.
const MaxLineLength = 64 << 10

var (
	infoLine     = regexp.MustCompile(`^ptxas info\s*: (.*)$`)
	compilingRe  = regexp.MustCompile(`^Compiling entry function '([^']+)' for '(sm_[0-9]+[af]?)'$`)
	propertiesRe = regexp.MustCompile(`^Function properties for (\S+)$`)
	frameRe      = regexp.MustCompile(`^\s+([0-9]+) bytes stack frame, ([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads$`)
	itemRe       = regexp.MustCompile(`^(?:used )?([0-9]+) (registers|barriers|bytes smem|bytes cumulative stack size|bytes lmem|bytes cmem\[([0-9]+)\]|textures|samplers|surfaces)$`)
	gmemRe       = regexp.MustCompile(`^[0-9]+ bytes gmem(, [0-9]+ bytes cmem\[[0-9]+\])*$`)
)

// Parse reads the -Xptxas -v output of an nvcc build (or of ptxas -v)
// from r and returns every function it reports, in order: kernels of any
// number of architectures and the device functions whose stack ptxas
// reports. Lines that are not ptxas information (nvcc's and the host
// compiler's messages, a build's other output) are skipped; a ptxas line
// it cannot read is a *ParseError with its line number. r is read to the
// end: the caller bounds it.
func Parse(r io.Reader) ([]Function, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLineLength)
	var (
		out      []Function
		lineNo   int
		cur      = -1 // the entry function the next Used line belongs to
		frameFor = -1 // the function the next line's stack frame belongs to
		arch     string
		pending  []int // device functions of the module before its arch is known
	)
	fail := func(format string, args ...any) error {
		return &ParseError{Line: lineNo, Err: fmt.Errorf(format, args...)}
	}
	for sc.Scan() {
		lineNo++
		line := strings.TrimRight(sc.Text(), "\r")
		if frameFor >= 0 {
			m := frameRe.FindStringSubmatch(line)
			if m == nil {
				return nil, fail("want ptxas's stack frame line (N bytes stack frame, N bytes spill stores, N bytes spill loads) after \"Function properties\", got %q", clip(line))
			}
			f := &out[frameFor].Resources
			if f.StackFrame, f.SpillStores, f.SpillLoads = atoi(m[1]), atoi(m[2]), atoi(m[3]); f.StackFrame < 0 || f.SpillStores < 0 || f.SpillLoads < 0 {
				return nil, fail("a size in %q is out of range", clip(line))
			}
			frameFor = -1
			continue
		}
		m := infoLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		info := m[1]
		switch {
		case gmemRe.MatchString(info):
			// A module (one architecture's compile) starts.
			cur, arch, pending = -1, "", nil
		case compilingRe.MatchString(info):
			m := compilingRe.FindStringSubmatch(info)
			if _, err := ArchCC(m[2]); err != nil {
				return nil, fail("%v", err)
			}
			if arch != "" && arch != m[2] {
				// ptxas -v of one module has one architecture; a new
				// one starts a new module even without a gmem line.
				pending = nil
			}
			arch = m[2]
			for _, i := range pending {
				out[i].Arch = arch
			}
			pending = nil
			out = append(out, Function{Name: m[1], Demangled: Demangle(m[1]), Arch: arch, Entry: true, Line: lineNo})
			cur = len(out) - 1
		case propertiesRe.MatchString(info):
			name := propertiesRe.FindStringSubmatch(info)[1]
			if cur >= 0 && out[cur].Name == name && out[cur].Line == lineNo-1 {
				frameFor = cur
				continue
			}
			out = append(out, Function{Name: name, Demangled: Demangle(name), Arch: arch, Line: lineNo})
			frameFor = len(out) - 1
			if arch == "" {
				pending = append(pending, frameFor)
			}
		case strings.HasPrefix(info, "Used "):
			if cur < 0 {
				return nil, fail("ptxas reports resources (%q) before naming the entry function they belong to", clip(info))
			}
			if err := parseUsed(&out[cur].Resources, strings.TrimPrefix(info, "Used ")); err != nil {
				return nil, fail("%v", err)
			}
			cur = -1
		}
		// Other information (register limits overridden, a module's
		// gmem, "Compile time") says nothing per function.
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{Line: lineNo + 1, Err: fmt.Errorf("a line longer than %d bytes is not ptxas output", MaxLineLength)}
		}
		return nil, err
	}
	if frameFor >= 0 {
		return nil, &ParseError{Line: lineNo, Err: errors.New("the output ends before the stack frame line of the last function")}
	}
	for _, f := range out {
		if f.Arch == "" {
			return nil, &ParseError{Line: f.Line, Err: fmt.Errorf("no architecture for function %s: ptxas named none in its module", f.Name)}
		}
	}
	return out, nil
}

// parseUsed reads the items of a "Used N registers, ..." line into r.
func parseUsed(r *ptxas.Resources, items string) error {
	for _, item := range strings.Split(items, ", ") {
		m := itemRe.FindStringSubmatch(strings.TrimSpace(item))
		if m == nil {
			return fmt.Errorf("unknown item %q in ptxas's resource line", clip(item))
		}
		n := atoi(m[1])
		if n < 0 {
			return fmt.Errorf("%q is out of range", clip(item))
		}
		switch {
		case m[2] == "registers":
			r.Registers = n
		case m[2] == "barriers":
			r.Barriers = n
		case m[2] == "bytes smem":
			r.SharedMem = n
		case m[2] == "bytes cumulative stack size":
			r.CumulativeStack = n
		case m[2] == "bytes lmem":
			r.LocalMem = n
		case m[3] != "":
			bank := atoi(m[3])
			if bank < 0 {
				return fmt.Errorf("%q is out of range", clip(item))
			}
			r.ConstMem = append(r.ConstMem, ptxas.ConstBank{Bank: bank, Bytes: n})
		case m[2] == "textures":
			r.Textures = n
		case m[2] == "samplers":
			r.Samplers = n
		case m[2] == "surfaces":
			r.Surfaces = n
		}
	}
	return nil
}

// atoi returns the decimal number s, or -1 when it does not fit in 31 bits
// (the occupancy calculator's inputs are 32-bit, as CUDA's are).
func atoi(s string) int {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return -1
	}
	return int(n)
}

// clip shortens s for a message.
func clip(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
