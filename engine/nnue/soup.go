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
// must each pass CheckMergeWeight, be 0 or more, and sum to 1 (within
// 1e-9): a soup is a mean. Sums are taken in float64 and rounded once to
// float32. The header is fresh but for Output; name and provenance are
// the caller's.
func Soup(nets []*Network, weights []float64) (*Network, error) {
	if len(nets) == 0 {
		return nil, fmt.Errorf("soup: no networks")
	}
	if len(weights) != len(nets) {
		return nil, fmt.Errorf("soup: %d weights for %d networks", len(weights), len(nets))
	}
	first := nets[0]
	sum := 0.0
	for i, n := range nets {
		if n == nil {
			return nil, fmt.Errorf("soup: network %d is nil", i+1)
		}
		if err := n.check(); err != nil {
			return nil, fmt.Errorf("soup: network %d: %w", i+1, err)
		}
		if err := CheckMergeWeight(weights[i]); err != nil {
			return nil, fmt.Errorf("soup: weight %d %v", i+1, err)
		}
		if weights[i] < 0 {
			return nil, fmt.Errorf("soup: weight %d is %g (a soup is a mean: want weights of 0 or more)", i+1, weights[i])
		}
		sum += weights[i]
		fs, f0 := n.Features, first.Features
		if fs.Variant() != f0.Variant() || fs.Width() != f0.Width() || fs.Height() != f0.Height() {
			return nil, fmt.Errorf("soup: network %d has features %s, network 1 %s", i+1, fs, f0)
		}
		if n.Hidden != first.Hidden {
			return nil, fmt.Errorf("soup: network %d has %d hidden units, network 1 %d (a soup averages corresponding units)", i+1, n.Hidden, first.Hidden)
		}
		if n.Activation != first.Activation {
			return nil, fmt.Errorf("soup: network %d's activation is %s, network 1's %s", i+1, n.Activation, first.Activation)
		}
		if output(n) != output(first) {
			return nil, fmt.Errorf("soup: network %d's output is %s, network 1's %s", i+1, output(n), output(first))
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		return nil, fmt.Errorf("soup: weights sum to %g (a soup is a mean: want weights summing to 1)", sum)
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
