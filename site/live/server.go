package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync"

	"github.com/warpbook/warpbook/site/figure"
	"github.com/warpbook/warpbook/snippets"
	"github.com/warpbook/warpbook/snippets/page"
)

// Server answers the browser kernel's messages, one at a time, keeping
// the kernel's work between them (see [snippets.Resident]).
type Server struct {
	k       snippets.Kernel
	mu      sync.Mutex
	parsed  []*page.Page                  // the most recently used last
	sources map[string][]byte             // the last source sent for each path
	pkgs    map[string]*snippets.Packages // the book's packages sent with it
}

// NewServer returns a server that runs requests through k, in this
// process, with a [snippets.Resident] of its own.
func NewServer(k snippets.Kernel) *Server {
	k.Resident = snippets.NewResident()
	return &Server{k: k, sources: map[string][]byte{}, pkgs: map[string]*snippets.Packages{}}
}

// packages returns the book's packages the page at path may import: those
// loaded from d when src, the page's source, is sent (d nil: none), else
// those kept from the last time.
func (s *Server) packages(path, src string, d *snippets.PackagesData) (*snippets.Packages, page.Diagnostics) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if src != "" {
		ps, ds := snippets.PackagesFromData(d)
		if len(ds) > 0 {
			return nil, ds
		}
		s.pkgs[path] = ps
	}
	return s.pkgs[path], nil
}

// source returns the source of the page at path: src, which it keeps for
// later requests, or the last one kept.
func (s *Server) source(path, src string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if src != "" {
		s.sources[path] = []byte(src)
	}
	b, ok := s.sources[path]
	return b, ok
}

// parsedPages is how many parsed pages a Server keeps: the book's page and
// a few of the reader's versions of it.
const parsedPages = 4

// parse parses a page, or returns it parsed before.
func (s *Server) parse(path string, src []byte) *page.Page {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, p := range s.parsed {
		if p.Path == filepath.Clean(path) && bytes.Equal(p.Source, src) {
			s.parsed = append(append(s.parsed[:i:i], s.parsed[i+1:]...), p)
			return p
		}
	}
	p, _ := page.Parse(path, src)
	s.parsed = append(s.parsed, p)
	if len(s.parsed) > parsedPages {
		s.parsed = s.parsed[1:]
	}
	return p
}

// message is a request as the worker script posts it.
type message struct {
	ID     int            `json:"id"`
	Op     string         `json:"op"`
	Run    *Request       `json:"run,omitempty"`
	Figure *FigureRequest `json:"figure,omitempty"`
}

// reply is the answer to a message.
type reply struct {
	ID     int           `json:"id"`
	Run    *Result       `json:"run,omitempty"`
	Figure *FigureResult `json:"figure,omitempty"`
	Error  string        `json:"error,omitempty"`
}

// FigureRequest redraws a figure with some of its inputs changed.
type FigureRequest struct {
	// YAML is the figure block's body as the page has it.
	YAML string `json:"yaml"`
	// ID is the figure's id on the page.
	ID string `json:"id"`
	// Values are the reader's values of its controls, by key.
	Values map[string]string `json:"values"`
}

// FigureResult is a redrawn figure, or why it could not be drawn.
type FigureResult struct {
	SVG  string `json:"svg,omitempty"`
	Data string `json:"data,omitempty"`
	// Caption says what the redrawn figure shows, for the reader's inputs.
	Caption string `json:"caption,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Figure redraws a figure through the figure package, as the build draws
// it.
func Figure(req *FigureRequest) *FigureResult {
	f, err := figure.DrawWith([]byte(req.YAML), req.ID, req.Values)
	if err != nil {
		msg := err.Error()
		var fe *figure.Error
		if errors.As(err, &fe) {
			msg = fe.Msg
		}
		return &FigureResult{Error: msg}
	}
	return &FigureResult{SVG: f.SVG, Data: f.Data, Caption: f.Caption}
}

// Idle does one piece of the work that runs left for later (see
// [snippets.Resident.Idle]) and reports whether there was any. The
// browser kernel calls it when no request is being answered.
func (s *Server) Idle() bool { return s.k.Resident.Idle() }

// Handle answers one message (JSON) with one reply (JSON).
func (s *Server) Handle(ctx context.Context, msg []byte) []byte {
	var m message
	var r reply
	if err := json.Unmarshal(msg, &m); err != nil {
		r.Error = "bad request: " + err.Error()
	} else {
		r.ID = m.ID
		switch {
		case m.Op == "run" && m.Run != nil:
			r.Run = s.Run(ctx, m.Run)
		case m.Op == "figure" && m.Figure != nil:
			r.Figure = Figure(m.Figure)
		default:
			r.Error = "unknown request " + m.Op
		}
	}
	b, _ := json.Marshal(&r)
	return b
}
