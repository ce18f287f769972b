package fits

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/hatelab/hatelab/engine/fit"
	"github.com/hatelab/hatelab/internal/humanize"
	"github.com/hatelab/hatelab/lab"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Model is a least-squares fit of y against x under a named model:
// "linear" (y = a + b·x), "quadratic" (y = a + b·x + c·x², the blog's
// model), "log-linear" (ln y = a + b·x) or "log-quadratic"
// (ln y = a + b·x + c·x², tetr-ai's model), with predictions back on the y
// scale.
type Model struct {
	Model string
	Label string // what was fitted, e.g. "length, width 10"
	Log   bool
	Fit   *fit.Fit
}

// Fit fits y against x with the named model.
func Fit(label, model string, x, y []float64) (*Model, error) {
	m := &Model{Model: model, Label: label}
	var deg int
	switch model {
	case "linear":
		deg = 1
	case "quadratic":
		deg = 2
	case "log-linear":
		deg, m.Log = 1, true
	case "log-quadratic":
		deg, m.Log = 2, true
	default:
		return nil, fmt.Errorf("unknown model %q (linear, quadratic, log-linear, log-quadratic)", model)
	}
	ys := y
	if m.Log {
		ys = fit.Log(y)
	}
	f, err := fit.Linear(x, ys, fit.Poly(deg)...)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", label, model, err)
	}
	m.Fit = f
	return m, nil
}

// Predict returns the prediction at x and its prediction interval at the
// level (e.g. 0.95), on the y scale.
func (m *Model) Predict(x, level float64) (y, lo, hi float64) {
	y, lo, hi = m.Fit.PredictionInterval(x, level)
	if m.Log {
		return math.Exp(y), math.Exp(lo), math.Exp(hi)
	}
	return y, lo, hi
}

// MaxDecades is how many orders of magnitude a 95% prediction interval
// may span before a fit counts as not informative there.
const MaxDecades = 3

// Informative reports whether the fit says anything at x: not when it has
// no residual degrees of freedom (as many coefficients as points: it
// passes through every point and has no interval), nor when its 95%
// prediction interval at x spans more than MaxDecades orders of magnitude
// (for an interval reaching zero or below: when it is more than 10 times
// as wide as the prediction). why says which, for a table.
func (m *Model) Informative(x float64) (ok bool, why string) {
	if m.Fit.DoF <= 0 {
		return false, "zero residual degrees of freedom"
	}
	y, lo, hi := m.Predict(x, 0.95)
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return false, "no finite interval"
	}
	if lo > 0 {
		if d := math.Log10(hi / lo); d > MaxDecades {
			return false, fmt.Sprintf("the 95%% interval spans %.0f orders of magnitude", d)
		}
		return true, ""
	}
	if hi-lo > 10*math.Abs(y) {
		return false, "the 95% interval is more than 10 times the prediction"
	}
	return true, ""
}

// Informative returns the fits informative at x (see Model.Informative).
func Informative(x float64, ms ...*Model) []*Model {
	var out []*Model
	for _, m := range ms {
		if m == nil {
			continue
		}
		if ok, _ := m.Informative(x); ok {
			out = append(out, m)
		}
	}
	return out
}

// Row is one line of Table.
type Row struct {
	Fitted  string `lab:"fitted"`
	Model   string `lab:"model"`
	N       int    `lab:"n"`
	Params  string `lab:"coefficients of 1 · h · h² (± s.e.)"`
	Sigma   string `lab:"σ"`
	LOO     string `lab:"LOO RMSE"`
	At      string `lab:"at h"`
	Predict string `lab:"prediction [95% PI]"`
}

// flaggedRow is Row with a note, for tables where a fit is flagged.
type flaggedRow struct {
	Row
	Note string `lab:"note"`
}

// Table tabulates fits with their extrapolation to x = at; a fit not
// informative there (Model.Informative) is flagged in a note column.
func Table(at float64, ms ...*Model) *lab.Table {
	rows := make([]Row, len(ms))
	notes := make([]string, len(ms))
	flagged := false
	for i, m := range ms {
		var ps []string
		for j := range m.Fit.Coef {
			ps = append(ps, lab.Sig(lab.Denoise(m.Fit.Coef[j]), 4)+" ± "+lab.Sig(m.Fit.StdErr[j], 2))
		}
		scale := ""
		if m.Log {
			scale = " (ln)"
		}
		pred := Prediction(m, at)
		if ok, why := m.Informative(at); !ok {
			notes[i], flagged = "not informative: "+why+"; left out of charts, not to be compared with records", true
		}
		rows[i] = Row{Fitted: m.Label, Model: m.Model, N: m.Fit.N, Params: strings.Join(ps, ", "),
			Sigma: lab.Sig(m.Fit.Sigma, 3) + scale, LOO: lab.Sig(m.Fit.LOORMSE, 3) + scale,
			At: fmt.Sprint(at), Predict: pred}
	}
	if !flagged {
		return lab.TableOf(rows)
	}
	out := make([]flaggedRow, len(rows))
	for i, r := range rows {
		out[i] = flaggedRow{r, notes[i]}
	}
	return lab.TableOf(out)
}

// Prediction formats m's prediction at x with its 95% prediction
// interval, "y [lo, hi]", as Table shows it ("y (exact fit: no interval)"
// for a fit with no residual degrees of freedom). When one of the three
// reaches 10¹⁸ (a power of ten in num's style), those from 10⁵ up are all
// written as powers: "2.67·10¹⁷ [1.34·10¹⁶, 5.31·10¹⁸]", never eighteen
// digits beside a power.
func Prediction(m *Model, x float64) string {
	y, lo, hi := m.Predict(x, 0.95)
	if m.Fit.DoF == 0 {
		return num(y) + " (exact fit: no interval)"
	}
	f := num
	for _, v := range []float64{y, lo, hi} {
		if math.Abs(round3(v)) >= 1e18 { // num writes it as a power
			f = power
		}
	}
	return fmt.Sprintf("%s [%s, %s]", f(y), f(lo), f(hi))
}

