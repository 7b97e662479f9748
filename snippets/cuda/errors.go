package cuda

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Message is one thing the source check or the compiler said about a
// CUDA source, positioned in the page that holds it.
type Message struct {
	// File is the page, as the Job named it.
	File string `json:"file,omitempty"`
	// Line is the line of the page: the Job's Line plus the line of the
	// CUDA source, less one. A message the compiler ties to no line of the
	// source (ptxas's, one about a toolkit header) has the Job's Line.
	Line int `json:"line"`
	// Col is the byte column in that line, 1-based, as go/token counts;
	// 0 when the compiler gives none (nvcc's front end gives lines only).
	Col int `json:"col,omitempty"`
	// SourceLine is the line of the CUDA source, 1-based; 0 when none.
	SourceLine int `json:"source_line,omitempty"`
	// Severity is "error", "warning" or "note".
	Severity string `json:"severity"`
	// Arch is the architecture whose compile said it; "" for the source
	// check.
	Arch string `json:"arch,omitempty"`
	// Text is what was said, with the temporary directory, the toolkit's
	// and the cache's directories and any other host path replaced by
	// neutral names (<cuda>/include/mma.h, <host>/name). Its first line is
	// the message; further lines, when there are any, are the context nvcc
	// gives (the instantiations a template error was detected during).
	Text string `json:"text"`
}

// String returns "file:line:col: severity: text" (without col when 0, and
// with the architecture when there is one).
func (m Message) String() string {
	var b strings.Builder
	if m.File != "" {
		b.WriteString(m.File)
		b.WriteByte(':')
	}
	b.WriteString(strconv.Itoa(m.Line))
	if m.Col > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(m.Col))
	}
	b.WriteString(": ")
	b.WriteString(m.Severity)
	b.WriteString(": ")
	if m.Arch != "" {
		b.WriteString(m.Arch)
		b.WriteString(": ")
	}
	b.WriteString(m.Text)
	return b.String()
}

// Kind says why a compile gave no result.
type Kind int

const (
	// Refused: the source check or the flag allow-list refused the job;
	// no compiler ran.
	Refused Kind = iota + 1
	// Failed: the compiler reported errors.
	Failed
	// Stopped: a cap stopped the compiler (time, memory, file size,
	// output), or the caller's context was done.
	Stopped
	// Broken: the toolkit did something the package does not expect (an
	// output it cannot read, a missing cubin); a bug or a toolkit the
	// package does not know.
	Broken
)

func (k Kind) String() string {
	switch k {
	case Refused:
		return "refused"
	case Failed:
		return "failed"
	case Stopped:
		return "stopped"
	case Broken:
		return "broken"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Error is a compile that gave no result: the messages that say why, each
// positioned in the page (so a caller makes each one a diagnostic at its
// line and column).
type Error struct {
	Kind     Kind
	Messages []Message // at least one
	// Err is the cause, when there is one besides the messages: a
	// context's error, or one of ErrTimeLimit, ErrMemoryLimit,
	// ErrFileLimit, ErrOutputLimit.
	Err error
}

// Error returns the messages, one a line.
func (e *Error) Error() string {
	lines := make([]string, len(e.Messages))
	for i, m := range e.Messages {
		lines[i] = m.String()
	}
	return strings.Join(lines, "\n")
}

func (e *Error) Unwrap() error { return e.Err }

// The caps that stop a compile, as Error.Err.
var (
	ErrTimeLimit   = errors.New("time limit")
	ErrMemoryLimit = errors.New("memory limit")
	ErrFileLimit   = errors.New("file size limit")
	ErrOutputLimit = errors.New("output limit")
)

// ErrNoToolkit is what Find returns (wrapped, with how to get one) when
// there is no CUDA toolkit to use.
var ErrNoToolkit = errors.New("no CUDA toolkit")

// at positions a message at line (0: none) and col of the job's source.
func (j *Job) at(line, col int, severity, arch, format string, args ...any) Message {
	m := Message{File: j.File, Line: j.Line + max(line, 1) - 1, SourceLine: line, Severity: severity, Arch: arch, Text: fmt.Sprintf(format, args...)}
	if j.Line == 0 {
		m.Line = max(line, 1)
	}
	if line > 0 {
		m.Col = col
	}
	return m
}
