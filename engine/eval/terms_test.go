package eval

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// classicWeights sets every Costly term, so that a worker computes them.
func classicWeights() Weights {
	var w Weights
	for _, t := range WeightTerms {
		if t.Costly {
			*t.Of(&w) = 1
		}
	}
	return w
}

// classicOf is the classic family of f, in the order of WeightTerms.
type classicOf struct{ RT, CT, Wells, HoleDepth, RowsWithHoles, Bump int }

func classicPart(f Features) classicOf {
	return classicOf{f.RowTransitions, f.ColumnTransitions, f.CumulativeWells, f.HoleDepth, f.RowsWithHoles, f.Bumpiness}
}

// TestClassicFeatures: the classic family on hand-made 10x20 wells, each
// value counted by hand (rows are the well's bottom rows, top first; the
// rows above them are empty, 2 row transitions each).
func TestClassicFeatures(t *testing.T) {
	cases := []struct {
		name string
		rows []string
		want classicOf
	}{
		// 20 empty rows of 2; every column empty at the floor; no
		// column is flanked on both sides.
		{"empty", nil, classicOf{40, 10, 0, 0, 0, 0}},
		// The gap at the right wall is a well cell of depth 1; nine
		// columns of height 1 beside one of 0.
		{"flat row, one gap", []string{"#########."}, classicOf{38 + 2, 9 + 1, 1, 0, 0, 1}},
		// A four-deep well at the wall: 1+2+3+4.
		{"four-deep well", []string{"#########.", "#########.", "#########.", "#########."},
			classicOf{32 + 8, 9 + 1, 10, 0, 0, 4}},
		// The hole at column 1 is a well cell (both sides filled) under
		// one filled cell; column 1 changes three times (sky, hole,
		// floor); heights 2 2 2 0...
		{"covered hole, sealed", []string{
			"###.......",
			"#.#.......",
		}, classicOf{36 + 2 + 4, 1 + 3 + 1 + 7, 1, 1, 1, 2}},
		// Column 0's hole lies under two filled cells, column 1's under
		// one; the floor cell of column 0 has the wall on its left and a
		// filled cell on its right: a well cell.
		{"holes at two depths", []string{
			"##........",
			"#.........",
			".#........",
		}, classicOf{34 + 2 + 2 + 4, 3 + 3 + 8, 1, 3, 2, 3}},
		// A full row has no row transitions; the floor's cell of column 4
		// is a hole under one cell (in the full row) and a well cell;
		// column 4 changes three times, the others once; heights 3, then
		// nine of 2.
		{"full row over a hole", []string{
			"#.........",
			"##########",
			"####.#####",
		}, classicOf{34 + 2 + 0 + 2, 1 + 8 + 3, 1, 1, 1, 1}},
		// Two separate well runs in column 1: 1 (a run of 1) + 1+2 (a
		// run of 2) = 4, split by a filled cell; column 1 changes at rows
		// 17 and 18 and at the floor (the sky and row 16 are both empty);
		// heights 4 3 4 0...
		{"two runs in one column", []string{
			"#.#.......",
			"###.......",
			"#.#.......",
			"#.#.......",
		}, classicOf{32 + 4 + 2 + 4 + 4, 1 + 3 + 1 + 7, 1 + 1 + 2, 1 + 1, 2, 1 + 1 + 4}},
	}
	g := NewHand(classicWeights()).NewHandWorker(hatetris.Standard())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := well(t, c.rows...)
			f := g.Features(&w)
			if got := classicPart(f); got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			if got := classicReference(hatetris.Standard(), &w); got != c.want {
				t.Fatalf("the reference gives %+v, want %+v", got, c.want)
			}
		})
	}
}

