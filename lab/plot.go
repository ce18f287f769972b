package lab

import (
	"bytes"
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
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
}

// LinePlot builds a chart with one line per series, coloured from Palette,
// with a legend when any series has a name.
func LinePlot(title, xLabel, yLabel string, series ...Series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	for i, s := range series {
		if len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("series %q: %d x values but %d y values", s.Name, len(s.X), len(s.Y))
		}
		xys := make(plotter.XYs, len(s.X))
		for j := range s.X {
			xys[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("series %q: %w", s.Name, err)
		}
		c := Palette[i%len(Palette)]
		l.Color = c
		l.Width = vg.Points(1.5)
		if s.Step {
			l.StepStyle = plotter.PostStep
		}
		p.Add(l)
		if s.Points {
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, err
			}
			sc.Color = c
			sc.Radius = vg.Points(2)
			p.Add(sc)
		}
		if s.Name != "" {
			p.Legend.Add(s.Name, l)
		}
	}
	return p, nil
}

// PlotSVG renders p as SVG at w x h (0: the default size).
func PlotSVG(p *plot.Plot, w, h vg.Length) (SVG, error) {
	w, h = plotSize(w, h)
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("rendering SVG: %w", err)
	}
	return SVG(buf.String()), nil
}

// PlotPNG renders p as PNG at w x h (0: the default size), 96 dots per inch.
func PlotPNG(p *plot.Plot, w, h vg.Length) (PNG, error) {
	w, h = plotSize(w, h)
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96))}
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("rendering PNG: %w", err)
	}
	return PNG(buf.Bytes()), nil
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
// FiguresDir()/name.svg. Errors are shown (and returned).
func ShowPlot(p *plot.Plot, name string) error {
	svg, err := PlotSVG(p, 0, 0)
	if err == nil && name != "" {
		err = SaveFigure(name+".svg", []byte(svg))
	}
	if err != nil {
		Show(err)
		return err
	}
	Show(svg)
	return nil
}

// ShowFigure shows an SVG picture (a well, a filmstrip) and saves it as
// FiguresDir()/name.svg when name is not empty.
func ShowFigure(svg SVG, name string) error {
	if name != "" {
		if err := SaveFigure(name+".svg", []byte(svg)); err != nil {
			Show(err)
			return err
		}
	}
	Show(svg)
	return nil
}

// SaveFigure writes data as FiguresDir()/file atomically (a temporary file
// renamed into place).
func SaveFigure(file string, data []byte) error {
	dir := FiguresDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("saving figure: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(file)+"-*")
	if err != nil {
		return fmt.Errorf("saving figure: %w", err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), filepath.Join(dir, file))
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("saving figure %s: %w", file, werr)
	}
	return nil
}
