package cuda

import (
	"fmt"
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
