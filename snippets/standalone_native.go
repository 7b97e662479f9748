//go:build !js

// Program is left out of the browser kernel (js/wasm), which has no use
// for it: the program is for a reader to run with the Go toolchain, and
// go/format, which it needs, would add to the kernel's download (yaegi's
// reflection keeps every exported method of a type that reaches an
// interface, so Program would be linked whether called or not).

package snippets

import (
	"cmp"
	"fmt"
	"go/format"
	"slices"

	"github.com/warpbook/warpbook/snippets/page"
)

// Program returns cell c of the compiled page as a Go program of its own,
// for a reader to run with the Go toolchain in a clone of the module
// (github.com/warpbook/warpbook): the kernel's program of c's session (see
// [Kernel]), cut after c, as the page writes it — no scaffolding, no
// position comments, no interpreter rewrites — with what the cells above c
// print hidden, so that it prints what c prints. A cell opens a block only
// where it declares again a name the session already holds; variables and
// imports that only later cells use are kept quiet with "_ =" or left out.
// A whole program ("package main") is itself. Its comments name the page
// file, as the path the reader knows it by (the site gives its path in the
// repository); "" names it c.Pos.File.
//
// A cell that does not run has no program, and Program returns "" without
// an error: one with skip= or error=, and one that the type check found a
// problem in, or in a cell above it in its session, which the kernel
// reports. The error is a program that would not compile though its cell
// does: a fault of the generator, not of the page.
func (cp *Compiled) Program(c *page.Cell, file string) (string, error) {
	if cp.pl == nil {
		return "", nil
	}
	u := cp.pl.byCell[c]
	if u == nil || slices.Index(u.session.units, u) >= u.session.firstBad {
		return "", nil
	}
	file = cmp.Or(file, c.Pos.File)
	alone := &standalone{upTo: u, file: file, drop: map[string]bool{}, unused: map[*unit][]string{}, pkgs: cp.pl.pkgs}
	for range 4 {
		src := cp.pl.write(u.session, alone)
		if u.session.program {
			return src, nil
		}
		fixed, problem := alone.quieten(src)
		if problem != "" {
			return "", fmt.Errorf("%s: %s: its program does not compile: %s", c.Pos, c.ID(), problem)
		}
		if !fixed {
			out, err := format.Source([]byte(src))
			if err != nil {
				return "", fmt.Errorf("%s: %s: format its program: %w", c.Pos, c.ID(), err)
			}
			return string(out), nil
		}
	}
	return "", fmt.Errorf("%s: %s: its program does not compile", c.Pos, c.ID())
}
