package transitions

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/progress"
	"github.com/hatelab/hatelab/engine/rankcorr"
	"github.com/hatelab/hatelab/lab"
)

// Exact counts the flats of every game of a small well (width x height
// rows below the bar, against HATETRIS Mild, exhaustively), weighed as
// asked. Wells whose graph has a cycle (width 4 from height 4) fail.
func Exact(width, height int, wt flats.Weighting) (*flats.Counts, error) {
	r, err := bfs.NewRules(width, height, bfs.RuleQntm)
	if err != nil {
		return nil, err
	}
	g, err := bfs.BuildWellGraph(r, nil, 5_000_000)
	if err != nil {
		return nil, err
	}
	return flats.CountWellGraph(g, wt)
}

// Rules returns the HATETRIS rules of a width x height well (height rows
// below a bar of 4).
func Rules(width, height int) (*hatetris.Rules, error) {
	return hatetris.NewRules(width, height+4, 4)
}

// Source is a source of games and their flats.
type Source struct {
	Name   string
	Rules  *hatetris.Rules
	Games  []flats.Game
	Counts *flats.Counts
}

// Table analyses the source's counts into a table (provenance: the
// source's name).
func (s *Source) Table() *flats.Table {
	return flats.BuildTable(s.Counts, strings.Fields(s.Name)[0], "", "lab/transitions: "+s.Name, 0)
}

func newSource(name string, r *hatetris.Rules, gs []flats.Game) (*Source, error) {
	c, err := flats.CountMoves(r, gs)
	if err != nil {
		return nil, err
	}
	return &Source{Name: name, Rules: r, Games: gs, Counts: c}, nil
}

// Random plays n seeded games of random outcomes in a width x height well
// and counts them.
func Random(width, height, n int, seed uint64) (*Source, error) {
	r, err := Rules(width, height)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("random %d games %dx%d seed %d", n, width, height, seed)
	done := stage(name, int64(n), "games")
	gs, err := flats.RandomGames(r, n, seed, 0)
	done()
	if err != nil {
		return nil, err
	}
	return newSource(name, r, gs)
}

// Records returns the world-record replays as a source.
func Records() (*Source, error) {
	gs, err := flats.RecordGames()
	if err != nil {
		return nil, err
	}
	out := make([]flats.Game, len(gs))
	for i, g := range gs {
		out[i] = flats.GameOf(g)
	}
	return newSource("records (20 world records)", hatetris.Standard(), out)
}

// Beam returns the best games of beam searches (hand-made evaluation,
// quiescence) at the given beam widths from starts seeded 8-piece openings
// on the standard well (flats.BeamGames).
func Beam(widths []int, starts int, seed uint64) (*Source, error) {
	r := hatetris.Standard()
	name := fmt.Sprintf("beam widths %v, %d starts, seed %d", widths, starts, seed)
	done := stage(name, int64(len(widths)*starts), "searches")
	gs, err := flats.BeamGames(context.Background(), r, widths, starts, 8, seed, true)
	done()
	if err != nil {
		return nil, err
	}
	return newSource(name, r, gs)
}

// stage shows a progress bar for one step that reports nothing while it
// runs (a notebook's bar ticks its elapsed time) and returns the function
// that finishes it with all n units done.
func stage(job string, n int64, unit string) (done func()) {
	rep := lab.Progress(job)
	rep.Report(progress.Event{Job: job, Stage: "running", Total: n, Unit: unit})
	return func() {
		rep.Report(progress.Event{Job: job, Stage: "done", Done: n, Total: n, Unit: unit, Finished: true})
	}
}

// lifeColors are the colours of life slots in LifeStrip.
var lifeColors = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"}