// power formats v as num does, but from 10⁵ up as a power of ten with 3
// significant digits, as lab.Sig writes one (1.34·10¹⁶, 2.5·10¹⁷, 10¹⁸).
func power(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) < 1e5 {
		return num(v)
	}
	return humanize.Sci(strconv.FormatFloat(round3(v), 'e', -1, 64))
}

// round3 is v rounded to 3 significant digits, as num rounds it.
func round3(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return r
}

// Mark is a labelled reference point on a fit plot (a record).
type Mark struct {
	Name string
	X, Y float64
}

// Plot draws the data of each fit, its curve out to xmax and the 95%
// prediction band, plus reference marks; logScale puts y on a log scale
// (points at or below 0 are then left out, and curves clipped at 0.5).
// Fits not informative at xmax (Model.Informative) are left out.
func Plot(title, xLabel, yLabel string, xmax float64, logScale bool, marks []Mark, ms ...*Model) (*plot.Plot, error) {
	ms = Informative(xmax, ms...)
	p := lab.NewPlot()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	for i, m := range ms {
		c := lab.Palette[i%len(lab.Palette)]
		xmin := m.Fit.X[0]
		for _, x := range m.Fit.X {
			xmin = math.Min(xmin, x)
		}
		const steps = 120
		var curve, upper, lower plotter.XYs
		for k := 0; k <= steps; k++ {
			x := xmin + (xmax-xmin)*float64(k)/steps
			y, lo, hi := m.Predict(x, 0.95)
			if logScale {
				lo, y, hi = math.Max(lo, 0.5), math.Max(y, 0.5), math.Max(hi, 0.5)
			}
			curve = append(curve, plotter.XY{X: x, Y: y})
			upper = append(upper, plotter.XY{X: x, Y: hi})
			lower = append(lower, plotter.XY{X: x, Y: lo})
		}
		band := append(plotter.XYs{}, upper...)
		for k := len(lower) - 1; k >= 0; k-- {
			band = append(band, lower[k])
		}
		if poly, err := plotter.NewPolygon(band); err == nil {
			r, g, b, _ := c.RGBA()
			poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 40}
			poly.LineStyle.Width = 0
			p.Add(poly)
		}
		l, err := plotter.NewLine(curve)
		if err != nil {
			return nil, err
		}
		l.Color = c
		l.Width = vg.Points(1.5)
		if m.Log {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		var pts plotter.XYs
		for j := range m.Fit.X {
			y := m.Fit.Y[j]
			if m.Log {
				y = math.Exp(y)
			}
			if logScale && y <= 0 {
				continue // not drawable on a log scale
			}
			pts = append(pts, plotter.XY{X: m.Fit.X[j], Y: y})
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.Color = c
		sc.Radius = vg.Points(2.5)
		p.Add(sc)
		p.Legend.Add(fmt.Sprintf("%s, %s (95%% PI)", m.Label, m.Model), l)
	}
	for i, mk := range marks {
		sc, err := plotter.NewScatter(plotter.XYs{{X: mk.X, Y: mk.Y}})
		if err != nil {
			return nil, err
		}
		sc.Shape = draw.CrossGlyph{}
		sc.Radius = vg.Points(5)
		sc.Color = color.Black
		if i%2 == 1 {
			sc.Shape = draw.PyramidGlyph{}
		}
		p.Add(sc)
		p.Legend.Add(mk.Name, sc)
	}
	if logScale {
		lab.LogY(p)
	}
	return p, nil
}

// ResidualPlot draws each fit's residuals (solid markers, joined) and
// leave-one-out residuals (dashed) against x, on the fitted scale. Fits
// with no residual degrees of freedom (residuals all zero) are left out.
func ResidualPlot(title, xLabel string, ms ...*Model) (*plot.Plot, error) {
	var ss []lab.Series
	for _, m := range ms {
		if m == nil || m.Fit.DoF <= 0 {
			continue
		}
		scale := ""
		if m.Log {
			scale = " (ln)"
		}
		ss = append(ss, lab.Series{Name: fmt.Sprintf("%s, %s: residual%s", m.Label, m.Model, scale), X: m.Fit.X, Y: m.Fit.Residuals, Points: true})
		ss = append(ss, lab.Series{Name: fmt.Sprintf("%s, %s: leave-one-out", m.Label, m.Model), X: m.Fit.X, Y: m.Fit.LOO, Dashed: true})
	}
	p, err := lab.LinePlot(title, xLabel, "observed − fitted", ss...)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// num formats a prediction in the lab's number style (lab.Sig): one
// decimal below 100, 2 significant digits below 0.1 (5.7·10⁻⁸, not 0.0),
// whole up to 100,000 (2,301), else 3 significant digits
// (2,770,000,000; 5.27·10²⁰ from 10¹⁸ up).
func num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return lab.Num(v)
	case v != 0 && math.Abs(v) < 0.1:
		return lab.Sig(v, 2)
	case math.Abs(v) < 100:
		return fmt.Sprintf("%.1f", v)
	case math.Abs(v) < 1e5:
		return lab.Int(int64(math.Round(v)))
	}
	return lab.Sig(v, 3)
}

// NonNil returns the fits that are not nil, in order.
func NonNil(ms ...*Model) []*Model {
	var out []*Model
	for _, m := range ms {
		if m != nil {
			out = append(out, m)
		}
	}
	return out
}