// TestClassicFeaturesSkipped: a worker computes a Costly term (the classic
// family, Tim's two) only when its weights set it (it reports the others
// as 0), and the other terms are the same either way. In the well every
// Costly term is non-zero (the S reaches row 18 at the lowest).
func TestClassicFeaturesSkipped(t *testing.T) {
	r := hatetris.Standard()
	w := well(t, "#.#.......", "###.......", "#.#.......", "#.#.......", ".#########")
	plain := NewHand(DefaultWeights()).NewHandWorker(r).Features(&w)
	if got := classicPart(plain); got != (classicOf{}) {
		t.Fatalf("dnf86's worker computed the classic family: %+v", got)
	}
	all := NewHand(classicWeights()).NewHandWorker(r).Features(&w)
	n := 0
	for _, term := range WeightTerms {
		if !term.Costly {
			continue
		}
		n++
		wt := DefaultWeights()
		*term.Of(&wt) = 1
		f := NewHand(wt).NewHandWorker(r).Features(&w)
		if got, want := term.Feature(&f), term.Feature(&all); got != want || got == 0 {
			t.Errorf("%s set: its feature is %d, want %d (not 0)", term.Name, got, want)
		}
		got := f
		for _, other := range WeightTerms {
			if other.Costly && other.Name != term.Name && other.Feature(&f) != 0 {
				t.Errorf("%s set: %s computed too (%d)", term.Name, other.Name, other.Feature(&f))
			}
		}
		got.RowTransitions, got.ColumnTransitions, got.CumulativeWells = 0, 0, 0
		got.HoleDepth, got.RowsWithHoles, got.Bumpiness = 0, 0, 0
		got.EdgeHeights, got.SSurfaceHeight = 0, 0
		if got != plain {
			t.Errorf("%s set: the other terms changed: %+v, want %+v", term.Name, got, plain)
		}
	}
	if n != 8 {
		t.Fatalf("%d Costly terms, want the 6 of the classic family and Tim's 2", n)
	}
}

// classicReference computes the classic family cell by cell, as
// engine/classic defines it, for TestClassicProperty.
func classicReference(r *hatetris.Rules, w *hatetris.Well) classicOf {
	filled := func(x, y int) bool {
		if x < 0 || x >= r.Width || y >= r.Depth {
			return true // walls and floor
		}
		if y < 0 {
			return false // the sky
		}
		return r.Filled(w, x, y)
	}
	var c classicOf
	for y := 0; y < r.Depth; y++ {
		for x := -1; x < r.Width; x++ {
			if filled(x, y) != filled(x+1, y) {
				c.RT++
			}
		}
		hole := false
		for x := 0; x < r.Width; x++ {
			if filled(x, y) {
				continue
			}
			above := 0
			for z := 0; z < y; z++ {
				if filled(x, z) {
					above++
				}
			}
			c.HoleDepth += above
			hole = hole || above > 0
		}
		if hole {
			c.RowsWithHoles++
		}
	}
	heights := make([]int, r.Width)
	for x := 0; x < r.Width; x++ {
		run := 0
		for y := -1; y < r.Depth; y++ {
			if filled(x, y) != filled(x, y+1) {
				c.CT++
			}
			if y < 0 {
				continue
			}
			if !filled(x, y) && filled(x-1, y) && filled(x+1, y) {
				run++
				c.Wells += run
			} else {
				run = 0
			}
			if filled(x, y) && heights[x] == 0 {
				heights[x] = r.Depth - y
			}
		}
	}
	for x := 1; x < r.Width; x++ {
		d := heights[x] - heights[x-1]
		if d < 0 {
			d = -d
		}
		c.Bump += d
	}
	return c
}

