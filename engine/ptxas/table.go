package ptxas

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Header is the first line of a resource table: the columns' names.
const Header = "KERNEL  ARCH  REGISTERS  SMEM  STACK  SPILL-STORES  SPILL-LOADS"

// columns are the header's names, and numbers the count of numeric
// columns at the end of a row.
var (
	columns = strings.Fields(Header)
	numbers = len(columns) - 2
)

// archRE is an architecture name, as nvcc's -arch takes it.
var archRE = regexp.MustCompile(`^sm_[0-9]{2,3}[af]?$`)

// MaxName bounds a kernel's name in a table, in bytes: a template kernel's
// demangled name is long, not this long.
const MaxName = 1024

// FormatTable returns the resource table of ks, one row a kernel, in the
// order given: the header, then each kernel's name, architecture,
// registers, static shared memory, stack frame, spill stores and spill
// loads, in columns two spaces apart, names left-aligned and numbers
// right-aligned, each line ending in a newline. A kernel's Cell is not
// written: the table belongs to one cell.
func FormatTable(ks []Kernel) string {
	rows := [][]string{columns}
	for _, k := range ks {
		r := k.Resources
		rows = append(rows, []string{k.Name, k.Arch, strconv.Itoa(r.Registers), strconv.Itoa(r.SharedMem),
			strconv.Itoa(r.StackFrame), strconv.Itoa(r.SpillStores), strconv.Itoa(r.SpillLoads)})
	}
	width := make([]int, len(columns))
	for _, row := range rows {
		for i, c := range row {
			width[i] = max(width[i], len(c))
		}
	}
	var b strings.Builder
	for n, row := range rows {
		var line strings.Builder
		for i, c := range row {
			if i > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[i]-len(c))
			if i < 2 || n == 0 { // names, and the header, to the left
				line.WriteString(c)
				line.WriteString(pad)
			} else {
				line.WriteString(pad)
				line.WriteString(c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// TableError is what is wrong with a resource table, at a line (1-based)
// and byte column (1-based) of its text.
type TableError struct {
	Line, Col int
	Msg       string
}

func (e *TableError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// ParseTable reads a resource table as FormatTable writes it. The columns
// may be aligned any way, a blank line is skipped, and the header must
// name the columns in FormatTable's order. A kernel's name is the text
// before its architecture (it may hold spaces: "tile<64, 2>"). A row that
// does not read, a figure out of range and a kernel listed twice for one
// architecture are a *TableError. An empty text is a table of no kernels.
func ParseTable(text string) ([]Kernel, error) {
	var ks []Kernel
	header := false
	seen := map[[2]string]int{}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		n := i + 1
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !header {
			if strings.Join(strings.Fields(line), " ") != strings.Join(columns, " ") {
				return nil, &TableError{n, 1, fmt.Sprintf("the table's first line must name its columns: %s", Header)}
			}
			header = true
			continue
		}
		fields := fieldsAt(line)
		if len(fields) < len(columns) {
			return nil, &TableError{n, 1, fmt.Sprintf("a row has a kernel, an architecture and %d figures; this one has %d fields", numbers, len(fields))}
		}
		archAt := len(fields) - numbers - 1
		arch := fields[archAt]
		if !archRE.MatchString(arch.text) {
			return nil, &TableError{n, arch.col, fmt.Sprintf("%q is not an architecture (sm_80, sm_90a)", arch.text)}
		}
		name := strings.TrimSpace(line[:arch.col-1])
		if len(name) > MaxName {
			return nil, &TableError{n, 1, fmt.Sprintf("a kernel's name of %d bytes: at most %d", len(name), MaxName)}
		}
		if strings.IndexFunc(name, func(r rune) bool { return unicode.IsControl(r) || r == unicode.ReplacementChar }) >= 0 {
			return nil, &TableError{n, 1, "a kernel's name holds a control character"}
		}
		k := Kernel{Name: name, Arch: arch.text}
		dst := []*int{&k.Registers, &k.SharedMem, &k.StackFrame, &k.SpillStores, &k.SpillLoads}
		for j, f := range fields[archAt+1:] {
			v, err := strconv.ParseInt(f.text, 10, 32)
			if err != nil || v < 0 || (j == 0 && v > 255) {
				return nil, &TableError{n, f.col, fmt.Sprintf("%s %q is not a count from 0 to %s", columns[j+2], f.text, limitText(j))}
			}
			*dst[j] = int(v)
		}
		key := [2]string{name, arch.text}
		if first, dup := seen[key]; dup {
			return nil, &TableError{n, 1, fmt.Sprintf("kernel %s is listed twice for %s (first on line %d)", name, arch.text, first)}
		}
		seen[key] = n
		ks = append(ks, k)
	}
	return ks, nil
}

func limitText(col int) string {
	if col == 0 {
		return "255"
	}
	return strconv.Itoa(1<<31 - 1)
}

// field is one whitespace-separated field of a line and its 1-based
// byte column.
type field struct {
	text string
	col  int
}

func fieldsAt(line string) []field {
	var out []field
	start := -1
	for i := 0; i <= len(line); i++ {
		if i == len(line) || line[i] == ' ' || line[i] == '\t' {
			if start >= 0 {
				out = append(out, field{line[start:i], start + 1})
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}
