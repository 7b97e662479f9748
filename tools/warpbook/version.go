package main

import (
	"flag"
	"fmt"
	"runtime/debug"

	"github.com/warpbook/warpbook/snippets"
)

var versionCommand = command{
	summary: "print the version of warpbook, its engine and Go",
	usage: `usage: warpbook version

Prints the module version and VCS revision warpbook was built from, the
fingerprint of its engine (what the site prints beside verified examples)
and the Go version.`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		return func(args []string) int {
			if len(args) > 0 {
				return c.usagef("takes no arguments")
			}
			version, revision := "(devel)", "unknown"
			if bi, ok := debug.ReadBuildInfo(); ok {
				if bi.Main.Version != "" {
					version = bi.Main.Version
				}
				var rev, at, modified string
				for _, s := range bi.Settings {
					switch s.Key {
					case "vcs.revision":
						rev = s.Value
					case "vcs.time":
						at = s.Value
					case "vcs.modified":
						if s.Value == "true" {
							modified = ", with changes"
						}
					}
				}
				if rev != "" {
					revision = rev
					if at != "" {
						revision += " (" + at + modified + ")"
					}
				}
			}
			v := (&snippets.Kernel{}).Verifier()
			fmt.Fprintf(c.stdout, "warpbook %s\nrevision %s\nbinary   %s\nengine   %s\ngo       %s\n", version, revision, v.Tool, v.Engine, v.Go)
			return 0
		}
	},
}
