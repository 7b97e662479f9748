package preview

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// noErr fails t on err.
func noErr(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestOnlyHost: the preview answers requests for its own address (the
// name it was given, localhost, an IP address) on its port, and refuses
// those for any other name, which is what a DNS-rebinding page sends.
func TestOnlyHost(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	noErr(t, err)
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "the preview") })
	hs := Listen(ln, "localhost:0", ok)
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for host, want := range map[string]int{
		"127.0.0.1:" + port:              200,
		"localhost:" + port:              200,
		"LOCALHOST.:" + port:             200,
		"[::1]:" + port:                  200,
		"evil.example:" + port:           421,
		"127.0.0.1.evil.example:" + port: 421,
		"localhost.evil.example:" + port: 421,
		"127.0.0.1:1":                    421,
		"127.0.0.1":                      421, // port 80
	} {
		req, err := http.NewRequest("GET", "http://"+ln.Addr().String()+"/", nil)
		noErr(t, err)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("Host %q: %v", host, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || (want == 200) != (string(body) == "the preview") {
			t.Errorf("Host %q: %d %q, want %d", host, resp.StatusCode, body, want)
		}
	}
	// The name the user gave is allowed too.
	if !hostAllowed("book.test:8000", "book.test", "8000") || hostAllowed("book.test:8000", "other.test", "8000") {
		t.Error("the name in -addr is not the one allowed")
	}
}

// TestSlowHeaders: warpbook serve's server has a time limit on a
// request's headers, and a client that opens a connection and never
// finishes its request's headers is dropped after it, instead of holding
// the connection open for good. The test lowers the limit from Listen's
// 10 s to 1 s, rather than wait ten seconds.
func TestSlowHeaders(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the header time limit; skipped with -short")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	noErr(t, err)
	hs := Listen(ln, "127.0.0.1:0", http.NotFoundHandler())
	if hs.ReadHeaderTimeout != 10*time.Second {
		t.Errorf("the header time limit is %v, want 10s", hs.ReadHeaderTimeout)
	}
	hs.ReadHeaderTimeout = time.Second
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	c, err := net.Dial("tcp", ln.Addr().String())
	noErr(t, err)
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
	start := time.Now()
	// The server closes the connection (after answering 408, or not):
	// the read ends instead of blocking.
	rest, _ := io.ReadAll(bufio.NewReader(c))
	if waited := time.Since(start); waited < hs.ReadHeaderTimeout/2 {
		t.Errorf("the connection ended after %v, before the header limit (%v): %q", waited, hs.ReadHeaderTimeout, rest)
	}
	if len(rest) > 0 && !strings.Contains(string(rest), "408") {
		t.Errorf("the server answered %q", rest)
	}
}
