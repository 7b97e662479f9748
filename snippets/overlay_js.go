//go:build js

package snippets

import "errors"

// overlayDir has no name to give in the browser, which builds nothing
// natively (see hasProcesses): a file of its own, so that crypto/rand,
// which only the native build's name needs, stays out of the browser
// kernel.
func overlayDir(root string) (string, error) {
	return "", errors.New("the browser kernel builds no native program")
}
