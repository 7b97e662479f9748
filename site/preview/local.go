package preview

import (
	"net"
	"net/http"
	"strings"
	"time"
)

// Listen serves h on the listener ln, as warpbook serve does, until the
// returned server is closed: with time limits on a request's headers, its
// body and the answer (the reload requests wait up to 30 s), and only to
// requests for the address it was bound to ([OnlyHost]). addr is the
// address as the user gave it ("127.0.0.1:8000", "localhost:8000").
func Listen(ln net.Listener, addr string, h http.Handler) *http.Server {
	return &http.Server{
		Handler:           OnlyHost(h, addr, ln.Addr()),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
}

// OnlyHost wraps h so that it answers only requests whose Host header
// names the server: the host given in addr (as the user typed it), the
// bound address, localhost, or any IP address, with the bound port. A
// page elsewhere that points a name of its own at 127.0.0.1 (DNS
// rebinding) sends its name as the Host, and gets 421 Misdirected
// Request, not the preview.
func OnlyHost(h http.Handler, addr string, bound net.Addr) http.Handler {
	named, _, _ := net.SplitHostPort(addr)
	_, port, _ := net.SplitHostPort(bound.String())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, named, port) {
			http.Error(w, "warpbook serve answers only requests for its own address (the Host header names another)", http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether the Host header host names a server bound
// to port, which the user named named.
func hostAllowed(host, named, port string) bool {
	name, p, err := net.SplitHostPort(host)
	if err != nil {
		name, p = host, "80"
	}
	if p != port {
		return false
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	switch {
	case name == "localhost" || strings.HasSuffix(name, ".localhost"):
		return true
	case net.ParseIP(strings.Trim(name, "[]")) != nil:
		// An address cannot be rebound: it is the machine itself.
		return true
	}
	return named != "" && strings.EqualFold(name, strings.TrimSuffix(named, "."))
}
