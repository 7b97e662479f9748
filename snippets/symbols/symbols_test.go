package symbols

import (
	"bytes"
	"go/types"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/warpbook/warpbook/snippets/internal/symgen"
)

const regenerate = "go generate ./snippets/..."

// TestStale regenerates the package in memory and compares it with the
// files on disk. The standard library's files depend on the Go release, so
// they are compared only under the release that generated them.
func TestStale(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerating the symbols takes seconds; skipped with -short")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := symgen.Generate(root)
	if err != nil {
		t.Fatalf("cannot regenerate the snippet symbols: %v\n(fix the engine package, then run: %s)", err, regenerate)
	}
	disk, err := symgen.Existing(".")
	if err != nil {
		t.Fatal(err)
	}
	sameGo := runtime.Version() == GoVersion || strings.HasPrefix(runtime.Version(), GoVersion+" ")
	if !sameGo {
		t.Logf("generated with %s, testing with %s: comparing the engine only", GoVersion, runtime.Version())
	}
	var stale []string
	names := map[string]bool{}
	for n := range fresh {
		names[n] = true
	}
	for n := range disk {
		names[n] = true
	}
	for n := range names {
		f, d := fresh[n], disk[n]
		switch {
		case strings.HasPrefix(n, "std_") && !sameGo:
			continue
		case n == "types.bin":
			if f == nil || d == nil {
				stale = append(stale, n)
				continue
			}
			include := func(p string) bool { return sameGo || strings.Contains(p, ".") }
			fa, err1 := symgen.API(f, include)
			da, err2 := symgen.API(d, include)
			if err1 != nil || err2 != nil || fa != da {
				stale = append(stale, n+" (the types of the engine packages changed)")
			}
		case n == "manifest.gen.go" && !sameGo:
			if !bytes.Equal(dropLine(f, "const GoVersion"), dropLine(d, "const GoVersion")) {
				stale = append(stale, n)
			}
		case !bytes.Equal(f, d):
			switch {
			case f == nil:
				stale = append(stale, n+" (no longer generated)")
			case d == nil:
				stale = append(stale, n+" (missing)")
			default:
				stale = append(stale, n)
			}
		}
	}
	if len(stale) > 0 {
		sort.Strings(stale)
		t.Errorf("snippets/symbols is stale; the engine changed since it was generated:\n\t%s\nRun this from the repository root and commit the result:\n\t%s",
			strings.Join(stale, "\n\t"), regenerate)
	}
}

func dropLine(b []byte, prefix string) []byte {
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if !bytes.HasPrefix(l, []byte(prefix)) {
			out = append(out, l)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

func TestTypes(t *testing.T) {
	pkgs, err := Types()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(Std(), Engine()...) {
		if pkgs[p] == nil || !pkgs[p].Complete() {
			t.Errorf("no complete type information for %s", p)
		}
		if _, ok := Symbols(p)[p+"/"+pkgs[p].Name()]; !ok {
			t.Errorf("no yaegi symbols for %s", p)
		}
	}
	if names, ok := Allowed("os"); !ok || len(names) == 0 {
		t.Errorf("os should be allowed with a few names, got %v %v", names, ok)
	}
	if _, ok := Allowed("os/exec"); ok {
		t.Error("os/exec must not be allowed")
	}
	if _, ok := Symbols("os")["os/os"]["Exit"]; ok {
		t.Error("os.Exit must not be in the symbol table")
	}
}

// TestSymbols checks which tables Symbols gives: those of the allowed
// packages asked for and of the packages whose interfaces their APIs take
// (fmt's Fprint takes an io.Writer), and none of a package outside the
// allow-list.
func TestSymbols(t *testing.T) {
	keys := func(m map[string]map[string]reflect.Value) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	}
	for _, c := range []struct {
		paths []string
		want  []string
	}{
		{[]string{"fmt"}, []string{"fmt/fmt", "io/io"}},
		{[]string{"container/heap", "strconv"}, []string{"container/heap/heap", "sort/sort", "strconv/strconv"}},
		{[]string{"os/exec", "unsafe", "reflect", "fmt/fmt", ""}, nil},
		{[]string{"github.com/warpbook/warpbook/engine/gpu"}, []string{"github.com/warpbook/warpbook/engine/gpu/gpu"}},
	} {
		if got := keys(Symbols(c.paths...)); !slices.Equal(got, c.want) {
			t.Errorf("Symbols(%q) gives %q, want %q", c.paths, got, c.want)
		}
	}
	// A table is built once and shared.
	a, b := Symbols("fmt")["fmt/fmt"], Symbols("fmt")["fmt/fmt"]
	if reflect.ValueOf(a).Pointer() != reflect.ValueOf(b).Pointer() {
		t.Error("fmt's table was built twice")
	}
}

// TestTrimmedTypes checks what the type data keeps of a struct whose
// unexported fields symgen dropped: its comparability (== on two
// strings.Builder values is still an error, on two time.Time values
// still allowed), its methods, unexported ones included, and no field a
// snippet could name but the blank one that stands for the rest.
func TestTrimmedTypes(t *testing.T) {
	pkgs, err := TypesOf([]string{"strings", "bytes", "time", "sync", "os"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pkg, name  string
		comparable bool
	}{
		{"strings", "Builder", false},
		{"bytes", "Buffer", false},
		{"time", "Time", true},
		{"sync", "Mutex", true},
		{"os", "File", true},
	} {
		obj := pkgs[c.pkg].Scope().Lookup(c.name)
		if obj == nil {
			t.Errorf("no %s.%s", c.pkg, c.name)
			continue
		}
		if got := types.Comparable(obj.Type()); got != c.comparable {
			t.Errorf("%s.%s comparable: %v, want %v", c.pkg, c.name, got, c.comparable)
		}
		st := obj.Type().Underlying().(*types.Struct)
		for i := 0; i < st.NumFields(); i++ {
			if f := st.Field(i); !f.Exported() && !f.Embedded() && f.Name() != "_" {
				t.Errorf("%s.%s keeps the unexported field %s", c.pkg, c.name, f.Name())
			}
		}
	}
	// Methods stay, unexported ones too: *os.File's Chmod (which the lint
	// names when a snippet calls it) and time.Time's unexported helpers.
	file := pkgs["os"].Scope().Lookup("File").Type()
	if o, _, _ := types.LookupFieldOrMethod(types.NewPointer(file), false, nil, "Chmod"); o == nil {
		t.Error("*os.File lost its Chmod method")
	}
	tm := pkgs["time"].Scope().Lookup("Time").Type().(*types.Named)
	unexported := 0
	for i := 0; i < tm.NumMethods(); i++ {
		if !tm.Method(i).Exported() {
			unexported++
		}
	}
	if unexported == 0 {
		t.Error("time.Time lost its unexported methods")
	}
}
