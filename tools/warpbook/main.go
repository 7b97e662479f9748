// Command warpbook builds, checks and explores the warpbook executable book.
//
// Usage:
//
//	warpbook <command> [flags] [arguments]
//
// Run "warpbook help" for the list of commands and "warpbook help <command>"
// (or "warpbook <command> -h") for the flags of one. Flags may come before
// or after the arguments. Exit status: 0 success, 1 a failure the command
// reports (a wrong output, a broken link, a file that cannot be read), 2 a
// usage error.
//
// The directory's default.pgo is a CPU profile of the simulator's
// benchmark (engine/sim's BenchmarkSASS), with which go build, go install
// and go run optimise the command; docs/sass.md ("Throughput") has the
// command that remakes it.
package main

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/warpbook/warpbook/snippets"
)

// command is one warpbook subcommand. Its setup registers its flags on fs
// and returns what runs the command with the arguments left once the flags
// are parsed; that returns the exit code.
type command struct {
	summary string
	// usage is the first lines of the command's help: "usage: ..." and
	// what it does. The flags follow.
	usage string
	setup func(fs *flag.FlagSet, c *cli) func(args []string) int
}

// cli is what a command talks to: its name, for messages, and its streams.
type cli struct {
	name           string
	stdin          io.Reader
	stdout, stderr io.Writer
}

// failf reports a failure: the command could not do its work (exit 1).
func (c *cli) failf(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "warpbook %s: %s\n", c.name, fmt.Sprintf(format, args...))
	return 1
}

// usagef reports a usage error (exit 2).
func (c *cli) usagef(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "warpbook %s: %s\n", c.name, fmt.Sprintf(format, args...))
	fmt.Fprintf(c.stderr, "run \"warpbook help %s\" for its usage\n", c.name)
	return 2
}

// bookArg takes the book directory from args, if given there, into book
// (build and serve take at most one); otherwise it reports the usage
// error and returns its exit code.
func (c *cli) bookArg(book *string, args []string) (code int, ok bool) {
	switch len(args) {
	case 0:
	case 1:
		*book = args[0]
	default:
		return c.usagef("want one book directory, not %d arguments", len(args)), false
	}
	return 0, true
}

// commands lists every subcommand. Each lives in its own file.
func commands() map[string]command {
	return map[string]command{
		"build":     buildCommand,
		"cache":     cacheCommand,
		"gpus":      gpusCommand,
		"init":      initCommand,
		"occupancy": occupancyCommand,
		"practice":  practiceCommand,
		"run":       runCommand,
		"serve":     serveCommand,
		"sim":       simCommand,
		"test":      testCommand,
		"version":   versionCommand,
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
	if len(args) == 0 {
		usage(stderr, cmds)
		return 2
	}
	name, args := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		usage(stdout, cmds)
		return 0
	case "help":
		if len(args) == 0 {
			usage(stdout, cmds)
			return 0
		}
		cmd, ok := cmds[args[0]]
		if !ok || len(args) > 1 {
			fmt.Fprintf(stderr, "warpbook help: unknown command %q\n", strings.Join(args, " "))
			usage(stderr, cmds)
			return 2
		}
		fs, _ := newFlagSet(args[0], cmd, &cli{name: args[0], stdin: stdin, stdout: stdout, stderr: stderr})
		help(stdout, cmd, fs)
		return 0
	}
	cmd, ok := cmds[name]
	if !ok {
		fmt.Fprintf(stderr, "warpbook: unknown command %q\n", name)
		usage(stderr, cmds)
		return 2
	}
	c := &cli{name: name, stdin: stdin, stdout: stdout, stderr: stderr}
	fs, run := newFlagSet(name, cmd, c)
	rest, err := parseInterspersed(fs, args)
	switch {
	case err == flag.ErrHelp:
		help(stdout, cmd, fs)
		return 0
	case err != nil:
		// The flag package has printed what is wrong.
		fmt.Fprintf(stderr, "run \"warpbook help %s\" for its usage\n", name)
		return 2
	}
	return run(rest)
}

// newFlagSet makes a command's flag set and registers its flags.
func newFlagSet(name string, cmd command, c *cli) (*flag.FlagSet, func([]string) int) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {} // -h prints the help on stdout; errors print no usage
	return fs, cmd.setup(fs, c)
}

// help prints a command's usage and flags.
func help(w io.Writer, cmd command, fs *flag.FlagSet) {
	fmt.Fprint(w, strings.TrimRight(cmd.usage, "\n")+"\n")
	has := false
	fs.VisitAll(func(*flag.Flag) { has = true })
	if has {
		fmt.Fprintln(w, "\nflags (before or after the arguments):")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// parseInterspersed parses args with fs, letting flags come before or
// after the positional arguments, and returns the positional arguments.
// After "--" every argument is positional. Its error is fs.Parse's
// (flag.ErrHelp for -h).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		// fs.Parse stops at the first non-flag, or after "--".
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: warpbook <command> [flags] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, n := range slices.Sorted(maps.Keys(cmds)) {
		fmt.Fprintf(w, "  %-10s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `run "warpbook help <command>" for the flags of a command`)
	fmt.Fprintln(w, "exit status: 0 success, 1 a failure the command reports, 2 a usage error")
}
