// Package snippets is warpbook's notebook kernel: it finds the Go snippets
// in a Markdown page, runs them in the yaegi interpreter against the
// engine, checks what they print against the page, and rewrites the
// expected outputs on request.
//
// # Pages and cells
//
// [Parse] (or [Parser.Parse], with the site's goldmark extensions) parses a
// page once with goldmark. The [Page] holds the AST, the front matter and
// the page's [Cell]s and [Check]s; nothing downstream re-reads the Markdown.
//
// A fenced block whose info string starts with "go run" is a cell. The
// fenced block with info string "output" right after it holds what the cell
// must print. A plain "go" block is display-only and never runs.
//
//	```go run id=a100 hide=1-4
//	import (
//		"fmt"
//		"github.com/warpbook/warpbook/engine/gpu"
//	)
//	d, _ := gpu.Lookup("A100")
//	fmt.Println(d.Name, d.SMs)
//	```
//	```output
//	A100 108
//	```
//
// Attributes follow "go run" as key=value (the value bare or a double-quoted
// Go string) or bare flags:
//
//	id=NAME          stable anchor and -run target
//	hide=1-4,9       hidden setup lines (rendered collapsed, still run)
//	panics="text"    must panic with a message containing text
//	error="text"     must fail to compile with an error containing text
//	unordered        compare output lines as a multiset
//	skip="reason"    do not run (the reason is required)
//	timeout=2s       time limit for this cell
//	fresh            run in its own interpreter, not the page's session
//
// Unknown attributes, an output block with no cell before it and duplicate
// ids are errors.
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
//	the A100 runs [32](= "r.ActiveWarps") warps per SM
//
// The expression is evaluated after the cells above it; fmt.Sprint of its
// value must equal the link text.
package snippets
