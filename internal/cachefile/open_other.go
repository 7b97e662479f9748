//go:build !unix && !(js && wasm)

package cachefile

// openFlags: elsewhere the Lstat before the open is the only check (the
// browser kernel, js/wasm, reads no cache).
const openFlags = 0