// LifeStrip draws moves from..to-1 of a replayed game as a filmstrip of
// the wells after each move, every row coloured by its flat's life (the
// same colour while a row lives, whatever it falls), with the move's
// events as the caption (b born, g grew, d died = cleared). Only the rows
// from the highest stack of the strip down are drawn.
func LifeStrip(g *hatetris.Game, from, to, perRow int) (lab.SVG, error) {
	r := g.Rules
	tr := flats.NewTracker(r)
	var ev []flats.Event
	type frame struct {
		w       hatetris.Well
		life    []int
		caption string
	}
	var frames []frame
	moves := flats.GameOf(g)
	to = min(to, len(moves))
	for i := 0; i < to; i++ {
		var err error
		ev, err = tr.Apply(&moves[i], ev[:0])
		if err != nil {
			return "", err
		}
		if i < from {
			continue
		}
		f := frame{w: *tr.Well(), life: make([]int, r.Depth)}
		for y := range f.life {
			f.life[y] = tr.Life(y)
		}
		var born, grew, died int
		for _, e := range ev {
			switch e.Kind {
			case flats.KindBorn:
				born++
			case flats.KindGrow:
				grew++
			case flats.KindDie:
				died++
			}
		}
		f.caption = fmt.Sprintf("#%d %v b%d g%d d%d", i, g.Steps[i].Piece, born, grew, died)
		frames = append(frames, f)
	}
	top := r.Depth
	for _, f := range frames {
		for y := 0; y < r.Depth; y++ {
			if f.w[y] != 0 {
				top = min(top, y)
				break
			}
		}
	}
	top = max(0, min(top, r.Depth-1)-1)
	var pics []lab.SVG
	for _, f := range frames {
		f := f
		pics = append(pics, lab.Grid{Cols: r.Width, Rows: r.Depth - top, Size: 8, Caption: f.caption,
			Cell: func(x, y int) lab.Cell {
				if !r.Filled(&f.w, x, y+top) {
					return lab.Cell{}
				}
				return lab.Cell{Fill: lifeColors[max(f.life[y+top], 0)%len(lifeColors)]}
			}}.SVG())
	}
	return lab.Strip(perRow, pics...), nil
}

// ShapeRow is one shape of a table, with its three clearability readings.
type ShapeRow struct {
	Shape string  `lab:"shape"`
	Cells int     `lab:"cells"`
	Lives float64 `lab:"lives,%.0f"`
	// B is the absorption into cleared, F the pathwise cleared share (NaN
	// where the source follows no whole games), MF D&F's max-flow reading.
	B     float64 `lab:"B absorption,%.3f"`
	F     float64 `lab:"f pathwise,%.3f"`
	MF    float64 `lab:"MF max-flow,%.3f"`
	Never bool    `lab:"never cleared"`
}

// Shapes returns a table's shapes by decreasing lives (ties by shape).
func Shapes(t *flats.Table) []ShapeRow {
	out := make([]ShapeRow, 0, len(t.Shapes))
	for _, s := range t.Shapes {
		f := math.NaN()
		if s.F != nil {
			f = *s.F
		}
		out = append(out, ShapeRow{Shape: s.Shape, Cells: strings.Count(s.Shape, "1"), Lives: s.N, B: s.B, F: f, MF: s.MF, Never: s.Never})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Lives != out[j].Lives {
			return out[i].Lives > out[j].Lives
		}
		return out[i].Shape < out[j].Shape
	})
	return out
}

// TopShapes is the table of the n shapes with the most lives, with the
// three clearability readings side by side.
func TopShapes(t *flats.Table, n int) *lab.Table {
	rows := Shapes(t)
	tab := lab.TableOf(rows[:min(n, len(rows))])
	tab.Title = fmt.Sprintf("%s: the %d shapes with the most lives (of %s)", Name(t), min(n, len(rows)), lab.Int(int64(len(rows))))
	return tab
}

// Never returns the shapes of a table with no path to cleared in its
// data, by decreasing lives.
func Never(t *flats.Table) []ShapeRow {
	var out []ShapeRow
	for _, s := range Shapes(t) {
		if s.Never {
			out = append(out, s)
		}
	}
	return out
}

// NeverTable is the table of the n never-cleared shapes with the most
// lives.
func NeverTable(t *flats.Table, n int) *lab.Table {
	rows := Never(t)
	tab := lab.TableOf(rows[:min(n, len(rows))])
	tab.Title = fmt.Sprintf("%s: %s shapes never reach cleared (the %d with the most lives)", Name(t), lab.Int(int64(len(rows))), min(n, len(rows)))
	return tab
}

