package survival

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"

	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/engine/fit"
	"github.com/hatelab/hatelab/lab"
	"github.com/hatelab/hatelab/lab/draw"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// PieceColor is the colour of each classic piece (I J L O S T Z); a piece
// has the colour of its HATETRIS namesake in draw.PieceColor.
var PieceColor = [classic.NumPieces]string{"#29b6f6", "#3949ab", "#fb8c00", "#fdd835", "#4caf50", "#8e24aa", "#e53935"}

// Step is one piece of a recorded classic game: the board it fell
// into, where it locked (landing row Y of its top shape row) and the lines
// it cleared.
type Step struct {
	Before classic.Board
	Piece  classic.Piece
	Cand   *classic.Candidate
	Y      int
	Lines  int
}

// Played is a recorded classic game.
type Played struct {
	Steps  []Step
	Result classic.Result
	// Over reports that the game ended within the recording: Killer is the
	// piece that had no legal placement on the board Final.
	Over   bool
	Killer classic.Piece
	Final  classic.Board
}

// Play plays seed with agent on a rows x cols board, recording at
// most maxPieces steps (0: all); when playToEnd is true the game goes on
// unrecorded to its end, otherwise Result counts the recorded steps.
func Play(rows, cols int, agent classic.Agent, seed int64, maxPieces int, playToEnd bool) (Played, error) {
	r, err := classic.NewRules(rows, cols)
	if err != nil {
		return Played{}, err
	}
	g := classic.NewGame(r, agent, seed)
	var steps []Step
	var out Played
	for maxPieces <= 0 || len(steps) < maxPieces {
		before := g.Board
		p := g.Stream.Next()
		c, y := agent.Choose(&g.Board, p)
		if c == nil {
			g.Over = true
			out.Over, out.Killer, out.Final = true, p, g.Board
			break
		}
		n := g.Board.Apply(c, y)
		g.Pieces++
		g.Lines += int64(n)
		steps = append(steps, Step{before, p, c, y, n})
	}
	if playToEnd {
		for g.Step() {
		}
	}
	out.Steps = steps
	out.Result = classic.Result{Rows: rows, Cols: cols, Seed: seed, Agent: agent.Name(), Pieces: g.Pieces, Lines: g.Lines}
	return out, nil
}

// Board draws a classic board, with the step's piece (if any) in its
// colour where it locked.
func Board(b *classic.Board, s *Step, size int, title, caption string) lab.SVG {
	var piece [classic.MaxRows]uint16
	if s != nil {
		for i := 0; i < s.Cand.NRows; i++ {
			piece[s.Y+i] = s.Cand.Rows[i]
		}
	}
	return lab.Grid{
		Cols: b.R.Cols, Rows: b.R.Rows, Size: size, Title: title, Caption: caption,
		Cell: func(x, y int) lab.Cell {
			switch {
			case piece[y]>>x&1 != 0:
				return lab.Cell{Fill: PieceColor[s.Piece]}
			case b.Cells[y]>>x&1 != 0:
				return lab.Cell{Fill: draw.StackColor}
			}
			return lab.Cell{}
		},
	}.SVG()
}

// Filmstrip draws steps from..to-1 of a recorded game, perRow
// boards a row, each with its piece and a caption (piece number, letter,
// lines cleared).
func Filmstrip(steps []Step, from, to, perRow int, title string) lab.SVG {
	from, to = max(from, 0), min(to, len(steps))
	var pics []lab.SVG
	for i := from; i < to; i++ {
		s := &steps[i]
		c := fmt.Sprintf("#%d %v", i+1, s.Piece)
		if s.Lines > 0 {
			c += fmt.Sprintf(" +%d", s.Lines)
		}
		pics = append(pics, Board(&s.Before, s, 9, "", c))
	}
	strip := lab.Strip(max(perRow, 1), pics...)
	if title == "" {
		return strip
	}
	return lab.Column(lab.Title(title), strip)
}

