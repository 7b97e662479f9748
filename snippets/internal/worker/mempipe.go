package worker

import (
	"io"
	"sync"
)

// memPipe is an unbounded in-memory pipe: writes never block, so that it
// can be written from inside another goroutine's system call (the
// WebAssembly stdout hook).
type memPipe struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	eof    bool // the writer is done
	closed bool // the reader is done: writes are dropped
}

func newMemPipe() *memPipe {
	p := &memPipe{}
	p.cond = sync.NewCond(&p.mu)
	return p
}

func (p *memPipe) write(b []byte) {
	if len(b) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.eof {
		return
	}
	p.buf = append(p.buf, b...)
	p.cond.Broadcast()
}

// closeWrite ends the stream: Read returns io.EOF once it is drained.
func (p *memPipe) closeWrite() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.eof = true
	p.cond.Broadcast()
}

// Read implements io.Reader.
func (p *memPipe) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) == 0 && !p.eof && !p.closed {
		p.cond.Wait()
	}
	if p.closed {
		return 0, io.ErrClosedPipe
	}
	if len(p.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(b, p.buf)
	p.buf = p.buf[n:]
	if len(p.buf) == 0 {
		p.buf = nil
	}
	return n, nil
}

// Close implements io.Closer: pending and later writes are dropped.
func (p *memPipe) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	p.buf = nil
	p.cond.Broadcast()
	return nil
}
