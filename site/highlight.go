package site

import (
	"html"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// tokenClass maps a chroma token type to the CSS class the stylesheet
// colours, one class per broad category so that the light and dark
// palettes stay small and their contrast checked. "" means plain text.
func tokenClass(t chroma.TokenType) string {
	switch {
	case t == chroma.KeywordType:
		return "kt"
	case t.InCategory(chroma.Keyword):
		return "k"
	case t == chroma.NameFunction || t == chroma.NameFunctionMagic:
		return "nf"
	case t == chroma.NameBuiltin || t == chroma.NameBuiltinPseudo:
		return "nb"
	case t.InCategory(chroma.Comment):
		return "c"
	case t.InSubCategory(chroma.LiteralString):
		return "s"
	case t.InSubCategory(chroma.LiteralNumber):
		return "m"
	case t.InCategory(chroma.Operator):
		return "o"
	case t == chroma.GenericDeleted:
		return "gd"
	case t == chroma.GenericInserted:
		return "gi"
	}
	return ""
}

// lexerFor returns the lexer for a fenced block's language, or nil to show
// the code as plain text.
func lexerFor(lang string) chroma.Lexer {
	switch lang {
	case "", "text", "txt", "output", "plain":
		return nil
	}
	if lang == "go" || lang == "golang" {
		return chroma.Coalesce(goLexer{})
	}
	if lang == "cuda" || lang == "cu" {
		if l := newCUDALexer(); l != nil {
			return chroma.Coalesce(l)
		}
		return nil
	}
	l := lexers.Get(lang)
	if l == nil {
		return nil
	}
	return chroma.Coalesce(l)
}

// highlightLines returns the code split into lines of highlighted HTML,
// one string per line, without the line breaks.
func highlightLines(lang, code string) []string {
	code = strings.TrimSuffix(code, "\n")
	l := lexerFor(lang)
	if l != nil {
		it, err := l.Tokenise(nil, code+"\n")
		if err == nil {
			var out []string
			for _, line := range chroma.SplitTokensIntoLines(it.Tokens()) {
				var b strings.Builder
				for _, t := range line {
					v := strings.TrimSuffix(t.Value, "\n")
					if v == "" {
						continue
					}
					if c := tokenClass(t.Type); c != "" {
						b.WriteString(`<span class="`)
						b.WriteString(c)
						b.WriteString(`">`)
						b.WriteString(html.EscapeString(v))
						b.WriteString(`</span>`)
					} else {
						b.WriteString(html.EscapeString(v))
					}
				}
				out = append(out, b.String())
			}
			if n := strings.Count(code, "\n") + 1; len(out) >= n {
				return out[:n]
			}
		}
	}
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		lines[i] = html.EscapeString(l)
	}
	return lines
}

// highlight returns the highlighted HTML of code as one block.
func highlight(lang, code string) string {
	return strings.Join(highlightLines(lang, code), "\n")
}
