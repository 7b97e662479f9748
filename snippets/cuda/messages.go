package cuda

import (
	"path"
	"regexp"
	"sort"
	"strings"
)

// srcMessage is a message of a compile, positioned in the CUDA source
// (line 0: none): what the cache keeps, since the page may move the source.
type srcMessage struct {
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Text     string `json:"text"`
}

// cellName is the name the source has in the compiler's work directory,
// so in every message about it.
const cellName = "cell.cu"

var (
	// nvcc's front end (EDG): cell.cu(12): error: identifier "x" is undefined
	edgRe = regexp.MustCompile(`^(.+?)\(([0-9]+)\): (error|warning|catastrophic error|remark|note)(?: #[0-9]+(?:-D)?)?: (.*)$`)
	// the host compiler's preprocessor: cell.cu:3:10: fatal error: ...
	gccRe        = regexp.MustCompile(`^(.+?):([0-9]+):([0-9]+): (fatal error|error|warning|note): (.*)$`)
	includedRe   = regexp.MustCompile(`^(?:In file included from|\s+from) (.+?):([0-9]+)[:,]$`)
	gccExcerptRe = regexp.MustCompile(`^\s*[0-9]*\s*\|`)
	caretRe      = regexp.MustCompile(`^\s*\^\s*$`)
	ptxasRe      = regexp.MustCompile(`^ptxas (.+?), line ([0-9]+); (error|warning)\s*: (.*)$`)
	toolRe       = regexp.MustCompile(`^(ptxas|nvcc|cuobjdump|nvdisasm|cicc) (fatal|error|warning)\s*: (.*)$`)
	skipRe       = regexp.MustCompile(`^(ptxas info\s*:|\s+[0-9]+ bytes stack frame|Remark: The warnings can be suppressed|[0-9]+ errors? detected in the compilation|compilation terminated\.|Compilation terminated\.)`)
	tmpxftRe     = regexp.MustCompile(`tmpxft_[0-9a-f]+_[0-9a-f]+-[0-9]+_`)
	hostPathRe   = regexp.MustCompile(`(^|[^A-Za-z0-9._+~>/-])(/[A-Za-z0-9._+~-]+(/[A-Za-z0-9._+~-]+)+/?)`)
)

// neutralizer replaces host paths in compiler output with neutral names.
type neutralizer struct {
	pairs [][2]string // path → name, longest path first
}

// newNeutralizer replaces each path of names (and its cleaned form) by its
// name; any other absolute path left becomes <host>/ and its last element.
func newNeutralizer(names map[string]string) *neutralizer {
	n := &neutralizer{}
	for p, name := range names {
		if p == "" || p == "/" {
			continue
		}
		for _, q := range []string{p, path.Clean(p)} {
			n.pairs = append(n.pairs, [2]string{strings.TrimSuffix(q, "/"), name})
		}
	}
	sort.Slice(n.pairs, func(i, j int) bool {
		if len(n.pairs[i][0]) != len(n.pairs[j][0]) {
			return len(n.pairs[i][0]) > len(n.pairs[j][0])
		}
		return n.pairs[i][0] < n.pairs[j][0]
	})
	return n
}

func (n *neutralizer) text(s string) string {
	for _, p := range n.pairs {
		if p[1] == "" {
			s = strings.ReplaceAll(s, p[0]+"/", "")
			s = strings.ReplaceAll(s, p[0], ".")
			continue
		}
		s = strings.ReplaceAll(s, p[0], p[1])
	}
	s = tmpxftRe.ReplaceAllString(s, "")
	// Any other absolute path (not one just named, <cuda>/include/x.h).
	var b strings.Builder
	last := 0
	for _, m := range hostPathRe.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(s[last:m[4]])
		b.WriteString("<host>/" + path.Base(s[m[4]:m[5]]))
		last = m[5]
	}
	b.WriteString(s[last:])
	return b.String()
}

