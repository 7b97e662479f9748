//go:build js && wasm

package page

// openNonblock is 0 in WebAssembly, which has no named pipes (and no
// O_NONBLOCK): the browser kernel reads no files.
const openNonblock = 0
