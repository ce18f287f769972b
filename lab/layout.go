package lab

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/hatelab/hatelab/internal/humanize"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// axisMargin is the share of an axis range added on each side of the data
// (on a log axis, of its decades).
const axisMargin = 0.04

// drawPlot draws a copy of p on c with margins around the data and the
// legend off the data.
func drawPlot(c draw.Canvas, p *plot.Plot) {
	q := *p
	padAxis(&q.X, q.X.Min, q.X.Max)
	padAxis(&q.Y, q.Y.Min, q.Y.Max)
	if _, log := q.Y.Scale.(plot.LogScale); log && q.Y.Label.Text != "" {
		// gonum/plot reserves room for the y label around the arithmetic
		// middle of the range, which on a log axis lies near the top: the
		// data area then starts far below the title. Draw the label here.
		lbl := q.Y.Label
		q.Y.Label.Text = ""
		h := lbl.TextStyle.Height(lbl.Text)
		desc := lbl.TextStyle.FontExtents().Descent
		outer := c
		c = draw.Crop(c, h+desc+lbl.Padding, 0, 0, 0)
		inner := c
		defer func() {
			data := q.DataCanvas(inner)
			sty := lbl.TextStyle
			sty.Rotation += math.Pi / 2
			outer.FillText(sty, vg.Point{X: outer.Min.X + h - desc, Y: (data.Min.Y + data.Max.Y) / 2}, lbl.Text)
		}()
	}
	leg := q.Legend.Rectangle(c).Size()
	if leg.X <= 0 || leg.Y <= 0 {
		q.Draw(c)
		return
	}
	if q.Legend.Padding == 0 {
		// Entries a little apart: symbols of adjacent entries touch otherwise.
		q.Legend.Padding = vg.Points(1.5)
		leg = q.Legend.Rectangle(c).Size()
	}
	if placeLegendInside(&q, c, leg) {
		// Drawn on the data area itself (plot.Draw would use the larger
		// area inside the axes, whose top may lie well above the data).
		legend := q.Legend
		q.Legend = plot.NewLegend()
		q.Draw(c)
		legend.Draw(q.DataCanvas(c))
		return
	}
	// No empty corner: the legend goes to the right of the plot, or below
	// it when that would leave the plot too narrow.
	legend := q.Legend
	q.Legend = plot.NewLegend()
	legend.Top, legend.Left, legend.XOffs, legend.YOffs = true, true, 0, 0
	const gap = 8
	w, h := c.Size().X, c.Size().Y
	// Slack for the viewer's font: the text was measured with Liberation
	// Sans, and a browser's fallback can set it a little wider, which would
	// cut the longest entry at the figure's right edge.
	slack := 0.06*leg.X + vg.Points(2)
	if side := leg.X + slack + gap; side <= 0.38*w {
		q.Draw(draw.Crop(c, 0, -side, 0, 0))
		top := c.Max.Y - q.DataCanvas(draw.Crop(c, 0, -side, 0, 0)).Max.Y
		legend.Draw(draw.Crop(c, w-leg.X-slack, -slack, 0, -top))
		return
	}
	if leg.Y+gap <= 0.45*h {
		q.Draw(draw.Crop(c, 0, 0, leg.Y+gap, 0))
		left := q.DataCanvas(draw.Crop(c, 0, 0, leg.Y+gap, 0)).Min.X - c.Min.X
		legend.Draw(draw.Crop(c, left, 0, 0, -(h - leg.Y)))
		return
	}
	// A legend taller than the plot: draw it inside, top left, as before.
	q.Legend = legend
	q.Draw(c)
}

// padAxis widens an axis range by axisMargin of its span on each side
// (never below zero for data that starts at zero or above).
func padAxis(a *plot.Axis, lo, hi float64) {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) || hi < lo {
		return
	}
	if _, log := a.Scale.(plot.LogScale); log {
		if lo <= 0 || hi <= 0 {
			return
		}
		d := math.Max(math.Log10(hi)-math.Log10(lo), 1) * axisMargin
		a.Min, a.Max = lo/math.Pow(10, d), hi*math.Pow(10, d)
		return
	}
	span := hi - lo
	if span == 0 {
		span = math.Max(math.Abs(hi), 1)
	}
	nlo, nhi := lo-axisMargin*span, hi+axisMargin*span
	if lo >= 0 && nlo < 0 {
		nlo = 0
	}
	if lo == 0 {
		nlo = 0 // the axis padding keeps points at zero off the frame
	}
	a.Min, a.Max = nlo, nhi
}

