//go:build js

package snippets

import "errors"

// addBookPackages has nothing to build in the browser, which builds no
// native program (see hasProcesses).
func addBookPackages(root, dir string, overlay map[string]string, runs []*pageRun) error {
	return errors.New("the browser kernel builds no native program")
}
