package nnue

import (
	"fmt"
	"math"
)

// MinMergeWeight is the smallest magnitude of a non-zero merge weight: the
// output weights are float32, and a network scaled by less is lost in them
// (1e-40 rounds to a denormal, 1e-300 to 0).
const MinMergeWeight = 1e-6

// CheckMergeWeight refuses a merge weight that is not 0 or a finite
// number of magnitude MinMergeWeight to 1e6; its message begins with "is".
func CheckMergeWeight(w float64) error {
	if math.IsNaN(w) || math.IsInf(w, 0) || math.Abs(w) > 1e6 || w != 0 && math.Abs(w) < MinMergeWeight {
		return fmt.Errorf("is %g (want 0, or a finite number of magnitude %g to 1e6)", w, MinMergeWeight)
	}
	return nil
}

// Merge returns one network whose output is the weighted sum of the
// networks' outputs, sum of weights[i] times nets[i]'s output (an
// ensemble, e.g. the mean of several generations with every weight 1/n):
// the hidden layers side by side (Hidden is the sum of theirs, at most
// MaxHidden), each first-layer row the nets' rows in order, the output
// weights and bias scaled by each net's weight, and the score weight the
// same weighted sum of theirs. The networks must share the feature set
// (variant and geometry) and the activation; the merged header's output
// (the activation training put on the output, which the engine does not
// apply) is theirs when they agree, else "linear". In float the merged output equals the weighted sum up to
// float32 rounding of the scaled output weights; the engine quantises it
// with one pair of scales for all its units (Quantize), so its integer
// values can differ from the sum of the integer networks' by their
// rounding. The header is fresh but for Output; name and provenance are
// the caller's.
func Merge(nets []*Network, weights []float64) (*Network, error) {
	if len(nets) == 0 {
		return nil, fmt.Errorf("merge: no networks")
	}
	if len(weights) != len(nets) {
		return nil, fmt.Errorf("merge: %d weights for %d networks", len(weights), len(nets))
	}
	first := nets[0]
	hidden := 0
	for i, n := range nets {
		if n == nil {
			return nil, fmt.Errorf("merge: network %d is nil", i+1)
		}
		if err := n.check(); err != nil {
			return nil, fmt.Errorf("merge: network %d: %w", i+1, err)
		}
		if err := CheckMergeWeight(weights[i]); err != nil {
			return nil, fmt.Errorf("merge: weight %d %v", i+1, err)
		}
		fs, f0 := n.Features, first.Features
		if fs.Variant() != f0.Variant() || fs.Width() != f0.Width() || fs.Height() != f0.Height() {
			return nil, fmt.Errorf("merge: network %d has features %s, network 1 %s", i+1, fs, f0)
		}
		if n.Activation != first.Activation {
			return nil, fmt.Errorf("merge: network %d's activation is %s, network 1's %s", i+1, n.Activation, first.Activation)
		}
		hidden += n.Hidden
	}
	if hidden > MaxHidden {
		return nil, fmt.Errorf("merge: %d hidden units in all, more than %d", hidden, MaxHidden)
	}
	m, err := NewNetwork(first.Features, hidden, first.Activation)
	if err != nil {
		return nil, err
	}
	m.Header.Output = output(first)
	for _, n := range nets {
		if output(n) != m.Header.Output {
			m.Header.Output = "linear"
		}
	}
	b2 := 0.0
	off := 0
	for i, n := range nets {
		c := weights[i]
		for f := 0; f < n.Features.Count(); f++ {
			copy(m.W1[f*hidden+off:f*hidden+off+n.Hidden], n.Row(int32(f)))
		}
		copy(m.B1[off:], n.B1)
		for j, w := range n.W2 {
			m.W2[off+j] = float32(c * float64(w))
		}
		b2 += c * float64(n.B2)
		m.ScoreWeight += c * n.ScoreWeight
		off += n.Hidden
	}
	m.B2 = float32(b2)
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return m, nil
}

// output is the header's output activation, "linear" when not set.
func output(n *Network) string {
	if n.Header.Output == "" {
		return "linear"
	}
	return n.Header.Output
}