// placeLegendInside puts the legend into the first empty corner of the data
// area (top left, top right, bottom right, bottom left) and reports
// whether one was found.
func placeLegendInside(q *plot.Plot, c draw.Canvas, leg vg.Point) bool {
	data := q.DataCanvas(c)
	pts := dataPoints(q, c)
	const inset, clear = 4, 5
	dw, dh := data.Size().X, data.Size().Y
	if leg.X+2*inset > dw || leg.Y+2*inset > dh {
		return false
	}
	for _, corner := range []struct{ top, left bool }{{true, true}, {true, false}, {false, false}, {false, true}} {
		var r vg.Rectangle
		if corner.left {
			r.Min.X = data.Min.X + inset
		} else {
			r.Min.X = data.Max.X - inset - leg.X
		}
		if corner.top {
			r.Min.Y = data.Max.Y - inset - leg.Y
		} else {
			r.Min.Y = data.Min.Y + inset
		}
		r.Max = vg.Point{X: r.Min.X + leg.X, Y: r.Min.Y + leg.Y}
		r.Min.X, r.Min.Y, r.Max.X, r.Max.Y = r.Min.X-clear, r.Min.Y-clear, r.Max.X+clear, r.Max.Y+clear
		empty := true
		for _, pt := range pts {
			if pt.X >= r.Min.X && pt.X <= r.Max.X && pt.Y >= r.Min.Y && pt.Y <= r.Max.Y {
				empty = false
				break
			}
		}
		if !empty {
			continue
		}
		q.Legend.Top, q.Legend.Left = corner.top, corner.left
		// Offsets from the data area's corner (drawPlot draws the legend
		// on the data area).
		q.Legend.XOffs, q.Legend.YOffs = inset, -inset
		if !corner.left {
			q.Legend.XOffs = -inset
		}
		if !corner.top {
			q.Legend.YOffs = inset
		}
		return true
	}
	return false
}

// dataPoints returns where p's data fall on the canvas: p (with no
// legend) is drawn on a recorder that keeps the points of every stroked or
// filled path, with the segments of lines sampled every 4 points, except
// the grid's thin grey lines.
func dataPoints(p *plot.Plot, c draw.Canvas) []vg.Point {
	q := *p
	q.Legend = plot.NewLegend()
	rec := &recorder{}
	q.Draw(draw.Canvas{Canvas: rec, Rectangle: c.Rectangle})
	return rec.pts
}

// recorder is a vg.Canvas that keeps the points of the paths drawn on it
// outside any transform (text is drawn translated and rotated).
type recorder struct {
	pts   []vg.Point
	width vg.Length
	col   color.Color
	depth int // transforms in force
	stack []recState
}

type recState struct {
	width vg.Length
	col   color.Color
	depth int
}

func (r *recorder) SetLineWidth(w vg.Length)           { r.width = w }
func (r *recorder) SetLineDash([]vg.Length, vg.Length) {}
func (r *recorder) SetColor(c color.Color)             { r.col = c }
func (r *recorder) Rotate(float64)                     { r.depth++ }
func (r *recorder) Translate(vg.Point)                 { r.depth++ }
func (r *recorder) Scale(float64, float64)             { r.depth++ }
func (r *recorder) Push()                              { r.stack = append(r.stack, recState{r.width, r.col, r.depth}) }
func (r *recorder) Pop() {
	if n := len(r.stack); n > 0 {
		s := r.stack[n-1]
		r.stack = r.stack[:n-1]
		r.width, r.col, r.depth = s.width, s.col, s.depth
	}
}
func (r *recorder) FillString(font.Face, vg.Point, string) {}
func (r *recorder) DrawImage(vg.Rectangle, image.Image)    {}
func (r *recorder) Fill(p vg.Path)                         { r.path(p) }
func (r *recorder) Stroke(p vg.Path) {
	if g, ok := r.col.(color.Gray); ok && g.Y == 128 && r.width <= vg.Points(0.3) {
		return // the grid
	}
	r.path(p)
}

