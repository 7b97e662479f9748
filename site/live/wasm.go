package live

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// packGap is the longest run of zeros between two data segments that
// packData fills in to join them: a run that long costs deflate a few
// bytes, where each segment's header costs a dozen that compress badly.
const packGap = 64 << 10

// packData rewrites the data section of a WebAssembly module so that it
// compresses better: the Go linker writes a data segment for each run of
// bytes between runs of zeros (100,000 of them for the kernel), and their
// offsets and lengths, all different, cost deflate more than the zeros
// they leave out. packData joins segments less than packGap apart,
// filling the gaps with the zeros memory starts with, so the module
// initialises the same memory. Sections other than the data section are
// copied as they are. A module whose data segments are not all active
// segments of memory 0 at constant offsets is returned unchanged.
func packData(mod []byte) ([]byte, error) {
	secs, err := sections(mod)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Write(mod[:8])
	for _, s := range secs {
		body := s.body
		if s.id == 11 {
			packed, ok, err := packSegments(body)
			if err != nil {
				return nil, err
			}
			if !ok {
				return mod, nil
			}
			body = packed
		}
		out.WriteByte(s.id)
		out.Write(binary.AppendUvarint(nil, uint64(len(body))))
		out.Write(body)
	}
	return out.Bytes(), nil
}

// pageSize is the size of a page of WebAssembly memory.
const pageSize = 64 << 10

// capMemory sets the largest size of a module's memory to limit bytes: the
// browser kernel's hard memory cap, as a worker process's is natively. The
// Go linker declares the memory with a minimum and no maximum, so that
// the runtime grows it as the heap needs, up to 4 GiB in a browser; with a
// maximum, growing past it fails, and the runtime stops with "out of
// memory" (which the page reports as the memory limit, see
// snippets.Kernel.Stopped) before the tab takes gigabytes. The module's
// one memory must be its own (not imported) and start below limit.
func capMemory(mod []byte, limit int64) ([]byte, error) {
	secs, err := sections(mod)
	if err != nil {
		return nil, err
	}
	maxPages := uint64(limit / pageSize)
	var out bytes.Buffer
	out.Write(mod[:8])
	found := false
	for _, s := range secs {
		body := s.body
		if s.id == 5 {
			r := &reader{b: body}
			n := r.uvarint()
			flags := r.byte()
			min := r.uvarint()
			if flags&1 != 0 {
				r.uvarint() // the maximum it had
			}
			switch {
			case r.err != nil || n != 1 || flags&^1 != 0 || len(r.b) != 0:
				return nil, fmt.Errorf("%w: a memory section that is not one 32-bit memory", errModule)
			case min > maxPages:
				return nil, fmt.Errorf("%w: its memory starts at %d pages, above the cap of %d", errModule, min, maxPages)
			}
			body = binary.AppendUvarint([]byte{1, 1}, min)
			body = binary.AppendUvarint(body, maxPages)
			found = true
		}
		out.WriteByte(s.id)
		out.Write(binary.AppendUvarint(nil, uint64(len(body))))
		out.Write(body)
	}
	if !found {
		return nil, fmt.Errorf("%w: it declares no memory of its own", errModule)
	}
	return out.Bytes(), nil
}

// A section is one section of a module: its id and its contents.
type section struct {
	id   byte
	body []byte
}

var errModule = errors.New("not a WebAssembly module")

// sections splits a module into its sections.
func sections(mod []byte) ([]section, error) {
	if len(mod) < 8 || !bytes.Equal(mod[:4], []byte("\x00asm")) {
		return nil, errModule
	}
	var secs []section
	for p := mod[8:]; len(p) > 0; {
		n, k := binary.Uvarint(p[1:])
		if k <= 0 || n > uint64(len(p)-1-k) {
			return nil, fmt.Errorf("%w: section %d is cut short", errModule, p[0])
		}
		secs = append(secs, section{p[0], p[1+k : 1+k+int(n)]})
		p = p[1+k+int(n):]
	}
	return secs, nil
}

// A segment is an active data segment of memory 0.
type segment struct {
	off  uint32
	data []byte
}

// packSegments returns a data section's segments joined; ok is false when
// the section holds a segment of another kind.
func packSegments(body []byte) (packed []byte, ok bool, err error) {
	r := &reader{b: body}
	n := r.uvarint()
	if n > uint64(len(body)) {
		return nil, false, fmt.Errorf("%w: %d data segments in %d bytes", errModule, n, len(body))
	}
	segs := make([]segment, 0, n)
	for range n {
		// flags 0: active, memory 0; then i32.const OFFSET end.
		if r.uvarint() != 0 || r.byte() != 0x41 {
			return nil, false, r.err
		}
		off := r.varint32()
		if r.byte() != 0x0b || off < 0 {
			return nil, false, r.err
		}
		size := r.uvarint()
		data := r.bytes(size)
		if r.err != nil {
			return nil, false, r.err
		}
		segs = append(segs, segment{uint32(off), data})
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, false, fmt.Errorf("%w: a malformed data section", errModule)
	}
	slices.SortStableFunc(segs, func(a, b segment) int { return int(a.off) - int(b.off) })
	var joined []segment
	for _, s := range segs {
		if len(joined) > 0 {
			last := &joined[len(joined)-1]
			end := uint64(last.off) + uint64(len(last.data))
			if uint64(s.off) < end {
				return nil, false, nil // overlapping segments: leave them be
			}
			if gap := uint64(s.off) - end; gap <= packGap {
				last.data = append(append(last.data, make([]byte, gap)...), s.data...)
				continue
			}
		}
		joined = append(joined, segment{s.off, slices.Clone(s.data)})
	}
	out := binary.AppendUvarint(nil, uint64(len(joined)))
	for _, s := range joined {
		out = append(out, 0, 0x41)
		out = appendVarint32(out, int32(s.off))
		out = append(out, 0x0b)
		out = binary.AppendUvarint(out, uint64(len(s.data)))
		out = append(out, s.data...)
	}
	return out, true, nil
}

// reader reads a section's LEB128 numbers and bytes; past the end it
// returns zeros and sets err.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("%w: a data section cut short", errModule)
	}
	r.b = nil
}

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.fail()
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) uvarint() uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[k:]
	return v
}

// varint32 reads a signed LEB128 number of at most 5 bytes.
func (r *reader) varint32() int32 {
	var v int64
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= int64(c&0x7f) << shift
		if c&0x80 == 0 {
			if c&0x40 != 0 {
				v |= -1 << (shift + 7) // sign-extend
			}
			return int32(v)
		}
	}
	r.fail()
	return 0
}

func (r *reader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

// appendVarint32 appends v in signed LEB128.
func appendVarint32(b []byte, v int32) []byte {
	x := int64(v)
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if (x == 0 && c&0x40 == 0) || (x == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
