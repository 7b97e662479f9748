package snippets

// helperGo is the second file of every generated program: the notebook
// scaffolding that reports, on stdout, where each unit (cell or checked
// value) starts and ends, with its panic or value. Its names start with
// _wb so that snippets do not collide with them. The interpreter worker
// speaks the same protocol (see worker.go).
const helperGo = `package main

import (
	_wbfmt "fmt"
	_wbos "os"
	_wbstrconv "strconv"
)

var _wbNonce = _wbos.Getenv("WARPBOOK_NONCE")

var _wbUnit = -1

func _wbMark(u int, ev, key, val string) {
	s := "\x00" + _wbNonce + " {\"u\":" + _wbstrconv.Itoa(u) + ",\"ev\":\"" + ev + "\""
	if key != "" {
		s += ",\"" + key + "\":" + _wbQuote(val)
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

func _wbStart(u int) {
	_wbUnit = u
	_wbMark(u, "start", "", "")
}

func _wbDone(u int) { _wbMark(u, "done", "", "") }

func _wbPanics(u int, f func()) {
	_wbStart(u)
	defer func() {
		if r := recover(); r != nil {
			_wbMark(u, "done", "panic", _wbMsg(r))
		}
	}()
	f()
	_wbDone(u)
}

func _wbCheck(u int, f func() any) {
	_wbStart(u)
	v := f()
	_wbMark(u, "done", "value", _wbfmt.Sprint(v))
}

func main() {
	defer func() {
		if r := recover(); r != nil {
			_wbMark(_wbUnit, "done", "panic", _wbMsg(r))
			_wbos.Exit(3)
		}
	}()
	_wbMark(-1, "ready", "", "")
	_wbCells()
	_wbMark(-1, "end", "", "")
}
`
