package smallwells

import (
	"fmt"
	"math"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/lab"
	"github.com/hatelab/hatelab/lab/fits"
)

// Tallest returns the tallest finished, bounded search of a width under the
// real rule in rows (0 if none).
func Tallest(rows []bfs.Row, width int) int {
	h := 0
	for _, r := range rows {
		if r.Width == width && r.Rule == bfs.RuleQntm && !r.Unbounded {
			h = max(h, r.Height)
		}
	}
	return h
}

// ExtrapolationShift shows what a width's tallest height H (real rule)
// does to its fits (WidthFits): per model, the prediction at height at
// fitted without H, that fit's prediction for H against the value
// observed, and the prediction at height at fitted with H, with the
// factor it moved by.
func ExtrapolationShift(rows []bfs.Row, width int, at float64) (*lab.Table, error) {
	H := Tallest(rows, width)
	if H == 0 {
		return nil, fmt.Errorf("no finished search of width %d under the real rule", width)
	}
	var before []bfs.Row
	for _, r := range rows {
		if !(r.Width == width && r.Rule == bfs.RuleQntm && r.Height == H) {
			before = append(before, r)
		}
	}
	fb, _ := WidthFits(before, width)
	fa, _ := WidthFits(rows, width)
	observed := map[string]float64{}
	for _, q := range []string{"score", "length", "peak"} {
		h, y := Column(rows, width, bfs.RuleQntm, q)
		for i := range h {
			if h[i] == float64(H) {
				observed[q] = y[i]
			}
		}
	}
	quantity := []string{"score", "score", "length", "length", "peak", "peak"}
	t := lab.NewTable("fit", "model",
		fmt.Sprintf("fitted on heights ≤ %d: at %g [95%% PI]", H-1, at),
		fmt.Sprintf("its prediction for height %d", H), fmt.Sprintf("observed at %d", H),
		fmt.Sprintf("fitted on heights ≤ %d: at %g [95%% PI]", H, at), "moved by")
	n := 0
	for i := range fa {
		if i >= len(fb) || fa[i] == nil || fb[i] == nil {
			continue
		}
		yb, _, _ := fb[i].Predict(at, 0.95)
		ya, _, _ := fa[i].Predict(at, 0.95)
		moved := "—"
		if yb != 0 && !math.IsNaN(ya/yb) {
			moved = "×" + lab.Sig(ya/yb, 3)
		}
		t.Add(fa[i].Label, fa[i].Model, fits.Prediction(fb[i], at), fits.Prediction(fb[i], float64(H)),
			observed[quantity[i]], fits.Prediction(fa[i], at), moved)
		n++
	}
	if n == 0 {
		return nil, fmt.Errorf("width %d: no model can be fitted both without and with height %d", width, H)
	}
	return t, nil
}
