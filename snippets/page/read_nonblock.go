//go:build !(js && wasm)

package page

import "syscall"

// openNonblock opens a file without blocking on a named pipe.
const openNonblock = syscall.O_NONBLOCK