// NeverLives counts a table's never-cleared shapes by how often the data saw
// them: a shape seen once and never cleared says little about the shape, one
// seen 37 times says more.
type NeverLives struct {
	Source   string `lab:"source"`
	Never    int    `lab:"never cleared"`
	Once     int    `lab:"1 life"`
	Few      int    `lab:"2–4 lives"`
	Some     int    `lab:"5–9 lives"`
	Many     int    `lab:"10 or more"`
	Shapes5  int    `lab:"shapes with ≥ 5 lives"`
	Never5   int    `lab:"never cleared of those"`
	Observed int    `lab:"shapes"`
}

// NeverByLives is one NeverLives row per table.
func NeverByLives(tables ...*flats.Table) []NeverLives {
	out := make([]NeverLives, 0, len(tables))
	for _, t := range tables {
		r := NeverLives{Source: Name(t)}
		for _, s := range Shapes(t) {
			r.Observed++
			if s.Lives >= 5 {
				r.Shapes5++
			}
			if !s.Never {
				continue
			}
			r.Never++
			switch {
			case s.Lives < 2:
				r.Once++
			case s.Lives < 5:
				r.Few++
			case s.Lives < 10:
				r.Some++
			default:
				r.Many++
			}
			if s.Lives >= 5 {
				r.Never5++
			}
		}
		out = append(out, r)
	}
	return out
}

// Name names a table's source: "records", "bfs 10x5 (optimal)".
func Name(t *flats.Table) string {
	if t.Source == "bfs" {
		return fmt.Sprintf("bfs %dx%d (%s)", t.Width, t.Height, t.Weighting)
	}
	return fmt.Sprintf("%s %dx%d", t.Source, t.Width, t.Height)
}

// Agreement is the Spearman rank correlation of two readings over the
// shapes of a table where both are numbers (and at least minLives lives).
type Agreement struct {
	Readings string  `lab:"readings"`
	Shapes   int     `lab:"shapes"`
	Spearman float64 `lab:"Spearman,%.2f"`
}

// Agreements compares the three readings of a table pairwise.
func Agreements(t *flats.Table, minLives float64) []Agreement {
	var b, f, mf []float64
	for _, s := range Shapes(t) {
		if s.Lives < minLives {
			continue
		}
		b, f, mf = append(b, s.B), append(f, s.F), append(mf, s.MF)
	}
	count := func(x, y []float64) int {
		n := 0
		for i := range x {
			if !math.IsNaN(x[i]) && !math.IsNaN(y[i]) {
				n++
			}
		}
		return n
	}
	return []Agreement{
		{"B vs f", count(b, f), rankcorr.Spearman(b, f)},
		{"B vs MF", count(b, mf), rankcorr.Spearman(b, mf)},
		{"f vs MF", count(f, mf), rankcorr.Spearman(f, mf)},
	}
}

// BottleneckRow is one edge of the bottleneck table.
type BottleneckRow struct {
	From  string  `lab:"from"`
	To    string  `lab:"to"`
	N     float64 `lab:"lives,%.0f"`
	BFrom float64 `lab:"B(from),%.3f"`
	BTo   float64 `lab:"B(to),%.3f"`
	Loss  float64 `lab:"clearability lost,%.1f"`
	Flux  float64 `lab:"cleared flux,%.1f"`
}

// Bottlenecks returns the k edges of g that lose the most clearability,
// N(u→v)·(B(u)−B(v)), with their cleared flux N(u→v)·B(v).
func Bottlenecks(g *flats.Graph, k int) []BottleneckRow {
	b := flats.Absorb(g)
	ls := flats.Loss(g, b)
	val := func(s flats.State) float64 {
		switch s {
		case flats.Cleared:
			return 1
		case flats.Immortal:
			return 0
		}
		return b[g.ID(s)]
	}
	var out []BottleneckRow
	for _, e := range ls[:min(k, len(ls))] {
		out = append(out, BottleneckRow{From: e.From.Format(g.Width), To: e.To.Format(g.Width), N: e.N, BFrom: val(e.From), BTo: val(e.To), Loss: e.Loss, Flux: e.Flux})
	}
	return out
}

