package worker

import "strings"

// HelperStub declares what the snippets' file of a session calls in
// [HelperGo], with the same signatures and empty bodies: the type checker
// checks the snippets against it, so that it needs no import of its own
// (HelperGo imports runtime, which snippets may not).
const HelperStub = `package main

func _wbStart(u int)               {}
func _wbDone(u int)                {}
func _wbPanics(u int, f func())    {}
func _wbCheck(u int, f func() any) {}
`

// HelperGo is the second file of every natively compiled session: the
// scaffolding that speaks the protocol on stdout (where each unit starts
// and ends, with its panic, value or left-over goroutines), as [Serve]
// does for the interpreter. Its names start with _wb; the sandbox refuses
// snippets that use them. It reads the nonce from the environment
// variable [NonceVar].
const HelperGo = `package main

import (
	_wbfmt "fmt"
	_wbos "os"
	_wbruntime "runtime"
	_wbstrconv "strconv"
	_wbtime "time"
)

var _wbNonce = _wbos.Getenv("` + NonceVar + `")

var _wbUnit = -1

var _wbBase int

func _wbMark(u int, ev, key, val string, leaked int) {
	s := "\x00" + _wbNonce + " {\"u\":" + _wbstrconv.Itoa(u) + ",\"ev\":\"" + ev + "\""
	if key != "" {
		s += ",\"" + key + "\":" + _wbQuote(val)
	}
	if leaked > 0 {
		s += ",\"leaked\":" + _wbstrconv.Itoa(leaked)
	}
	_wbos.Stdout.WriteString(s + "}\n")
}

func _wbQuote(s string) string {
	b := []byte{'"'}
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', "0123456789abcdef"[r>>4], "0123456789abcdef"[r&15])
		default:
			b = append(b, string(r)...)
		}
	}
	return string(append(b, '"'))
}

func _wbMsg(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case _wbfmt.Stringer:
		return v.String()
	}
	return _wbfmt.Sprint(r)
}

// _wbSettle gives the goroutines a unit started a second to end, and
// returns how many are left.
func _wbSettle() int {
	deadline := _wbtime.Now().Add(_wbtime.Second)
	for _wbruntime.NumGoroutine() > _wbBase && _wbtime.Now().Before(deadline) {
		_wbtime.Sleep(_wbtime.Millisecond)
	}
	if n := _wbruntime.NumGoroutine() - _wbBase; n > 0 {
		return n
	}
	return 0
}

func _wbStart(u int) {
	_wbUnit = u
	_wbBase = _wbruntime.NumGoroutine()
	_wbMark(u, "start", "", "", 0)
}

func _wbDone(u int) { _wbMark(u, "done", "", "", _wbSettle()) }

func _wbPanics(u int, f func()) {
	_wbStart(u)
	defer func() {
		if r := recover(); r != nil {
			_wbMark(u, "done", "panic", _wbMsg(r), _wbSettle())
		}
	}()
	f()
	_wbDone(u)
}

func _wbCheck(u int, f func() any) {
	_wbStart(u)
	v := f()
	_wbMark(u, "done", "value", _wbfmt.Sprint(v), _wbSettle())
}

func main() {
	defer func() {
		if r := recover(); r != nil {
			_wbMark(_wbUnit, "done", "panic", _wbMsg(r), 0)
			_wbos.Exit(3)
		}
	}()
	_wbMark(-1, "ready", "", "", 0)
	_wbCells()
	_wbMark(-1, "end", "", "", 0)
}
`

// HelperEntry is the function that runs a session compiled as a package
// of a shared executable (see [HelperPackage]), in place of main.
const HelperEntry = "WbMain"

// HelperPackage is [HelperGo] as a file of package name, whose main is
// [HelperEntry]: the scaffolding of a session that is one of the packages
// of an executable that runs many sessions, one per process.
func HelperPackage(name string) string {
	s := strings.Replace(HelperGo, "package main\n", "package "+name+"\n", 1)
	return strings.Replace(s, "\nfunc main() {", "\nfunc "+HelperEntry+"() {", 1)
}
