package transitions

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	flatsdata "github.com/hatelab/hatelab/datasets/flats"
	"github.com/hatelab/hatelab/engine/flats/experiment"
	"github.com/hatelab/hatelab/lab"
)

// ArmNames describes the experiment's arms.
var ArmNames = map[string]string{
	experiment.ArmHand:    "hand (dnf86)",
	experiment.ArmHandG:   "hand + G (records)",
	experiment.ArmGScore:  "G + score only",
	experiment.ArmPlacebo: "hand + placebo G",
	experiment.ArmOther:   "hand + G (10x5 optimal)",
}

// Experiment returns the committed results of the G-term experiment
// (datasets/flats/experiment.json).
func Experiment() (*experiment.Results, error) { return flatsdata.Experiment() }

// Resamples and the seed of the experiment's bootstrap intervals.
const (
	Resamples = 10000
	Seed      = 1
)

// DiffRow is one line of the experiment's table.
type DiffRow struct {
	Arm       string  `lab:"arm"`
	What      string  `lab:"evaluation"`
	BeamWidth string  `lab:"beam width"`
	N         int     `lab:"starts"`
	MeanA0    float64 `lab:"mean A0,%.2f"`
	MeanArm   float64 `lab:"mean arm,%.2f"`
	Diff      float64 `lab:"paired diff,%+.2f"`
	Lo        float64 `lab:"95% lo,%+.2f"`
	Hi        float64 `lab:"95% hi,%+.2f"`
	WLT       string  `lab:"wins/losses/ties"`
	CPU       float64 `lab:"CPU arm/A0,%.2f"`
}

// DiffRows returns the experiment's paired differences against A0 (mean
// of arm minus A0 over the test starts, 95% bootstrap intervals).
func DiffRows(e *experiment.Results) []DiffRow {
	var out []DiffRow
	for _, d := range e.Paired(Resamples, Seed, 0.95) {
		r := DiffRow{Arm: d.Arm, What: ArmNames[d.Arm], BeamWidth: fmt.Sprint(d.BeamWidth), N: d.N, MeanA0: d.MeanBase, MeanArm: d.MeanArm,
			Diff: d.Diff.Estimate, Lo: d.Diff.Lo, Hi: d.Diff.Hi, WLT: fmt.Sprintf("%d/%d/%d", d.Wins, d.Losses, d.Ties), CPU: d.ArmCPU / d.BaseCPU}
		if d.Matched {
			r.Arm = "A1 vs A0 matched time"
			r.What = fmt.Sprintf("A0 at beam width %s (cost ratio %.3f)", lab.Int(int64(d.MatchedBeamWidth)), d.Ratio)
		}
		out = append(out, r)
	}
	return out
}

// TuneRow is one weight of the tuning grid.
type TuneRow struct {
	Weight float64 `lab:"weight of G,%g"`
	A1     float64 `lab:"A1 mean score,%.2f"`
	A2     float64 `lab:"A2 mean score,%.2f"`
}

// Tuning returns the mean tuning score of A1 and A2 per grid weight (NaN
// where unfinished).
func Tuning(e *experiment.Results) []TuneRow {
	var out []TuneRow
	for _, g := range e.Config.Grid {
		row := TuneRow{Weight: g}
		for _, arm := range []string{experiment.ArmHandG, experiment.ArmGScore} {
			sum, n := 0.0, 0
			for _, r := range e.Runs {
				if r.Phase == experiment.PhaseTune && r.Arm == arm && r.Weight == g {
					sum += float64(r.Score)
					n++
				}
			}
			v := math.NaN()
			if n == e.Config.TuneStarts {
				v = sum / float64(n)
			}
			if arm == experiment.ArmHandG {
				row.A1 = v
			} else {
				row.A2 = v
			}
		}
		out = append(out, row)
	}
	return out
}

// DiffPlot charts the paired score differences (arm − A0) against beam
// width, one series per arm (offset a little sideways), with their 95%
// bootstrap intervals, and the matched-time comparison.
func DiffPlot(e *experiment.Results) (*plot.Plot, error) {
	p := lab.NewPlot()
	p.Title.Text = "Paired score difference against A0 (hand), 95% bootstrap intervals"
	p.X.Label.Text = "beam width (log)"
	p.Y.Label.Text = "mean score difference (lines)"
	p.X.Scale = plot.LogScale{}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	zero := plotter.NewFunction(func(float64) float64 { return 0 })
	zero.Color = lab.Palette[7]
	p.Add(zero)
	ds := e.Paired(Resamples, Seed, 0.95)
	type series struct {
		xy  plotter.XYs
		err plotter.Errors
	}
	byArm := map[string]*series{}
	var keys []string
	minW, maxW := math.Inf(1), 0.0
	for _, d := range ds {
		k := d.Arm
		if d.Matched {
			k = "A1~"
		}
		s := byArm[k]
		if s == nil {
			s = &series{}
			byArm[k] = s
			keys = append(keys, k)
		}
		idx := map[string]float64{"A1": -2, "A2": -1, "A3": 0, "A4": 1, "A1~": 2}[k]
		x := float64(d.BeamWidth) * math.Pow(1.05, idx)
		minW, maxW = min(minW, x), max(maxW, x)
		s.xy = append(s.xy, plotter.XY{X: x, Y: d.Diff.Estimate})
		s.err = append(s.err, struct{ Low, High float64 }{d.Diff.Estimate - d.Diff.Lo, d.Diff.Hi - d.Diff.Estimate})
	}
	sort.Strings(keys)
	type xyErr struct {
		plotter.XYs
		plotter.YErrors
	}
	for i, k := range keys {
		s := byArm[k]
		d := xyErr{s.xy, plotter.YErrors(s.err)}
		line, pts, err := plotter.NewLinePoints(d)
		if err != nil {
			return nil, err
		}
		c := lab.Palette[i%len(lab.Palette)]
		line.Color, pts.Color = c, c
		pts.Shape = draw.CircleGlyph{}
		if k == "A1~" {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			pts.Shape = draw.BoxGlyph{}
		}
		bars, err := plotter.NewYErrorBars(d)
		if err != nil {
			return nil, err
		}
		bars.Color = c
		p.Add(line, pts, bars)
		name := k + " " + ArmNames[k]
		if k == "A1~" {
			name = "A1 vs A0 at matched time"
		}
		p.Legend.Add(name, line, pts)
	}
	var ticks []plot.Tick
	seen := map[int]bool{}
	for _, d := range ds {
		if !seen[d.BeamWidth] {
			seen[d.BeamWidth] = true
			ticks = append(ticks, plot.Tick{Value: float64(d.BeamWidth), Label: lab.Count(float64(d.BeamWidth))})
		}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	if maxW == 0 {
		minW, maxW = 100, 10000 // no finished test runs yet
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.X.Min, p.X.Max = minW/1.3, maxW*1.3
	return p, nil
}
