package eval

import (
	"fmt"
	"strings"
)

// WeightTerm is one weight of the hand-made evaluation: its name in the
// weights JSON (and in ablation arms, "hand-NAME"), a line saying what it
// weighs, where it lives in Weights, and the well's count it multiplies.
type WeightTerm struct {
	Name string
	Doc  string
	Of   func(*Weights) *float64
	// Feature is the count of a well's Features the weight multiplies;
	// nil for score and future_factor, which weigh lines (Weights.Value).
	Feature func(*Features) int
	// Label, when set, names the term in Hand.Name only when its weight
	// is not 0, after the others ("columns 2"): how a term added after
	// evaluations were committed keeps their names (and so their files)
	// valid. A new term gets a Label.
	Label string
	// Costly terms (the classic family, Tim's two) are computed by
	// HandWorker.Features only when the worker's weights give them a
	// non-zero weight (else reported as 0): a worker whose weights leave
	// them at 0 pays nothing for them.
	Costly bool
}

// WeightTerms lists the hand-made evaluation's weights in the order of the
// weights JSON: the one table of terms. Check, Without, Hand.Name, the
// arena's ablation arms and the tuner read it; Weights.Value writes its
// sum out for speed, and a test holds the two to the same value.
var WeightTerms = []WeightTerm{
	{"holes", "empty cells with a filled cell above them in their column",
		func(w *Weights) *float64 { return &w.Holes }, func(f *Features) int { return f.Holes }, "", false},
	{"enclosed_holes", "empty cells a 1x1 block dropped from the top cannot reach",
		func(w *Weights) *float64 { return &w.EnclosedHoles }, func(f *Features) int { return f.EnclosedHoles }, "", false},
	{"enclosed_hole_lines", "rows holding an enclosed hole",
		func(w *Weights) *float64 { return &w.EnclosedHoleLines }, func(f *Features) int { return f.EnclosedHoleLines }, "", false},
	{"surface_height", "rows between the floor and the lowest row the 1x1 block reaches",
		func(w *Weights) *float64 { return &w.SurfaceHeight }, func(f *Features) int { return f.SurfaceHeight }, "", false},
	{"stack_height", "rows between the floor and the top of the stack",
		func(w *Weights) *float64 { return &w.StackHeight }, func(f *Features) int { return f.StackHeight }, "", false},
	{"surface_columns", "the surface's height summed over the columns",
		func(w *Weights) *float64 { return &w.SurfaceColumns }, func(f *Features) int { return f.SurfaceColumns }, "columns", false},
	{"erasability", "how many of the 7 pieces can clear a line",
		func(w *Weights) *float64 { return &w.Erasability }, func(f *Features) int { return f.Erasability }, "", false},
	// The classic family (Dellacherie's and Thiery & Scherrer's BCTS
	// features, engine/classic's definitions on a HATETRIS well): every
	// row of the well counts, from the top to the floor, dead rows below
	// the surface included (a sealed row keeps its count: sealing is not
	// rewarded by hiding a row's mess).
	{"row_transitions", "filled/empty changes along every row, the walls filled",
		func(w *Weights) *float64 { return &w.RowTransitions }, func(f *Features) int { return f.RowTransitions }, "row-transitions", true},
	{"column_transitions", "filled/empty changes down every column, the sky empty, the floor filled",
		func(w *Weights) *float64 { return &w.ColumnTransitions }, func(f *Features) int { return f.ColumnTransitions }, "column-transitions", true},
	{"cumulative_wells", "1+2+...+depth summed over every vertical run of well cells (empty, both sides filled or a wall)",
		func(w *Weights) *float64 { return &w.CumulativeWells }, func(f *Features) int { return f.CumulativeWells }, "cumulative-wells", true},
	{"hole_depth", "filled cells above each empty cell that has one above it, summed",
		func(w *Weights) *float64 { return &w.HoleDepth }, func(f *Features) int { return f.HoleDepth }, "hole-depth", true},
	{"rows_with_holes", "rows holding an empty cell with a filled cell above it (dead rows included)",
		func(w *Weights) *float64 { return &w.RowsWithHoles }, func(f *Features) int { return f.RowsWithHoles }, "rows-with-holes", true},
	{"bumpiness", "the sum of |height differences| of neighbouring columns (a column's height: floor to its top cell)",
		func(w *Weights) *float64 { return &w.Bumpiness }, func(f *Features) int { return f.Bumpiness }, "bumpiness", true},
	// Two terms of Tim's hand-made heuristic, named as in the table of
	// knewjade's and Tim's terms of D&F's "Losing the World Record in
	// HATETRIS" (hallofdreams.org/posts/hatetris-2/): "Heights of leftmost
	// and rightmost columns" and "Surface height (S piece)". The
	// definitions are this project's reading (Features says them).
	{"edge_heights", "the heights of the leftmost and the rightmost column, added (a column's height as bumpiness's)",
		func(w *Weights) *float64 { return &w.EdgeHeights }, func(f *Features) int { return f.EdgeHeights }, "edge-heights", true},
	{"s_surface_height", "rows between the floor and the lowest row an S piece's cell reaches at a lock (before its clears)",
		func(w *Weights) *float64 { return &w.SSurfaceHeight }, func(f *Features) int { return f.SSurfaceHeight }, "s-surface", true},
	{"score", "lines cleared (quiescence lines weighed by future_factor)",
		func(w *Weights) *float64 { return &w.Score }, nil, "", false},
	{"future_factor", "the weight of a quiescence chain's lines against lines scored",
		func(w *Weights) *float64 { return &w.FutureFactor }, nil, "", false},
}

// WeightRule is one of knewjade's rules (a switch of Weights): its name in
// the weights JSON, in Hand.Name and in the arena's "hand+NAME" arms (with
// '-' for '_'), and where it lives in Weights.
type WeightRule struct {
	Name string
	Of   func(*Weights) *bool
}

// WeightRules lists the rules in the order Hand.Name writes them.
var WeightRules = []WeightRule{
	{"sz_holes", func(w *Weights) *bool { return &w.SZHoles }},
	{"sz_two_well", func(w *Weights) *bool { return &w.SZTwoWell }},
}

// Without returns w with one term's weight set to 0 and " -TERM" added to
// its name: the ablation arm "hand-TERM". The term is named as in the
// weights JSON (a '-' may stand for '_'); a term whose weight is already 0
// is an error, since the ablation would equal w.
func (w Weights) Without(term string) (Weights, error) {
	name := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(term)), "-", "_")
	for _, t := range WeightTerms {
		if t.Name != name {
			continue
		}
		p := t.Of(&w)
		if *p == 0 {
			return Weights{}, fmt.Errorf("weights %s: %s is already 0: removing it changes nothing", w.Name, t.Name)
		}
		*p = 0
		w.Name += "-" + t.Name
		if err := w.Check(); err != nil {
			return Weights{}, err
		}
		return w, nil
	}
	names := make([]string, len(WeightTerms))
	for i, t := range WeightTerms {
		names[i] = t.Name
	}
	return Weights{}, fmt.Errorf("unknown term %q (want one of %s)", term, strings.Join(names, ", "))
}

// ScoreOnly returns weights that keep only w's score and future-lines
// terms: "count the lines", the control every evaluation must beat.
func ScoreOnly(w Weights) Weights {
	return Weights{Name: w.Name + "-score-only", Score: w.Score, FutureFactor: w.FutureFactor}
}
