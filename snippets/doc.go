// Package snippets is warpbook's notebook kernel: it finds the Go snippets
// in a Markdown page, type-checks them against the engine, runs them in the
// yaegi interpreter in sandboxed worker processes, checks what they print
// against the page, and rewrites the expected outputs on request.
//
// # The dialect and the page model
//
// Every command reads a page the same way: [Parse] parses it once, in the
// one Markdown dialect of warpbook, and everything downstream (the
// kernel, the site, warpbook test, build, serve and run) works from the
// [Page] it returns; nothing re-reads the Markdown. The dialect is
// CommonMark with GitHub Flavored Markdown (tables, strikethrough,
// autolinks, task lists), footnotes, heading ids (automatic, and {#id}),
// GitHub alerts (a blockquote opening with [!NOTE], [!TIP], [!IMPORTANT],
// [!WARNING] or [!CAUTION]), YAML front matter between "---" lines, and
// warpbook's cells, output blocks and checked values.
//
// The Page holds the source, the goldmark AST ([Page.Doc]), the decoded
// [FrontMatter], the [Cell]s and [Check]s, and the parse's
// [Page.Diagnostics]. In the AST, the dialect's own nodes stand where they
// were written: a [FrontMatterNode], an [Alert], a [CellNode] (whose
// children are the go run block and its output block) and a [CheckNode]
// (whose children are the link's text). Renderers render the AST as it is
// and never change it.
//
// Every problem, whoever finds it (the parser, the type checker, the
// interpreter, the site, a figure, a YAML decoder), is a [Diagnostic] at a
// file:line:col of the page, with the column in bytes as go/token counts
// them, and [Diagnostics.Write] is the one printer every command uses.
//
// Front matter is decoded strictly ([DecodeYAML]: a key with no field is
// an error, and sizes, nesting and alias expansion are bounded) into
// [FrontMatter]; a tag that is not a slug, an unknown byline status or
// difficulty, and front matter that is never closed are parse errors, at
// the key. Which keys suit which kind of page (chapter, glossary entry,
// question) the site decides.
//
// A fenced block whose info string starts with "go run" is a cell. The
// fenced block with info string "output" right after it holds what the cell
// must print. A plain "go" block is display-only and never runs.
//
//	```go run id=a100
//	import (
//		"fmt"
//		"github.com/warpbook/warpbook/engine/gpu"
//	)
//	// ---
//	d := gpu.A100()
//	fmt.Println(d.Name, d.SMs)
//	```
//	```output
//	A100 SXM4 108
//	```
//
// The lines above a line that reads "// ---" ([SetupSeparator]), and that
// line, are hidden setup: rendered collapsed and still run. The separator
// is part of the code, so the setup it closes cannot drift when a line is
// added above; a cell has at most one, with code under it. It is a
// comment alone on its line: the same text in a raw string is code.
//
// Attributes follow "go run" as key=value (the value bare or a double-quoted
// Go string) or bare flags:
//
//	id=NAME          stable anchor and -run target
//	panics="text"    must panic with a message containing text
//	error="text"     must fail to compile with an error containing text
//	unordered        compare output lines as a multiset
//	skip="reason"    do not run (the reason is required)
//	timeout=2s       time limit for this cell
//	fresh            run in its own interpreter, not the page's session
//
// Unknown attributes, an output block with no cell before it and duplicate
// ids are errors ([Page.Diagnostics]).
//
// # Sessions
//
// The cells of a page share one interpreter session, top to bottom, like
// notebook cells: a later cell sees the imports, declarations and variables
// of the cells above it, and may redeclare a variable with :=. Top-level
// import, type, func and const declarations are package-level; everything
// else, var included, is a statement. Package-level declarations see other
// package-level declarations only, not variables declared by statements. A
// cell that starts with "package main" is a whole program and always runs
// fresh.
//
// # Checked prose values
//
// A link whose destination is "=" states a value in prose and the Go
// expression that must produce it:
//
//	the A100 runs [48](= "r.ActiveWarps") warps per SM
//
// The expression is evaluated after the cells above it; fmt.Sprint of its
// value must equal the link text.
//
// A number typed in plain prose that one of the page's cells prints (in
// its output block) is a warning in [Page.Warnings]: an engine change would
// leave it stale where a checked value fails. Only numbers a reader takes
// from a computation count (1,280, 62.5 %, 3.272); round constants (32,
// 256, 1000, a compute capability's 7.5) do not. A page lists the numbers
// it states on purpose as prose (a source's figure being corrected) in the
// front matter:
//
//	prose_numbers: ["78.1 %"]
//
// # Running
//
// A [Kernel] runs pages. For each page it generates one Go program per
// session (cells nested in blocks so that each sees the ones above, with
// line directives so that every position is a Markdown position), type-checks
// it with go/types against the engine's export data in package symbols, and
// reports sandbox violations and the Go the interpreter would get wrong.
// Where the interpreter runs correct Go wrongly but the same Go can be
// written another way, the kernel rewrites its copy of the cell (a typed
// declaration for "first := r.Trace.Issues[0]", parentheses around the
// call in "best, name = st, st.String()"); the page, the type checker and
// the native build keep the code as written.
// Then a worker process (the running executable, re-executed: see
// [IsWorker]) evaluates the cells in yaegi with only the generated symbols,
// under a time limit per cell and caps on memory and output. With
// [Kernel.Native] the same programs are also built with the Go toolchain
// and run. The result is a [PageResult]: a [CellResult] per cell (status,
// output, the verified panic or compile error, diagnostics) and a
// [CheckResult] per checked value, with the [Verifier] (tool version,
// engine fingerprint, Go version) that checked them.
//
// # Threat model
//
// Pages come from pull requests, and CI runs as root: a snippet is hostile
// code. In every mode (the interpreter, -native, the browser) it may
// compute, allocate, start goroutines and print, within its limits, using
// the engine packages and an allow-list of the standard library (see
// package symbols); from os only the standard streams, and of their
// methods only Write and WriteString. It cannot read or write files, read
// the environment, start processes, reach the network, or use unsafe,
// reflect, runtime, cgo or compiler directives.
//
// The sandbox is one decision made on the type-checked program, for both
// modes: every identifier and selection of the snippets' file is checked
// against the allow-list wherever its position claims to be; line
// directives and //go: directives are refused, as are brackets, raw
// strings or comments that a cell leaves open and checked values that are
// not one expression (each of them would let text escape its place in the
// generated program); and a session with any such problem, or with an
// error the kernel cannot place on the page, runs nothing. The interpreter
// then sees only the generated symbols (no file system, no environment,
// no GOPATH), and -native compiles the same checked program with the real
// toolchain (cgo off, no toolchain download) and runs it with an empty
// environment.
//
// Limits, the same in both modes: a time limit per cell or checked value
// (10 s by default, timeout= up to 5 min), counted in the worker's CPU time
// on Linux, package initialization included, with a wall-clock backstop: a
// snippet that is not computing (asleep, deadlocked) fails at 4 times its
// limit of wall-clock time, one that computes slowly on a loaded machine
// goes on until its CPU time runs out, or 20 times its limit; a memory cap (1 GiB resident by default, read
// from /proc on Linux, and a soft Go memory limit everywhere); an output
// cap (1 MiB per page, panic messages and values included). A cell that
// leaves goroutines running when it ends fails. The kernel's own page
// paths never reach generated code: the programs name the page by a
// constant.
//
// [Update] and [UpdateFile] rewrite the output blocks of the cells whose
// only failure is their output; [WriteText], [WriteJSON] and [WriteGitHub]
// report results as "warpbook test" prints them.
package snippets
