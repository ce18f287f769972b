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

// TestClassicFeaturesSkipped: a worker computes a classic term only when
// its weights set it (it reports the others as 0), and the other terms are
// the same either way.
func TestClassicFeaturesSkipped(t *testing.T) {
	r := hatetris.Standard()
	w := well(t, "#.#.......", "###.......", "#.#.......", "#.#.......")
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
		if got != plain {
			t.Errorf("%s set: the other terms changed: %+v, want %+v", term.Name, got, plain)
		}
	}
	if n != 6 {
		t.Fatalf("%d Costly terms, want the 6 of the classic family", n)
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

// BenchmarkClassicFeatures: the classic family alone on a 14-row well.
func BenchmarkClassicFeatures(b *testing.B) {
	r := hatetris.Standard()
	rows := make([]string, 14)
	for i := range rows {
		rows[i] = strings.Repeat("#", i%9) + "." + strings.Repeat("#", 9-i%9)
	}
	w := well(b, rows...)
	f := Features{StackHeight: r.Height(&w)}
	all := classicWeights()
	for b.Loop() {
		classicFeatures(r, &w, &f, classicWeighed(&all))
		sinkBits += bits.OnesCount(uint(f.RowTransitions))
	}
}
