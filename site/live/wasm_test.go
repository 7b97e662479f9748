package live

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
)

// testModule is a module with a type section, a data section holding segs
// (written as given: flags 0, i32.const offset) and a custom section.
func testModule(segs ...segment) []byte {
	mod := []byte("\x00asm\x01\x00\x00\x00")
	add := func(id byte, body []byte) {
		mod = append(mod, id)
		mod = binary.AppendUvarint(mod, uint64(len(body)))
		mod = append(mod, body...)
	}
	add(1, []byte{1, 0x60, 0, 0}) // one type: func() -> ()
	data := binary.AppendUvarint(nil, uint64(len(segs)))
	for _, s := range segs {
		data = append(data, 0, 0x41)
		data = appendVarint32(data, int32(s.off))
		data = append(data, 0x0b)
		data = binary.AppendUvarint(data, uint64(len(s.data)))
		data = append(data, s.data...)
	}
	add(11, data)
	add(0, []byte("\x04nameXYZ"))
	return mod
}

// memory is what a module's data segments write into zeroed memory.
func memory(t *testing.T, mod []byte) ([]byte, int) {
	t.Helper()
	secs, err := sections(mod)
	noErr(t, err)
	var mem []byte
	n := 0
	for _, s := range secs {
		if s.id != 11 {
			continue
		}
		r := &reader{b: s.body}
		count := r.uvarint()
		for range count {
			r.uvarint()
			r.byte()
			off := int(r.varint32())
			r.byte()
			data := r.bytes(r.uvarint())
			if need := off + len(data); need > len(mem) {
				mem = append(mem, make([]byte, need-len(mem))...)
			}
			copy(mem[off:], data)
			n++
		}
		if r.err != nil {
			t.Fatal(r.err)
		}
	}
	return mem, n
}

func TestPackData(t *testing.T) {
	segs := []segment{
		{300, []byte("def")},
		{100, []byte("abc")}, // out of order, as a linker may write them
		{304, []byte("g")},
		{300 + packGap + 200, []byte("far")},
		{1 << 20, bytes.Repeat([]byte{7}, 1000)},
	}
	mod := testModule(segs...)
	packed, err := packData(mod)
	noErr(t, err)
	want, _ := memory(t, mod)
	got, n := memory(t, packed)
	if !bytes.Equal(got, want) {
		t.Errorf("packed memory differs from the module's")
	}
	// 100, 300 and 304 join; 300+packGap+200 is too far, and so is 1 MiB.
	if n != 3 {
		t.Errorf("%d segments after packing, want 3", n)
	}
	in, _ := sections(mod)
	out, _ := sections(packed)
	if len(in) != len(out) {
		t.Fatalf("%d sections, want %d", len(out), len(in))
	}
	for i := range in {
		if in[i].id != out[i].id || (in[i].id != 11 && !bytes.Equal(in[i].body, out[i].body)) {
			t.Errorf("section %d changed: id %d, want %d", i, out[i].id, in[i].id)
		}
	}
	again, err := packData(packed)
	if err != nil || !bytes.Equal(again, packed) {
		t.Errorf("packing a packed module changed it (err %v)", err)
	}
}

func TestPackDataLeavesOtherSegments(t *testing.T) {
	mod := testModule(segment{0, []byte("ab")}, segment{8, []byte("cd")})
	// Make the second segment passive (flags 1, no offset): not ours to move.
	i := bytes.LastIndex(mod, []byte{0, 0x41, 8, 0x0b})
	passive := append(append(append([]byte{}, mod[:i]...), 1), mod[i+4:]...)
	passive[bytes.Index(passive, []byte{11})+1] -= 3 // the data section is 3 bytes shorter
	if _, err := sections(passive); err != nil {
		t.Fatal(err)
	}
	got, err := packData(passive)
	if err != nil || !bytes.Equal(got, passive) {
		t.Errorf("a module with a passive segment was changed (err %v)", err)
	}
	overlap := testModule(segment{0, []byte("abcd")}, segment{2, []byte("x")})
	if got, err := packData(overlap); err != nil || !bytes.Equal(got, overlap) {
		t.Errorf("a module with overlapping segments was changed (err %v)", err)
	}
}

func TestPackDataBadModule(t *testing.T) {
	mod := testModule(segment{0, []byte("abcdef")})
	for _, bad := range [][]byte{nil, []byte("\x7fELF\x02\x01\x01\x00"), mod[:len(mod)-3]} {
		if _, err := packData(bad); !errors.Is(err, errModule) {
			t.Errorf("packData(%q...) = %v, want errModule", bad[:min(len(bad), 12)], err)
		}
	}
	// A data section whose segment claims more bytes than it has.
	cut := testModule(segment{0, []byte("abcdef")})
	i := bytes.Index(cut, []byte("abcdef"))
	cut[i-1] = 60
	if _, err := packData(cut); !errors.Is(err, errModule) {
		t.Errorf("a segment longer than its section: err %v, want errModule", err)
	}
}

// memoryLimits returns the minimum and maximum pages of a module's memory
// (max 0: none).
func memoryLimits(mod []byte) (min, max uint64, err error) {
	secs, err := sections(mod)
	if err != nil {
		return 0, 0, err
	}
	for _, s := range secs {
		if s.id != 5 {
			continue
		}
		r := &reader{b: s.body}
		r.uvarint()
		flags := r.byte()
		min = r.uvarint()
		if flags&1 != 0 {
			max = r.uvarint()
		}
		return min, max, r.err
	}
	return 0, 0, errModule
}

// TestCapMemory: the memory of the module gets a maximum, the cap, and
// keeps its minimum; a module that starts above the cap, or has no memory
// of its own, is refused.
func TestCapMemory(t *testing.T) {
	mod := testModule(segment{0, []byte("x")})
	withMemory := func(body []byte) []byte {
		m := append([]byte{}, mod...)
		m = append(m, 5)
		m = binary.AppendUvarint(m, uint64(len(body)))
		return append(m, body...)
	}
	for _, body := range [][]byte{{1, 0, 0x80, 0x02}, {1, 1, 0x80, 0x02, 0x80, 0x80, 0x04}} { // min 256 pages, with and without a maximum
		got, err := capMemory(withMemory(body), 1<<30)
		noErr(t, err)
		min, max, err := memoryLimits(got)
		if err != nil || min != 256 || max != 1<<30/pageSize {
			t.Errorf("capped memory %x: min %d max %d (%v), want 256 and %d", body, min, max, err, 1<<30/pageSize)
		}
		if m1, m2 := memory(t, got); !bytes.Equal(m1, []byte("x")) || m2 != 1 {
			t.Errorf("the data changed: %q, %d segments", m1, m2)
		}
	}
	if _, err := capMemory(withMemory([]byte{1, 0, 0x80, 0x02}), 255*pageSize); err == nil {
		t.Error("a memory that starts above the cap was capped")
	}
	if _, err := capMemory(mod, 1<<30); err == nil {
		t.Error("a module without memory was capped")
	}
}

// noErr fails the test on err.
func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
