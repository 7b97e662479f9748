package cuda

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// SplitSASS splits the output of cuobjdump -sass for one cubin into its
// functions: name → the function's lines, verbatim, from its "Function :"
// line to the dotted line that ends it (a newline after each). The header
// of the listing ("code for sm_80") is dropped. A function that starts but
// does not end, or a name that comes twice, is an error: cuobjdump prints
// neither.
func SplitSASS(listing string) (map[string]string, error) {
	out := map[string]string{}
	var name string
	var b strings.Builder
	for i, line := range strings.Split(listing, "\n") {
		trimmed := strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(trimmed, "Function : "); ok {
			if name != "" {
				return nil, fmt.Errorf("cuobjdump line %d: function %s starts before %s ends", i+1, rest, name)
			}
			name = strings.TrimSpace(rest)
			if name == "" {
				return nil, fmt.Errorf("cuobjdump line %d: a function without a name", i+1)
			}
			if _, dup := out[name]; dup {
				return nil, fmt.Errorf("cuobjdump line %d: function %s is listed twice", i+1, name)
			}
			b.Reset()
		}
		if name == "" {
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
		if trimmed != "" && strings.Trim(trimmed, ".") == "" {
			out[name] = b.String()
			name = ""
		}
	}
	if name != "" {
		return nil, fmt.Errorf("cuobjdump's listing of %s does not end", name)
	}
	return out, nil
}

// Selection chooses the instructions of a kernel's SASS that a page
// quotes. The zero Selection keeps every instruction.
type Selection struct {
	// Match, when not nil, keeps the instructions whose text matches it:
	// the instruction as cuobjdump prints it, without its address and
	// encoding ("@P0 LDGSTS.E.BYPASS.LTC128B.128 [R5], [R2.64] ;").
	Match *regexp.Regexp
	// From, when not nil, keeps nothing before the first instruction
	// that matches it; To, when not nil, nothing after the first
	// instruction from there on that matches it. Both are kept: From
	// "^HMMA" with To "^BRA" quotes a loop from its first HMMA to its
	// backward branch.
	From, To *regexp.Regexp
	// Context also keeps this many instructions before and after each
	// one Match keeps (within From and To).
	Context int
	// Raw keeps cuobjdump's lines as they are: address, instruction,
	// encoding and control word. Without it each instruction is its
	// address and text, "/*0080*/ FFMA R9, R2, R3, R9 ;", with guard
	// predicates in a column of their own so that opcodes line up.
	Raw bool
}

// instRE is an instruction line of a cuobjdump listing: its address,
// its text and its first encoding word.
var instRE = regexp.MustCompile(`^\s*/\*([0-9a-f]{4,8})\*/\s+(.*?)\s*/\* 0x[0-9a-f]{16} \*/\s*$`)

// guardRE is an instruction's guard predicate.
var guardRE = regexp.MustCompile(`^@!?U?P[0-7T]\s+`)

// An ErrSelection is a selection that keeps nothing, or whose From or To
// matches no instruction: what the page asks for is not in the SASS.
var ErrSelection = errors.New("the selection keeps no instruction")

// Excerpt returns the instructions of sass (one function's listing, as in
// Function.SASS) that sel keeps, one a line. Where instructions between two
// kept ones are left out, a line "..." stands for them. A selection that
// keeps nothing is an error wrapping ErrSelection that says why.
func Excerpt(sass string, sel Selection) (string, error) {
	type inst struct {
		addr, text string
		lines      []string // the instruction's lines as cuobjdump prints them
	}
	var insts []inst
	for _, line := range strings.Split(sass, "\n") {
		if m := instRE.FindStringSubmatch(line); m != nil {
			insts = append(insts, inst{addr: m[1], text: m[2], lines: []string{line}})
			continue
		}
		if n := len(insts); n > 0 && strings.HasPrefix(strings.TrimSpace(line), "/* 0x") {
			insts[n-1].lines = append(insts[n-1].lines, line)
		}
	}
	if len(insts) == 0 {
		return "", fmt.Errorf("%w: the listing has no instructions", ErrSelection)
	}
	lo, hi := 0, len(insts)
	if sel.From != nil {
		lo = slices.IndexFunc(insts, func(in inst) bool { return sel.From.MatchString(in.text) })
		if lo < 0 {
			return "", fmt.Errorf("%w: no instruction matches from=%q", ErrSelection, sel.From)
		}
	}
	if sel.To != nil {
		n := slices.IndexFunc(insts[lo:], func(in inst) bool { return sel.To.MatchString(in.text) })
		if n < 0 {
			return "", fmt.Errorf("%w: no instruction from there on matches to=%q", ErrSelection, sel.To)
		}
		hi = lo + n + 1
	}
	keep := make([]bool, len(insts))
	any := false
	for i := lo; i < hi; i++ {
		if sel.Match != nil && !sel.Match.MatchString(insts[i].text) {
			continue
		}
		any = true
		for j := max(lo, i-sel.Context); j < min(hi, i+sel.Context+1); j++ {
			keep[j] = true
		}
	}
	if !any {
		return "", fmt.Errorf("%w: no instruction matches match=%q", ErrSelection, sel.Match)
	}
	guard := 0
	for i, in := range insts {
		if keep[i] {
			guard = max(guard, len(strings.TrimSpace(guardRE.FindString(in.text))))
		}
	}
	var b strings.Builder
	last := -1
	for i, in := range insts {
		if !keep[i] {
			continue
		}
		if last >= 0 && i > last+1 {
			b.WriteString("...\n")
		}
		last = i
		if sel.Raw {
			for _, l := range in.lines {
				b.WriteString(strings.TrimRight(l, " "))
				b.WriteByte('\n')
			}
			continue
		}
		g := guardRE.FindString(in.text)
		text := strings.TrimPrefix(in.text, g)
		g = strings.TrimSpace(g)
		b.WriteString("/*" + in.addr + "*/ ")
		if guard > 0 {
			b.WriteString(strings.Repeat(" ", guard-len(g)) + g + " ")
		}
		b.WriteString(text)
		b.WriteByte('\n')
	}
	return b.String(), nil
}
