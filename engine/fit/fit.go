// Package fit does linear least-squares fits of y against any basis
// functions of x (polynomials, log-polynomials, anything linear in its
// parameters), with the numbers needed to judge a fit honestly: parameter
// standard errors and covariance, residuals, R², leave-one-out
// (cross-validation) error, and confidence and prediction intervals. The
// intervals assume independent, normally distributed noise around a true
// curve of the fitted form; on exact data (search results) the residuals
// are model error instead, and the intervals say only how well the form fits
// the points it was fitted to, not where further points will fall.
//
// Example: the quadratic y = a + b·x + c·x²
//
//	f, err := fit.Linear(xs, ys, fit.Poly(2)...)
//	y, lo, hi := f.PredictionInterval(16, 0.95)
//
// and a log-quadratic ln y = a + b·x + c·x², predicted back on the y scale:
//
//	f, err := fit.Linear(xs, fit.Log(ys), fit.Poly(2)...)
//	y, lo, hi := f.PredictionInterval(16, 0.95) // then math.Exp of each
//
// Everything is deterministic; the linear algebra is gonum's (QR
// decomposition, so ill-conditioned polynomial bases stay accurate).
package fit

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Basis is one basis function of a linear model y = Σ β_j·f_j(x).
type Basis struct {
	Name string // used in String, e.g. "1", "x", "x^2"
	F    func(x float64) float64
}

// Const is the constant basis function 1.
var Const = Basis{Name: "1", F: func(float64) float64 { return 1 }}

// Pow returns the basis function x^k.
func Pow(k int) Basis {
	switch k {
	case 0:
		return Const
	case 1:
		return Basis{Name: "x", F: func(x float64) float64 { return x }}
	}
	return Basis{Name: fmt.Sprintf("x^%d", k), F: func(x float64) float64 { return math.Pow(x, float64(k)) }}
}

// Poly returns the basis 1, x, ..., x^deg of a polynomial of degree deg.
func Poly(deg int) []Basis {
	bs := make([]Basis, deg+1)
	for k := range bs {
		bs[k] = Pow(k)
	}
	return bs
}

// Log returns ln of every value (for fitting log y); values <= 0 give NaN.
func Log(ys []float64) []float64 {
	out := make([]float64, len(ys))
	for i, y := range ys {
		if y > 0 {
			out[i] = math.Log(y)
		} else {
			out[i] = math.NaN()
		}
	}
	return out
}

// Fit is a fitted linear model.
type Fit struct {
	Basis []Basis
	X, Y  []float64 // the data
	// Coef are the fitted parameters β, StdErr their standard errors.
	Coef, StdErr []float64
	// Cov is the parameter covariance matrix σ²(XᵀX)⁻¹ (row-major p×p).
	Cov [][]float64
	// N data points, P parameters, DoF = N-P residual degrees of freedom.
	N, P, DoF int
	// Fitted values, residuals y - ŷ, and leverages h_ii.
	Fitted, Residuals, Leverage []float64
	// RSS is the residual sum of squares, Sigma = sqrt(RSS/DoF) the
	// residual standard error (0 when DoF is 0), R2 the coefficient of
	// determination.
	RSS, Sigma, R2 float64
	// LOO holds the leave-one-out residuals y_i - ŷ_(-i) (the fit without
	// point i, predicting it), LOORMSE their root mean square: the
	// honest out-of-sample error. NaN where a point has leverage 1.
	LOO     []float64
	LOORMSE float64
}

// ErrTooFew is returned when there are fewer points than parameters.
var ErrTooFew = errors.New("fit: fewer data points than parameters")

