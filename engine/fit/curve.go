package fit

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/mat"
)

// Model is a curve y = m(x, params) non-linear in its parameters.
type Model func(x float64, params []float64) float64

// CurveFit is a fitted non-linear model, with the linearised (Gauss-Newton)
// parameter covariance.
type CurveFit struct {
	Model        Model
	X, Y         []float64
	Coef, StdErr []float64
	Cov          [][]float64
	N, P, DoF    int
	Residuals    []float64
	RSS, Sigma   float64
}

// Curve fits a non-linear model by least squares from the starting point
// p0, minimising the residual sum of squares by Levenberg-Marquardt with
// finite-difference Jacobians (gonum mat and diff/fd). Standard errors come from the Jacobian at
// the optimum: Cov = σ²(JᵀJ)⁻¹.
func Curve(x, y []float64, m Model, p0 []float64) (*CurveFit, error) {
	if len(x) != len(y) {
		return nil, fmt.Errorf("fit: %d x values but %d y values", len(x), len(y))
	}
	var xs, ys []float64
	for i := range x {
		if finite(x[i]) && finite(y[i]) {
			xs, ys = append(xs, x[i]), append(ys, y[i])
		}
	}
	n, p := len(xs), len(p0)
	if n < p {
		return nil, ErrTooFew
	}
	model := func(dst, ps []float64) {
		for i := range xs {
			dst[i] = m(xs[i], ps)
		}
	}
	coef, err := levenbergMarquardt(ys, model, p0)
	if err != nil {
		return nil, err
	}
	c := &CurveFit{Model: m, X: xs, Y: ys, Coef: coef, N: n, P: p, DoF: n - p}
	c.Residuals = make([]float64, n)
	for i := range xs {
		c.Residuals[i] = ys[i] - m(xs[i], c.Coef)
		c.RSS += c.Residuals[i] * c.Residuals[i]
	}
	if c.DoF > 0 {
		c.Sigma = math.Sqrt(c.RSS / float64(c.DoF))
	}
	J := mat.NewDense(n, p, nil)
	fd.Jacobian(J, model, c.Coef, nil)
	var JtJ, inv mat.Dense
	JtJ.Mul(J.T(), J)
	if err := inv.Inverse(&JtJ); err != nil {
		return nil, errors.New("fit: singular Jacobian at the optimum (parameters not identifiable)")
	}
	c.Cov = make([][]float64, p)
	c.StdErr = make([]float64, p)
	for i := 0; i < p; i++ {
		c.Cov[i] = make([]float64, p)
		for j := 0; j < p; j++ {
			c.Cov[i][j] = c.Sigma * c.Sigma * inv.At(i, j)
		}
		c.StdErr[i] = math.Sqrt(math.Max(c.Cov[i][i], 0))
	}
	return c, nil
}

// Predict returns the model at x and the delta-method standard error of
// that mean prediction.
func (c *CurveFit) Predict(x float64) (y, se float64) {
	y = c.Model(x, c.Coef)
	g := make([]float64, c.P)
	fd.Gradient(g, func(ps []float64) float64 { return c.Model(x, ps) }, c.Coef, nil)
	v := 0.0
	for i := range g {
		for j := range g {
			v += g[i] * c.Cov[i][j] * g[j]
		}
	}
	return y, math.Sqrt(math.Max(v, 0))
}

// levenbergMarquardt minimises Σ (y_i - f_i(p))² from p0.
func levenbergMarquardt(ys []float64, model func(dst, ps []float64), p0 []float64) ([]float64, error) {
	n, p := len(ys), len(p0)
	ps := append([]float64(nil), p0...)
	f := make([]float64, n)
	sse := func(q []float64) float64 {
		model(f, q)
		s := 0.0
		for i := range ys {
			d := ys[i] - f[i]
			s += d * d
		}
		return s
	}
	cur := sse(ps)
	if !finite(cur) {
		return nil, errors.New("fit: model is not finite at the starting point")
	}
	lambda := 1e-3
	J := mat.NewDense(n, p, nil)
	r := mat.NewVecDense(n, nil)
	trial := make([]float64, p)
	for iter := 0; iter < 500; iter++ {
		fd.Jacobian(J, model, ps, nil)
		model(f, ps)
		for i := range ys {
			r.SetVec(i, ys[i]-f[i])
		}
		var JtJ mat.Dense
		JtJ.Mul(J.T(), J)
		var g mat.VecDense
		g.MulVec(J.T(), r)
		improved := false
		for try := 0; try < 30; try++ {
			A := mat.DenseCopyOf(&JtJ)
			for j := 0; j < p; j++ {
				A.Set(j, j, JtJ.At(j, j)*(1+lambda)+1e-300)
			}
			var step mat.VecDense
			if err := step.SolveVec(A, &g); err != nil {
				lambda *= 10
				continue
			}
			for j := range ps {
				trial[j] = ps[j] + step.AtVec(j)
			}
			if s := sse(trial); finite(s) && s < cur {
				rel := (cur - s) / math.Max(cur, 1e-300)
				copy(ps, trial)
				cur = s
				lambda = math.Max(lambda/10, 1e-12)
				improved = true
				if rel < 1e-14 {
					return ps, nil
				}
				break
			}
			lambda *= 10
		}
		if !improved {
			return ps, nil
		}
	}
	return ps, nil
}
