package page

import (
	"strings"
	"testing"
)

func TestProseNumbers(t *testing.T) {
	page := func(frontMatter, prose string) string {
		return "---\ntitle: T\n" + frontMatter + "---\n" +
			"```go run id=regs\n" +
			"fmt.Println(1280, 62.5, 32, 256, 7.5, 3.272, 1000)\n" +
			"```\n" +
			"```output\n" +
			"1,280 62.5 % 32 256 7.5 3.272 1000\n" +
			"```\n\n" +
			prose + "\n"
	}
	tests := []struct {
		name, fm, prose string
		want            []string // "line:col: number" of each warning
	}{
		{name: "computed numbers", prose: "A warp needs 1,280 registers, or 1280; 62.5 % of them, and 3.272 more.",
			want: []string{"11:14: 1,280", "11:34: 1280", "11:40: 62.5", "11:60: 3.272"}},
		{name: "round constants", prose: "A warp has 32 lanes; 256 threads a block, capability 7.5, 1000 cycles."},
		{name: "unprinted number", prose: "A warp needs 1,281 registers."},
		{name: "part of a larger number", prose: "Costs 11280 cycles, version 1.1280."},
		{name: "checked value", prose: "A warp needs [1,280](= \"1280\") registers."},
		{name: "code span", prose: "A warp needs `1280` registers."},
		{name: "link text", prose: "See [1280](other.md)."},
		{name: "meant as prose", fm: "prose_numbers: [\"1,280\", 62.5 %]\n", prose: "The guide says 1280 and 62.5 %; the model 3.272.",
			want: []string{"12:43: 3.272"}},
		{name: "share sign", prose: "About 62.5% of them.", want: []string{"11:7: 62.5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pg := mustParse(t, "p.md", page(tt.fm, tt.prose))
			var got []string
			for _, w := range pg.Warnings() {
				number, _, _ := strings.Cut(w.Msg, " ")
				got = append(got, strings.TrimPrefix(w.Pos.String(), "p.md:")+": "+number)
				if !strings.Contains(w.Msg, "regs (line") {
					t.Errorf("warning %q does not name the snippet", w.Msg)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
