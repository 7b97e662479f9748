package live

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/warpbook/warpbook/snippets"
)

func TestProbe(t *testing.T) {
	page := os.Getenv("WBPAGE")
	if page == "" {
		t.Skip()
	}
	src, _ := os.ReadFile("../../" + page)
	p, _ := snippets.Parse(page, src)
	s := NewServer(snippets.Kernel{})
	n := len(p.Cells)
	if v := os.Getenv("WBN"); v != "" {
		n = min(n, int(v[0]-'0')*10+int(v[1]-'0'))
	}
	for _, c := range p.Cells[:n] {
		t0 := time.Now()
		r := s.Run(context.Background(), &Request{Path: page, Source: string(src), Cell: c.ID()})
		t.Logf("%s %s %v err=%q", c.ID(), r.Status, time.Since(t0), strings.TrimSpace(r.Error))
	}
}