// PathwayRow is one dominant pathway from the empty row to cleared.
type PathwayRow struct {
	Rank  int     `lab:"#"`
	Path  string  `lab:"pathway"`
	Width float64 `lab:"cleared flux (bottleneck),%.1f"`
}

// DominantPathways returns the k dominant pathways of g (repeated widest
// paths on the cleared flux).
func DominantPathways(g *flats.Graph, k int) []PathwayRow {
	b := flats.Absorb(g)
	var out []PathwayRow
	for i, p := range flats.Pathways(g, b, k) {
		parts := make([]string, len(p.States))
		for j, s := range p.States {
			parts[j] = s.Format(g.Width)
		}
		out = append(out, PathwayRow{Rank: i + 1, Path: strings.Join(parts, " → "), Width: p.Width})
	}
	return out
}

// Reach returns, for every row of well w (top first), the product R_y of
// the smoothed permeabilities π(row above, row) from the empty row above
// the stack down to row y (1 above the stack): how likely a piece reaches
// the row, as the graph term G weighs it.
func Reach(r *hatetris.Rules, w *hatetris.Well, p *flats.Permeability) []float64 {
	out := make([]float64, r.Depth)
	prod, above := 1.0, uint16(0)
	for y := 0; y < r.Depth; y++ {
		if w[y] == 0 && above == 0 {
			out[y] = 1
			continue
		}
		prod *= p.At(above, w[y])
		out[y] = prod
		above = w[y]
	}
	return out
}

// reachColor maps t in [0,1] from pink (0, hard to reach) to green (1).
func reachColor(t float64) string {
	t = min(max(t, 0), 1)
	lerp := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + t*(float64(b)-float64(a)))) }
	return fmt.Sprintf("#%02x%02x%02x", lerp(0xf4, 0x4c), lerp(0x8f, 0xaf), lerp(0xb1, 0x50))
}

// PermeabilityWell draws D&F's green/pink view of a well: the empty cells
// of each row coloured by R_y (Reach) from pink (0, no piece gets there)
// to green (1), the filled cells grey, with R_y written at the right.
func PermeabilityWell(r *hatetris.Rules, w *hatetris.Well, p *flats.Permeability, title string) lab.SVG {
	reach := Reach(r, w, p)
	// The whole well, so that wells drawn side by side line up row for row;
	// R in the column right of the well as a short fraction (.93, 1, 0) in a
	// font large enough to read.
	return lab.Grid{Cols: r.Width + 2, Rows: r.Depth, Size: 16, Title: title,
		Caption: "empty cells: pink = no piece reaches, green = reached\nright: R, the product of π from the top (.93 = 0.93)",
		Cell: func(x, yy int) lab.Cell {
			if x == r.Width+1 {
				return lab.Cell{Label: shortFraction(reach[yy])}
			}
			if x >= r.Width {
				return lab.Cell{}
			}
			if r.Filled(w, x, yy) {
				return lab.Cell{Fill: "#555"}
			}
			return lab.Cell{Fill: reachColor(reach[yy])}
		}}.SVG()
}

// shortFraction writes a fraction in [0, 1] in at most three characters:
// 0, .07, .93, 1; "–" for NaN.
func shortFraction(f float64) string {
	switch {
	case math.IsNaN(f):
		return "–"
	case f >= 0.995:
		return "1"
	case f < 0.005:
		return "0"
	}
	return fmt.Sprintf(".%02.0f", 100*f)
}

// SourceRow is one source of flats in a comparison.
type SourceRow struct {
	Source   string  `lab:"source"`
	Games    float64 `lab:"games"`
	Moves    float64 `lab:"moves"`
	Shapes   int     `lab:"shapes"`
	Never    int     `lab:"never cleared"`
	Spearman float64 `lab:"Spearman B vs first,%.2f"`
	Common   int     `lab:"common shapes"`
}

