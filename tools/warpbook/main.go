// Command warpbook builds, checks and explores the warpbook executable book.
//
// Usage:
//
//	warpbook <command> [flags] [arguments]
//
// Run "warpbook help" for the list of commands and "warpbook <command> -h"
// for the flags of one.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/warpbook/warpbook/snippets"
)

// command is one warpbook subcommand. run receives the arguments after the
// command name and returns the process exit code: 0 success, 1 a failure the
// command reports (a failing snippet, a wrong number), 2 a usage error.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands lists every subcommand. Each lives in its own file.
func commands() map[string]command {
	return map[string]command{
		"occupancy": {"compute occupancy for a kernel on a GPU", runOccupancy},
		"build":     {"build the book into a static site", runBuild},
		"serve":     {"serve the book with live rebuilds while you write", runServe},
		"sim":       {"simulate the warp schedulers of one SM running a workload file", runSim},
		"test":      {"run the snippets of Markdown pages and check their outputs", runTest},
		"run":       {"run a page's snippets like a notebook", runRun},
	}
}

func main() {
	// The snippet kernel runs each page in a copy of this executable.
	if snippets.IsWorker() {
		os.Exit(snippets.ServeWorker())
	}
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "warpbook: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

// parseInterspersed parses args with fs, letting flags come before or
// after the positional arguments, and returns the positional arguments.
// Its error is fs.Parse's (flag.ErrHelp for -h).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: warpbook <command> [flags] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `run "warpbook <command> -h" for the flags of a command`)
}
