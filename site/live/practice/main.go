//go:build js && wasm

// Command practice is the practice page's engine: package problems
// compiled to WebAssembly, without the snippets kernel, so that the page
// generates and grades problems with a module a quarter of the live
// book's size. It is built by [live.Builder] with Package set to
// live.PracticePackage.
//
// The module sets globalThis.warpbookPractice, a function from a request
// (problems.Request, as JSON) to its answer (problems.Response, as JSON),
// and calls globalThis.warpbookPracticeReady once it is set. It runs on
// the page's own thread: every request is answered in milliseconds.
package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/warpbook/warpbook/site/problems"
)

func main() {
	js.Global().Set("warpbookPractice", js.FuncOf(func(this js.Value, args []js.Value) any {
		var req problems.Request
		res := &problems.Response{}
		if len(args) == 0 {
			res.Error = "no request"
		} else if err := json.Unmarshal([]byte(args[0].String()), &req); err != nil {
			res.Error = "bad request: " + err.Error()
		} else {
			res = problems.Serve(&req)
		}
		b, err := json.Marshal(res)
		if err != nil {
			b, _ = json.Marshal(problems.Response{Error: err.Error()})
		}
		return string(b)
	}))
	if ready := js.Global().Get("warpbookPracticeReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {}
}
