package main

import (
	"flag"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestCommandsDocumented holds docs/commands.md to the commands as they
// are: a "## warpbook NAME" section for every command and for nothing
// else, every flag of the command named in its section (as -flag or
// --flag), and every flag in the first column of the section's tables a
// flag the command has.
func TestCommandsDocumented(t *testing.T) {
	src, err := os.ReadFile("../../docs/commands.md")
	noErr(t, err)
	sections := map[string]string{}
	for _, s := range strings.Split(string(src), "\n## ")[1:] {
		if name, ok := strings.CutPrefix(s, "warpbook "); ok {
			name, body, _ := strings.Cut(name, "\n")
			sections[name] = body
		}
	}
	cmds := commands()
	for name := range sections {
		if _, ok := cmds[name]; !ok {
			t.Errorf("docs/commands.md documents warpbook %s, which is no command", name)
		}
	}
	tableFlag := regexp.MustCompile("`--?([a-z][a-z0-9-]*)")
	for name, cmd := range cmds {
		body, ok := sections[name]
		if !ok {
			t.Errorf("docs/commands.md has no section \"## warpbook %s\"", name)
			continue
		}
		fs, _ := newFlagSet(name, cmd, &cli{name: name, stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard})
		fs.VisitAll(func(f *flag.Flag) {
			named := regexp.MustCompile("(^|[^\\w-])--?" + regexp.QuoteMeta(f.Name) + "([^\\w-]|$)")
			if !named.MatchString(body) {
				t.Errorf("docs/commands.md, warpbook %s: flag -%s is not documented", name, f.Name)
			}
		})
		for _, line := range strings.Split(body, "\n") {
			first, ok := strings.CutPrefix(line, "| `-")
			if !ok {
				continue
			}
			first, _, _ = strings.Cut("`-"+first, " |")
			for _, m := range tableFlag.FindAllStringSubmatch(first, -1) {
				if fs.Lookup(m[1]) == nil {
					t.Errorf("docs/commands.md, warpbook %s: documents -%s, which it does not have", name, m[1])
				}
			}
		}
	}
}
