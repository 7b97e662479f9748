//go:build !(js && wasm)

package worker

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

func inProcess(j *Job, started func(u int)) (Proc, error) {
	r, w, end, err := stdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &goProc{r: r, done: make(chan struct{}), stderr: cappedBuffer{max: 64 << 10}}
	go func() {
		defer close(p.done)
		defer end()
		defer func() {
			if e := recover(); e != nil {
				p.err = fmt.Errorf("panic: %v", e)
			}
		}()
		serve(j, w, &p.stderr, false, started)
	}()
	return p, nil
}

type goProc struct {
	r      io.ReadCloser
	done   chan struct{}
	stderr cappedBuffer
	err    error
	once   sync.Once
	killed bool
}

func (p *goProc) Stdout() io.Reader { return p.r }
func (p *goProc) Pid() int          { return 0 }
func (p *goProc) Kill() {
	p.once.Do(func() {
		p.killed = true
		p.r.Close()
	})
}
func (p *goProc) Wait() ([]byte, error) {
	if p.killed {
		return nil, errors.New("killed")
	}
	<-p.done
	p.r.Close()
	return p.stderr.Bytes(), p.err
}

// stdoutPipe returns where an in-process job writes (w, which the
// interpreter also gives snippets as os.Stdout, because it is a file) and
// where the runner reads it (r); end closes w.
func stdoutPipe() (r io.ReadCloser, w io.Writer, end func(), err error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	return pr, pw, func() { pw.Close() }, nil
}