// Linear fits y against the basis functions of x by least squares. Points
// where x or y is NaN or infinite are dropped.
func Linear(x, y []float64, basis ...Basis) (*Fit, error) {
	if len(x) != len(y) {
		return nil, fmt.Errorf("fit: %d x values but %d y values", len(x), len(y))
	}
	if len(basis) == 0 {
		return nil, errors.New("fit: no basis functions")
	}
	var xs, ys []float64
	for i := range x {
		if finite(x[i]) && finite(y[i]) {
			xs = append(xs, x[i])
			ys = append(ys, y[i])
		}
	}
	n, p := len(xs), len(basis)
	if n < p {
		return nil, ErrTooFew
	}
	A := mat.NewDense(n, p, nil)
	for i, xi := range xs {
		for j, b := range basis {
			A.Set(i, j, b.F(xi))
		}
	}
	var qr mat.QR
	qr.Factorize(A)
	var R mat.Dense
	qr.RTo(&R)
	// Rank check: a tiny diagonal of R means dependent basis columns.
	maxd := 0.0
	for j := 0; j < p; j++ {
		maxd = math.Max(maxd, math.Abs(R.At(j, j)))
	}
	for j := 0; j < p; j++ {
		if math.Abs(R.At(j, j)) <= 1e-12*maxd || maxd == 0 {
			return nil, errors.New("fit: basis functions are linearly dependent on these x values")
		}
	}
	var beta mat.Dense
	if err := qr.SolveTo(&beta, false, mat.NewDense(n, 1, ys)); err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	// (XᵀX)⁻¹ = R⁻¹R⁻ᵀ from the p×p upper triangle.
	Rp := mat.NewTriDense(p, mat.Upper, nil)
	for i := 0; i < p; i++ {
		for j := i; j < p; j++ {
			Rp.SetTri(i, j, R.At(i, j))
		}
	}
	var Rinv mat.TriDense
	if err := Rinv.InverseTri(Rp); err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	var XtXinv mat.Dense
	XtXinv.Mul(&Rinv, Rinv.T())

	f := &Fit{Basis: basis, X: xs, Y: ys, N: n, P: p, DoF: n - p}
	f.Coef = make([]float64, p)
	for j := range f.Coef {
		f.Coef[j] = beta.At(j, 0)
	}
	f.Fitted = make([]float64, n)
	f.Residuals = make([]float64, n)
	f.Leverage = make([]float64, n)
	mean := 0.0
	for _, v := range ys {
		mean += v
	}
	mean /= float64(n)
	tss := 0.0
	row := make([]float64, p)
	for i, xi := range xs {
		f.Fitted[i] = f.eval(xi, row)
		f.Residuals[i] = ys[i] - f.Fitted[i]
		f.RSS += f.Residuals[i] * f.Residuals[i]
		tss += (ys[i] - mean) * (ys[i] - mean)
		f.Leverage[i] = quad(&XtXinv, row)
	}
	if f.DoF > 0 {
		f.Sigma = math.Sqrt(f.RSS / float64(f.DoF))
	}
	if tss > 0 {
		f.R2 = 1 - f.RSS/tss
	} else {
		f.R2 = 1
	}
	s2 := f.Sigma * f.Sigma
	f.Cov = make([][]float64, p)
	f.StdErr = make([]float64, p)
	for i := 0; i < p; i++ {
		f.Cov[i] = make([]float64, p)
		for j := 0; j < p; j++ {
			f.Cov[i][j] = s2 * XtXinv.At(i, j)
		}
		f.StdErr[i] = math.Sqrt(f.Cov[i][i])
	}
	f.LOO = make([]float64, n)
	sum, cnt := 0.0, 0
	for i := range xs {
		h := f.Leverage[i]
		if h >= 1-1e-9 {
			f.LOO[i] = math.NaN()
			continue
		}
		f.LOO[i] = f.Residuals[i] / (1 - h)
		sum += f.LOO[i] * f.LOO[i]
		cnt++
	}
	if cnt > 0 {
		f.LOORMSE = math.Sqrt(sum / float64(cnt))
	} else {
		f.LOORMSE = math.NaN()
	}
	return f, nil
}

// eval fills row with the basis values at x and returns Σ β_j·row_j.
func (f *Fit) eval(x float64, row []float64) float64 {
	y := 0.0
	for j, b := range f.Basis {
		row[j] = b.F(x)
		y += f.Coef[j] * row[j]
	}
	return y
}

// quad returns rowᵀ·M·row.
func quad(M mat.Matrix, row []float64) float64 {
	s := 0.0
	for i := range row {
		for j := range row {
			s += row[i] * M.At(i, j) * row[j]
		}
	}
	return s
}

// Predict returns the fitted value at x and the standard error of that
// mean prediction (from the parameter covariance).
func (f *Fit) Predict(x float64) (y, se float64) {
	row := make([]float64, f.P)
	y = f.eval(x, row)
	v := 0.0
	for i := range row {
		for j := range row {
			v += row[i] * f.Cov[i][j] * row[j]
		}
	}
	return y, math.Sqrt(math.Max(v, 0))
}

// tQuantile is the two-sided Student t critical value for the level.
func (f *Fit) tQuantile(level float64) float64 {
	if f.DoF <= 0 {
		return math.Inf(1)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(f.DoF)}.Quantile(0.5 + level/2)
}

// ConfidenceInterval returns the fitted mean at x and its two-sided
// confidence interval at the given level (e.g. 0.95).
func (f *Fit) ConfidenceInterval(x, level float64) (y, lo, hi float64) {
	y, se := f.Predict(x)
	t := f.tQuantile(level)
	return y, y - t*se, y + t*se
}

// PredictionInterval returns the fitted value at x and the two-sided
// interval that a new observation at x falls in with the given
// probability, under the model: ŷ ± t·sqrt(σ² + se²).
func (f *Fit) PredictionInterval(x, level float64) (y, lo, hi float64) {
	y, se := f.Predict(x)
	t := f.tQuantile(level)
	d := t * math.Sqrt(f.Sigma*f.Sigma+se*se)
	return y, y - d, y + d
}

// String writes the model with its parameters ± standard errors.
func (f *Fit) String() string {
	var b strings.Builder
	b.WriteString("y =")
	for j, bs := range f.Basis {
		if j > 0 {
			b.WriteString(" +")
		}
		fmt.Fprintf(&b, " (%.4g ± %.2g)", f.Coef[j], f.StdErr[j])
		if bs.Name != "1" {
			b.WriteString("·" + bs.Name)
		}
	}
	fmt.Fprintf(&b, "  [n=%d, σ=%.3g, R²=%.4f, LOO RMSE=%.3g]", f.N, f.Sigma, f.R2, f.LOORMSE)
	return b.String()
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
