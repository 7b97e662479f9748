package site

import (
	"sort"
	"unicode/utf8"
)

// lineIndex maps byte offsets of a source to lines and columns.
type lineIndex []int // offsets at which lines start

func newLineIndex(src []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range src {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

// pos returns the 1-based line and column (in characters) of offset off in
// src. A negative offset gives 0, 0.
func (idx lineIndex) pos(src []byte, off int) (line, col int) {
	if off < 0 {
		return 0, 0
	}
	if off > len(src) {
		off = len(src)
	}
	i := sort.Search(len(idx), func(i int) bool { return idx[i] > off }) - 1
	return i + 1, utf8.RuneCount(src[idx[i]:off]) + 1
}
