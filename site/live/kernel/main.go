//go:build js && wasm

// Command kernel is the browser kernel: the snippets kernel and the
// figures, compiled to WebAssembly, serving one page's requests in a Web
// Worker. It is built by [live.Build]; see package live for the protocol.
//
// The worker's script posts each request to the function the module sets
// as globalThis.warpbookKernel, a JSON string; the module answers with
// postMessage, one JSON object per request, with the request's id, and
// posts {"started": ID, "limitMs": N} as each cell or checked value
// starts, so that the page can end the worker when it runs past its limit.
package main

import (
	"context"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/warpbook/warpbook/site/live"
	"github.com/warpbook/warpbook/snippets"
)

// idleAfter is how long the kernel waits after a reply before it does the
// work the run left for later.
const idleAfter = 20 * time.Millisecond

func main() {
	// The worker's script sets GOGC and GOMEMLIMIT (see site/assets/live.js);
	// the module's memory is capped at the memory limit (see package live).
	// Runaway recursion stops as natively, with a stack overflow.
	debug.SetMaxStack(snippets.MaxStack)
	post := js.Global().Get("postMessage")
	k := snippets.Kernel{Started: func(id string, limit time.Duration) {
		post.Invoke(js.ValueOf(map[string]any{"started": id, "limitMs": limit.Milliseconds()}))
	}}
	s := live.NewServer(k)
	// busy counts the requests being answered (WebAssembly runs one
	// goroutine at a time, and they switch only where one blocks).
	var busy atomic.Int32
	js.Global().Set("warpbookKernel", js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) == 0 {
			return nil
		}
		msg := args[0].String()
		// A wrapped function must not block the event loop.
		go func() {
			busy.Add(1)
			out := s.Handle(context.Background(), []byte(msg))
			busy.Add(-1)
			post.Invoke(string(out))
			// What the run left for later (the rest of the page to
			// compile) waits until the reply is out and any request
			// that came meanwhile has started (this goroutine sleeps,
			// which gives the event loop back), and never runs while
			// one is answered: a snippet's time limit counts from its
			// start.
			time.Sleep(idleAfter)
			for busy.Load() == 0 && s.Idle() {
				// The compile's garbage is collected now too, rather
				// than in the middle of a later run.
				runtime.GC()
				time.Sleep(idleAfter)
			}
		}()
		return nil
	}))
	post.Invoke(js.ValueOf(map[string]any{"ready": true}))
	select {}
}
