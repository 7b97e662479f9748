package figure

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/warpbook/warpbook/engine/gpu"
	"github.com/warpbook/warpbook/engine/occupancy"
)

// series is one line of a plot.
type series struct {
	label string
	pts   []occupancy.Point
}

// Plot geometry, in SVG user units.
const (
	plotW, plotH           = 640.0, 330.0
	padL, padR, padT, padB = 56.0, 18.0, 34.0, 46.0
	innerW, innerH         = plotW - padL - padR, plotH - padT - padB
	maxSeries              = 4
	maxDots                = 48
	maxPoints              = 2000
)

// drawOccupancy draws occupancy-vs-registers, -smem and -block-size: the
// theoretical occupancy of a kernel as one input varies, from
// occupancy.Curve, with every cliff where it drops.
func drawOccupancy(s *spec, id string) (*Figure, error) {
	names := strs(s.GPU)
	if len(names) == 0 {
		return nil, &Error{Msg: "gpu is missing: a GPU name (A100, H100, RTX 4090, ...) or a capability (8.0, sm_80)"}
	}
	var devs []gpu.Device
	for _, n := range names {
		d, err := gpu.Lookup(n)
		if err != nil {
			return nil, s.errorf("gpu", "%v", err)
		}
		devs = append(devs, d)
	}
	threads, err := s.ints("threads", s.Threads)
	if err != nil {
		return nil, err
	}
	regs, err := s.ints("registers", s.Registers)
	if err != nil {
		return nil, err
	}
	smem, err := s.ints("smem", s.SharedMem)
	if err != nil {
		return nil, err
	}
	marks, err := s.ints("mark", s.Mark)
	if err != nil {
		return nil, err
	}
	if len(threads) == 0 {
		threads = []int{256}
	}
	if len(regs) == 0 {
		regs = []int{32}
	}
	if len(smem) == 0 {
		smem = []int{0}
	}
	if len(smem) > 1 {
		return nil, s.errorf("smem", "smem takes one value, in bytes per block")
	}

	var axis occupancy.Axis
	var xlabel string
	switch s.Kind {
	case "occupancy-vs-registers":
		axis, xlabel = occupancy.ByRegisters, "registers per thread"
	case "occupancy-vs-smem":
		axis, xlabel = occupancy.BySharedMem, "shared memory per block"
	case "occupancy-vs-block-size":
		axis, xlabel = occupancy.ByBlockSize, "threads per block"
	}

	// Which parameter gives the lines.
	lists := 0
	for _, n := range []int{len(devs), len(threads), len(regs)} {
		if n > 1 {
			lists++
		}
	}
	if lists > 1 {
		return nil, &Error{Msg: "only one of gpu, threads and registers may be a list: it gives the figure's lines"}
	}
	nseries := max(len(devs), len(threads), len(regs))
	if nseries > maxSeries {
		return nil, &Error{Msg: fmt.Sprintf("at most %d lines per figure", maxSeries)}
	}

	// The varied axis's range and step.
	from, to, step := 0, 0, s.Step
	d0 := devs[0]
	switch axis {
	case occupancy.ByRegisters:
		from, to = 1, 0
		for _, d := range devs {
			to = max(to, d.MaxRegistersPerThread)
		}
		if step == 0 {
			step = 1
		}
	case occupancy.BySharedMem:
		from = 0
		for _, d := range devs {
			to = max(to, d.SharedMemPerBlockOptIn)
		}
		if step == 0 {
			step = d0.SharedMemAllocUnit
			if n := (to - from) / step; n > 600 {
				step = ((to-from)/600 + d0.SharedMemAllocUnit - 1) / d0.SharedMemAllocUnit * d0.SharedMemAllocUnit
			}
		}
	case occupancy.ByBlockSize:
		from = d0.WarpSize
		for _, d := range devs {
			to = max(to, d.MaxThreadsPerBlock)
		}
		if step == 0 {
			step = d0.WarpSize
		}
	}
	if s.Range != nil {
		if len(s.Range) != 2 || s.Range[0] < 0 || s.Range[1] <= s.Range[0] {
			return nil, s.errorf("range", "range is [from, to] with from < to")
		}
		from, to = s.Range[0], s.Range[1]
		if axis == occupancy.ByBlockSize && from < 1 {
			from = 1
		}
	}
	if step <= 0 {
		return nil, s.errorf("step", "step must be positive")
	}
	if (to-from)/step+1 > maxPoints {
		return nil, s.errorf("step", "%d points is too many (at most %d): raise step", (to-from)/step+1, maxPoints)
	}

	var lines []series
	for i := range nseries {
		d := devs[min(i, len(devs)-1)]
		k := occupancy.Kernel{
			BlockSize:        threads[min(i, len(threads)-1)],
			Registers:        regs[min(i, len(regs)-1)],
			DynamicSharedMem: smem[0],
		}
		label := d.Name
		switch {
		case len(threads) > 1:
			label = fmt.Sprintf("%d threads", k.BlockSize)
		case len(regs) > 1:
			label = fmt.Sprintf("%d registers", k.Registers)
		}
		pts, err := occupancy.Curve(d, k, axis, from, to, step)
		if err != nil {
			return nil, &Error{Msg: err.Error()}
		}
		lines = append(lines, series{label: label, pts: pts})
	}

	// Draw.
	var c canvas
	xs := func(x float64) float64 { return padL + (x-float64(from))/float64(to-from)*innerW }
	ys := func(y float64) float64 { return padT + (1-y)*innerH }
	var labels []string
	for _, l := range lines {
		labels = append(labels, l.label)
	}
	leg, height := legendLayout(labels)
	header(&c, id, s.Alt, height)
	// Grid and axes.
	for _, y := range []float64{0, 0.25, 0.5, 0.75, 1} {
		c.line(padL, ys(y), padL+innerW, ys(y), "fig-grid")
		c.text(padL-8, ys(y)+4, "end", "fig-muted", percent(y))
	}
	var xt []float64
	switch axis {
	case occupancy.BySharedMem:
		unit := 1024.0
		for float64(to-from)/unit > 8 {
			unit *= 2
		}
		xt = append([]float64{float64(from)}, powTicks(float64(from), float64(to), unit)...)
	case occupancy.ByBlockSize:
		xt = powTicks(float64(from), float64(to), 128)
		if to-from <= 256 {
			xt = powTicks(float64(from), float64(to), 32)
		}
	default:
		xt = ticks(float64(from), float64(to), 8)
	}
	for _, x := range xt {
		if x < float64(from) || x > float64(to) {
			continue
		}
		c.line(xs(x), padT+innerH, xs(x), padT+innerH+4, "fig-axis")
		label := strconv.Itoa(int(x))
		if axis == occupancy.BySharedMem {
			label = bytesLabel(int(x))
		}
		c.text(xs(x), padT+innerH+17, "middle", "fig-muted", label)
	}
	c.line(padL, padT+innerH, padL+innerW, padT+innerH, "fig-axis")
	c.line(padL, padT, padL, padT+innerH, "fig-axis")
	c.text(padL+innerW/2, plotH-8, "middle", "fig-text", xlabel)
	c.printf(`<text x="14" y="%s" text-anchor="middle" class="fig-text" transform="rotate(-90 14 %s)">occupancy</text>`+"\n", num(padT+innerH/2), num(padT+innerH/2))

	// Lines: each holds its value until the next point.
	for i, l := range lines {
		var pts [][2]float64
		for j, p := range l.pts {
			y := ys(p.Result.Occupancy)
			if j > 0 {
				pts = append(pts, [2]float64{xs(float64(p.X)), pts[len(pts)-1][1]})
			}
			pts = append(pts, [2]float64{xs(float64(p.X)), y})
		}
		c.path(pts, fmt.Sprintf("fig-line fig-s%d", i+1))
	}
	// Cliffs: a dot, with the numbers as a tooltip, where the value changes.
	for i, l := range lines {
		changes := changePoints(l.pts)
		if len(changes) > maxDots {
			continue
		}
		for _, j := range changes {
			p := l.pts[j]
			c.circle(xs(float64(p.X)), ys(p.Result.Occupancy), 3.5, fmt.Sprintf("fig-dot fig-f%d", i+1),
				fmt.Sprintf("%s, %s: %s (%s)", l.label, xLabel(axis, p.X), percent(p.Result.Occupancy), blocksLabel(p.Result)))
		}
	}
	// Marks.
	for _, m := range marks {
		if m < from || m > to {
			return nil, s.errorf("mark", "mark %d is outside the range %d to %d", m, from, to)
		}
		x := xs(float64(m))
		c.line(x, padT, x, padT+innerH, "fig-mark")
		r := resultAt(lines[0].pts, m)
		label := xLabel(axis, m)
		if r != nil {
			label += ": " + percent(r.Occupancy)
		}
		anchor := "start"
		lx := x + 4
		if x > padL+innerW*0.7 {
			anchor, lx = "end", x-4
		}
		c.text(lx, padT-6, anchor, "fig-text", label)
	}
	drawLegend(&c, leg)
	c.b.WriteString("</svg>")

	return &Figure{SVG: c.b.String(), Data: occupancyTable(axis, lines)}, nil
}

