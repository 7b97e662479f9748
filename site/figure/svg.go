package figure

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// canvas accumulates SVG markup. Coordinates are rounded to 0.1 so that the
// output is short and the same on every machine.
type canvas struct {
	b strings.Builder
}

func num(v float64) string {
	v = math.Round(v*10) / 10
	if v == math.Trunc(v) {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func esc(s string) string { return html.EscapeString(s) }

func (c *canvas) printf(format string, args ...any) { fmt.Fprintf(&c.b, format, args...) }

func (c *canvas) line(x1, y1, x2, y2 float64, class string) {
	c.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" class="%s"/>`, num(x1), num(y1), num(x2), num(y2), class)
	c.b.WriteByte('\n')
}

func (c *canvas) rect(x, y, w, h float64, class, title string) {
	if title == "" {
		c.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="%s"/>`, num(x), num(y), num(w), num(h), class)
	} else {
		c.printf(`<rect x="%s" y="%s" width="%s" height="%s" class="%s"><title>%s</title></rect>`, num(x), num(y), num(w), num(h), class, esc(title))
	}
	c.b.WriteByte('\n')
}

// text writes a label; anchor is "start", "middle" or "end".
func (c *canvas) text(x, y float64, anchor, class, s string) {
	c.printf(`<text x="%s" y="%s" text-anchor="%s" class="%s">%s</text>`, num(x), num(y), anchor, class, esc(s))
	c.b.WriteByte('\n')
}

func (c *canvas) circle(x, y, r float64, class, title string) {
	c.printf(`<circle cx="%s" cy="%s" r="%s" class="%s"><title>%s</title></circle>`, num(x), num(y), num(r), class, esc(title))
	c.b.WriteByte('\n')
}

// path writes a polyline through the points. A point the line would draw
// the same without is left out: one that repeats the last (as written), or
// one in the middle of a horizontal or vertical run (a staircase's step
// has hundreds).
func (c *canvas) path(pts [][2]float64, class string) {
	if len(pts) == 0 {
		return
	}
	xy := make([][2]string, 0, len(pts))
	for _, p := range pts {
		q := [2]string{num(p[0]), num(p[1])}
		if n := len(xy); n > 0 && xy[n-1] == q {
			continue
		}
		if n := len(xy); n > 1 && between(xy[n-2], xy[n-1], q) {
			xy[n-1] = q
			continue
		}
		xy = append(xy, q)
	}
	c.b.WriteString(`<path d="`)
	for i, q := range xy {
		if i == 0 {
			c.b.WriteString("M")
		} else {
			c.b.WriteString(" L")
		}
		c.b.WriteString(q[0])
		c.b.WriteByte(' ')
		c.b.WriteString(q[1])
	}
	c.printf(`" class="%s"/>`, class)
	c.b.WriteByte('\n')
}

// between reports whether b lies on the horizontal or vertical segment
// from a to c, so that a line from a to c passes through it.
func between(a, b, c [2]string) bool {
	for i := range 2 {
		j := 1 - i
		if a[i] == b[i] && b[i] == c[i] {
			x, y, z := atof(a[j]), atof(b[j]), atof(c[j])
			return (x <= y && y <= z) || (x >= y && y >= z)
		}
	}
	return false
}

// atof reads a coordinate num wrote.
func atof(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// ticks returns about n round tick values covering [lo, hi].
func ticks(lo, hi float64, n int) []float64 {
	if hi <= lo {
		return []float64{lo}
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, math.Round(v*1e9)/1e9)
	}
	return out
}

// powTicks returns powers of two within [lo, hi], for byte and thread axes.
func powTicks(lo, hi float64, step float64) []float64 {
	var out []float64
	for v := step; v <= hi; v += step {
		if v >= lo {
			out = append(out, v)
		}
	}
	return out
}

// bytesLabel formats a byte count as "48 KB" (1 KB = 1,024 bytes, as CUDA
// documents shared memory).
func bytesLabel(v int) string {
	switch {
	case v == 0:
		return "0"
	case v%1024 == 0:
		return strconv.Itoa(v/1024) + " KB"
	case v >= 1024:
		return strconv.FormatFloat(float64(v)/1024, 'f', 1, 64) + " KB"
	}
	return strconv.Itoa(v) + " B"
}

func percent(f float64) string {
	p := f * 100
	if p == math.Trunc(p) {
		return strconv.Itoa(int(p)) + " %"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + " %"
}
