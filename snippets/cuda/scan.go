package cuda

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The source check: what a page's CUDA may contain before a compiler sees
// it. The host compiler's preprocessor (nvcc runs g++ -E) reads every file
// an #include names, so a page could otherwise quote /etc/passwd or
// /proc/self/environ into an error message. The check reads the source as
// the preprocessor does, after line splicing and with comments removed, and
// refuses:
//
//   - #include of anything but <name> where name is a header of the
//     toolkit's include directory (no quoted, absolute or relative paths,
//     no "..", no computed #include MACRO, no comment or splice inside the
//     line);
//   - every directive but #define, #undef, the conditionals, #include,
//     #pragma, #error and #warning: so #include_next, #import, #embed,
//     #line and GNU line markers (# 1 "file"), #ident, #assert;
//   - a directive split by backslash-newline between its # and its name;
//   - #pragma and _Pragma("...") other than the pragmas CUDA code uses
//     (unroll, nv_diag_suppress, ...: so no #pragma GCC dependency), and
//     _Pragma of anything but one string literal;
//   - __has_include, __has_include_next and __has_embed; __DATE__, __TIME__
//     and __TIMESTAMP__ (a compile must give the same bytes every time);
//   - the digraph %: (a # in disguise), trigraphs, raw string literals,
//     a backslash outside a literal (a universal character name spelling
//     an identifier), NUL bytes, bytes that are not UTF-8, a carriage
//     return not followed by a newline;
//   - any identifier that begins one of the refused identifiers (_Pra,
//     __has, _): a paste (##), the page's or a toolkit macro's, could
//     build the refused one from it where the check cannot see it.
//
// The toolkit's own headers are trusted, and what they let a page do
// through their macros is audited by TestToolkitMacros: no toolkit macro
// pastes a page's token onto the start of a refused identifier, and every
// _Pragma in them is a literal or starts with a fixed pragma word.

// pragmas are the pragmas a page may use: the first word, or the first two
// for GCC's.
var pragmas = map[string]bool{
	"unroll": true, "nounroll": true, "once": true, "pack": true,
	"push_macro": true, "pop_macro": true,
	"nv_diag_suppress": true, "nv_diag_warning": true, "nv_diag_error": true,
	"nv_diag_default": true, "nv_diag_once": true, "nv_diagnostic": true,
	"diag_suppress": true, "diag_warning": true, "diag_error": true, "diag_default": true,
	"nv_exec_check_disable": true, "hd_warning_disable": true, "nv_abi": true,
	"GCC diagnostic": true, "GCC unroll": true, "GCC ivdep": true,
}

// directives are the preprocessing directives a page may use, but for
// #include and #pragma, which are checked further.
var directives = map[string]bool{
	"define": true, "undef": true, "if": true, "ifdef": true, "ifndef": true,
	"elif": true, "elifdef": true, "elifndef": true, "else": true, "endif": true,
	"error": true, "warning": true, "include": true, "pragma": true,
}

// refusedIdents are identifiers a page may not use at all.
var refusedIdents = map[string]string{
	"_Pragma":            "", // checked where it appears
	"__has_include":      "__has_include looks for files on the host",
	"__has_include_next": "__has_include_next looks for files on the host",
	"__has_embed":        "__has_embed looks for files on the host",
	"__DATE__":           "__DATE__ would change the compiled code every day",
	"__TIME__":           "__TIME__ would change the compiled code every second",
	"__TIMESTAMP__":      "__TIMESTAMP__ names the time of a file on the host",
}

// refusedWords are the keys of refusedIdents, sorted.
var refusedWords = []string{"_Pragma", "__DATE__", "__TIMESTAMP__", "__TIME__", "__has_embed", "__has_include", "__has_include_next"}

// headerName is the grammar of a header a page may name: path components
// of letters, digits and _ . + -, none starting with a dot.
var headerName = regexp.MustCompile(`^[A-Za-z0-9_+-][A-Za-z0-9_.+-]*(/[A-Za-z0-9_+-][A-Za-z0-9_.+-]*)*$`)

