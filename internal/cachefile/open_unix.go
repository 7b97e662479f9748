//go:build unix

package cachefile

import "syscall"

// openFlags open an entry without following a symbolic link at its path
// and without blocking on a named pipe.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