// Sweep runs (or resumes) a sweep of agent on 10-wide boards over the given heights
// with n documented seeds each, appending to the CSV at path (relative
// paths are taken from the repository root), with a progress bar, and
// returns every record of the file for that agent, heights and seeds.
func Sweep(agent string, rows []int, n int, path string) ([]classic.Result, error) {
	a, err := classic.NewAgent(agent)
	if err != nil {
		return nil, err
	}
	if !filepath.IsAbs(path) {
		path = lab.RepoPath(path)
	}
	w, err := classic.OpenCSV(path)
	if err != nil {
		return nil, err
	}
	all := classic.Jobs(rows, 10, n)
	jobs := classic.Remaining(all, a.Name(), w.Done)
	recs := slices.Clone(w.Done)
	err = classic.Sweep(bgContext(), jobs, func() classic.Agent {
		a, _ := classic.NewAgent(agent)
		return a
	}, 0, func(r classic.Result) error {
		recs = append(recs, r)
		return w.Write(r)
	}, lab.Progress("classic "+a.Name()))
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return Select(recs, a.Name(), rows, n), err
}

// Select keeps the records of agent at the given heights whose seed
// is among the first n documented seeds of its height, sorted by height and
// seed.
func Select(recs []classic.Result, agent string, rows []int, n int) []classic.Result {
	var out []classic.Result
	for _, r := range recs {
		if r.Agent == agent && r.Cols == 10 && slices.Contains(rows, r.Rows) &&
			r.Seed >= int64(r.Rows*1000) && r.Seed < int64(r.Rows*1000+n) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b classic.Result) int {
		if a.Rows != b.Rows {
			return a.Rows - b.Rows
		}
		return int(a.Seed - b.Seed)
	})
	return out
}

// StatsRow is one line of Table.
type StatsRow struct {
	Agent      string
	Rows       int
	N          int
	Mean       float64 `lab:"mean,%.2f"`
	Median     float64 `lab:"median,%.1f"`
	MedianLn2  float64 `lab:"median/ln2,%.2f"`
	CI         string  `lab:"95% CI"`
	CV         float64 `lab:"CV,%.3f"`
	KS         float64 `lab:"KS,%.4f"`
	Published  string  `lab:"tetr-ai README mean"`
	MeanPieces float64 `lab:"mean pieces,%.2f"`
}

// Table tabulates sweep statistics, with tetr-ai's published mean
// beside each height. KS is the distance to an exponential of the same
// mean; whether it is too large for the sample is KSTable's question
// (calibrated by simulation), not this table's.
func Table(stats []classic.Stats) *lab.Table {
	var rows []StatsRow
	for _, s := range stats {
		pub := ""
		for _, p := range classic.TetrAIPublished {
			if p.Rows == s.Rows && s.Cols == 10 && s.Agent == "tetr-ai" {
				pub = lab.Fixed(p.Mean, 2)
			}
		}
		rows = append(rows, StatsRow{s.Agent, s.Rows, s.N, s.Mean, s.Median, s.MedianLn2,
			lab.Fixed(s.CILo, 1) + ".." + lab.Fixed(s.CIHi, 1), s.CV, s.KS, pub, s.MeanPieces})
	}
	return lab.TableOf(rows)
}

// errPoints are points with vertical error bars.
type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

func logPlot(title, xLabel, yLabel string) *plot.Plot {
	p := lab.NewPlot()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	lab.LogY(p)
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	return p
}

// intTicks marks every integer from lo to hi.
func intTicks(lo, hi int) plot.ConstantTicks {
	var t plot.ConstantTicks
	for v := lo; v <= hi; v++ {
		t = append(t, plot.Tick{Value: float64(v), Label: fmt.Sprint(v)})
	}
	return t
}

