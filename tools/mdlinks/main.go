// Command mdlinks checks that the links of Markdown files resolve inside
// the repository, as GitHub shows the files.
//
// Usage:
//
//	go run ./tools/mdlinks [-local] FILE.md ...
//
// Run it from the repository's root. Every link and image of each file
// (found by goldmark, so code is never a link) with a relative destination
// must name a file or folder that exists and stays inside the current
// directory (through symbolic links too); a #fragment on a Markdown file,
// or alone, must be one of that file's heading anchors as GitHub makes
// them. A destination with a scheme (https:, mailto:) is not fetched, and
// with -local it is an error, as is a destination that starts with "/".
// Each problem is printed as file:line:col: message, the column in bytes.
// Exit status: 0 every link resolves, 1 a link does not or a file cannot
// be read, 2 a usage error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mdlinks", flag.ContinueOnError)
	fs.SetOutput(stderr)
	local := fs.Bool("local", false, "refuse links that leave the repository (https:, mailto:, ...)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: mdlinks [-local] FILE.md ...")
		return 2
	}
	root, err := os.OpenRoot(".")
	if err != nil {
		fmt.Fprintf(stderr, "mdlinks: %v\n", err)
		return 1
	}
	defer root.Close()
	c := &checker{root: root, local: *local}
	code := 0
	for _, name := range fs.Args() {
		problems, err := c.check(name)
		if err != nil {
			fmt.Fprintf(stderr, "mdlinks: %v\n", err)
			code = 1
		}
		for _, p := range problems {
			fmt.Fprintln(stdout, p)
			code = 1
		}
	}
	return code
}