// TestClassicProperty: the bitwise features equal the cell-by-cell
// reference on seeded random wells of many geometries and densities (deep
// wells and full columns included, for the bit-sliced counters' carries).
func TestClassicProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 3))
	geoms := [][3]int{{10, 20, 4}, {4, 6, 2}, {16, 29, 4}, {7, 11, 3}, {16, 8, 1}, {5, 29, 2}}
	for _, gm := range geoms {
		r, err := hatetris.NewRules(gm[0], gm[1], gm[2])
		if err != nil {
			t.Fatal(err)
		}
		g := NewHand(classicWeights()).NewHandWorker(r)
		for i := range 400 {
			var w hatetris.Well
			density := rng.Float64()
			from := rng.IntN(r.Depth + 1) // rows above from stay empty
			for y := from; y < r.Depth; y++ {
				for x := 0; x < r.Width; x++ {
					if rng.Float64() < density {
						w[y] |= r.Bit(x)
					}
				}
			}
			if i%5 == 0 { // a full column, the deepest counts
				x := rng.IntN(r.Width)
				for y := range r.Depth {
					w[y] |= r.Bit(x)
				}
			}
			if i%7 == 0 { // a full-depth well between filled columns
				x := rng.IntN(r.Width)
				for y := range r.Depth {
					w[y] = r.FullRow() &^ r.Bit(x)
				}
			}
			f := g.Features(&w)
			if got, want := classicPart(f), classicReference(r, &w); got != want {
				t.Fatalf("%dx%d well %d (%x): got %+v, want %+v", r.Width, r.Depth, i, w[:r.Depth], got, want)
			}
		}
	}
}

