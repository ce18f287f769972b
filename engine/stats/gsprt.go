package stats

import (
	"fmt"
	"math"
)

// MeanSPRT is a sequential test on the mean of paired differences (lines
// of arm − baseline, ties included): H0 mean = D0 against H1 mean = D1,
// with error rates Alpha and Beta. It is fishtest's generalised SPRT in
// its normal approximation (LLR_alt2 in fishtest's
// server/fishtest/stats/LLRcalc.py, github.com/official-stockfish/fishtest;
// derived in www.cantate.be/Fishtest/GSPRT_approximation.pdf): after n pairs of empirical mean m
// and variance v (divided by n),
//
//	LLR = n · (D1 − D0) · (2m − D0 − D1) / (2v),
//
// compared with Wald's bounds. Unlike the sign test (SPRT) it weighs a win
// by its size, which line counts have. The approximation is asymptotic:
// the LLR is read from MinPairs pairs on (0: DefaultMinPairs), and while
// the variance is 0 the test continues.
type MeanSPRT struct {
	D0, D1      float64
	Alpha, Beta float64
	MinPairs    int
}

// DefaultMinPairs is the pairs a MeanSPRT reads before its first decision
// when MinPairs is 0.
const DefaultMinPairs = 20

// DefaultMeanSPRT tests a mean difference of 0 against delta lines at
// α = β = 0.05.
func DefaultMeanSPRT(delta float64) MeanSPRT {
	return MeanSPRT{D0: 0, D1: delta, Alpha: 0.05, Beta: 0.05}
}

// Check implements Sequential.
func (s MeanSPRT) Check() error {
	switch {
	case math.IsNaN(s.D0) || math.IsInf(s.D0, 0) || math.IsNaN(s.D1) || math.IsInf(s.D1, 0) || s.D0 == s.D1:
		return fmt.Errorf("sprt: mean differences %g and %g: want two different finite values", s.D0, s.D1)
	case s.D1 < s.D0: // verdicts read an accepted H1 as "better"
		return fmt.Errorf("sprt: H1's mean difference %+g lines below H0's %+g: want a gain", s.D1, s.D0)
	case !(s.Alpha > 0 && s.Alpha < 0.5) || !(s.Beta > 0 && s.Beta < 0.5):
		return fmt.Errorf("sprt: alpha %g, beta %g: want each in (0, 0.5)", s.Alpha, s.Beta)
	case s.MinPairs < 0:
		return fmt.Errorf("sprt: %d pairs before a decision: want 0 (the default) or more", s.MinPairs)
	}
	return nil
}

// Hypotheses implements Sequential.
func (s MeanSPRT) Hypotheses() (h0, h1 string) {
	return fmt.Sprintf("mean %+g lines", s.D0), fmt.Sprintf("mean %+g lines", s.D1)
}

// FirstPairs implements Sequential: MinPairs, or DefaultMinPairs when it is 0.
func (s MeanSPRT) FirstPairs() int {
	if s.MinPairs == 0 {
		return DefaultMinPairs
	}
	return s.MinPairs
}

// Bounds returns Wald's bounds of the LLR (as SPRT.Bounds).
func (s MeanSPRT) Bounds() (lower, upper float64) { return bounds(s.Alpha, s.Beta) }

// LLR is the log-likelihood ratio of H1 against H0 after n pairs of
// mean m and variance v (divided by n); 0 when v is 0.
func (s MeanSPRT) LLR(n int, m, v float64) float64 {
	if v <= 0 {
		return 0
	}
	return float64(n) * (s.D1 - s.D0) * (2*m - s.D0 - s.D1) / (2 * v)
}

// Decide implements Sequential: the differences are read in order (NaN
// ends the reading), the mean and variance updated by Welford's method.
func (s MeanSPRT) Decide(diffs []float64) (verdict string, used int, llr float64) {
	lo, hi := s.Bounds()
	minPairs := s.FirstPairs()
	mean, m2 := 0.0, 0.0
	for i, d := range diffs {
		if math.IsNaN(d) {
			return Continue, i, llr
		}
		n := i + 1
		delta := d - mean
		mean += delta / float64(n)
		m2 += delta * (d - mean)
		if n < minPairs {
			continue
		}
		llr = s.LLR(n, mean, m2/float64(n))
		if llr >= hi {
			return AcceptH1, n, llr
		}
		if llr <= lo {
			return AcceptH0, n, llr
		}
	}
	return Continue, len(diffs), llr
}