func (r *recorder) path(p vg.Path) {
	if r.depth > 0 {
		return
	}
	var prev vg.Point
	have := false
	for _, pc := range p {
		switch pc.Type {
		case vg.MoveComp:
			prev, have = pc.Pos, true
			r.pts = append(r.pts, pc.Pos)
		case vg.LineComp:
			if have {
				d := math.Hypot(float64(pc.Pos.X-prev.X), float64(pc.Pos.Y-prev.Y))
				for k := 1.0; k < d/4; k++ {
					t := vg.Length(4 * k / d)
					r.pts = append(r.pts, vg.Point{X: prev.X + t*(pc.Pos.X-prev.X), Y: prev.Y + t*(pc.Pos.Y-prev.Y)})
				}
			}
			r.pts = append(r.pts, pc.Pos)
			prev, have = pc.Pos, true
		case vg.ArcComp:
			r.pts = append(r.pts, pc.Pos)
		case vg.CurveComp:
			r.pts = append(r.pts, pc.Pos)
			prev, have = pc.Pos, true
		}
	}
}

// NiceTicks marks a linear axis at round steps (1, 2, 2.5 or 5 times a
// power of ten) chosen so that 4 to about 8 ticks are labelled, with an
// unlabelled minor tick between labels. Labels are exact decimals with as
// many digits as the step needs (thousands commas up to 1,000,000, a
// power of ten above), never float noise.
type NiceTicks struct{}

// Ticks implements plot.Ticker.
func (NiceTicks) Ticks(min, max float64) []plot.Tick {
	if math.IsNaN(min) || math.IsNaN(max) || math.IsInf(min, 0) || math.IsInf(max, 0) {
		return nil
	}
	if max < min {
		min, max = max, min
	}
	if max == min {
		return []plot.Tick{{Value: min, Label: tickLabel(min, 1, 0)}}
	}
	// The smallest round step that labels at most 8 ticks.
	step := niceStep((max - min) / 10)
	for math.Floor(max/step+1e-9)-math.Ceil(min/step-1e-9)+1 > 8 {
		step = niceStep(step * 1.01)
	}
	exp := 0
	if big := math.Max(math.Abs(min), math.Abs(max)); big >= 1e7 {
		exp = int(math.Floor(math.Log10(big)))
	}
	var ts []plot.Tick
	first := math.Ceil(min/step - 1e-9)
	for k := first; k*step <= max+step*1e-9; k++ {
		v := k * step
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ts = append(ts, plot.Tick{Value: v, Label: tickLabel(v, step, exp)})
		if m := v + step/2; m < max {
			ts = append(ts, plot.Tick{Value: m})
		}
	}
	if first*step-step/2 > min {
		ts = append(ts, plot.Tick{Value: first*step - step/2})
	}
	return ts
}

// niceStep returns the least of 1, 2, 2.5, 5 times a power of ten that is
// at least raw (never 2.5 itself).
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m == 2.5 && p == 1 {
			continue // 2.5 would put ticks between integers (heights, counts)
		}
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// tickLabel writes v, a multiple of step, exactly: with the decimals step
// needs, thousands commas below 10^7, and as mantissa·10^exp (e.g.
// "2.5·10⁷") when exp > 0.
func tickLabel(v, step float64, exp int) string {
	decimals := func(x float64) int {
		for d := 0; d < 12; d++ {
			if math.Abs(x*math.Pow(10, float64(d))-math.Round(x*math.Pow(10, float64(d)))) < 1e-6 {
				return d
			}
		}
		return 12
	}
	if exp > 0 {
		scale := math.Pow(10, float64(exp))
		m := v / scale
		s := strconv.FormatFloat(m, 'f', decimals(step/scale), 64)
		if s == "0" || strings.Trim(s, "-0.") == "" {
			return "0"
		}
		return s + "·" + humanize.Power10(exp)
	}
	s := strconv.FormatFloat(v, 'f', decimals(step), 64)
	if strings.Trim(s, "-0.") == "" {
		return "0"
	}
	return humanize.Commas(s)
}

var svgRootRe = regexp.MustCompile(`<svg[^>]*>`)

