package classic

import (
	"math"

	"github.com/hatelab/hatelab/engine/fit"
)

// FitLogQuadratic fits ln(y) = a + b*h + c*h^2 by unweighted least squares
// (tetr-ai's model of mean lines against board height) with engine/fit:
// Coef is [a b c] with standard errors. Use HeightPrediction for values on
// the lines scale.
func FitLogQuadratic(heights []int, ys []float64) (*fit.Fit, error) {
	xs := make([]float64, len(heights))
	for i, h := range heights {
		xs[i] = float64(h)
	}
	return fit.Linear(xs, fit.Log(ys), fit.Poly(2)...)
}

// HeightPrediction is a log-quadratic fit's prediction at one height, on
// the lines scale.
type HeightPrediction struct {
	Rows int
	// Lines is exp of the fitted ln; CILo..CIHi the 95% confidence
	// interval of the fitted curve, PILo..PIHi the 95% prediction interval
	// of a new height mean.
	Lines, CILo, CIHi, PILo, PIHi float64
}

// PredictHeight evaluates a FitLogQuadratic fit at height h.
func PredictHeight(f *fit.Fit, h int) HeightPrediction {
	y, clo, chi := f.ConfidenceInterval(float64(h), 0.95)
	_, plo, phi := f.PredictionInterval(float64(h), 0.95)
	return HeightPrediction{h, math.Exp(y), math.Exp(clo), math.Exp(chi), math.Exp(plo), math.Exp(phi)}
}
