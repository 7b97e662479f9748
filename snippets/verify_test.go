package snippets

import "testing"

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"book/x.md":         "book/x.md",
		"my book/x.md":      "'my book/x.md'",
		"it's/x.md":         `'it'\''s/x.md'`,
		"$(rm -rf ~)/x.md":  "'$(rm -rf ~)/x.md'",
		"a*/b/p.md":         "'a*/b/p.md'",
		"book/v1.2+rc/x.md": "book/v1.2+rc/x.md",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