// CompareSources summarises tables of several sources: their size and
// the Spearman correlation of shape B with the first table's over the
// shapes both hold.
func CompareSources(ts ...*flats.Table) []SourceRow {
	bOf := func(t *flats.Table) map[string]float64 {
		m := map[string]float64{}
		for _, s := range t.Shapes {
			m[s.Shape] = s.B
		}
		return m
	}
	first := bOf(ts[0])
	var out []SourceRow
	for _, t := range ts {
		m := bOf(t)
		var a, b []float64
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if v, ok := first[k]; ok {
				a, b = append(a, v), append(b, m[k])
			}
		}
		out = append(out, SourceRow{Source: Name(t), Games: t.Games, Moves: t.Moves, Shapes: len(t.Shapes), Never: len(Never(t)), Spearman: rankcorr.Spearman(a, b), Common: len(a)})
	}
	return out
}

// BPoint is one shape's absorption in two sources, with bootstrap
// intervals.
type BPoint struct {
	Shape string
	A, B  flats.Interval
}

// CompareB bootstraps, for each shape, its shape-only absorption B in two
// sources of games (of rules r), resampling each source's games n times.
func CompareB(r *hatetris.Rules, a, b []flats.Game, shapes []string, n int, seed uint64) ([]BPoint, error) {
	var out []BPoint
	job := fmt.Sprintf("bootstrap B, %d resamples", n)
	rep := lab.Progress(job)
	defer func() {
		rep.Report(progress.Event{Job: job, Stage: "done", Done: int64(len(out)), Total: int64(len(shapes)), Unit: "shapes", Finished: true})
	}()
	for i, sh := range shapes {
		rep.Report(progress.Event{Job: job, Stage: sh, Done: int64(i), Total: int64(len(shapes)), Unit: "shapes"})
		v, err := flats.ParseShape(sh, r.Width)
		if err != nil {
			return nil, err
		}
		s := flats.MakeState(v, 0)
		ia, err := flats.Bootstrap(r, [][]flats.Game{a}, n, seed, 0.95, flats.AbsorbOf(0, s))
		if err != nil {
			return nil, err
		}
		ib, err := flats.Bootstrap(r, [][]flats.Game{b}, n, seed, 0.95, flats.AbsorbOf(0, s))
		if err != nil {
			return nil, err
		}
		out = append(out, BPoint{Shape: sh, A: ia, B: ib})
	}
	return out, nil
}