var includeLine = regexp.MustCompile(`^[ \t]*<([^<>]*)>[ \t]*$`)

// A problem is a refusal at a byte offset of the checked text.
type problem struct {
	off int
	msg string
}

// checkSource checks src (the page's CUDA) and defines (the macros the
// page's -D flags define, as #define lines) and returns what it refuses:
// the problems in src, positioned, and those of the flags. header reports
// whether name is a header of the toolkit's include directory.
func checkSource(src []byte, defines string, header func(name string) bool) (inSource, inFlags []problem) {
	check := func(text []byte) []problem {
		s := &scanner{src: text, header: header}
		s.run()
		return s.problems
	}
	return check(src), check([]byte(defines))
}

// scanner reads one text as the preprocessor does.
type scanner struct {
	src      []byte
	header   func(string) bool
	text     []byte // src with lines spliced and CR LF as LF
	pos      []int  // offset in src of each byte of text
	splices  []int  // offsets in src of each backslash-newline removed
	problems []problem
}

func (s *scanner) refuse(off int, format string, args ...any) {
	if len(s.problems) < 20 {
		s.problems = append(s.problems, problem{off, fmt.Sprintf(format, args...)})
	}
}

// run checks the bytes, splices the lines, then lexes.
func (s *scanner) run() {
	src := s.src
	if i := bytes.IndexByte(src, 0); i >= 0 {
		s.refuse(i, "the source holds a NUL byte")
		return
	}
	if !utf8.Valid(src) {
		i := 0
		for i < len(src) {
			r, n := utf8.DecodeRune(src[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		s.refuse(i, "the source is not UTF-8")
		return
	}
	for i := 0; i+2 < len(src); i++ {
		if src[i] == '?' && src[i+1] == '?' && strings.IndexByte("=/'()!<>-", src[i+2]) >= 0 {
			s.refuse(i, "trigraph %s is not accepted", src[i:i+3])
			return
		}
	}
	for i := 0; i < len(src); i++ {
		if src[i] == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			s.refuse(i, "a carriage return not followed by a newline (the compiler would count lines differently)")
			return
		}
	}
	s.splice()
	s.lex()
}

// splice removes each backslash-newline (a backslash, blanks and a
// newline, as the preprocessor takes them) and turns CR LF into LF.
func (s *scanner) splice() {
	src := s.src
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n':
			// CR LF: the LF is the newline.
		case src[i] == '\\':
			// The preprocessor splices a backslash, blanks and a newline.
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f' || src[j] == '\v') {
				j++
			}
			if j < len(src) && src[j] == '\r' {
				j++
			}
			if j < len(src) && src[j] == '\n' {
				s.splices = append(s.splices, i)
				i = j
				continue
			}
			s.text, s.pos = append(s.text, '\\'), append(s.pos, i)
		default:
			s.text, s.pos = append(s.text, src[i]), append(s.pos, i)
		}
	}
}

// spliced reports whether a line splice lies in src[from:to].
func (s *scanner) spliced(from, to int) bool {
	for _, sp := range s.splices {
		if sp >= from && sp < to {
			return true
		}
	}
	return false
}

