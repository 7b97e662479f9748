package site

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestGoLexerMatchesChroma holds the go/scanner lexer to chroma's own Go
// lexer: the same classes on the same code.
func TestGoLexerMatchesChroma(t *testing.T) {
	snippets := []string{
		"package main\n\nimport (\n\t\"fmt\"\n\t\"github.com/warpbook/warpbook/engine/gpu\"\n)\n\nfunc main() {\n\td, _ := gpu.Lookup(\"A100\")\n\tfmt.Println(d.Name, d.SMs) // 108\n}\n",
		"var s []int\n_ = s[3]\nx := len(s) + cap(s)*2 - 1\nif x >= 0 && x != 4 || !ok {\n\tpanic(\"no\")\n}\n",
		"type Warp struct {\n\tID    int\n\tState string\n}\n\nfunc (w *Warp) Ready() bool { return w.State == \"eligible\" }\n",
		"const (\n\tA = iota\n\tB\n)\nvar f = 1.5e3\nvar h = 0x1F\nvar c = 'x'\nvar r = `raw`\nch := make(chan int, 4)\nch <- 1\n<-ch\nm := map[string]float64{}\nm[\"a\"] += 0.25\n",
		"for i := 0; i < 10; i++ {\n\tswitch {\n\tcase i%2 == 0:\n\t\tcontinue\n\tdefault:\n\t\tbreak\n\t}\n}\n/* block\ncomment */\nreturn\n",
		"n := int(x) + float64(y)\ndefer close(ch)\ngo func() { recover() }()\nselect {}\n",
	}
	for _, src := range snippets {
		want := highlightWith(chroma.Coalesce(lexers.Get("go")), src)
		got := highlightWith(goLexer{}, src)
		if got != want {
			wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
			for i := range min(len(wl), len(gl)) {
				if wl[i] != gl[i] {
					t.Errorf("line %d:\nchroma: %s\ngo/scanner: %s", i+1, wl[i], gl[i])
					break
				}
			}
		}
	}
}

func highlightWith(l chroma.Lexer, code string) string {
	it, err := l.Tokenise(nil, code)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, t := range it.Tokens() {
		if c := tokenClass(t.Type); c != "" {
			b.WriteString("<" + c + ">" + t.Value + "</" + c + ">")
		} else {
			b.WriteString(t.Value)
		}
	}
	return b.String()
}

func BenchmarkHighlightGo(b *testing.B) {
	code := "// block 1\nfunc step1(warps []int, cycle int) (issued int) {\n\tfor i, w := range warps {\n\t\tif w > cycle && i%4 == 1 {\n\t\t\tissued++ // one per scheduler\n\t\t}\n\t}\n\treturn issued * 3\n}\n"
	b.Run("chroma", func(b *testing.B) {
		l := chroma.Coalesce(lexers.Get("go"))
		for b.Loop() {
			highlightWith(l, code)
		}
	})
	b.Run("go-scanner", func(b *testing.B) {
		for b.Loop() {
			highlightWith(goLexer{}, code)
		}
	})
}
