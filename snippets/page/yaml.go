package page

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/warpbook/warpbook/internal/yamlguard"
	"github.com/warpbook/warpbook/snippets/internal/bytesize"
)

// Limits on one YAML document: a page's front matter, a figure block,
// book.yaml. goccy/go-yaml has no limits of its own; [DecodeYAML] checks
// these on the tokens and the syntax tree before it decodes.
const (
	// MaxYAMLBytes is the largest YAML document: 64 KiB (the book's largest
	// figure block is about 3 KB).
	MaxYAMLBytes = 64 << 10
	// MaxYAMLDepth is the deepest nesting of mappings and sequences.
	MaxYAMLDepth = 32
	// MaxYAMLExpanded bounds the size of a document with every alias
	// replaced by the value of its anchor, counted as the bytes of its
	// scalars plus one per scalar and two per collection: 1 MiB. Without
	// aliases a document never comes near it; a "billion laughs" of nested
	// aliases, a few hundred bytes that would decode to gigabytes, stops at
	// the alias that passes it.
	MaxYAMLExpanded = 1 << 20
)

// DecodeYAML decodes data, a YAML document that starts on line line of
// file, into v strictly: a key v has no field for is an error. It first
// checks the document against [MaxYAMLBytes], [MaxYAMLDepth] and
// [MaxYAMLExpanded], so that hostile YAML is an error rather than a
// process that runs out of memory or time. Empty data (only white space)
// leaves v as it is.
//
// Every error is a [*Diagnostic] at the position of the problem in file
// (line counted from line, column in bytes); one past a limit wraps
// [ErrInputLimit] and names the limit. A panic in go-yaml (fuzzing finds
// some, such as a tag on a sequence over a mapping) is an error at the
// document's first line, not a crash.
//
// It returns the position of every key of the document, by its path
// ("title", "byline.status", "program[1].label"), for messages about a
// key's value.
func DecodeYAML(file string, line int, data []byte, v any) (keys map[string]Pos, err error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	at := func(l, col int) Pos { return Pos{File: file, Line: line + l - 1, Col: col} }
	defer func() {
		if p := recover(); p != nil {
			keys, err = nil, &Diagnostic{Pos: at(1, 1), Msg: fmt.Sprintf("YAML that go-yaml cannot decode (it panicked: %v)", p)}
		}
	}()
	if len(data) > MaxYAMLBytes {
		return nil, &Diagnostic{Pos: at(1, 1), Msg: "YAML is larger than " + bytesize.Format(MaxYAMLBytes) + ", the limit on a YAML document", Err: ErrInputLimit}
	}
	// limit is the error at tk for YAML nested too deep or, aliases
	// expanded, too big.
	limit := func(tk *token.Token, deep bool) error {
		d := &Diagnostic{Pos: at(1, 1), Msg: "YAML aliases expand past " + bytesize.Format(MaxYAMLExpanded) + ", the limit on a document's expanded size", Err: ErrInputLimit}
		if deep {
			d.Msg = fmt.Sprintf("YAML nested deeper than %d levels, the limit", MaxYAMLDepth)
		}
		if tk != nil && tk.Position != nil {
			d.Pos = at(bytePos(data, tk.Position))
		}
		return d
	}
	toks, deep := yamlguard.Tokenize(string(data), MaxYAMLDepth)
	if deep != nil {
		return nil, limit(deep, true)
	}
	f, err := parser.Parse(toks, 0)
	if err == nil {
		if n, deep := (yamlguard.Limits{Depth: MaxYAMLDepth, Size: MaxYAMLExpanded, Weight: yamlSize}).Check(f); n != nil {
			return nil, limit(n.GetToken(), deep)
		}
		keys = keyPaths(f, data, at)
		err = yaml.UnmarshalWithOptions(data, v, yaml.Strict())
	}
	if err == nil {
		return keys, nil
	}
	d := &Diagnostic{Pos: at(1, 0), Msg: err.Error(), Err: err}
	var ye yaml.Error
	if errors.As(err, &ye) {
		d.Msg = ye.GetMessage()
		if tk := ye.GetToken(); tk != nil && tk.Position != nil {
			l, col := bytePos(data, tk.Position)
			d.Pos = at(l, col)
		}
		if strings.HasPrefix(d.Msg, "unknown field ") {
			d.Msg += didYouMeanKey(keys, d.Pos, reflect.TypeOf(v))
		}
	}
	return nil, d
}

