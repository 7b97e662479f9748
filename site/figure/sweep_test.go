package figure_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/warpbook/warpbook/internal/booktest"
	"github.com/warpbook/warpbook/site/figure"
)

// bookFigures returns the YAML of every figure of the pages in dirs, by
// "page#n".
func bookFigures(t *testing.T, dirs ...string) (names []string, srcs [][]byte) {
	t.Helper()
	var pages []string
	for _, d := range dirs {
		ps, err := filepath.Glob(filepath.Join(d, "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, ps...)
	}
	re := regexp.MustCompile("(?s)```figure\n(.*?)```")
	for _, p := range pages {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range re.FindAllSubmatch(src, -1) {
			names = append(names, fmt.Sprintf("%s#%d", p, i+1))
			srcs = append(srcs, m[1])
		}
	}
	if len(srcs) == 0 {
		t.Fatalf("%v have no figures", dirs)
	}
	return names, srcs
}

// Offered lists the values a control offers a reader, as the live
// book's form does: every choice of a select; a number's least, its
// value and its most (under choice, for a number another control bounds:
// the most that choice allows, and the value clamped to it); a text's
// value.
func Offered(c figure.Control, choice string) []string {
	switch c.Kind {
	case "select":
		return c.Options
	case "number":
		most := c.Max
		if l, ok := c.Limits[choice]; ok {
			most = l
		}
		v, _ := strconv.Atoi(c.Value)
		return []string{strconv.Itoa(c.Min), strconv.Itoa(min(max(v, c.Min), most)), strconv.Itoa(most)}
	}
	return []string{c.Value}
}

// pairsOf lists the pairs of values of controls a and b that the sweep
// draws: every pair when one bounds the other (a machine and its warps),
// else each value of either beside one of the other's, in turn, so that
// every value is drawn with the other control changed too.
func pairsOf(a, b figure.Control, value map[string]string) [][2]string {
	var ps [][2]string
	switch {
	case b.LimitBy == a.Key:
		for _, va := range Offered(a, value[a.LimitBy]) {
			for _, vb := range Offered(b, va) {
				ps = append(ps, [2]string{va, vb})
			}
		}
	case a.LimitBy == b.Key:
		for _, vb := range Offered(b, value[b.LimitBy]) {
			for _, va := range Offered(a, vb) {
				ps = append(ps, [2]string{va, vb})
			}
		}
	default:
		as, bs := Offered(a, value[a.LimitBy]), Offered(b, value[b.LimitBy])
		for k := range max(len(as), len(bs)) {
			ps = append(ps, [2]string{as[k%len(as)], bs[k%len(bs)]})
		}
	}
	return ps
}

// clamp clamps each number another control bounds to that control's
// choice, as the form does when the choice changes.
func clamp(cs []figure.Control, values map[string]string) {
	for _, c := range cs {
		if c.LimitBy == "" {
			continue
		}
		choice, ok := values[c.LimitBy]
		if !ok {
			for _, b := range cs {
				if b.Key == c.LimitBy {
					choice = b.Value
				}
			}
		}
		l, ok := c.Limits[choice]
		if !ok {
			continue
		}
		v, set := values[c.Key]
		if !set {
			v = c.Value
		}
		if n, err := strconv.Atoi(v); err == nil && n > l {
			values[c.Key] = strconv.Itoa(l)
		}
	}
}

// TestControlsOffered: every value a figure's form offers redraws it, one
// control at a time, with a number that another control bounds clamped to
// that control's choice, as the form clamps it, and in pairs of controls
// (see pairsOf): the figures of site/testdata, and with
// WARPBOOK_WHOLE_BOOK=1 the book's too, which takes minutes. The
// browser's sweep is TestBrowserFigureSweep.
func TestControlsOffered(t *testing.T) {
	if testing.Short() {
		t.Skip("draws every figure of the book many times; skipped with -short")
	}
	whole := booktest.Enabled()
	dirs := []string{"../testdata/book", "../testdata/live"}
	if whole {
		dirs = append(dirs, "../../book")
	}
	names, srcs := bookFigures(t, dirs...)
	draws := 0
	start := time.Now()
	var offering time.Duration
	for i, src := range srcs {
		t0 := time.Now()
		cs := figure.Controls(src)
		offering += time.Since(t0)
		value := map[string]string{}
		for _, c := range cs {
			value[c.Key] = c.Value
		}
		try := func(values map[string]string) {
			t.Helper()
			clamp(cs, values)
			draws++
			if _, err := figure.DrawWith(src, "f", values); err != nil {
				t.Errorf("%s with %v: %v", names[i], values, err)
			}
		}
		for _, c := range cs {
			for _, v := range Offered(c, value[c.LimitBy]) {
				values := map[string]string{c.Key: v}
				try(values)
			}
		}
		for a := range cs {
			for b := a + 1; b < len(cs); b++ {
				for _, p := range pairsOf(cs[a], cs[b], value) {
					try(map[string]string{cs[a].Key: p[0], cs[b].Key: p[1]})
				}
			}
		}
	}
	t.Logf("%d redraws in %v, of which working out what the forms offer %v (under the machine's load)", draws, time.Since(start).Round(time.Millisecond), offering.Round(time.Millisecond))
}
