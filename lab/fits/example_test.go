package fits_test

import (
	"fmt"

	"github.com/hatelab/hatelab/lab/fits"
)

// The blog's quadratic model of game length against Height (Width 10,
// Heights 2..7), extrapolated to the real game's Height of 16, as the
// notebook's table.
func ExampleTable() {
	h := []float64{2, 3, 4, 5, 6, 7}
	l := []float64{4, 6, 11, 19, 31, 43}
	m, err := fits.Fit("length, width 10", "quadratic", h, l)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(fits.Table(16, m).Text())
	// Output:
	// fitted            model      n  coefficients of 1 · h · h² (± s.e.)    σ     LOO RMSE  at h  prediction [95% PI]
	// ----------------  ---------  -  -------------------------------------  ----  --------  ----  -------------------
	// length, width 10  quadratic  6  7.4 ± 2.2, -4.593 ± 1.1, 1.393 ± 0.12  0.71  1.41      16    290 [242, 339]
}

// Predict gives a model's prediction with its prediction interval on the y
// scale, here for a log-quadratic model (fitted on ln y).
func ExampleModel_Predict() {
	x := []float64{5, 6, 7, 8, 9, 10}
	y := []float64{26.85, 90.07, 272.31, 825.20, 2670.43, 7519.81} // tetr-ai's mean lines
	m, err := fits.Fit("mean lines", "log-quadratic", x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, lo, hi := m.Predict(11, 0.95)
	fmt.Printf("%s %s: at 11 rows %.0f [%.0f, %.0f]\n", m.Label, m.Model, p, lo, hi)
	_, err = fits.Fit("x", "cubic", x, y)
	fmt.Println(err)
	// Output:
	// mean lines log-quadratic: at 11 rows 22015 [17531, 27646]
	// unknown model "cubic" (linear, quadratic, log-linear, log-quadratic)
}
