package smallwells

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"time"

	bfsdata "github.com/hatelab/hatelab/datasets/bfs"
	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/lab"
	"github.com/hatelab/hatelab/lab/draw"
	"gonum.org/v1/plot"
)

// Search runs the complete search of a width x height well (height rows below
// the bar) with a progress bar (bfs.Search with context.Background(): call
// bfs.Search directly to pass a context that can be cancelled).
func Search(width, height int, rule bfs.Rule) (*bfs.Result, error) {
	return bfs.Search(context.Background(), bfs.Options{Width: width, Height: height, Rule: rule,
		Progress: lab.Progress(fmt.Sprintf("bfs %dx%d %s", width, height, rule))})
}

// Sweep searches each well of sizes ({width, height} pairs) under each rule
// in turn (rules in the inner loop), drawing one outer bar over the
// searches and one inner bar per level of the current search, and returns
// the results in that order (show them as rows of a table).
func Sweep(sizes [][2]int, rules ...bfs.Rule) ([]*bfs.Result, error) {
	sw := lab.Sweep("bfs sweep", len(sizes)*len(rules), "searches")
	defer sw.Finish()
	var out []*bfs.Result
	for _, s := range sizes {
		for _, rule := range rules {
			r, err := bfs.Search(context.Background(), bfs.Options{Width: s[0], Height: s[1], Rule: rule,
				Progress: sw.Next(fmt.Sprintf("bfs %dx%d %s", s[0], s[1], rule))})
			if err != nil {
				return out, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// Game searches a well, keeping its levels in a temporary folder, and
// rebuilds one game (bfs.Longest or bfs.HighestScoring), verified by the
// engine. It returns the search too.
func Game(width, height int, rule bfs.Rule, t bfs.Target) (*bfs.Game, *bfs.Result, error) {
	dir, err := os.MkdirTemp("", "hatelab-bfs-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	res, err := bfs.Search(context.Background(), bfs.Options{Width: width, Height: height, Rule: rule, LevelDir: dir,
		Progress: lab.Progress(fmt.Sprintf("bfs %dx%d %s", width, height, rule))})
	if err != nil {
		return nil, nil, err
	}
	g, err := bfs.Reconstruct(dir, t)
	return g, res, err
}

// Summary returns the rows of datasets/bfs/summary.csv (embedded): one row
// per complete search.
func Summary() ([]bfs.Row, error) { return bfsdata.Summary() }

// Stored returns a committed search of datasets/bfs as a result: its
// summary row and its levels (no wells: the dataset keeps counts only).
// It serves the searches too large to run in a notebook (10x8 expanded 38
// billion states), e.g. for LevelsPlot. As in the summary table, Score and
// Length are -1 for an unbounded search (width 4): its levels hold the
// best score of each level.
func Stored(width, height int, rule bfs.Rule) (*bfs.Result, error) {
	rows, err := Summary()
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if r.Width != width || r.Height != height || r.Rule != rule {
			continue
		}
		levels, err := bfsdata.Levels(width, height, rule)
		if err != nil {
			return nil, err
		}
		return &bfs.Result{Width: width, Height: height, Rule: rule, Levels: levels, Score: r.Score, Length: r.Length,
			PeakStates: r.PeakStates, PeakLevel: r.PeakLevel, Unbounded: r.Unbounded, Expanded: r.States, Children: r.Children,
			Seconds: r.Seconds, PeakRSS: r.PeakRSS}, nil
	}
	return nil, fmt.Errorf("smallwells: no committed search of %dx%d under rule %s", width, height, rule)
}

// Row is a display row of a search.
type Row struct {
	Width      int    `lab:"W"`
	Height     int    `lab:"H"`
	Rule       string `lab:"rule"`
	Score      string `lab:"score"`
	Length     string `lab:"length"`
	PeakStates int64  `lab:"peak states"`
	PeakLevel  int    `lab:"at level"`
	States     int64  `lab:"states"`
	Seconds    string `lab:"time"`
	PeakMiB    string `lab:"peak RSS"`
}

// RowOf turns a summary row into a display row.
func RowOf(r bfs.Row) Row {
	sc, ln := fmt.Sprint(r.Score), fmt.Sprint(r.Length)
	if r.Unbounded {
		sc, ln = "∞", "∞"
	}
	return Row{Width: r.Width, Height: r.Height, Rule: r.Rule.String(), Score: sc, Length: ln,
		PeakStates: r.PeakStates, PeakLevel: r.PeakLevel, States: r.States,
		Seconds: seconds(r.Seconds), PeakMiB: lab.Fixed(float64(r.PeakRSS)/(1<<20), 0) + " MiB"}
}

// Table tabulates summary rows (sorted by rule, width, height).
func Table(rows []bfs.Row) *lab.Table {
	rs := append([]bfs.Row(nil), rows...)
	sort.SliceStable(rs, func(i, j int) bool {
		if rs[i].Rule != rs[j].Rule {
			return rs[i].Rule < rs[j].Rule
		}
		if rs[i].Width != rs[j].Width {
			return rs[i].Width < rs[j].Width
		}
		return rs[i].Height < rs[j].Height
	})
	out := make([]Row, len(rs))
	for i, r := range rs {
		out[i] = RowOf(r)
	}
	return lab.TableOf(out)
}

// ResultRow is the summary row of a search just run.
func ResultRow(res *bfs.Result) bfs.Row { return bfs.RowOf(res, 0) }

// LevelTable tabulates the levels of one search.
func LevelTable(res *bfs.Result) *lab.Table {
	t := lab.NewTable("level (pieces)", "states", "children", "best score")
	for _, l := range res.Levels {
		t.Add(l.Level, l.States, l.Children, l.BestScore)
	}
	t.Title = fmt.Sprintf("%dx%d %s: levels", res.Width, res.Height, res.Rule)
	return t
}

// LevelsPlot draws the states of every level of each search (log scale).
func LevelsPlot(results ...*bfs.Result) (*plot.Plot, error) {
	var ss []lab.Series
	for _, r := range results {
		s := lab.Series{Name: fmt.Sprintf("%dx%d %s", r.Width, r.Height, r.Rule), Points: true}
		for _, l := range r.Levels {
			if l.States > 0 {
				s.X = append(s.X, float64(l.Level))
				s.Y = append(s.Y, float64(l.States))
			}
		}
		ss = append(ss, s)
	}
	p, err := lab.LinePlot("States per level", "pieces placed (level)", "distinct states", ss...)
	if err != nil {
		return nil, err
	}
	lab.LogY(p)
	return p, nil
}

// ScalingSeries returns, for one rule, a series per width of the chosen
// quantity ("score", "length" or "width") against height, from summary
// rows (unbounded rows are left out of score and length).
func ScalingSeries(rows []bfs.Row, rule bfs.Rule, quantity string) []lab.Series {
	by := map[int][]bfs.Row{}
	for _, r := range rows {
		if r.Rule == rule {
			by[r.Width] = append(by[r.Width], r)
		}
	}
	var widths []int
	for w := range by {
		widths = append(widths, w)
	}
	sort.Ints(widths)
	var ss []lab.Series
	for _, w := range widths {
		rs := by[w]
		sort.Slice(rs, func(i, j int) bool { return rs[i].Height < rs[j].Height })
		s := lab.Series{Name: fmt.Sprintf("width %d", w), Points: true}
		for _, r := range rs {
			var y float64
			switch quantity {
			case "score":
				y = float64(r.Score)
			case "length":
				y = float64(r.Length)
			default:
				y = float64(r.PeakStates)
			}
			if r.Unbounded && quantity != "width" {
				continue
			}
			s.X = append(s.X, float64(r.Height))
			s.Y = append(s.Y, y)
		}
		ss = append(ss, s)
	}
	return ss
}

// ScalingPlot draws score, length or peak states ("score", "length",
// "width") against height, one line per width; width is on a log scale.
func ScalingPlot(rows []bfs.Row, rule bfs.Rule, quantity string) (*plot.Plot, error) {
	labels := map[string]string{"score": "best score (lines)", "length": "length (pieces)", "width": "peak states (states in the largest level)"}
	p, err := lab.LinePlot(fmt.Sprintf("%s against height (%s rule)", labels[quantity], rule), "height (rows below the bar)",
		labels[quantity], ScalingSeries(rows, rule, quantity)...)
	if err != nil {
		return nil, err
	}
	if quantity == "width" {
		lab.LogY(p)
	}
	return p, nil
}

// Replay replays a rebuilt game in the engine (for Filmstrip).
func Replay(g *bfs.Game) (*hatetris.Game, error) {
	r, err := bfs.NewRules(g.Width, g.Height, g.Rule)
	if err != nil {
		return nil, err
	}
	gm := hatetris.NewGameFrom(r, hatetris.Mild, g.Start, g.StartScore)
	if err := gm.PressAll(g.Keys); err != nil {
		return nil, err
	}
	return gm, nil
}

// Filmstrip draws every piece of a rebuilt game.
func Filmstrip(g *bfs.Game, opts ...draw.WellOpt) (lab.SVG, error) {
	gm, err := Replay(g)
	if err != nil {
		return "", err
	}
	return draw.Filmstrip(gm, 0, len(gm.Steps), opts...), nil
}

// seconds formats a duration in seconds: "0.42 s", "31 s", "4:05".
func seconds(s float64) string {
	switch {
	case math.IsNaN(s) || s < 0:
		return "?"
	case s < 10:
		return fmt.Sprintf("%.2f s", s)
	case s < 120:
		return fmt.Sprintf("%.0f s", s)
	}
	return lab.Clock(time.Duration(s * float64(time.Second)))
}

// Games returns the games of datasets/bfs/games.jsonl (embedded): games
// rebuilt from searches.
func Games() ([]bfs.GameRecord, error) { return bfsdata.Games() }

// FindGame returns the rebuilt game of a size and target ("longest" or
// "score"), replayed and verified by the engine.
func FindGame(gs []bfs.GameRecord, width, height int, target string) (*bfs.Game, error) {
	for _, g := range gs {
		if g.Width == width && g.Height == height && g.Target == target && g.Rule == "qntm" {
			return g.Game()
		}
	}
	return nil, fmt.Errorf("no %s game for %dx%d in datasets/bfs/games.jsonl", target, width, height)
}

// FullAICheck replays a rebuilt game (searched against HATETRIS Mild)
// under the full HATETRIS AI, loop rule included, and reports whether it
// is the same game: the same pieces, score and length, with the loop rule
// never changing a piece.
func FullAICheck(g *bfs.Game) (same bool, full *hatetris.Game, err error) {
	mild, err := Replay(g)
	if err != nil {
		return false, nil, err
	}
	r, err := bfs.NewRules(g.Width, g.Height, g.Rule)
	if err != nil {
		return false, nil, err
	}
	full = hatetris.NewGameFrom(r, hatetris.HATETRIS, g.Start, g.StartScore)
	if err := full.PressAll(g.Keys); err != nil {
		return false, nil, err
	}
	same = full.Score == mild.Score && full.Placed() == mild.Placed() && len(full.LoopChanges) == 0
	for i := range mild.Steps {
		if i >= len(full.Steps) || full.Steps[i].Piece != mild.Steps[i].Piece {
			same = false
		}
	}
	return same, full, nil
}

// Witness returns the row's rebuilt game for target ("longest" or
// "score") from gs, checked: replayed by the engine, its length (longest)
// or score (score) equal to the row's in rows, and the same game under
// the full AI (FullAICheck). ok is false, with no error, when gs has no
// such game.
func Witness(rows []bfs.Row, gs []bfs.GameRecord, width, height int, target string) (g *bfs.Game, ok bool, err error) {
	var row *bfs.Row
	for i := range rows {
		if rows[i].Width == width && rows[i].Height == height && rows[i].Rule == bfs.RuleQntm {
			row = &rows[i]
		}
	}
	if row == nil {
		return nil, false, fmt.Errorf("no %dx%d row in the table", width, height)
	}
	found := false
	for _, r := range gs {
		found = found || (r.Width == width && r.Height == height && r.Target == target && r.Rule == "qntm")
	}
	if !found {
		return nil, false, nil
	}
	if g, err = FindGame(gs, width, height, target); err != nil {
		return nil, false, err
	}
	got, want := g.Length, row.Length
	if target == "score" {
		got, want = g.Score, row.Score
	}
	if got != want {
		return nil, false, fmt.Errorf("%dx%d %s game: %d against the row's %d", width, height, target, got, want)
	}
	same, _, err := FullAICheck(g)
	if err != nil {
		return nil, false, err
	}
	if !same {
		return nil, false, fmt.Errorf("%dx%d %s game: not the same game under the full AI", width, height, target)
	}
	return g, true, nil
}