// TestClassicWeightsJSON: the classic terms' JSON names load, and a
// weights file without them leaves them at 0; Name shows them by label
// only when set.
func TestClassicWeightsJSON(t *testing.T) {
	w, err := ParseWeights([]byte(`{"score": -332.2211, "future_factor": 0.5, "row_transitions": 10, "column_transitions": 20,
		"cumulative_wells": 30, "hole_depth": 40, "rows_with_holes": 50, "bumpiness": 60}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Weights{Name: "custom", Score: -332.2211, FutureFactor: 0.5, RowTransitions: 10, ColumnTransitions: 20,
		CumulativeWells: 30, HoleDepth: 40, RowsWithHoles: 50, Bumpiness: 60}
	if w != want {
		t.Fatalf("got %+v, want %+v", w, want)
	}
	const name = "hand:custom[0 0 0 0 0 0 -332.2211 0.5 row-transitions 10 column-transitions 20 " +
		"cumulative-wells 30 hole-depth 40 rows-with-holes 50 bumpiness 60]"
	if got := NewHand(w).Name(); got != name {
		t.Fatalf("Name %q, want %q", got, name)
	}
	wo, err := w.Without("hole-depth")
	if err != nil || wo.HoleDepth != 0 || wo.Bumpiness != 60 || !strings.HasSuffix(wo.Name, "-hole_depth") {
		t.Fatalf("Without(hole-depth) = %+v, %v", wo, err)
	}
	// The value is minus the weighted sum of the features.
	g := NewHand(w).NewHandWorker(hatetris.Standard())
	wl := well(t, "#########.")
	f := g.Features(&wl)
	if got, want := g.Evaluate(&wl, 2, 0), -(10*40 + 20*10 + 30*1 + 60*1 - 332.2211*2); math.Abs(got-want) > 1e-9 {
		t.Fatalf("value %v, want %v (features %+v)", got, want, classicPart(f))
	}
}

// BenchmarkHandEvaluateClassic: BenchmarkHandEvaluate's well with one
// classic term set, which makes the worker compute all six.
func BenchmarkHandEvaluateClassic(b *testing.B) {
	w := well(b, "####.#####", "###..#####", "##.#######", "#########.")
	wt := DefaultWeights()
	wt.RowTransitions = 1
	g := NewHand(wt).NewWorker(hatetris.Standard())
	b.ReportAllocs()
	for b.Loop() {
		g.Evaluate(&w, 3, 0)
	}
}

var sinkBits int

// BenchmarkClassicFeatures: the classic family alone (Tim's terms left
// out) on a 14-row well.
func BenchmarkClassicFeatures(b *testing.B) {
	r := hatetris.Standard()
	rows := make([]string, 14)
	for i := range rows {
		rows[i] = strings.Repeat("#", i%9) + "." + strings.Repeat("#", 9-i%9)
	}
	w := well(b, rows...)
	f := Features{StackHeight: r.Height(&w)}
	all := classicWeights()
	g := hatetris.NewGenerator(r)
	for b.Loop() {
		classicFeatures(g, &w, &f, classicWeighed(&all)&^(cEdgeHeights|cSSurfaceHeight))
		sinkBits += bits.OnesCount(uint(f.RowTransitions))
	}
}

// timOf is Tim's two terms of f.
type timOf struct{ Edge, SSurface int }

// TestTimFeatures: Tim's two terms (edge_heights, s_surface_height) on
// hand-drawn 10x20 wells (bottom rows, top first), each counted by hand,
// beside the 1x1 block's surface height (SurfaceHeight), which the S's
// can exceed.
func TestTimFeatures(t *testing.T) {
	cases := []struct {
		name    string
		rows    []string
		want    timOf
		surface int // Features.SurfaceHeight
	}{
		{"empty", nil, timOf{0, 0}, 0},
		// Column 0 five high, column 9 empty; the S reaches the floor
		// beside it.
		{"tall left column", []string{"#.........", "#.........", "#.........", "#.........", "#........."}, timOf{5, 0}, 0},
		{"both edges", []string{"#.........", "#.........", "#........#"}, timOf{3 + 1, 0}, 0},
		// A column's height is its top cell's: the hole under column 0's
		// top does not lower it.
		{"edge over a hole", []string{"#........#", ".........#"}, timOf{2 + 2, 0}, 0},
		// The gap at the left wall takes a 1x1 block, no S cell: a
		// standing S there has its other column a row higher.
		{"gap at the left wall", []string{".#########"}, timOf{0 + 1, 1}, 0},
		// At the right wall the standing S's lower column is the gap's.
		{"gap at the right wall", []string{"#########."}, timOf{1 + 0, 0}, 0},
		// The cave under columns 0..2 opens by a mouth one row high
		// (column 2 of row 17): the 1x1 block slides in and down to the
		// floor; an S only puts a cell in the mouth, as on the stack
		// beside it (row 17).
		{"overhang the 1x1 block passes, the S not", []string{
			"###.......",
			".........#",
			"...#######",
			"...#######",
		}, timOf{4 + 3, 2}, 0},
		// Nothing reaches below the full row; the S rests on it.
		{"sealed floor", []string{"##########", ".#.#######"}, timOf{2 + 2, 2}, 2},
		// A standing S fills the gaps of both rows, which clear: taken at
		// the lock, its lowest cell is in the floor row.
		{"gaps it fills and clears", []string{"########..", "#########."}, timOf{2 + 0, 0}, 0},
		// Every row below the bar has one gap, at the right wall: the S
		// can only stand in row 4's gap with its other column above the
		// bar, a placement that ends the game (which counts): row 4.
		{"stacked to the bar", []string{
			"#########.", "#########.", "#########.", "#########.", "#########.", "#########.", "#########.", "#########.",
			"#########.", "#########.", "#########.", "#########.", "#########.", "#########.", "#########.", "#########.",
		}, timOf{16 + 0, 15}, 0},
	}
	var wt Weights
	wt.EdgeHeights, wt.SSurfaceHeight, wt.SurfaceHeight = 1, 1, 1
	g := NewHand(wt).NewHandWorker(hatetris.Standard())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := well(t, c.rows...)
			f := g.Features(&w)
			if got := (timOf{f.EdgeHeights, f.SSurfaceHeight}); got != c.want || f.SurfaceHeight != c.surface {
				t.Fatalf("got %+v (surface height %d), want %+v (%d)", got, f.SurfaceHeight, c.want, c.surface)
			}
			if got := timReference(hatetris.Standard(), &w); got != c.want {
				t.Fatalf("the reference gives %+v, want %+v", got, c.want)
			}
			if v, want := g.Evaluate(&w, 0, 0), -float64(c.want.Edge+c.want.SSurface+c.surface); v != want {
				t.Fatalf("value %v, want %v", v, want)
			}
		})
	}
}

// TestSSurfaceSpawnLock: on a bar of 1 the S may spawn over blocks and
// lock there, onto them; its lowest cell is then in row 2, the floor row
// of 3, so the S surface height is 0.
func TestSSurfaceSpawnLock(t *testing.T) {
	r, err := hatetris.NewRules(8, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	w, err := r.ParseWellString("0,187,95")
	if err != nil {
		t.Fatal(err)
	}
	f := NewHand(Weights{SSurfaceHeight: 1}).NewHandWorker(r).Features(&w)
	if f.SSurfaceHeight != 0 || timReference(r, &w).SSurface != 0 {
		t.Fatalf("the S locked at its spawn: SSurfaceHeight %d, want 0 (its cell in row 2)", f.SSurfaceHeight)
	}
}

// timReference computes Tim's two terms cell by cell: the columns'
// heights, and the S piece's lowest cell by the game's moves (L, R, D, U
// from the spawn, onto empty cells only; a D that cannot move locks),
// written here from the rules (Rules.Fits, PieceCells), not the generator.
func timReference(r *hatetris.Rules, w *hatetris.Well) timOf {
	height := func(x int) int {
		for y := 0; y < r.Depth; y++ {
			if r.Filled(w, x, y) {
				return r.Depth - y
			}
		}
		return 0
	}
	var c timOf
	c.Edge = height(0) + height(r.Width-1)
	start := r.Spawn()
	seen := map[hatetris.Position]bool{start: true}
	queue := []hatetris.Position{start}
	low := -1
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for k, next := range []hatetris.Position{{X: p.X - 1, Y: p.Y, O: p.O}, {X: p.X + 1, Y: p.Y, O: p.O},
			{X: p.X, Y: p.Y + 1, O: p.O}, {X: p.X, Y: p.Y, O: (p.O + 1) & 3}} {
			if !r.Fits(w, hatetris.S, next) {
				if k == 2 { // D locks the piece at p
					for _, cell := range hatetris.PieceCells(hatetris.S, p.O) {
						low = max(low, p.Y+cell[1])
					}
				}
				continue
			}
			if !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	c.SSurface = r.Depth - r.Bar
	if low >= 0 {
		c.SSurface = r.Depth - 1 - low
	}
	return c
}

// TestTimProperty: Tim's terms equal the cell-by-cell reference on seeded
// random wells of several geometries and densities (stacks contiguous from
// the floor, the generator's fast path, or not, its search).
func TestTimProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 4))
	for _, gm := range [][3]int{{10, 20, 4}, {4, 6, 2}, {16, 29, 4}, {7, 11, 3}, {16, 8, 1}} {
		r, err := hatetris.NewRules(gm[0], gm[1], gm[2])
		if err != nil {
			t.Fatal(err)
		}
		g := NewHand(Weights{EdgeHeights: 1, SSurfaceHeight: 1}).NewHandWorker(r)
		for i := range 120 {
			w := randomWell(rng, r, i%2 == 0)
			f := g.Features(&w)
			if got, want := (timOf{f.EdgeHeights, f.SSurfaceHeight}), timReference(r, &w); got != want {
				t.Fatalf("%dx%d well %d (%x): got %+v, want %+v", r.Width, r.Depth, i, w[:r.Depth], got, want)
			}
		}
	}
}

// TestTimWeightsJSON: Tim's terms' JSON names load, and a weights file
// without them leaves them at 0; Name shows them by label only when set,
// after the classic ones; Without removes them; Check bounds them.
func TestTimWeightsJSON(t *testing.T) {
	w, err := ParseWeights([]byte(`{"score": -332.2211, "future_factor": 0.5, "bumpiness": 60, "edge_heights": 7, "s_surface_height": -80}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Weights{Name: "custom", Score: -332.2211, FutureFactor: 0.5, Bumpiness: 60, EdgeHeights: 7, SSurfaceHeight: -80}
	if w != want {
		t.Fatalf("got %+v, want %+v", w, want)
	}
	const name = "hand:custom[0 0 0 0 0 0 -332.2211 0.5 bumpiness 60 edge-heights 7 s-surface -80]"
	if got := NewHand(w).Name(); got != name {
		t.Fatalf("Name %q, want %q", got, name)
	}
	for _, c := range []struct{ term, suffix string }{{"edge-heights", "-edge_heights"}, {"s_surface_height", "-s_surface_height"}} {
		wo, err := w.Without(c.term)
		if err != nil || (wo.EdgeHeights == 0) == (wo.SSurfaceHeight == 0) || !strings.HasSuffix(wo.Name, c.suffix) {
			t.Fatalf("Without(%s) = %+v, %v", c.term, wo, err)
		}
	}
	for _, in := range []string{`{"edge_heights": 1e6}`, `{"s_surface_height": -1e6}`} {
		if _, err := ParseWeights([]byte(in)); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
	for in, msg := range map[string]string{
		`{"edge_heights": 1000000.5}`:      "edge_heights is 1.0000005e+06, beyond",
		`{"s_surface_height": -2e6}`:       "s_surface_height is -2e+06, beyond",
		`{"s_surface": 1}`:                 `unknown field "s_surface"`,
		`{"edge_heights": 0, "name": "x"}`: "no weight is set",
	} {
		if _, err := ParseWeights([]byte(in)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want an error containing %q", in, err, msg)
		}
	}
	// A file of only Tim's terms is valid: its value is minus their
	// weighted sum (edges 2+1, the S's lowest cell in row 18).
	g := NewHand(Weights{EdgeHeights: 2, SSurfaceHeight: 3}).NewHandWorker(hatetris.Standard())
	wl := well(t, "#.........", ".#########")
	if got, want := g.Evaluate(&wl, 0, 0), -(2*(2+1) + 3*1.0); got != want {
		t.Fatalf("value %v, want %v", got, want)
	}
}

// TestTimZeroWeights: a worker whose weights leave Tim's terms at 0
// (dnf86's, tuned-03's) reports them as 0, and its features and values
// are those of the same weights plus either term, less that term's
// weighted count: setting a term changes nothing else. (TestValuesUnchanged
// holds their values to those before the terms existed.)
func TestTimZeroWeights(t *testing.T) {
	r := hatetris.Standard()
	wells := []hatetris.Well{
		well(t),
		well(t, "#########."),
		well(t, "###.......", ".........#", "...#######", "...#######"),
		well(t, "##########", ".####.####", "#.##.#####"),
		well(t, "#.#.......", "###.......", "#.#.......", "#.#.......", ".#########"),
	}
	for _, base := range []Weights{DefaultWeights(), TunedWeights()} {
		plain := NewHand(base).NewHandWorker(r)
		for _, term := range []string{"edge_heights", "s_surface_height"} {
			wt := base
			for _, tt := range WeightTerms {
				if tt.Name == term {
					*tt.Of(&wt) = 3
				}
			}
			with := NewHand(wt).NewHandWorker(r)
			for i := range wells {
				w := &wells[i]
				f0, f1 := plain.Features(w), with.Features(w)
				if f0.EdgeHeights != 0 || f0.SSurfaceHeight != 0 {
					t.Fatalf("%s: Tim's terms computed at weight 0: %+v", base.Name, f0)
				}
				n := f1.EdgeHeights + f1.SSurfaceHeight
				f1.EdgeHeights, f1.SSurfaceHeight = 0, 0
				if f1 != f0 {
					t.Fatalf("%s+%s well %d: the other features changed: %+v, want %+v", base.Name, term, i, f1, f0)
				}
				if got, want := with.Evaluate(w, 2, 1), plain.Evaluate(w, 2, 1)-3*float64(n); math.Abs(got-want) > 1e-9 {
					t.Fatalf("%s+%s well %d: value %v, want %v", base.Name, term, i, got, want)
				}
			}
		}
	}
}

// BenchmarkHandEvaluateTim: BenchmarkHandEvaluate's well with Tim's two
// terms set (the S's lowest cell costs one flood of the S down the well).
func BenchmarkHandEvaluateTim(b *testing.B) {
	w := well(b, "####.#####", "###..#####", "##.#######", "#########.")
	wt := DefaultWeights()
	wt.EdgeHeights, wt.SSurfaceHeight = 1, -1
	g := NewHand(wt).NewWorker(hatetris.Standard())
	b.ReportAllocs()
	for b.Loop() {
		g.Evaluate(&w, 3, 0)
	}
}
