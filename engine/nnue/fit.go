package nnue

import (
	"fmt"
	"math"
)

// OutputFit returns the factor s in (0, 1] by which n's output weights
// (W2) must be multiplied so that the integer network's error bound
// (Quantized.ErrorBound at the automatic scales Quantize(n, 0, 0) picks)
// is at most bound; 1 when it already is. The bound is the first layer's
// rounding, which every output weight carries (sum |W2| times a term set
// by the hidden scale, which W2 does not change), plus the output
// weights' own rounding, which shrinks as they do; so scaling W2 by s
// scales the first part by s and does not raise the second. Training
// uses it to keep a network one the engine can run (train's projection
// of W2 after each epoch); an error says no scale helps (the first
// layer's rounding alone exceeds bound) or the first layer does not fit
// int16 at all.
func OutputFit(n *Network, bound float64) (float64, error) {
	if err := n.check(); err != nil {
		return 0, err
	}
	if !(bound > 0) {
		return 0, fmt.Errorf("nnue: output fit bound %g must be positive", bound)
	}
	qa, err := hiddenScale(n, 0)
	if err != nil {
		return 0, err
	}
	at := func(s float64) float64 {
		w2 := scaled(n.W2, s)
		qb, err := outputScale(w2, 0)
		if err != nil {
			return math.Inf(1)
		}
		return errorBound(&Network{Features: n.Features, Activation: n.Activation, W2: w2}, qa, qb)
	}
	e1 := at(1)
	if e1 <= bound {
		return 1, nil
	}
	eAcc := float64(n.Features.active+1) / (2 * float64(qa))
	if n.Activation == Tanh {
		eAcc += 1 / (2 * float64(qa))
	}
	a := sumAbs(n.W2) * eAcc // the part that scales with s
	s := (bound - (e1 - a)) / a
	// Float32 rounding of the scaled weights may leave the bound a hair
	// above: step down until it is not (a few steps at most).
	for i := 0; s > 0 && at(s) > bound; i++ {
		if i == 64 {
			s = 0
			break
		}
		s *= 1 - 1e-3
	}
	if !(s > 0) {
		return 0, fmt.Errorf("nnue: no output scale keeps the int16 error bound under %g (the first layer's rounding alone is %.3g at qa=%d)", bound, e1-a, qa)
	}
	return s, nil
}

// scaled returns v times s, as float32.
func scaled(v []float32, s float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * s)
	}
	return out
}
