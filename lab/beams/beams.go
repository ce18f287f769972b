package beams

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/internal/atomicfile"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/lab"
)

// Run runs a beam search keeping beamWidth wells per level from the empty well with
// the default evaluation of `hatelab beam`, tuned (evalspec.BestHand; and
// the quiescence lookahead when asked), drawing a progress bar; maxPieces
// 0 runs until the beam dies. RunSpec names another evaluation.
func Run(beamWidth int, quiescence bool, maxPieces int) (*beam.Result, error) {
	return RunSpec(evalspec.BestHand, beamWidth, quiescence, maxPieces)
}

// RunSpec is Run with the evaluation an evaluation spec names (hand for
// D&F's weights, nnue for the lab's best network: engine/evalspec), files
// relative to the repository.
func RunSpec(spec string, beamWidth int, quiescence bool, maxPieces int) (*beam.Result, error) {
	ev, err := evalspec.Parse(spec, lab.RepoRoot(), nil)
	if err != nil {
		return nil, fmt.Errorf("beams: evaluation %q: %v", spec, err)
	}
	return RunEval(ev, beamWidth, quiescence, maxPieces)
}

// Point is one search of a sweep over beam widths.
type Point struct {
	BeamWidth  int     `lab:"beam width"`
	Quiescence bool    `lab:"quiescence"`
	Score      int     `lab:"score"`
	Pieces     int     `lab:"pieces"`
	BestLevel  int     `lab:"best at level"`
	Levels     int     `lab:"levels"`
	Seconds    float64 `lab:"seconds,%.1f"`
	Children   int64   `lab:"children"`
	// WallPerChild is wall-clock microseconds per evaluated child, all
	// workers together.
	WallPerChild float64 `lab:"µs per child (wall),%.2f"`
	// Result is the full search (not shown in tables).
	Result *beam.Result `lab:"-" json:",omitempty"`
}

// Sweep runs one search per beam width and quiescence setting (widths in
// the inner loop) with an outer progress bar over the searches and an inner
// one per level of the current search. When cache names a
// file (relative paths are under the system's temporary directory), the
// searches are saved there and a search already in it is loaded instead of
// run again, so that later notebook cells can reuse a sweep; see
// ResetCache. It plays the default evaluation of `hatelab beam`, tuned
// (evalspec.BestHand); SweepSpec names another.
func Sweep(widths []int, quiescence []bool, maxPieces int, cache string) ([]Point, error) {
	return SweepSpec(evalspec.BestHand, widths, quiescence, maxPieces, cache)
}

