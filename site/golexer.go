package site

import (
	"go/scanner"
	"go/token"
	"strings"

	"github.com/alecthomas/chroma/v2"
)

// goLexer is a chroma lexer for Go built on the standard library's
// go/scanner instead of chroma's regular expressions. It gives the same
// token types as chroma's Go lexer, tokenizes exactly as the compiler
// does, and is many times faster (docs/benchmarks.md gives the figure;
// BenchmarkHighlightGo measures it): with the regexp lexer, highlighting a
// book's Go blocks was much of a cold build. Other languages use chroma's
// own lexers.
type goLexer struct{}

var goConfig = &chroma.Config{Name: "Go", Aliases: []string{"go", "golang"}}

func (goLexer) Config() *chroma.Config                         { return goConfig }
func (goLexer) SetRegistry(*chroma.LexerRegistry) chroma.Lexer { return goLexer{} }
func (goLexer) SetAnalyser(func(string) float32) chroma.Lexer  { return goLexer{} }
func (goLexer) AnalyseText(string) float32                     { return 0 }

var goPredeclaredTypes = map[string]bool{
	"any": true, "bool": true, "byte": true, "comparable": true, "complex64": true, "complex128": true,
	"error": true, "float32": true, "float64": true, "int": true, "int8": true, "int16": true, "int32": true,
	"int64": true, "rune": true, "string": true, "uint": true, "uint8": true, "uint16": true, "uint32": true,
	"uint64": true, "uintptr": true,
}

var goBuiltins = map[string]bool{
	"append": true, "cap": true, "clear": true, "close": true, "complex": true, "copy": true, "delete": true,
	"imag": true, "len": true, "make": true, "max": true, "min": true, "new": true, "panic": true,
	"print": true, "println": true, "real": true, "recover": true,
}

// Tokenise implements chroma.Lexer.
func (goLexer) Tokenise(_ *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	src := []byte(text)
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, func(token.Position, string) {}, scanner.ScanComments)

	type tok struct {
		off, end int
		tok      token.Token
		lit      string
	}
	var toks []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		if t == token.SEMICOLON && lit == "\n" {
			continue // inserted by the scanner, not in the source
		}
		off := file.Offset(pos)
		end := off + len(lit)
		if lit == "" {
			end = off + len(t.String())
		}
		toks = append(toks, tok{off, min(end, len(src)), t, lit})
	}

	var out []chroma.Token
	emit := func(t chroma.TokenType, v string) {
		if v != "" {
			out = append(out, chroma.Token{Type: t, Value: v})
		}
	}
	last := 0
	for i, t := range toks {
		if t.off < last {
			continue
		}
		emit(chroma.TextWhitespace, text[last:t.off])
		v := text[t.off:t.end]
		var typ chroma.TokenType
		switch {
		case t.tok == token.COMMENT:
			typ = chroma.CommentSingle
			if strings.HasPrefix(v, "/*") {
				typ = chroma.CommentMultiline
			}
		case t.tok == token.PACKAGE || t.tok == token.IMPORT:
			typ = chroma.KeywordNamespace
		case t.tok == token.VAR || t.tok == token.FUNC || t.tok == token.STRUCT || t.tok == token.MAP ||
			t.tok == token.CHAN || t.tok == token.TYPE || t.tok == token.INTERFACE || t.tok == token.CONST:
			typ = chroma.KeywordDeclaration
		case t.tok.IsKeyword():
			typ = chroma.Keyword
		case t.tok == token.IDENT:
			next := token.ILLEGAL
			if i+1 < len(toks) {
				next = toks[i+1].tok
			}
			switch {
			case v == "true" || v == "false" || v == "iota" || v == "nil":
				typ = chroma.KeywordConstant
			case next == token.LPAREN && (goBuiltins[v] || goPredeclaredTypes[v] && v != "any" && v != "comparable"):
				typ = chroma.NameBuiltin // as chroma: int(x) is a builtin call
			case goPredeclaredTypes[v]:
				typ = chroma.KeywordType
			case next == token.LPAREN:
				typ = chroma.NameFunction
			default:
				typ = chroma.NameOther
			}
		case t.tok == token.INT:
			typ = chroma.LiteralNumberInteger
		case t.tok == token.FLOAT:
			typ = chroma.LiteralNumberFloat
		case t.tok == token.IMAG:
			typ = chroma.LiteralNumber
		case t.tok == token.CHAR:
			typ = chroma.LiteralStringChar
		case t.tok == token.STRING:
			typ = chroma.LiteralString
		case t.tok.IsOperator():
			switch t.tok {
			case token.LPAREN, token.RPAREN, token.LBRACK, token.RBRACK, token.LBRACE, token.RBRACE,
				token.COMMA, token.PERIOD, token.SEMICOLON, token.COLON,
				token.ASSIGN, token.OR, token.XOR, token.LSS, token.GTR, token.NOT, token.TILDE:
				typ = chroma.Punctuation // single characters, as chroma classes them
			default:
				typ = chroma.Operator
			}
		default:
			typ = chroma.Error
		}
		emit(typ, v)
		last = t.end
	}
	emit(chroma.TextWhitespace, text[last:])
	return chroma.Literator(out...), nil
}