// parseMessages reads the errors and warnings in a compile's output. src
// is the compiled source, to find the column under an nvcc caret.
// Lines it cannot place become messages of their own, unpositioned, with
// severity def.
func parseMessages(out string, src []byte, n *neutralizer, def string) []srcMessage {
	srcLines := strings.Split(string(src), "\n")
	var msgs []srcMessage
	var included int // the source line an include chain started at
	lines := strings.Split(out, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], "\r")
		switch {
		case strings.TrimSpace(line) == "" || skipRe.MatchString(line) || gccExcerptRe.MatchString(line):
			continue
		case includedRe.MatchString(line):
			m := includedRe.FindStringSubmatch(line)
			if m[1] == cellName {
				included = atoi(m[2])
			}
			continue
		case edgRe.MatchString(line):
			m := edgRe.FindStringSubmatch(line)
			msg := srcMessage{Severity: severity(m[3]), Text: m[4]}
			if m[1] == cellName {
				msg.Line = atoi(m[2])
			} else {
				msg.Text = n.text(m[1]) + "(" + m[2] + "): " + msg.Text
			}
			// What follows: the line quoted, a caret under the place, the
			// instantiation context; then a blank line.
			for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
				next := strings.TrimRight(lines[i+1], "\r")
				if edgRe.MatchString(next) || gccRe.MatchString(next) || toolRe.MatchString(next) || ptxasRe.MatchString(next) {
					break
				}
				i++
				switch {
				case caretRe.MatchString(next):
					msg.Col = caretCol(lines[i-1], next, srcLines, msg.Line)
				case i+1 < len(lines) && caretRe.MatchString(lines[i+1]):
					// the quoted line: only the caret's column is kept
				default:
					msg.Text += "\n" + strings.TrimSpace(next)
				}
			}
			msg.Text = n.text(msg.Text)
			msgs = append(msgs, msg)
		case gccRe.MatchString(line):
			m := gccRe.FindStringSubmatch(line)
			msg := srcMessage{Severity: severity(m[4]), Text: m[5]}
			if m[1] == cellName {
				msg.Line, msg.Col = atoi(m[2]), atoi(m[3])
			} else {
				msg.Line = included
				msg.Text = m[1] + ":" + m[2] + ":" + m[3] + ": " + msg.Text
			}
			msg.Text = n.text(msg.Text)
			msgs = append(msgs, msg)
			included = 0
		case ptxasRe.MatchString(line):
			m := ptxasRe.FindStringSubmatch(line)
			msgs = append(msgs, srcMessage{Severity: m[3], Text: n.text("ptxas: PTX line " + m[2] + ": " + m[4])})
		case toolRe.MatchString(line):
			m := toolRe.FindStringSubmatch(line)
			msgs = append(msgs, srcMessage{Severity: severity(m[2]), Text: n.text(m[1] + ": " + m[3])})
		default:
			msgs = append(msgs, srcMessage{Severity: def, Text: n.text(strings.TrimSpace(line))})
		}
	}
	return msgs
}

// severity maps the compilers' words to error, warning and note.
func severity(word string) string {
	switch word {
	case "warning":
		return "warning"
	case "note", "remark":
		return "note"
	}
	return "error"
}

// caretCol returns the byte column nvcc's caret points at in line srcLine
// of the source: nvcc quotes the line (as its front end sees it, after
// macros) indented by two spaces, with tabs as one space each; when the
// quote is the source line itself, the caret's column is the source's.
// Otherwise (a macro expanded, characters beyond ASCII before the caret)
// it returns 0.
func caretCol(quoted, caret string, srcLines []string, srcLine int) int {
	if srcLine < 1 || srcLine > len(srcLines) || !strings.HasPrefix(quoted, "  ") {
		return 0
	}
	src := strings.TrimRight(srcLines[srcLine-1], "\r")
	col := strings.IndexByte(caret, '^') - 2
	if col < 0 || col >= len(src) || strings.ReplaceAll(src, "\t", " ") != strings.TrimRight(quoted[2:], "\r") {
		return 0
	}
	for i := 0; i < col; i++ {
		if src[i] >= 0x80 {
			return 0
		}
	}
	return col + 1
}
