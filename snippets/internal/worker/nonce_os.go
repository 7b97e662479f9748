//go:build !(js && wasm)

package worker

import (
	"crypto/rand"
	"encoding/hex"
)

// nonce returns a job's nonce: 12 random bytes in hex, which a snippet
// cannot guess and so cannot forge the job's event lines with.
func nonce() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
