package beams

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/lab"
)

// TieBreak is engine/eval's: wells of exactly equal value ordered by a
// seeded hash (below 1e-6) instead of the beam's fixed order; seed 0
// returns e itself.
func TieBreak(e eval.Evaluator, seed uint64) eval.Evaluator { return eval.TieBreak(e, seed) }

// Trial is one search of a spread: its width, quiescence, tie-break seed
// (0: the beam's own order) and score.
type Trial struct {
	BeamWidth  int
	Quiescence bool
	Seed       uint64
	Score      int
	Pieces     int
	Seconds    float64
}

// Spread runs, for each quiescence setting and width, the search under
// each tie-break seed of seedsOf(width) (see TieBreak), with a progress
// bar. Searches are kept in cache like Sweep's; seed 0 is Sweep's own
// search (taken from the same cache when Sweep already ran it).
func Spread(widths []int, quiescence []bool, seedsOf func(width int) []uint64, cache string) ([]Trial, error) {
	type entry struct {
		Key   string
		Trial Trial
	}
	cached := map[string]Trial{}
	sweepCache := cache
	if cache != "" {
		cache = beamCachePath(cache)
		if b, err := os.ReadFile(cache); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				var e entry
				if line != "" && json.Unmarshal([]byte(line), &e) == nil && strings.HasPrefix(e.Key, "spread/") {
					cached[e.Key] = e.Trial
				}
			}
		}
	}
	var total int64
	for range quiescence {
		for _, w := range widths {
			total += int64(len(seedsOf(w)))
		}
	}
	// Seed 0 is the plain sweep's search: run (or load) those first, under
	// the sweep's own bar, so that the spread's bar then replaces it and a
	// finished cell keeps one bar.
	plain := map[[2]int]Point{}
	pts, err := Sweep(widths, quiescence, 0, sweepCache)
	if err != nil {
		return nil, err
	}
	for _, p := range pts {
		k := 0
		if p.Quiescence {
			k = 1
		}
		plain[[2]int{p.BeamWidth, k}] = p
	}
	rep := lab.Progress("beam spread")
	var out []Trial
	for _, q := range quiescence {
		for _, w := range widths {
			for _, seed := range seedsOf(w) {
				ev := TieBreak(eval.NewHand(eval.DefaultWeights()), seed)
				key := fmt.Sprintf("spread/%d/%v/%s", w, q, ev.Name())
				if r, ok := cached[key]; ok {
					out = append(out, r)
					continue
				}
				if seed == 0 {
					k := 0
					if q {
						k = 1
					}
					p := plain[[2]int{w, k}]
					out = append(out, Trial{w, q, 0, p.Score, p.Pieces, p.Seconds})
					continue
				}
				rep.Report(progress.Event{Job: "beam spread", Stage: fmt.Sprintf("width %d q=%v seed %d", w, q, seed),
					Done: int64(len(out)), Total: total, Unit: "searches"})
				res, err := beam.Run(context.Background(), beam.Config{BeamWidth: w, Quiescence: q, Eval: ev})
				if err != nil {
					return nil, err
				}
				r := Trial{w, q, seed, res.Score, res.Pieces, res.Seconds}
				out = append(out, r)
				if cache != "" {
					if err := appendLine(cache, entry{key, r}); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	rep.Report(progress.Event{Job: "beam spread", Stage: "done", Done: total, Total: total, Unit: "searches", Finished: true})
	return out, nil
}

func appendLine(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// SpreadRow summarises the searches of one width and quiescence setting.
type SpreadRow struct {
	BeamWidth  int    `lab:"beam width"`
	Quiescence bool   `lab:"quiescence"`
	Runs       int    `lab:"searches"`
	Scores     string `lab:"scores (seed 0 first)"`
	Min        int    `lab:"least"`
	Median     float64
	Max        int `lab:"greatest"`
}

// SpreadTable summarises runs per quiescence setting and width.
func SpreadTable(runs []Trial) []SpreadRow {
	var out []SpreadRow
	for _, q := range []bool{false, true} {
		var widths []int
		for _, r := range runs {
			if r.Quiescence == q && !slices.Contains(widths, r.BeamWidth) {
				widths = append(widths, r.BeamWidth)
			}
		}
		slices.Sort(widths)
		for _, w := range widths {
			var sc []int
			var txt []string
			for _, r := range runs {
				if r.Quiescence == q && r.BeamWidth == w {
					sc = append(sc, r.Score)
					txt = append(txt, fmt.Sprint(r.Score))
				}
			}
			s := slices.Sorted(slices.Values(sc))
			med := float64(s[len(s)/2])
			if len(s)%2 == 0 {
				med = float64(s[len(s)/2-1]+s[len(s)/2]) / 2
			}
			out = append(out, SpreadRow{w, q, len(sc), strings.Join(txt, " "), s[0], med, s[len(s)-1]})
		}
	}
	return out
}

// SpreadPlot draws every search's score against beam width (log axis),
// one colour per quiescence setting (with quiescence shifted a little to
// the right so the points do not hide each other), with a line through the
// medians.
func SpreadPlot(runs []Trial) (*plot.Plot, error) {
	p := lab.NewPlot()
	p.Title.Text = "beam search, hand-made evaluation: score under several tie-break seeds"
	p.X.Label.Text = "beam width (log scale)"
	p.Y.Label.Text = "lines"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.Legend.Left = true
	rows := SpreadTable(runs)
	for i, q := range []bool{false, true} {
		shift := 1.0
		if q {
			shift = 1.08
		}
		var pts, med plotter.XYs
		for _, r := range runs {
			if r.Quiescence == q {
				pts = append(pts, plotter.XY{X: float64(r.BeamWidth) * shift, Y: float64(r.Score)})
			}
		}
		for _, r := range rows {
			if r.Quiescence == q {
				med = append(med, plotter.XY{X: float64(r.BeamWidth) * shift, Y: r.Median})
			}
		}
		if len(pts) == 0 {
			continue
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle.Color = lab.Palette[i%len(lab.Palette)]
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		s.GlyphStyle.Radius = vg.Points(3)
		l, err := plotter.NewLine(med)
		if err != nil {
			return nil, err
		}
		l.Color = lab.Palette[i%len(lab.Palette)]
		p.Add(s, l)
		p.Legend.Add(quiescenceName(q)+" (line: median)", s, l)
	}
	return p, nil
}
