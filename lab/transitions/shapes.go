package transitions

import (
	"fmt"
	"math"

	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/rankcorr"
)

// ShapeB returns B (the chance of reaching Cleared) of each shape in the
// shape-only graph of c, NaN where c has no life through it.
func ShapeB(c *flats.Counts, shapes []uint16) []float64 {
	g := c.ShapeGraph()
	b := flats.Absorb(g)
	out := make([]float64, len(shapes))
	for i, sh := range shapes {
		out[i] = math.NaN()
		if id := g.ID(flats.MakeState(sh, 0)); id >= 0 && id < len(b) {
			out[i] = b[id]
		}
	}
	return out
}

// TableB returns B of each shape in a table of a well width wide, NaN
// where the table has none.
func TableB(t *flats.Table, shapes []uint16, width int) []float64 {
	m := map[string]float64{}
	for _, r := range t.Shapes {
		m[r.Shape] = r.B
	}
	out := make([]float64, len(shapes))
	for i, sh := range shapes {
		out[i] = math.NaN()
		if v, ok := m[flats.ShapeString(sh, width)]; ok {
			out[i] = v
		}
	}
	return out
}

// CommonShapes returns the shapes every table holds with at least minLives
// lives, in the first table's order.
func CommonShapes(width int, minLives float64, ts ...*flats.Table) ([]uint16, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	n := map[string]int{}
	for _, t := range ts {
		for _, r := range t.Shapes {
			if r.N >= minLives {
				n[r.Shape]++
			}
		}
	}
	var out []uint16
	for _, r := range ts[0].Shapes {
		if n[r.Shape] == len(ts) {
			sh, err := flats.ParseShape(r.Shape, width)
			if err != nil {
				return nil, err
			}
			out = append(out, sh)
		}
	}
	return out, nil
}

// SpearmanCI is the Spearman correlation of shape B over shapes between
// games a (resampled) and either games b (resampled too) or, when fixed is
// not nil, a fixed table, with its 95% percentile bootstrap interval
// (resamples of the games, seeded), written as "0.62 [0.41, 0.77]"; "– (too
// few shared shapes)" where no correlation exists, and "(no interval)"
// where the resamples give none.
func SpearmanCI(r *hatetris.Rules, a, b []flats.Game, fixed *flats.Table, shapes []uint16, resamples int, seed uint64) (string, error) {
	sets, st := [][]flats.Game{a, b}, func(cs []*flats.Counts) float64 {
		return rankcorr.Spearman(ShapeB(cs[0], shapes), ShapeB(cs[1], shapes))
	}
	if fixed != nil {
		fb := TableB(fixed, shapes, r.Width)
		sets, st = [][]flats.Game{a}, func(cs []*flats.Counts) float64 { return rankcorr.Spearman(ShapeB(cs[0], shapes), fb) }
	}
	iv, err := flats.Bootstrap(r, sets, resamples, seed, 0.95, st)
	if err != nil {
		return "", err
	}
	switch {
	case math.IsNaN(iv.Estimate):
		return "– (too few shared shapes)", nil
	case math.IsNaN(iv.Lo):
		return fmt.Sprintf("%.2f (no interval)", iv.Estimate), nil
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", iv.Estimate, iv.Lo, iv.Hi), nil
}