// didYouMeanKey returns " (did you mean KEY?)" for the unknown key at pos,
// with the key of t's YAML fields at its level nearest to it, or "".
func didYouMeanKey(keys map[string]Pos, pos Pos, t reflect.Type) string {
	for path, p := range keys {
		if p != pos || strings.HasSuffix(path, "]") {
			continue
		}
		parts := strings.Split(path, ".")
		for _, part := range parts[:len(parts)-1] {
			name, _, _ := strings.Cut(part, "[")
			if t = yamlField(t, name); t == nil {
				return ""
			}
			for range strings.Count(part, "[") { // an item of a sequence
				for t.Kind() == reflect.Pointer {
					t = t.Elem()
				}
				if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
					return ""
				}
				t = t.Elem()
			}
		}
		if near := Nearest(parts[len(parts)-1], yamlFields(t)); near != "" {
			return " (did you mean " + near + "?)"
		}
		return ""
	}
	return ""
}

// yamlFields returns the YAML keys of struct type t (through pointers).
func yamlFields(t reflect.Type) []string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = strings.ToLower(f.Name)
		}
		names = append(names, name)
	}
	return names
}

// yamlField returns the type of struct type t's field with YAML key name.
func yamlField(t reflect.Type, name string) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	for f := range t.Fields() {
		key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if key == "" {
			key = strings.ToLower(f.Name)
		}
		if f.IsExported() && key == name {
			return f.Type
		}
	}
	return nil
}

// keyPaths returns the position of every key of a document, from
// go-yaml's syntax tree, by its path: "title", "byline.status",
// "program[1].label" (a sequence item alone, "program[1]", is where the
// item starts).
func keyPaths(f *ast.File, data []byte, at func(l, col int) Pos) map[string]Pos {
	keys := map[string]Pos{}
	if len(f.Docs) == 0 || f.Docs[0] == nil {
		return keys
	}
	pos := func(tk *token.Token) (Pos, bool) {
		if tk == nil || tk.Position == nil {
			return Pos{}, false
		}
		l, col := bytePos(data, tk.Position)
		return at(l, col), true
	}
	var walk func(n ast.Node, path string)
	walk = func(n ast.Node, path string) {
		switch n := n.(type) {
		case *ast.MappingNode:
			for _, mv := range n.Values {
				walk(mv, path)
			}
		case *ast.MappingValueNode:
			if n == nil || n.Key == nil {
				return
			}
			tk := n.Key.GetToken()
			p, ok := pos(tk)
			if !ok {
				return
			}
			key := tk.Value
			if path != "" {
				key = path + "." + key
			}
			if _, seen := keys[key]; !seen {
				keys[key] = p
			}
			walk(n.Value, key)
		case *ast.SequenceNode:
			for i, v := range n.Values {
				item := fmt.Sprintf("%s[%d]", path, i)
				if v != nil {
					if p, ok := pos(v.GetToken()); ok {
						keys[item] = p
					}
				}
				walk(v, item)
			}
		case *ast.TagNode:
			walk(n.Value, path)
		}
	}
	walk(f.Docs[0].Body, "")
	return keys
}

// yamlSize is what a node counts toward MaxYAMLExpanded: the bytes of a
// scalar plus one, two for a list or mapping.
func yamlSize(n ast.Node) int64 {
	switch n := n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode, *ast.SequenceNode:
		return 2
	case *ast.LiteralNode:
		if n.Value != nil {
			return int64(len(n.Value.Value)) + 1
		}
	default:
		if tk := n.GetToken(); tk != nil {
			return int64(len(tk.Value)) + 1
		}
	}
	return 1
}

// bytePos converts a go-yaml position to the line and byte column in data
// as the page counts them. go-yaml counts columns in characters and, as
// YAML does, takes a lone carriage return for a line break; the page's
// lines end at line feeds only.
func bytePos(data []byte, p *token.Position) (line, col int) {
	// The start of go-yaml's line p.Line.
	start := 0
	for l := 1; l < p.Line && start < len(data); l++ {
		i := bytes.IndexAny(data[start:], "\r\n")
		if i < 0 {
			start = len(data)
			break
		}
		start += i + 1
		if data[start-1] == '\r' && start < len(data) && data[start] == '\n' {
			start++
		}
	}
	b := start
	for n := 1; n < p.Column && b < len(data) && data[b] != '\n' && data[b] != '\r'; n++ {
		_, w := utf8.DecodeRune(data[b:])
		b += w
	}
	line = 1 + bytes.Count(data[:b], []byte{'\n'})
	return line, b - (bytes.LastIndexByte(data[:b], '\n') + 1) + 1
}
