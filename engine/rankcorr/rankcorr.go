// Package rankcorr computes rank correlations: ranks with ties at their
// mean rank, and Spearman's coefficient (the Pearson correlation of the
// ranks, gonum's stat.Correlation), for the studies that compare orderings
// (flats sources, NNUE predictions against their targets). It is the one
// implementation: the engine (nnue/cycle), lab/transitions and the
// notebooks call it (a public package, since the notebooks cannot import
// internal/ ones).
package rankcorr

import (
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat"
)

// Spearman returns the Spearman rank correlation of two value vectors
// over the indices where both are numbers (NaN if fewer than 3).
func Spearman(a, b []float64) float64 {
	var x, y []float64
	for i := range a {
		if i < len(b) && !math.IsNaN(a[i]) && !math.IsNaN(b[i]) {
			x = append(x, a[i])
			y = append(y, b[i])
		}
	}
	if len(x) < 3 {
		return math.NaN()
	}
	return stat.Correlation(Ranks(x), Ranks(y), nil)
}

// Ranks returns the ranks of v from 1 (ties get their mean rank).
func Ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case v[a] < v[b]:
			return -1
		case v[a] > v[b]:
			return 1
		}
		return 0
	})
	out := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			out[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return out
}

// Format writes a coefficient with three decimals, or "undefined" for NaN
// (fewer than three pairs, or all of one side equal).
func Format(rho float64) string {
	if math.IsNaN(rho) {
		return "undefined"
	}
	return strconv.FormatFloat(rho, 'f', 3, 64)
}
