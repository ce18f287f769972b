package eval

import (
	"fmt"
	"strings"
)

// WeightTerm is one weight of the hand-made evaluation: its name in the
// weights JSON (and in ablation arms, "hand-NAME"), a line saying what it
// weighs, and where it lives in Weights.
type WeightTerm struct {
	Name string
	Doc  string
	Of   func(*Weights) *float64
}

// WeightTerms lists the hand-made evaluation's weights in the order of the
// weights JSON. Check, Without and the arena's ablation arms read it.
var WeightTerms = []WeightTerm{
	{"holes", "empty cells with a filled cell above them in their column", func(w *Weights) *float64 { return &w.Holes }},
	{"enclosed_holes", "empty cells a 1x1 block dropped from the top cannot reach", func(w *Weights) *float64 { return &w.EnclosedHoles }},
	{"enclosed_hole_lines", "rows holding an enclosed hole", func(w *Weights) *float64 { return &w.EnclosedHoleLines }},
	{"surface_height", "rows between the floor and the lowest row the 1x1 block reaches", func(w *Weights) *float64 { return &w.SurfaceHeight }},
	{"stack_height", "rows between the floor and the top of the stack", func(w *Weights) *float64 { return &w.StackHeight }},
	{"surface_columns", "the surface's height summed over the columns", func(w *Weights) *float64 { return &w.SurfaceColumns }},
	{"erasability", "how many of the 7 pieces can clear a line", func(w *Weights) *float64 { return &w.Erasability }},
	{"score", "lines cleared (quiescence lines weighed by future_factor)", func(w *Weights) *float64 { return &w.Score }},
	{"future_factor", "the weight of a quiescence chain's lines against lines scored", func(w *Weights) *float64 { return &w.FutureFactor }},
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
