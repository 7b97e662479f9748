package cuda

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/engine/sass"
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
	// Control follows each instruction (not Raw) with its control
	// information as engine/sass decodes it, in CuAssembler's notation:
	// "B--2---:R-:W-:-:S04" (the counters it waits on, the ones it sets
	// when its sources are read and its result written, yield, stall).
	Control bool
}

// An ErrSelection is a selection that keeps nothing, or whose From or To
// matches no instruction: what the page asks for is not in the SASS.
var ErrSelection = errors.New("the selection keeps no instruction")

// Excerpt returns the instructions of listing (one function's part of
// cuobjdump -sass for sm_70 or later, as in Function.SASS; engine/sass
// reads it) that sel keeps, one a line. Where instructions between two kept
// ones are left out, a line "..." stands for them. A selection that keeps
// nothing is an error wrapping ErrSelection that says why.
func Excerpt(listing string, sel Selection) (string, error) {
	l, err := sass.Parse("listing", []byte(listing))
	if err != nil {
		return "", fmt.Errorf("reading the SASS: %w", err)
	}
	if len(l.Functions) != 1 {
		return "", fmt.Errorf("the SASS holds %d functions, not one", len(l.Functions))
	}
	lines := strings.Split(listing, "\n")
	type inst struct {
		*sass.Inst
		text string // as cuobjdump prints it, " ;" included
	}
	var insts []inst
	for i := range l.Functions[0].Insts {
		in := &l.Functions[0].Insts[i]
		text := lines[in.Line-1][in.Col-1:]
		if j := strings.Index(text, "/*"); j >= 0 {
			text = text[:j]
		}
		insts = append(insts, inst{in, strings.TrimSpace(text)})
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
	kept := false
	for i := lo; i < hi; i++ {
		if sel.Match != nil && !sel.Match.MatchString(insts[i].text) {
			continue
		}
		kept = true
		for j := max(lo, i-sel.Context); j < min(hi, i+sel.Context+1); j++ {
			keep[j] = true
		}
	}
	if !kept {
		return "", fmt.Errorf("%w: no instruction matches match=%q", ErrSelection, sel.Match)
	}
	guard, width := 0, 0
	for i, in := range insts {
		if keep[i] {
			if in.Pred != "" {
				guard = max(guard, len(in.Pred)+1)
			}
			width = max(width, len(in.text)-len(guardOf(in.text)))
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
			b.WriteString(strings.TrimRight(lines[in.Line-1], " "))
			b.WriteByte('\n')
			if in.Line < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[in.Line]), "/* 0x") {
				b.WriteString(strings.TrimRight(lines[in.Line], " "))
				b.WriteByte('\n')
			}
			continue
		}
		g := guardOf(in.text)
		text := strings.TrimSpace(strings.TrimPrefix(in.text, g))
		fmt.Fprintf(&b, "/*%04x*/ ", in.Addr)
		if guard > 0 {
			b.WriteString(strings.Repeat(" ", guard-len(g)) + g + " ")
		}
		b.WriteString(text)
		if sel.Control && in.HasEncoding {
			b.WriteString(strings.Repeat(" ", width-len(text)) + "  " + in.Ctrl.String())
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// guardOf returns an instruction's guard predicate as printed ("@!P0"),
// "" for none.
func guardOf(text string) string {
	if g, _, ok := strings.Cut(text, " "); ok && strings.HasPrefix(g, "@") {
		return g
	}
	return ""
}
