package rankcorr

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestRanks(t *testing.T) {
	for _, c := range []struct {
		in, want []float64
	}{
		{nil, []float64{}},
		{[]float64{5}, []float64{1}},
		{[]float64{3, 1, 2}, []float64{3, 1, 2}},
		{[]float64{2, 2, 1, 3}, []float64{2.5, 2.5, 1, 4}},
		{[]float64{7, 7, 7}, []float64{2, 2, 2}},
	} {
		if got := Ranks(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Ranks(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestSpearman(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		{[]float64{1, 2, 3, 4}, []float64{1, 4, 9, 16}, 1}, // monotone, not linear
		{[]float64{1, 2, 3, 4, 5}, []float64{2, 1, 4, 3, 5}, 0.8},
		{[]float64{1, nan, 3, 4}, []float64{1, 2, 3, 4}, 1}, // NaN pairs dropped
	} {
		if got := Spearman(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Spearman(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if s := Spearman([]float64{1, nan}, []float64{1, 2}); !math.IsNaN(s) {
		t.Errorf("fewer than 3 pairs: %v, want NaN", s)
	}
}

// TestFormat: three decimals, or "undefined" where the coefficient is.
func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		rho  float64
		want string
	}{{0.9046, "0.905"}, {-1, "-1.000"}, {0, "0.000"}, {math.NaN(), "undefined"}} {
		if got := Format(tc.rho); got != tc.want {
			t.Errorf("Format(%v) = %q, want %q", tc.rho, got, tc.want)
		}
	}
}

func ExampleSpearman() {
	fmt.Printf("%.1f\n", Spearman([]float64{1, 2, 3, 4, 5}, []float64{2, 1, 4, 3, 5}))
	// Output: 0.8
}