// Plot draws mean lines against height for each agent on a log
// scale, with 95% confidence bars.
func Plot(title string, stats []classic.Stats) (*plot.Plot, error) {
	p := logPlot(title, "board height (rows)", "mean lines per game")
	var agents []string
	lo, hi := classic.MaxRows, classic.MinRows
	for _, s := range stats {
		if !slices.Contains(agents, s.Agent) {
			agents = append(agents, s.Agent)
		}
		lo, hi = min(lo, s.Rows), max(hi, s.Rows)
	}
	p.X.Tick.Marker = intTicks(lo, hi)
	for i, a := range agents {
		var pts errPoints
		for _, s := range stats {
			if s.Agent != a || s.Mean <= 0 {
				continue
			}
			pts.XYs = append(pts.XYs, plotter.XY{X: float64(s.Rows), Y: s.Mean})
			lo := math.Min(s.Mean-s.CILo, s.Mean*0.99)
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{lo, s.CIHi - s.Mean})
		}
		if len(pts.XYs) == 0 {
			continue
		}
		c := lab.Palette[i%len(lab.Palette)]
		l, sc, err := plotter.NewLinePoints(pts.XYs)
		if err != nil {
			return nil, err
		}
		l.Color, sc.Color = c, c
		l.Width = vg.Points(1.5)
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, err
		}
		eb.Color = c
		p.Add(l, sc, eb)
		p.Legend.Add(a, l, sc)
	}
	return p, nil
}

// FitPlot draws measured means (with 95% bars) and published means
// against height, and log-quadratic fits from..to with the prediction band
// of the first fit.
func FitPlot(title string, measured []classic.Stats, fits map[string]*fit.Fit, order []string, from, to int) (*plot.Plot, error) {
	p := logPlot(title, "board height (rows)", "mean lines per game")
	p.X.Tick.Marker = intTicks(from, to)
	var pub plotter.XYs
	for _, q := range classic.TetrAIPublished {
		pub = append(pub, plotter.XY{X: float64(q.Rows), Y: q.Mean})
	}
	sc, err := plotter.NewScatter(pub)
	if err != nil {
		return nil, err
	}
	sc.Color = lab.Palette[7]
	sc.Radius = vg.Points(3.5)
	p.Add(sc)
	p.Legend.Add("tetr-ai README means (h=5..17)", sc)
	var pts errPoints
	for _, s := range measured {
		pts.XYs = append(pts.XYs, plotter.XY{X: float64(s.Rows), Y: s.Mean})
		pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{math.Min(s.Mean-s.CILo, s.Mean*0.99), s.CIHi - s.Mean})
	}
	if len(pts.XYs) > 0 {
		ms, err := plotter.NewScatter(pts.XYs)
		if err != nil {
			return nil, err
		}
		ms.Color = lab.Palette[0]
		eb, err := plotter.NewYErrorBars(pts)
		if err != nil {
			return nil, err
		}
		eb.Color = lab.Palette[0]
		p.Add(ms, eb)
		p.Legend.Add("our tetr-ai means (1000 seeds each)", ms)
	}
	for i, name := range order {
		f := fits[name]
		var mid, lo, hi plotter.XYs
		for x := float64(from); x <= float64(to)+1e-9; x += 0.25 {
			y, l, h := f.PredictionInterval(x, 0.95)
			mid = append(mid, plotter.XY{X: x, Y: math.Exp(y)})
			lo = append(lo, plotter.XY{X: x, Y: math.Exp(l)})
			hi = append(hi, plotter.XY{X: x, Y: math.Exp(h)})
		}
		c := lab.Palette[(i+1)%len(lab.Palette)]
		l, err := plotter.NewLine(mid)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = c, vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(name, l)
		if i == 0 {
			for _, band := range []plotter.XYs{lo, hi} {
				b, err := plotter.NewLine(band)
				if err != nil {
					return nil, err
				}
				b.Color, b.Dashes = c, []vg.Length{vg.Points(4), vg.Points(3)}
				p.Add(b)
			}
		}
	}
	return p, nil
}

func bgContext() context.Context { return context.Background() }
