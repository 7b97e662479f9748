package worker

import (
	"bytes"
	"encoding/json"
	"io"
)

// piece is what the decoder found next in a process's standard output.
type piece struct {
	out []byte // bytes the snippets printed, before ev
	ev  *Event // a marker line; nil for output alone
	bad bool   // a marker line that did not decode
	// long is set when a marker line grew past the decoder's bound.
	long bool
	eof  bool
	err  error // the read error that ended the stream
}

// decode reads a process's standard output and sends its pieces in order,
// ending with one whose eof is set. With raw, there are no marker lines.
// A marker line longer than maxLine ends the stream (long), so that
// nothing a process writes is buffered without bound.
func decode(r io.Reader, nonce string, raw bool, maxLine int, out chan<- piece) {
	marker := []byte("\x00" + nonce + " ")
	var buf []byte
	chunk := make([]byte, 32<<10)
	for {
		n, err := r.Read(chunk)
		buf = append(buf, chunk[:n]...)
		if raw {
			if len(buf) > 0 {
				out <- piece{out: buf}
				buf = nil
			}
		} else {
			for {
				i := bytes.Index(buf, marker)
				if i < 0 {
					// Keep what may be the start of a marker.
					keep := 0
					if k := bytes.LastIndexByte(buf, 0); k >= 0 && len(buf)-k < len(marker) && bytes.HasPrefix(marker, buf[k:]) {
						keep = len(buf) - k
					}
					if len(buf)-keep > 0 {
						out <- piece{out: bytes.Clone(buf[:len(buf)-keep])}
						buf = buf[len(buf)-keep:]
					}
					break
				}
				nl := bytes.IndexByte(buf[i:], '\n')
				if nl < 0 {
					if i > 0 {
						out <- piece{out: bytes.Clone(buf[:i])}
						buf = buf[i:]
					}
					if len(buf) > maxLine {
						out <- piece{long: true}
						out <- piece{eof: true}
						return
					}
					break
				}
				p := piece{out: bytes.Clone(buf[:i]), ev: &Event{}}
				if json.Unmarshal(buf[i+len(marker):i+nl], p.ev) != nil {
					p.ev, p.bad = nil, true
				}
				out <- p
				buf = buf[i+nl+1:]
			}
		}
		if err != nil {
			if len(buf) > 0 {
				out <- piece{out: buf}
			}
			out <- piece{eof: true, err: err}
			return
		}
	}
}