// off returns the offset in src of text[i] (the end of src past the end).
func (s *scanner) off(i int) int {
	if i < len(s.pos) {
		return s.pos[i]
	}
	return len(s.src)
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

// token is one preprocessing token of a line.
type token struct {
	kind byte // 'i' identifier, 'n' number, 's' string, 'c' char, 'p' punctuator
	text string
	at   int // index in s.text
}

// lex splits the spliced text into lines of tokens, skipping comments,
// and checks each line.
func (s *scanner) lex() {
	t := s.text
	var line []token
	lineStart := 0
	flush := func(end int) {
		s.checkLine(line, lineStart, end)
		line = line[:0]
	}
	i := 0
	for i < len(t) {
		c := t[i]
		switch {
		case c == '\n':
			flush(i)
			i++
			lineStart = i
		case c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r':
			i++
		case c == '/' && i+1 < len(t) && t[i+1] == '/':
			for i < len(t) && t[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(t) && t[i+1] == '*':
			end := bytes.Index(t[i+2:], []byte("*/"))
			if end < 0 {
				s.refuse(s.off(i), "a comment that does not end")
				return
			}
			i += 2 + end + 2 // newlines inside do not end the line
		case c == '"' || c == '\'':
			n := literalEnd(t, i)
			kind := byte('s')
			if c == '\'' {
				kind = 'c'
			}
			line = append(line, token{kind, string(t[i:n]), i})
			i = n
		case isIdentStart(c):
			j := i
			for j < len(t) && isIdentChar(t[j]) {
				j++
			}
			word := string(t[i:j])
			if j < len(t) && (t[j] == '"' || t[j] == '\'') {
				switch word {
				case "R", "u8R", "uR", "UR", "LR":
					if t[j] == '"' {
						s.refuse(s.off(i), "raw string literals are not accepted")
						return
					}
				case "u8", "u", "U", "L":
					n := literalEnd(t, j)
					kind := byte('s')
					if t[j] == '\'' {
						kind = 'c'
					}
					line = append(line, token{kind, string(t[i:n]), i})
					i = n
					continue
				}
			}
			line = append(line, token{'i', word, i})
			i = j
			// The rest of an #include line (or #import, #embed, ...) is
			// read as the preprocessor reads it: a header name, not
			// tokens (a /* in <a/*b> starts no comment).
			if len(line) == 2 && line[0].text == "#" && isHeaderDirective(word) {
				end := bytes.IndexByte(t[i:], '\n')
				if end < 0 {
					end = len(t) - i
				}
				line = append(line, token{'h', string(t[i : i+end]), i})
				i += end
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(t) && t[i+1] >= '0' && t[i+1] <= '9':
			j := i + 1
			for j < len(t) {
				d := t[j]
				switch {
				case (d == '+' || d == '-') && strings.IndexByte("eEpP", t[j-1]) >= 0:
					j++
				case d == '\'' && j+1 < len(t) && isIdentChar(t[j+1]):
					j += 2 // a digit separator
				case isIdentChar(d) || d == '.':
					j++
				default:
					goto number
				}
			}
		number:
			line = append(line, token{'n', string(t[i:j]), i})
			i = j
		case c == '\\':
			s.refuse(s.off(i), "a backslash outside a string (a universal character name, \\u or \\U, may not spell code)")
			i++
		default:
			p := string(c)
			for _, long := range []string{"%:%:", "##", "%:"} {
				if bytes.HasPrefix(t[i:], []byte(long)) {
					p = long
					break
				}
			}
			if p == "%:" || p == "%:%:" {
				s.refuse(s.off(i), "the digraph %%: is not accepted (write #)")
			}
			line = append(line, token{'p', p, i})
			i += len(p)
		}
	}
	flush(len(t))
}

func isHeaderDirective(name string) bool {
	switch name {
	case "include", "include_next", "import", "embed":
		return true
	}
	return false
}

// literalEnd returns the index just past the string or character literal
// that starts with the quote at t[i]: its closing quote, or the end of
// the line for one that does not close (as the preprocessor reads it).
func literalEnd(t []byte, i int) int {
	q := t[i]
	j := i + 1
	for j < len(t) && t[j] != '\n' {
		switch t[j] {
		case '\\':
			j += 2
			continue
		case q:
			return j + 1
		}
		j++
	}
	return min(j, len(t))
}

// checkLine checks one logical line, the tokens of text[start:end].
func (s *scanner) checkLine(line []token, start, end int) {
	for k, tk := range line {
		if tk.kind != 'i' {
			continue
		}
		why, refused := refusedIdents[tk.text]
		switch {
		case tk.text == "_Pragma":
			if len(line) < k+4 || line[k+1].text != "(" || line[k+2].kind != 's' || line[k+2].text[0] != '"' || line[k+3].text != ")" {
				s.refuse(s.off(tk.at), "_Pragma must be given one string literal, _Pragma(\"unroll\")")
				continue
			}
			lit := line[k+2].text
			body := strings.NewReplacer(`\\`, `\`, `\"`, `"`).Replace(lit[1 : len(lit)-1])
			if msg := checkPragma(body); msg != "" {
				s.refuse(s.off(line[k+2].at), "%s", msg)
			}
		case refused:
			s.refuse(s.off(tk.at), "%s", why)
		default:
			for _, word := range refusedWords {
				if len(tk.text) < len(word) && strings.HasPrefix(word, tk.text) {
					s.refuse(s.off(tk.at), "identifier %s is not accepted: a paste (##) could make %s of it", tk.text, word)
					break
				}
			}
		}
	}
	if len(line) == 0 || line[0].text != "#" {
		return
	}
	// A directive.
	hash := line[0]
	if len(line) == 1 {
		return // the null directive
	}
	name := line[1]
	if name.kind != 'i' {
		if name.kind == 'n' {
			s.refuse(s.off(name.at), "a line marker (# %s) is not accepted: it would change the lines the compiler reports", name.text)
		} else {
			s.refuse(s.off(name.at), "%s is not a directive", clip(name.text))
		}
		return
	}
	if s.spliced(s.off(hash.at), s.off(name.at+len(name.text))) {
		s.refuse(s.off(hash.at), "a directive split by backslash-newline is not accepted")
		return
	}
	if !directives[name.text] {
		why := ""
		switch name.text {
		case "include_next", "import", "embed":
			why = ": it reads a file from the host"
		case "line":
			why = ": it would change the lines the compiler reports"
		}
		s.refuse(s.off(hash.at), "#%s is not accepted%s", clip(name.text), why)
		return
	}
	if name.text != "include" && name.text != "pragma" {
		return
	}
	if s.spliced(s.off(hash.at), s.off(end)) {
		s.refuse(s.off(hash.at), "an #%s line split by backslash-newline is not accepted", name.text)
		return
	}
	if name.text == "pragma" {
		var words []string
		for _, tk := range line[2:] {
			words = append(words, tk.text)
		}
		if msg := checkPragma(strings.Join(words, " ")); msg != "" {
			s.refuse(s.off(hash.at), "%s", msg)
		}
		return
	}
	// #include: exactly <name>, a header of the toolkit.
	rest := ""
	if len(line) > 2 {
		rest = line[2].text
	}
	m := includeLine.FindStringSubmatch(rest)
	if m == nil {
		s.refuse(s.off(hash.at), "#include must name one of the toolkit's headers as <name>, alone on its line (no quotes, macros or comments)")
		return
	}
	h := m[1]
	switch {
	case strings.HasPrefix(h, "/"):
		s.refuse(s.off(hash.at), "#include of an absolute path is not accepted; name one of the toolkit's headers")
	case !headerName.MatchString(h):
		s.refuse(s.off(hash.at), "#include: a header name is letters, digits and _ . + - in components separated by /, none starting with a dot (so no ..)")
	case !s.header(h):
		s.refuse(s.off(hash.at), "#include <%s>: not a header of the CUDA toolkit (a page may include only those, such as <cuda_fp16.h>, <mma.h>, <cuda/barrier>)", clip(h))
	}
}

// checkPragma returns why a pragma (the text after #pragma) is refused, or
// "" when it is one a page may use.
func checkPragma(text string) string {
	f := strings.Fields(text)
	if len(f) == 0 {
		return ""
	}
	key := f[0]
	if key == "GCC" && len(f) > 1 {
		key += " " + f[1]
	}
	if pragmas[key] {
		return ""
	}
	return fmt.Sprintf("#pragma %s is not accepted (a page may use #pragma unroll, nounroll, once, pack, push_macro, pop_macro, nv_diag_suppress and the other nv_diag pragmas, GCC diagnostic, GCC unroll, GCC ivdep)", clip(key))
}
