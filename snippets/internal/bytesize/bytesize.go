// Package bytesize writes a number of bytes as warpbook's limits are
// written ("1 MiB"), for the messages of the page model and of the worker.
package bytesize

import "strconv"

// Format writes n bytes in the largest binary unit that divides it:
// "1 GiB", "64 KiB", "1000 bytes".
func Format(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
