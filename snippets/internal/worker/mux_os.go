//go:build !(js && wasm)

package worker

import (
	"bytes"
	"io"
	"os"
	"sync"
)

// stdoutMux is where the interpreters of Residents print: a pipe, whose
// writing end they also give snippets as os.Stdout (a file), read by one
// goroutine that hands the running job its part, up to the job's token.
type stdoutMux struct {
	file  *os.File // what the interpreters print to
	src   io.Reader
	jobMu sync.Mutex // held by the running job
	mu    sync.Mutex // guards cur
	cur   *residentJob
}

func newMux() (*stdoutMux, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	m := &stdoutMux{file: pw, src: pr}
	go m.forward()
	return m, nil
}

// begin makes job the one that gets what is printed.
func (m *stdoutMux) begin(job *residentJob) {
	m.mu.Lock()
	m.cur = job
	m.mu.Unlock()
}

// out is what the running job writes its events to, and what interpreters
// print to.
func (m *stdoutMux) out() io.Writer { return m.file }

// end ends the job's stream, after everything it printed.
func (m *stdoutMux) end(job *residentJob) { _, _ = m.file.Write(job.token) }

// drop abandons the job: what is printed from now on is not its.
func (m *stdoutMux) drop(job *residentJob) {
	m.mu.Lock()
	if m.cur == job {
		m.cur = nil
	}
	m.mu.Unlock()
}

// forward copies what the interpreters print into the running job's pipe,
// up to the job's token; what comes between jobs (from a unit that was
// abandoned) is dropped.
func (m *stdoutMux) forward() {
	buf := make([]byte, 32<<10)
	var carry []byte
	for {
		n, err := m.src.Read(buf)
		data := append(carry, buf[:n]...)
		carry = nil
		for len(data) > 0 {
			m.mu.Lock()
			job := m.cur
			m.mu.Unlock()
			if job == nil {
				data = nil
				break
			}
			if i := bytes.Index(data, job.token); i >= 0 {
				job.pipe.write(data[:i])
				job.pipe.closeWrite()
				m.mu.Lock()
				if m.cur == job {
					m.cur = nil
				}
				m.mu.Unlock()
				data = data[i+len(job.token):]
				continue
			}
			keep := 0
			if k := bytes.LastIndexByte(data, 0); k >= 0 && bytes.HasPrefix(job.token, data[k:]) {
				keep = len(data) - k
			}
			job.pipe.write(data[:len(data)-keep])
			carry = append([]byte(nil), data[len(data)-keep:]...)
			data = nil
		}
		if err != nil {
			return
		}
	}
}
