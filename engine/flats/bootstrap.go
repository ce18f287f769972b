package flats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/hatelab/hatelab/engine/hatetris"
	"gonum.org/v1/gonum/stat"
)

// Interval is a bootstrap percentile interval around a point estimate.
type Interval struct {
	Estimate, Lo, Hi float64
	// Level is the coverage (0.95 for a 95% interval); Resamples the
	// number of resamples whose statistic was a number.
	Level     float64
	Resamples int
}

// Bootstrap compares sources by resampling their games: each of sets (the
// games of one source, all of rules r) is resampled with replacement,
// independently, n times (seeded), recounted, and stat is evaluated on
// the recounted Counts (in the order of sets). It returns the statistic
// on the original games and the percentile interval at the given level.
func Bootstrap(r *hatetris.Rules, sets [][]Game, n int, seed uint64, level float64, statistic func([]*Counts) float64) (Interval, error) {
	if n < 1 || level <= 0 || level >= 1 {
		return Interval{}, fmt.Errorf("flats: bootstrap with %d resamples at level %g", n, level)
	}
	count := func(sample [][]Game) ([]*Counts, error) {
		cs := make([]*Counts, len(sample))
		for i, g := range sample {
			c, err := CountMoves(r, g)
			if err != nil {
				return nil, err
			}
			cs[i] = c
		}
		return cs, nil
	}
	cs, err := count(sets)
	if err != nil {
		return Interval{}, err
	}
	out := Interval{Estimate: statistic(cs), Level: level}
	rng := rand.New(rand.NewPCG(seed, 0x626f6f74))
	var vals []float64
	sample := make([][]Game, len(sets))
	for k := 0; k < n; k++ {
		for i, set := range sets {
			sample[i] = sample[i][:0]
			for range set {
				sample[i] = append(sample[i], set[rng.IntN(len(set))])
			}
		}
		cs, err := count(sample)
		if err != nil {
			return Interval{}, err
		}
		if v := statistic(cs); !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	out.Resamples = len(vals)
	if len(vals) == 0 {
		out.Lo, out.Hi = math.NaN(), math.NaN()
		return out, nil
	}
	slices.Sort(vals)
	a := (1 - level) / 2
	out.Lo = stat.Quantile(a, stat.Empirical, vals, nil)
	out.Hi = stat.Quantile(1-a, stat.Empirical, vals, nil)
	return out, nil
}

// AbsorbOf returns a statistic for Bootstrap: the absorption of state s
// in the shape-only graph of the i-th counts.
func AbsorbOf(i int, s State) func([]*Counts) float64 {
	return func(cs []*Counts) float64 {
		g := cs[i].ShapeGraph()
		return Absorb(g)[g.ID(s)]
	}
}

// AbsorbDiff returns a statistic for Bootstrap: B(s) in the shape-only
// graph of the first counts minus that of the second.
func AbsorbDiff(s State) func([]*Counts) float64 {
	return func(cs []*Counts) float64 { return AbsorbOf(0, s)(cs) - AbsorbOf(1, s)(cs) }
}