// scalable makes an SVG document's root element scale with the output
// area: a viewBox from its width and height (gonum/plot writes none), and a
// style that shrinks it to the available width keeping its aspect ratio.
func scalable(s string) string {
	loc := svgRootRe.FindStringIndex(s)
	if loc == nil {
		return s
	}
	root := s[loc[0]:loc[1]]
	w, h := svgSize(root + "</svg>")
	if w <= 0 || h <= 0 {
		return s
	}
	nr := root
	if !strings.Contains(nr, "viewBox=") {
		// gonum/plot writes its size in points; the viewBox is in the user
		// units of its content, which are points as well.
		vw, vh := w, h
		if strings.Contains(root, `pt"`) {
			vw, vh = w*3/4, h*3/4
		}
		nr = strings.Replace(nr, "<svg", fmt.Sprintf(`<svg viewBox="0 0 %g %g"`, vw, vh), 1)
	}
	if !strings.Contains(nr, "max-width") {
		if strings.Contains(nr, ` style="`) {
			nr = strings.Replace(nr, ` style="`, ` style="max-width:100%;height:auto;`, 1)
		} else {
			nr = strings.TrimSuffix(nr, ">") + rootStyle + ">"
		}
	}
	return s[:loc[0]] + nr + s[loc[1]:]
}

// Facets draws one small chart per series, perRow to a row (0: 3), on
// shared axes, each titled with its series' name: small multiples, for
// more series than one chart's legend can take (more than about six).
// logY puts every y axis on a log scale.
func Facets(title, xLabel, yLabel string, perRow int, logY bool, series ...Series) (SVG, error) {
	if perRow <= 0 {
		perRow = 3
	}
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for i := range s.X {
			if i >= len(s.Y) || logY && s.Y[i] <= 0 {
				continue
			}
			xmin, xmax = math.Min(xmin, s.X[i]), math.Max(xmax, s.X[i])
			ymin, ymax = math.Min(ymin, s.Y[i]), math.Max(ymax, s.Y[i])
		}
	}
	var plots []*plot.Plot
	for i, s := range series {
		one := s
		name := one.Name
		one.Name = ""
		// Each panel keeps the series' colour of a single chart.
		p, err := linePlot(i, name, xLabel, yLabel, one)
		if err != nil {
			return "", err
		}
		p.Title.TextStyle.Font.Size = vg.Points(10)
		if !math.IsInf(xmin, 0) {
			p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
		}
		if logY {
			LogY(p)
		}
		plots = append(plots, p)
	}
	return smallMultiples(title, perRow, 0, 0, plots...)
}

// smallMultiples lays charts out perRow to a row, each drawn at w x h (0:
// a width that fits perRow charts into the default chart width, 3/4 as
// high), under a title: the picture scales to the output area.
func smallMultiples(title string, perRow int, w, h vg.Length, plots ...*plot.Plot) (SVG, error) {
	if perRow <= 0 {
		perRow = 3
	}
	if w <= 0 {
		w = vg.Length(math.Max(float64(PlotWidth)/float64(min(perRow, max(len(plots), 1))), float64(2.4*vg.Inch)))
	}
	if h <= 0 {
		h = w * 3 / 4
	}
	var pics []SVG
	for _, p := range plots {
		s, err := PlotSVG(p, w, h)
		if err != nil {
			return "", err
		}
		pics = append(pics, s)
	}
	grid := Strip(perRow, pics...)
	if title == "" {
		return grid, nil
	}
	return Column(Title(title), grid), nil
}

// responsive rewrites an SVG document's root element for display in a
// notebook: width="100%" and no height, capped at its own width by
// max-width, with a viewBox, so that it shrinks to a narrower output area
// keeping its aspect ratio and never grows. The classic Notebook sizes the
// box of an image/svg+xml output from the root's width and height
// attributes; pixel sizes there would let a wide picture run past the
// cell's edge.
func responsive(s string) string {
	s = scalable(s)
	loc := svgRootRe.FindStringIndex(s)
	if loc == nil {
		return s
	}
	root := s[loc[0]:loc[1]]
	w, _ := svgSize(root + "</svg>")
	if w <= 0 {
		return s
	}
	nr := svgAttrRe.ReplaceAllStringFunc(root, func(m string) string {
		if strings.Contains(m, "width=") {
			return ` width="100%"`
		}
		return ""
	})
	nr = strings.Replace(nr, "max-width:100%", fmt.Sprintf("max-width:min(100%%,%gpx)", math.Ceil(w)), 1)
	return s[:loc[0]] + nr + s[loc[1]:]
}