// changePoints returns the indexes where the occupancy differs from the
// point before, the first point included.
func changePoints(pts []occupancy.Point) []int {
	var out []int
	for j, p := range pts {
		if j == 0 || p.Result.ActiveBlocks != pts[j-1].Result.ActiveBlocks || p.Result.Occupancy != pts[j-1].Result.Occupancy {
			out = append(out, j)
		}
	}
	return out
}

func resultAt(pts []occupancy.Point, x int) *occupancy.Result {
	var r *occupancy.Result
	for i := range pts {
		if pts[i].X <= x {
			r = &pts[i].Result
		}
	}
	return r
}

func xLabel(axis occupancy.Axis, x int) string {
	switch axis {
	case occupancy.ByRegisters:
		return fmt.Sprintf("%d registers", x)
	case occupancy.BySharedMem:
		return bytesLabel(x) + " shared"
	}
	return fmt.Sprintf("%d threads", x)
}

func blocksLabel(r occupancy.Result) string {
	if r.ActiveBlocks == 1 {
		return "1 block"
	}
	return fmt.Sprintf("%d blocks", r.ActiveBlocks)
}

// occupancyTable lists each run of equal occupancy: the table a reader
// can check the drawing against.
func occupancyTable(axis occupancy.Axis, lines []series) string {
	var b strings.Builder
	b.WriteString("<table>\n<thead><tr>")
	if len(lines) > 1 {
		b.WriteString("<th>line</th>")
	}
	fmt.Fprintf(&b, "<th>%s</th><th>occupancy</th><th>blocks per SM</th><th>warps per SM</th><th>limited by</th></tr></thead>\n<tbody>\n", axis)
	for _, l := range lines {
		ch := changePoints(l.pts)
		for k, j := range ch {
			p := l.pts[j]
			last := l.pts[len(l.pts)-1].X
			if k+1 < len(ch) {
				last = l.pts[ch[k+1]-1].X
			}
			span := xLabel(axis, p.X)
			if last != p.X {
				span = fmt.Sprintf("%s to %s", xValue(axis, p.X), xLabel(axis, last))
			}
			b.WriteString("<tr>")
			if len(lines) > 1 {
				fmt.Fprintf(&b, "<td>%s</td>", esc(l.label))
			}
			limiter := p.Result.Limiters.String()
			if p.Result.ActiveBlocks == 0 {
				limiter = "cannot run"
			}
			fmt.Fprintf(&b, "<td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%s</td></tr>\n",
				esc(span), percent(p.Result.Occupancy), p.Result.ActiveBlocks, p.Result.ActiveWarps, esc(limiter))
		}
	}
	b.WriteString("</tbody>\n</table>")
	return b.String()
}

func xValue(axis occupancy.Axis, x int) string {
	if axis == occupancy.BySharedMem {
		return bytesLabel(x)
	}
	return strconv.Itoa(x)
}
