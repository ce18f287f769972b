package nnue

import (
	"fmt"
	"math"
)

// Soup returns one network whose parameters are the weighted mean of the
// networks' parameters: every first-layer weight and bias, output weight
// and bias, and the score weight, sum of weights[i] times nets[i]'s (a
// "model soup", Wortsman et al. 2022, https://arxiv.org/abs/2203.05482).
// Where Merge adds the networks' outputs and runs them side by side (its
// cost the sum of theirs), a soup runs at one network's cost; it is
// meaningful only for networks whose hidden units correspond, such as
// several fine-tunes of one start (the cycle's --start), and whether it
// plays better is for the arena to say. The networks must share the
// feature set, hidden size, activation and header output; the weights
// must be a mean (CheckSoupWeights). Sums are taken in float64 and rounded once to
// float32. The header is fresh but for Output; name and provenance are
// the caller's.
func Soup(nets []*Network, weights []float64) (*Network, error) {
	if len(nets) == 0 {
		return nil, fmt.Errorf("soup: no networks")
	}
	if len(weights) != len(nets) {
		return nil, fmt.Errorf("soup: %d weights for %d networks", len(weights), len(nets))
	}
	if err := CheckSoupWeights(weights); err != nil {
		return nil, fmt.Errorf("soup: %w", err)
	}
	first := nets[0]
	for i, n := range nets {
		if n == nil {
			return nil, fmt.Errorf("soup: network %d is nil", i+1)
		}
		if err := n.check(); err != nil {
			return nil, fmt.Errorf("soup: network %d: %w", i+1, err)
		}
		if err := CheckSoupable(first, n); err != nil {
			return nil, fmt.Errorf("soup: network %d: %w", i+1, err)
		}
	}
	s, err := NewNetwork(first.Features, first.Hidden, first.Activation)
	if err != nil {
		return nil, err
	}
	s.Header.Output = output(first)
	mean := func(dst []float32, part func(*Network) []float32) {
		for j := range dst {
			v := 0.0
			for i, n := range nets {
				v += weights[i] * float64(part(n)[j])
			}
			dst[j] = float32(v)
		}
	}
	mean(s.W1, func(n *Network) []float32 { return n.W1 })
	mean(s.B1, func(n *Network) []float32 { return n.B1 })
	mean(s.W2, func(n *Network) []float32 { return n.W2 })
	b2 := 0.0
	for i, n := range nets {
		b2 += weights[i] * float64(n.B2)
		s.ScoreWeight += weights[i] * n.ScoreWeight
	}
	s.B2 = float32(b2)
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("soup: %w", err)
	}
	return s, nil
}

// SoupTolerance is how far from 1 a soup's weights may sum (float
// rounding: 0.1+0.2+0.7 is not exactly 1).
const SoupTolerance = 1e-9

// CheckSoupWeights refuses soup weights that are not a mean: each must
// pass CheckMergeWeight and be 0 or more, and they must sum to 1 within
// SoupTolerance. Its message names the weight (from 1) or the sum.
func CheckSoupWeights(weights []float64) error {
	sum := 0.0
	for i, w := range weights {
		if err := CheckMergeWeight(w); err != nil {
			return fmt.Errorf("weight %d %v", i+1, err)
		}
		if w < 0 {
			return fmt.Errorf("weight %d is %g (a soup is a mean: want weights of 0 or more)", i+1, w)
		}
		sum += w
	}
	if math.Abs(sum-1) > SoupTolerance {
		return fmt.Errorf("weights sum to %g (a soup is a mean: want weights summing to 1, within %g)", sum, SoupTolerance)
	}
	return nil
}

// CheckSoupable refuses a network n that cannot join first in a soup:
// other features (variant or geometry), hidden size, activation or header
// output. Its message speaks of n and "the first network".
func CheckSoupable(first, n *Network) error {
	fs, f0 := n.Features, first.Features
	switch {
	case fs.Variant() != f0.Variant() || fs.Width() != f0.Width() || fs.Height() != f0.Height():
		return fmt.Errorf("has features %s, the first network %s", fs, f0)
	case n.Hidden != first.Hidden:
		return fmt.Errorf("has %d hidden units, the first network %d (a soup averages corresponding units)", n.Hidden, first.Hidden)
	case n.Activation != first.Activation:
		return fmt.Errorf("has activation %s, the first network %s", n.Activation, first.Activation)
	case output(n) != output(first):
		return fmt.Errorf("has output %s, the first network %s", output(n), output(first))
	}
	return nil
}