// SweepSpec is Sweep with the evaluation an evaluation spec names
// (engine/evalspec; "hand" for D&F's weights, whose published scores
// PublishedBeam lists), files relative to the repository.
func SweepSpec(spec string, widths []int, quiescence []bool, maxPieces int, cache string) ([]Point, error) {
	ev, err := evalspec.Parse(spec, lab.RepoRoot(), nil)
	if err != nil {
		return nil, fmt.Errorf("beams: evaluation %q: %v", spec, err)
	}
	cached := map[string]Point{}
	if cache != "" {
		cache = beamCachePath(cache)
		b, err := readCache(cache)
		if err != nil {
			return nil, err
		}
		if len(b) > 0 {
			if first, _, _ := strings.Cut(string(b), "\n"); !strings.HasPrefix(first, `{"Key":`) {
				return nil, fmt.Errorf("beams: %s is not a sweep cache: refusing to append to it", cache)
			}
			for _, line := range strings.Split(string(b), "\n") {
				var e beamCacheEntry
				if line == "" || json.Unmarshal([]byte(line), &e) != nil || e.Point.Result == nil {
					continue
				}
				e.Point.Result.Rules = hatetris.Standard()
				cached[e.Key] = e.Point
			}
		}
	}
	var out []Point
	sw := lab.Sweep("beam sweep", len(widths)*len(quiescence), "searches")
	defer sw.Finish()
	for _, q := range quiescence {
		for _, w := range widths {
			key := beamKey(w, q, maxPieces, ev)
			name := "beam width " + lab.Int(int64(w))
			if q {
				name += " +quiescence"
			}
			if p, ok := cached[key]; ok {
				out = append(out, p)
				sw.Skip(name)
				continue
			}
			res, err := beam.Run(context.Background(), beam.Config{BeamWidth: w, Quiescence: q, MaxPieces: maxPieces, Eval: ev, Progress: sw.Next(name)})
			if err != nil {
				return nil, err
			}
			p := pointOf(w, q, res)
			out = append(out, p)
			if cache != "" {
				b, err := json.Marshal(beamCacheEntry{Key: key, Point: p})
				if err != nil {
					return nil, err
				}
				f, err := os.OpenFile(cache, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
				if err != nil {
					return nil, err
				}
				_, err = f.Write(append(b, '\n'))
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// ResetCache removes a sweep cache (the first sweep of a notebook calls
// it, so that a run never reuses searches of older code).
func ResetCache(cache string) error {
	err := os.Remove(beamCachePath(cache))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// maxCache caps a sweep cache (a line per search, a few KiB each).
const maxCache = 256 << 20

// readCache reads the sweep cache at path (nothing when it does not
// exist): a regular file of at most maxCache bytes, never a device, FIFO
// or folder, which the appends would write into.
func readCache(path string) ([]byte, error) {
	if err := atomicfile.CheckTarget(path); err != nil {
		return nil, fmt.Errorf("beams: cache: %v", err)
	}
	b, err := boundedfile.ReadFile(path, maxCache, "sweep cache")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case boundedfile.IsRefused(err):
		return nil, fmt.Errorf("beams: cache %s %v", path, err)
	}
	return b, err
}

func beamCachePath(cache string) string { return lab.ScratchPath(cache) }

type beamCacheEntry struct {
	Key   string
	Point Point
}

func beamKey(width int, q bool, maxPieces int, ev eval.Evaluator) string {
	return fmt.Sprintf("%d/%v/%d/%s", width, q, maxPieces, ev.Name())
}

func pointOf(width int, q bool, res *beam.Result) Point {
	p := Point{BeamWidth: width, Quiescence: q, Score: res.Score, Pieces: res.Pieces, BestLevel: res.BestLevel,
		Levels: len(res.Levels), Seconds: res.Seconds, Children: res.Children, Result: res}
	if res.Children > 0 {
		p.WallPerChild = res.Seconds / float64(res.Children) * 1e6
	}
	return p
}

// Published is a published beam-search result with the hand-made
// evaluation.
type Published struct {
	BeamWidth  int
	Quiescence bool
	Score      int
	Source     string
}

// PublishedBeam lists D&F's published scores of the hand-made heuristic
// against beam width ("Losing the World Record in HATETRIS", 2023): 24
// without and 62 with the bird-in-hand lookahead at width 100,000, and 148
// with it at 1,000,000.
var PublishedBeam = []Published{
	{100000, false, 24, "D&F 2023"},
	{100000, true, 62, "D&F 2023"},
	{1000000, true, 148, "D&F 2023"},
}

// ScorePlot draws score against beam width (log axis): one line per
// quiescence setting of the sweep, the published points as large squares,
// and extra results (e.g. CLI runs of this engine, labelled by their
// Source) as triangles.
func ScorePlot(points []Point, extra ...Published) (*plot.Plot, error) {
	p := lab.NewPlot()
	p.Title.Text = "HATETRIS beam search, hand-made evaluation: score against beam width"
	p.X.Label.Text = "beam width (log scale)"
	p.Y.Label.Text = "lines"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick {
		ts := plot.LogTicks{Prec: -1}.Ticks(min, max)
		for i := range ts {
			if ts[i].Label != "" {
				ts[i].Label = lab.Int(int64(math.Round(ts[i].Value)))
			}
		}
		return ts
	})
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	for i, q := range []bool{false, true} {
		var xys plotter.XYs
		for _, pt := range points {
			if pt.Quiescence == q {
				xys = append(xys, plotter.XY{X: float64(pt.BeamWidth), Y: float64(pt.Score)})
			}
		}
		if len(xys) == 0 {
			continue
		}
		c := lab.Palette[i]
		l, sc, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = c, vg.Points(1.5)
		sc.Color, sc.Radius, sc.Shape = c, vg.Points(3), draw.CircleGlyph{}
		p.Add(l, sc)
		p.Legend.Add("this engine, "+quiescenceName(q), l, sc)
	}
	for i, q := range []bool{false, true} {
		var xys plotter.XYs
		for _, pb := range PublishedBeam {
			if pb.Quiescence == q {
				xys = append(xys, plotter.XY{X: float64(pb.BeamWidth), Y: float64(pb.Score)})
			}
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		sc.Color, sc.Radius, sc.Shape = lab.Palette[i], vg.Points(6), draw.BoxGlyph{}
		sc.GlyphStyle.Color = lab.Palette[i]
		p.Add(sc)
		p.Legend.Add("D&F published, "+quiescenceName(q), sc)
	}
	for _, e := range extra {
		sc, err := plotter.NewScatter(plotter.XYs{{X: float64(e.BeamWidth), Y: float64(e.Score)}})
		if err != nil {
			return nil, err
		}
		c := lab.Palette[0]
		if e.Quiescence {
			c = lab.Palette[1]
		}
		sc.Color, sc.Radius, sc.Shape = c, vg.Points(6), draw.TriangleGlyph{}
		p.Add(sc)
		p.Legend.Add(fmt.Sprintf("%s, width %s, %s", e.Source, lab.Int(int64(e.BeamWidth)), quiescenceName(e.Quiescence)), sc)
	}
	return p, nil
}

func quiescenceName(q bool) string {
	if q {
		return "with bird-in-hand"
	}
	return "without"
}

// TimePlot draws the wall time of every level of the given searches.
func TimePlot(points []Point) (*plot.Plot, error) {
	var series []lab.Series
	for _, pt := range points {
		var x, y []float64
		for _, ds := range pt.Result.Levels {
			x = append(x, float64(ds.Level))
			y = append(y, ds.Seconds)
		}
		series = append(series, lab.Series{Name: fmt.Sprintf("width %s, %s", lab.Int(int64(pt.BeamWidth)), quiescenceName(pt.Quiescence)), X: x, Y: y})
	}
	return lab.LinePlot("wall time per level", "level (pieces placed)", "seconds", series...)
}

// LevelPlot draws the best and worst score kept at every level of one
// search.
func LevelPlot(res *beam.Result, title string) (*plot.Plot, error) {
	var x, lo, hi []float64
	for _, ds := range res.Levels {
		x = append(x, float64(ds.Level))
		lo = append(lo, float64(ds.MinScore))
		hi = append(hi, float64(ds.MaxScore))
	}
	return lab.LinePlot(title, "level (pieces placed)", "lines",
		lab.Series{Name: "best score kept", X: x, Y: hi, Step: true},
		lab.Series{Name: "worst score kept", X: x, Y: lo, Step: true})
}

// LevelRow is one level of a search, for tables.
type LevelRow struct {
	Level        int     `lab:"level"`
	Kept         int     `lab:"kept"`
	Children     int64   `lab:"children"`
	Scores       string  `lab:"scores (count)"`
	BestValue    float64 `lab:"best value,%.0f"`
	WorstValue   float64 `lab:"worst value,%.0f"`
	Families     int     `lab:"bottom-row families"`
	TopFamily    int     `lab:"largest family"`
	LoopsAvoided int     `lab:"loops avoided"`
	Seconds      float64 `lab:"seconds,%.2f"`
}

// LevelTable tabulates every step-th level of a search and its last
// non-empty level.
func LevelTable(res *beam.Result, step int) *lab.Table {
	var rows []LevelRow
	last := len(res.Levels) - 1
	for last > 0 && res.Levels[last].Kept == 0 {
		last--
	}
	for i, ds := range res.Levels[:last+1] {
		if step > 1 && i%step != step-1 && i != last {
			continue
		}
		var sc []string
		for j, n := range ds.ScoreCounts {
			if n > 0 {
				sc = append(sc, fmt.Sprintf("%d (%s)", ds.MinScore+j, lab.Int(int64(n))))
			}
		}
		if len(sc) > 4 {
			sc = append(sc[:2], append([]string{"…"}, sc[len(sc)-2:]...)...)
		}
		rows = append(rows, LevelRow{Level: ds.Level, Kept: ds.Kept, Children: ds.Children, Scores: strings.Join(sc, " "),
			BestValue: ds.BestValue, WorstValue: ds.WorstValue, Families: ds.Families, TopFamily: ds.TopFamily,
			LoopsAvoided: ds.LoopsAvoided, Seconds: ds.Seconds})
	}
	return lab.TableOf(rows)
}

// Game replays a search's best game with the real game's rules (for
// Filmstrip and the other game views).
func Game(res *beam.Result) (*hatetris.Game, error) {
	g := hatetris.NewGameFrom(res.Rules, hatetris.HATETRIS, res.Wells[0], res.StartScore)
	if err := g.PressAll(res.Keys); err != nil {
		return nil, err
	}
	if g.Score != res.Score || !g.Over {
		return nil, fmt.Errorf("beam game replays to %d lines (over %v), the search says %d", g.Score, g.Over, res.Score)
	}
	return g, nil
}

// Best returns the point with the highest score, then the longest game,
// then the first; the zero Point for none.
func Best(pts []Point) Point {
	var b Point
	for i, p := range pts {
		if i == 0 || p.Score > b.Score || p.Score == b.Score && p.Pieces > b.Pieces {
			b = p
		}
	}
	return b
}

// RunEval is Run with another evaluation, such as an NNUE network:
//
//	ev, err := evalspec.Parse("nnue:datasets/weights/gen-00.hlnn", lab.RepoRoot(), nil)
//	res, err := beams.RunEval(ev, 1000, true, 0)
func RunEval(ev eval.Evaluator, beamWidth int, quiescence bool, maxPieces int) (*beam.Result, error) {
	job := fmt.Sprintf("beam width %s %s", lab.Int(int64(beamWidth)), ev.Name())
	if quiescence {
		job += " +quiescence"
	}
	return beam.Run(context.Background(), beam.Config{BeamWidth: beamWidth, Quiescence: quiescence, MaxPieces: maxPieces, Eval: ev, Progress: lab.Progress(job)})
}
