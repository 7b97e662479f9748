//go:build js && wasm

package worker

import (
	"encoding/hex"
	"syscall/js"
)

// nonce returns a job's nonce: 12 random bytes in hex, which a snippet
// cannot guess and so cannot forge the job's event lines with. The bytes
// come from the browser's crypto.getRandomValues, the source crypto/rand
// reads in WebAssembly too; calling it directly keeps crypto/rand's
// generator (its AES-CTR DRBG) out of the browser kernel: 5 KB gzipped.
func nonce() string {
	a := js.Global().Get("Uint8Array").New(12)
	js.Global().Get("crypto").Call("getRandomValues", a)
	var b [12]byte
	js.CopyBytesToGo(b[:], a)
	return hex.EncodeToString(b[:])
}