// BScatter plots CompareB's points as a dot plot: one row per shape (the
// first at the top), B in source a (circles) and in source b (triangles) on
// a common 0..1 axis, each with its 95% bootstrap interval. Unlike a
// scatter of one B against the other, it keeps every shape apart when one
// source's B are all near 0 or 1 (random games clear almost none of the
// records' common shapes: a scatter put every point in one corner).
func BScatter(pts []BPoint, nameA, nameB string) (*plot.Plot, error) {
	p := lab.NewPlot()
	p.Title.Text = fmt.Sprintf("Shape clearability B: %s and %s (95%% bootstrap intervals)", nameA, nameB)
	p.X.Label.Text = "B, the probability that a flat of the shape is cleared"
	p.X.Min, p.X.Max = -0.02, 1.02
	p.Add(plotter.NewGrid())
	type xyErr struct {
		plotter.XYs
		plotter.XErrors
	}
	var ticks []plot.Tick
	var sa, sb xyErr
	n := len(pts)
	for i, pt := range pts {
		y := float64(n - 1 - i) // the first shape at the top
		ticks = append(ticks, plot.Tick{Value: y, Label: pt.Shape})
		for _, c := range []struct {
			iv flats.Interval
			d  *xyErr
			dy float64
		}{{pt.A, &sa, 0.15}, {pt.B, &sb, -0.15}} {
			if math.IsNaN(c.iv.Estimate) {
				continue
			}
			c.d.XYs = append(c.d.XYs, plotter.XY{X: c.iv.Estimate, Y: y + c.dy})
			c.d.XErrors = append(c.d.XErrors, struct{ Low, High float64 }{c.iv.Estimate - c.iv.Lo, c.iv.Hi - c.iv.Estimate})
		}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Length = 0 // the shapes label rows: no tick marks through them
	p.Y.Min, p.Y.Max = -0.7, float64(n)-0.3
	for i, c := range []struct {
		d     xyErr
		name  string
		glyph draw.GlyphDrawer
	}{{sa, nameA, draw.CircleGlyph{}}, {sb, nameB, draw.TriangleGlyph{}}} {
		if len(c.d.XYs) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(c.d)
		if err != nil {
			return nil, err
		}
		sc.Color, sc.Shape, sc.Radius = lab.Palette[i], c.glyph, vg.Points(3)
		xb, err := plotter.NewXErrorBars(c.d)
		if err != nil {
			return nil, err
		}
		xb.Color = lab.Palette[i]
		p.Add(xb, sc)
		p.Legend.Add(c.name, sc)
	}
	p.Legend.Top, p.Legend.Left = false, true
	return p, nil
}

// FloorFact is one exact small-well fact about clearing the floor row.
type FloorFact struct {
	Well      string `lab:"well"`
	Start     string `lab:"start"`
	Clearable bool   `lab:"floor row cleared"`
	Pieces    string `lab:"fewest pieces"` // "–" when the floor row is never cleared
	Wells     int    `lab:"wells searched"`
	// Source says whether it was computed now or tabulated.
	Source string `lab:"source"`
}

// floorCases are the exact facts: no game from the empty well clears the
// floor row, and lone floor rows at 10x5 and 10x6.
var floorCases = []struct {
	width, height int
	row           string // "" for the empty well
}{
	{4, 5, ""}, {5, 6, ""}, {6, 5, ""}, {8, 4, ""}, {10, 4, ""}, {10, 5, ""},
	{10, 5, "0111111110"}, {10, 6, "0111111110"}, {10, 5, "1111111110"}, {10, 5, "0111111111"},
}

// floorTabulated are floorCases' answers (clearable, fewest pieces,
// wells searched) as FloorFacts(true) computes them; the clearable flags
// are regression tests of engine/flats (floor_test.go).
var floorTabulated = [][3]int{
	{0, 0, 70},     // 4x5 empty well
	{0, 0, 1488},   // 5x6 empty well
	{0, 0, 1670},   // 6x5 empty well
	{0, 0, 3000},   // 8x4 empty well
	{0, 0, 26809},  // 10x4 empty well
	{0, 0, 600138}, // 10x5 empty well
	{0, 0, 30874},  // 10x5 lone floor row 0111111110
	{1, 8, 515395}, // 10x6 lone floor row 0111111110
	{1, 6, 41980},  // 10x5 lone floor row 1111111110
	{0, 0, 24970},  // 10x5 lone floor row 0111111111
}

// fewest writes the fewest pieces that clear the floor row, "–" when no
// game clears it (not 0, which reads as a value).
func fewest(clearable bool, pieces int) string {
	if !clearable {
		return "–"
	}
	return strconv.Itoa(pieces)
}

// FloorFacts answers the exact floor-row questions under HATETRIS Mild
// (equal to HATETRIS in these wells: no well repeats): computed now when
// live (seconds), else the tabulated answers.
func FloorFacts(live bool) ([]FloorFact, error) {
	var out []FloorFact
	for i, c := range floorCases {
		start := "empty well"
		if c.row != "" {
			start = "lone floor row " + c.row
		}
		f := FloorFact{Well: fmt.Sprintf("%dx%d", c.width, c.height), Start: start}
		if !live && i < len(floorTabulated) {
			t := floorTabulated[i]
			f.Clearable, f.Pieces, f.Wells, f.Source = t[0] == 1, fewest(t[0] == 1, t[1]), t[2], "tabulated (engine/flats tests)"
			out = append(out, f)
			continue
		}
		var w *hatetris.Well
		if c.row != "" {
			v, err := flats.ParseShape(c.row, c.width)
			if err != nil {
				return nil, err
			}
			lw, err := flats.LoneFloorRow(c.width, c.height, v)
			if err != nil {
				return nil, err
			}
			w = &lw
		}
		res, err := flats.FloorClear(c.width, c.height, w, 1<<24)
		if err != nil {
			return nil, err
		}
		f.Clearable, f.Pieces, f.Wells, f.Source = res.Clearable, fewest(res.Clearable, res.Pieces), res.Wells, "computed now"
		out = append(out, f)
	}
	return out, nil
}
