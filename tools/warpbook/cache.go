package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/warpbook/warpbook/snippets"
)

var cacheCommand = command{
	summary: "show or empty warpbook's cache",
	usage: `usage: warpbook cache [clean]

warpbook keeps the results of snippets, the figures it drew and the stamps
of builds in the user cache directory (outside the book and the site), keyed
by content, and prunes it to 256 MiB, least recently used first, after each
test and build. It uses an entry only when this user's warpbook wrote it:
each ends with a tag under a key kept in the user's configuration directory
(or $WARPBOOK_CACHE_KEY; see docs/threat-model.md). "warpbook cache" says
where it is and how large; "warpbook cache clean" empties it (the next test
or build then runs everything).`,
	setup: func(_ *flag.FlagSet, c *cli) func([]string) int {
		return func(args []string) int {
			dir, err := snippets.DefaultCacheDir()
			if err != nil {
				return c.failf("%v", err)
			}
			switch {
			case len(args) == 0:
				n, size := 0, int64(0)
				_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
					if err == nil && d.Type().IsRegular() {
						if fi, err := d.Info(); err == nil {
							n, size = n+1, size+fi.Size()
						}
					}
					return nil
				})
				fmt.Fprintf(c.stdout, "%s: %d files, %.1f MiB (pruned to %d MiB)\n", dir, n, float64(size)/(1<<20), snippets.DefaultCacheLimit>>20)
				return 0
			case len(args) == 1 && args[0] == "clean":
				if err := os.RemoveAll(dir); err != nil {
					return c.failf("%v", err)
				}
				fmt.Fprintf(c.stdout, "emptied %s\n", dir)
				return 0
			}
			return c.usagef("want no argument or clean")
		}
	},
}

// pruneCache prunes the user cache directory after a run; a failure costs
// nothing but space.
func pruneCache() {
	if dir, err := snippets.DefaultCacheDir(); err == nil {
		_ = snippets.PruneCache(dir, snippets.DefaultCacheLimit)
	}
}
