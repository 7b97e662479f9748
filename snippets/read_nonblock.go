//go:build !(js && wasm)

package snippets

import "syscall"

// openNonblock opens a file without blocking on a named pipe.
const openNonblock = syscall.O_NONBLOCK
