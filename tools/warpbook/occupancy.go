package main

import (
	"fmt"
	"io"
)

func runOccupancy(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "warpbook occupancy: not implemented yet")
	return 1
}
