package lab

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/humanize"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Default chart size.
const (
	PlotWidth  = 7.5 * vg.Inch
	PlotHeight = 4 * vg.Inch
)

// Palette is the series colours of LinePlot (the "tab10" scale).
var Palette = []color.Color{
	rgb(0x1f77b4), rgb(0xff7f0e), rgb(0x2ca02c), rgb(0xd62728), rgb(0x9467bd),
	rgb(0x8c564b), rgb(0xe377c2), rgb(0x7f7f7f), rgb(0xbcbd22), rgb(0x17becf),
}

func rgb(v uint32) color.Color {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}
}

// Series is one line of a LinePlot.
type Series struct {
	Name string
	X, Y []float64
	// Points draws a marker at each point as well.
	Points bool
	// Step draws a staircase (the value holds until the next X).
	Step bool
	// Dashed draws the line dashed (a series of the palette's second round
	// is dashed anyway).
	Dashed bool
}

// NewPlot is plot.New with sans-serif text (closer to what a browser
// substitutes in an SVG) and a white background.
func NewPlot() *plot.Plot {
	p := plot.New()
	for _, f := range []*font.Font{
		&p.Title.TextStyle.Font, &p.Legend.TextStyle.Font,
		&p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font,
	} {
		f.Variant = "Sans"
	}
	p.X.Tick.Marker = NiceTicks{}
	p.Y.Tick.Marker = NiceTicks{}
	return p
}

// LinePlot builds a chart with one line per series, coloured from Palette,
// with a legend when any series has a name (placed off the data when drawn:
// see PlotSVG). More than about six series read better as small multiples
// (Facets). A series of more than
// 4*thinBuckets points is thinned for drawing: its x range is cut into
// buckets and each keeps its first, lowest, highest and last point, which
// looks the same at screen resolution and keeps the SVG small.
func LinePlot(title, xLabel, yLabel string, series ...Series) (*plot.Plot, error) {
	return linePlot(0, title, xLabel, yLabel, series...)
}

// linePlot is LinePlot with the colours starting at Palette[first].
func linePlot(first int, title, xLabel, yLabel string, series ...Series) (*plot.Plot, error) {
	p := NewPlot()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	for i, s := range series {
		if len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("series %q: %d x values but %d y values", s.Name, len(s.X), len(s.Y))
		}
		xys := thin(s.X, s.Y, thinBuckets)
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("series %q: %w", s.Name, err)
		}
		c := Palette[(first+i)%len(Palette)]
		l.Color = c
		l.Width = vg.Points(1.5)
		if s.Step {
			l.StepStyle = plotter.PostStep
		}
		if s.Dashed || (first+i)/len(Palette)%2 == 1 {
			// The palette's second round: dashed, so that no two series
			// of one chart look the same.
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(2.5)}
		}
		p.Add(l)
		if s.Points {
			sc, err := seriesScatter(xys, first+i, c)
			if err != nil {
				return nil, err
			}
			p.Add(sc)
			if s.Name != "" {
				p.Legend.Add(s.Name, l, sc)
			}
			continue
		}
		if s.Name != "" {
			p.Legend.Add(s.Name, l)
		}
	}
	return p, nil
}

// Glyphs are the point markers of LinePlot's series with Points, one per
// series in turn, so that no two point series of a chart look alike even
// where their colours are hard to tell apart.
var Glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{},
	draw.RingGlyph{}, draw.PyramidGlyph{}, draw.PlusGlyph{}, draw.SquareGlyph{},
}

// seriesScatter is the points of the k-th series of a chart, in its colour
// and its own marker.
func seriesScatter(xys plotter.XYs, k int, c color.Color) (*plotter.Scatter, error) {
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	sc.Color = c
	sc.Radius = vg.Points(2.5)
	sc.Shape = Glyphs[k%len(Glyphs)]
	return sc, nil
}

// thinBuckets is the number of x buckets a long series is thinned to.
const thinBuckets = 600

