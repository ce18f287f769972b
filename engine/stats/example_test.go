package stats_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/stats"
)

// The exact signed-rank test of ten paired differences, all wins: 2 of
// the 1024 sign patterns are as extreme.
func ExampleWilcoxon() {
	p, wPlus, n, exact := stats.Wilcoxon([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	fmt.Printf("p = %.5f, W+ = %g over %d, exact %v\n", p, wPlus, n, exact)
	// Output:
	// p = 0.00195, W+ = 55 over 10, exact true
}

// The sequential test on the mean difference (fishtest's GSPRT) of
// lines, H0 0 against H1 +1 line: ten pairs of mean 1.1 and variance 2.89
// give LLR 10·1·(2.2 − 1)/(2·2.89) = 2.08, inside Wald's bounds ±2.94 at
// α = β = 0.05, so the test continues.
func ExampleMeanSPRT() {
	t := stats.DefaultMeanSPRT(1)
	t.MinPairs = 10
	verdict, used, llr := t.Decide([]float64{1, 2, -1, 3, 0, 2, 1, -2, 4, 1})
	lo, hi := t.Bounds()
	fmt.Printf("%s after %d pairs, LLR %.3f in [%.2f, %.2f]\n", verdict, used, llr, lo, hi)
	// Output:
	// continue after 10 pairs, LLR 2.076 in [-2.94, 2.94]
}
