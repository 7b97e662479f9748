// Package snippets is warpbook's notebook kernel: it runs the Go snippets
// of a Markdown page (a [page.Page], the page model, read once by
// [page.Parse]), type-checks them against the engine, runs them in the
// yaegi interpreter in sandboxed worker processes, checks what they print
// against the page, and rewrites the expected outputs on request. Package
// page documents the dialect: cells, their attributes, output blocks and
// checked prose values.
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
// A checked value ([page.Check]) is evaluated in the page's session after
// the cells above it; fmt.Sprint of its value must equal the link text.
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
// # CUDA cells
//
// With [Kernel.CUDA] set (a [CUDA] compiler: NVIDIA's toolkit, see package
// cuda), the kernel compiles each CUDA cell of a page ([page.CUDACell])
// while its Go cells run, and checks the cell's resources and sass blocks
// against the compile ([CUDAResult]); without it the cells are skipped
// with [ErrNoCUDA] and their blocks stand as recorded. Either way, every
// Go session of a page with CUDA cells, but a whole program's, has a
// package-level variable cuda, a ptxas.Kernels holding the kernels the
// page's resources blocks record: the kernel declares it from the page
// (never from a compile), so a page runs alike with a toolkit or without,
// natively and in the browser kernel, and the occupancy a page prints is
// computed from ptxas's own register counts.
//
// [Update] and [UpdateFile] rewrite the output blocks of the cells whose
// only failure is their output, and the resources and sass blocks of the
// CUDA cells whose only failure is that they differ from the compile; [WriteText], [WriteJSON] and [WriteGitHub]
// report results as "warpbook test" prints them.
package snippets
