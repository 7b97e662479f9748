package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"

	"github.com/warpbook/warpbook/site"
	"github.com/warpbook/warpbook/site/preview"
)

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("serve", flag.ContinueOnError)
	fset.SetOutput(stderr)
	book := fset.String("book", "book", "book `directory`")
	addr := fset.String("addr", "127.0.0.1:8000", "`address` to listen on")
	strict := fset.Bool("strict", false, "refuse drafts, as build --strict does")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: warpbook serve [--book DIR] [--addr HOST:PORT] [--strict]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Serve builds the book in memory, serves it, rebuilds on every change to")
		fmt.Fprintln(stderr, "its files and reloads open pages. A failed build shows its errors on every")
		fmt.Fprintln(stderr, "page. Nothing is written to disk.")
		fmt.Fprintln(stderr)
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if fset.NArg() > 0 {
		fset.Usage()
		return 2
	}
	if fi, err := os.Stat(*book); err != nil || !fi.IsDir() {
		fmt.Fprintf(stderr, "warpbook serve: %s is not a directory\n", *book)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	srv := &preview.Server{
		Dir: *book,
		Options: site.Options{
			Strict:  *strict,
			Kernel:  newKernel(),
			Figures: newFigures(),
			Live:    newLive(true),
			Warnf:   func(format string, a ...any) { fmt.Fprintf(stderr, "warning: "+format+"\n", a...) },
		},
		Logf: func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) },
	}
	srv.Rebuild(ctx) // errors are shown on the pages
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "warpbook serve: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "serving %s at http://%s/ (Ctrl-C to stop)\n", *book, ln.Addr())
	hs := &http.Server{Handler: srv}
	go srv.Watch(ctx)
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "warpbook serve: %v\n", err)
		return 1
	}
	return 0
}
