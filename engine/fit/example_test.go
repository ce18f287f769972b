package fit_test

import (
	"fmt"
	"math"

	"github.com/hatelab/hatelab/engine/fit"
)

// The blog's quadratic of game length against height (Width 10, Heights
// 2..7): L ≈ 1.393H² − 4.593H + 7.40, extrapolated to the real game's
// Height of 16. The lengths are exact search results, so the interval says
// how well a quadratic fits these points, not where the real game's length
// lies.
func ExampleLinear() {
	h := []float64{2, 3, 4, 5, 6, 7}
	l := []float64{4, 6, 11, 19, 31, 43}
	f, err := fit.Linear(h, l, fit.Poly(2)...)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("coef %.3f %.3f %.3f\n", f.Coef[0], f.Coef[1], f.Coef[2])
	fmt.Printf("n %d p %d dof %d R² %.4f\n", f.N, f.P, f.DoF, f.R2)
	y, lo, hi := f.PredictionInterval(16, 0.95)
	fmt.Printf("at 16: %.1f [%.1f, %.1f]\n", y, lo, hi)
	// Output:
	// coef 7.400 -4.593 1.393
	// n 6 p 3 dof 3 R² 0.9987
	// at 16: 290.5 [242.2, 338.8]
}

// String writes the model with its parameters and their standard errors.
func ExampleFit_String() {
	f, err := fit.Linear([]float64{0, 1, 2, 3, 4}, []float64{1, 3.1, 4.9, 7.2, 8.8}, fit.Poly(1)...)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f)
	// Output:
	// y = (1.06 ± 0.13) + (1.97 ± 0.055)·x  [n=5, σ=0.174, R²=0.9977, LOO RMSE=0.236]
}

// A log-quadratic: fit ln y, then take exp of the prediction.
func ExampleLog() {
	x := []float64{1, 2, 3, 4, 5}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = math.Exp(0.5 + 0.3*v + 0.02*v*v)
	}
	f, err := fit.Linear(x, fit.Log(y), fit.Poly(2)...)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f %.3f %.3f\n", f.Coef[0], f.Coef[1], f.Coef[2])
	ly, _ := f.Predict(6)
	fmt.Printf("y(6) = %.3f\n", math.Exp(ly))
	// Output:
	// 0.500 0.300 0.020
	// y(6) = 20.491
}

// Fewer points than parameters is an error.
func ExampleLinear_tooFew() {
	_, err := fit.Linear([]float64{1, 2}, []float64{1, 4}, fit.Poly(2)...)
	fmt.Println(err)
	// Output:
	// fit: fewer data points than parameters
}