// thin returns the points of (x, y), thinned to the first, lowest, highest
// and last point of each of n equal x buckets when there are more than 4n
// (x must be sorted ascending for that; otherwise nothing is dropped).
func thin(x, y []float64, n int) plotter.XYs {
	all := func() plotter.XYs {
		xys := make(plotter.XYs, len(x))
		for j := range x {
			xys[j] = plotter.XY{X: x[j], Y: y[j]}
		}
		return xys
	}
	if len(x) <= 4*n || !sort.Float64sAreSorted(x) || x[len(x)-1] == x[0] {
		return all()
	}
	lo, span := x[0], x[len(x)-1]-x[0]
	out := make(plotter.XYs, 0, 4*n)
	for i := 0; i < len(x); {
		b := int(float64(n) * (x[i] - lo) / span)
		j := i
		minJ, maxJ := i, i
		for j < len(x) && (int(float64(n)*(x[j]-lo)/span) == b) {
			if y[j] < y[minJ] {
				minJ = j
			}
			if y[j] > y[maxJ] {
				maxJ = j
			}
			j++
		}
		keep := []int{i, minJ, maxJ, j - 1}
		slices.Sort(keep)
		for k, idx := range keep {
			if k > 0 && idx == keep[k-1] {
				continue
			}
			out = append(out, plotter.XY{X: x[idx], Y: y[idx]})
		}
		i = j
	}
	return out
}

// PlotSVG renders p as SVG at w x h (0: the default size), scaled down by
// the browser to the width of a narrower output area. p itself is not
// changed, but the drawing differs from p.Draw's: the axis ranges get a
// margin around the data (no point on the frame), and the legend goes into
// an empty corner of the data area, or outside it when no corner is empty.
func PlotSVG(p *plot.Plot, w, h vg.Length) (SVG, error) {
	w, h = plotSize(w, h)
	c := vgsvg.New(w, h)
	drawPlot(margin(draw.New(c)), p)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("rendering SVG: %w", err)
	}
	// Name fallbacks for the browser, which rarely has the Liberation fonts
	// gonum/plot measured the text with (Arimo and Arial share their metrics).
	out := svgFontRe.ReplaceAllStringFunc(buf.String(), func(m string) string {
		fam := strings.TrimSuffix(strings.TrimPrefix(m, "font-family:"), ";")
		switch {
		case strings.Contains(fam, "Sans"):
			return "font-family:" + fam + ",Arimo,Arial,Helvetica,sans-serif;"
		case strings.Contains(fam, "Mono"):
			return "font-family:" + fam + ",Cousine,Courier New,monospace;"
		default:
			return "font-family:" + fam + ",Tinos,Times New Roman,serif;"
		}
	})
	return SVG(scalable(out)), nil
}

// PlotPNG renders p as PNG at w x h (0: the default size), 96 dots per inch.
func PlotPNG(p *plot.Plot, w, h vg.Length) (PNG, error) {
	w, h = plotSize(w, h)
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))}
	drawPlot(margin(draw.New(c)), p)
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("rendering PNG: %w", err)
	}
	return PNG(buf.Bytes()), nil
}

var svgFontRe = regexp.MustCompile(`font-family:[^;"]*;`)

// margin leaves room around the plot so that tick labels at the edges are
// not cut off when the viewer's font is wider.
func margin(c draw.Canvas) draw.Canvas {
	return draw.Crop(c, vg.Points(4), -vg.Points(14), vg.Points(2), -vg.Points(4))
}

func plotSize(w, h vg.Length) (vg.Length, vg.Length) {
	if w <= 0 {
		w = PlotWidth
	}
	if h <= 0 {
		h = PlotHeight
	}
	return w, h
}

// ShowPlot shows p inline as SVG and, when name is not empty, saves it as
// figuresDir()/name.svg. Errors are shown (and returned).
func ShowPlot(p *plot.Plot, name string) error {
	svg, err := PlotSVG(p, 0, 0)
	if err == nil && name != "" {
		err = saveFigure(name+".svg", []byte(svg))
	}
	if err != nil {
		Show(err)
		return err
	}
	Show(svg)
	return nil
}

// ShowPlotPNG is ShowPlot with a PNG image (name.png): for charts too dense
// for a compact SVG.
func ShowPlotPNG(p *plot.Plot, name string) error {
	png, err := PlotPNG(p, 0, 0)
	if err == nil && name != "" {
		err = saveFigure(name+".png", png)
	}
	if err != nil {
		Show(err)
		return err
	}
	Show(png)
	return nil
}

