package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/site/preview"
)

var serveCommand = command{
	summary: "serve the book with live rebuilds while you write",
	usage: `usage: warpbook serve [flags] [book]

Serve builds the book (default: book) in memory, serves it, rebuilds on every
change to its files and reloads open pages. A failed build shows its errors
on every page. Nothing is written to disk.`,
	setup: func(fs *flag.FlagSet, c *cli) func([]string) int {
		book := fs.String("book", "book", "book `directory` (or give it as the argument)")
		addr := fs.String("addr", "127.0.0.1:8000", "`address` to listen on")
		strict := fs.Bool("strict", false, "refuse drafts, as build --strict does")
		return func(args []string) int {
			if code, ok := c.bookArg(book, args); !ok {
				return code
			}
			return serveBook(c, *book, *addr, *strict)
		}
	},
}

// serveBook serves the book in dir at addr until interrupted.
func serveBook(c *cli, dir, addr string, strict bool) int {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return c.failf("%s is not a directory", dir)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	srv := &preview.Server{
		Dir: dir,
		Options: site.Options{
			Strict:   strict,
			Kernel:   newKernel(),
			Figures:  newFigures(),
			Live:     newLive(true, ""),
			Practice: newLive(true, live.PracticePackage),
			Warnf:    func(format string, a ...any) { fmt.Fprintf(c.stderr, "warning: "+format+"\n", a...) },
		},
		Logf: func(format string, a ...any) { fmt.Fprintf(c.stderr, format+"\n", a...) },
	}
	// The port opens at once (a busy one is reported before any work);
	// pages say the book is building until the first build lands.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return c.failf("%v", err)
	}
	fmt.Fprintf(c.stdout, "serving %s at http://%s/ (Ctrl-C to stop)\n", dir, ln.Addr())
	hs := preview.Listen(ln, addr, srv)
	go func() {
		srv.Rebuild(ctx) // errors are shown on the pages
		srv.Watch(ctx)
	}()
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return c.failf("%v", err)
	}
	return 0
}