// ShowFigure shows an SVG picture (a well, a filmstrip) and saves it as
// figuresDir()/name.svg when name is not empty.
func ShowFigure(svg SVG, name string) error {
	if name != "" {
		if err := saveFigure(name+".svg", []byte(svg)); err != nil {
			Show(err)
			return err
		}
	}
	Show(svg)
	return nil
}

// saveFigure writes data as figuresDir()/file atomically (a temporary file
// renamed into place).
func saveFigure(file string, data []byte) error {
	dir := figuresDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("saving figure: %w", err)
	}
	if err := atomicfile.WriteBytes(filepath.Join(dir, file), 0o644, data); err != nil {
		return fmt.Errorf("saving figure %s: %w", file, err)
	}
	return nil
}

// LogY puts the y axis on a log scale with DecadeTicks.
func LogY(p *plot.Plot) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = DecadeTicks{}
	if p.Y.Min <= 0 {
		p.Y.Min = 1
	}
}

// LogX puts the x axis on a log scale with DecadeTicks.
func LogX(p *plot.Plot) {
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = DecadeTicks{}
	if p.X.Min <= 0 {
		p.X.Min = 1
	}
}

// DecadeTicks marks a log axis at powers of ten: every 10^k, thinned to
// every second, third, ... decade so that at most MaxLabels are labelled,
// with unlabelled minor ticks at the other decades (and at 2..9 times a
// decade when the axis spans at most three decades, those at 2 and 5
// labelled too: an axis from 3 to 400 reads 5, 10, 20, 50, 100, 200, not
// 10 and 100 alone). Labels are exact and of one style per axis: 1, 10, 100,
// 1,000, 10,000 (and 20, 50 ...) when every label lies in 1..10,000,
// otherwise all powers (10⁰, 10¹ ... 10⁵, 10⁻²): never 10,000 beside 10⁵,
// never float noise.
type DecadeTicks struct {
	// MaxLabels is the most labelled ticks (0: 8).
	MaxLabels int
}

// Ticks implements plot.Ticker.
func (d DecadeTicks) Ticks(min, max float64) []plot.Tick {
	if min <= 0 || max <= 0 || !(max > min) || math.IsInf(max, 0) || math.IsNaN(min) {
		return nil
	}
	most := d.MaxLabels
	if most <= 0 {
		most = 8
	}
	lo, hi := int(math.Floor(math.Log10(min)+1e-9)), int(math.Ceil(math.Log10(max)-1e-9))
	step := 1
	for (hi-lo)/step+1 > most {
		step++
	}
	labelled := func(k int) bool { return (k-lo)%step == 0 || lo%step == 0 && k%step == 0 }
	inside := func(v float64) bool { return v >= min*(1-1e-9) && v <= max*(1+1e-9) }
	plain := true // every labelled decade in 1..10,000
	for k := lo; k <= hi; k++ {
		if inside(math.Pow(10, float64(k))) && labelled(k) && (k < 0 || k > 4) {
			plain = false
		}
	}
	var ts []plot.Tick
	for k := lo; k <= hi; k++ {
		v := math.Pow(10, float64(k))
		if inside(v) {
			label := ""
			if labelled(k) {
				label = decadeLabel(k, plain)
			}
			ts = append(ts, plot.Tick{Value: v, Label: label})
		}
		if math.Log10(max/min) <= 3+1e-9 {
			for m := 2; m <= 9; m++ {
				if w := float64(m) * v; w > min && w < max {
					label := ""
					if plain && (m == 2 || m == 5) && k >= 0 && k < 4 {
						label = Int(int64(m) * int64(math.Round(v)))
					}
					ts = append(ts, plot.Tick{Value: w, Label: label})
				}
			}
		}
	}
	return ts
}

func decadeLabel(k int, plain bool) string {
	if plain {
		return decadeText(k)
	}
	return power(k)
}

// decadeText writes 10^k: in full with thousands commas up to 10,000,
// as 10 and a superscript exponent above, as 10⁻ⁿ below 1.
func decadeText(k int) string {
	if k >= 0 && k <= 4 {
		return Int(int64(math.Pow(10, float64(k))))
	}
	return power(k)
}

// power writes 10^k as 10 and a superscript exponent: 10⁰, 10⁵, 10⁻².
func power(k int) string { return humanize.Power10(k) }
