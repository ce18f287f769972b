package nnue

import (
	"fmt"

	"github.com/hatelab/hatelab/internal/memlimit"
)

// ToPositional returns the network with positional features (D&F's layout)
// whose value equals n's on every well: n must have shared features
// (knewjade's layout), and each positional row of the result, a (slot,
// pattern) pair, is a copy of n's row of that pattern. Slots are summed
// in the same order, so the float values and the int16 network are
// identical to n's; training from it can then learn weights per position,
// starting from n's play. Biases, output, activation, score weight and
// the header's output and quantisation wishes are n's; name, generation,
// provenance and metrics are the caller's.
func ToPositional(n *Network) (*Network, error) {
	if n == nil {
		return nil, fmt.Errorf("positional: no network")
	}
	if err := n.check(); err != nil {
		return nil, fmt.Errorf("positional: %w", err)
	}
	sh := n.Features
	if sh.Variant() != Shared {
		return nil, fmt.Errorf("positional: the network has %s features, want shared", sh)
	}
	pos, err := NewFeatureSet(Positional, sh.Width(), sh.Height())
	if err != nil {
		return nil, fmt.Errorf("positional: %w", err)
	}
	// Positional tables grow with the geometry (16x28 has 3.3 M rows): a
	// copy a weights file cannot hold, or one too large for the memory
	// left with its int16 network beside it, is a one-line refusal.
	if err := checkTensorSize(pos, n.Hidden); err != nil {
		return nil, fmt.Errorf("positional: the copy, %w", err)
	}
	if err := memlimit.Check(fmt.Sprintf("positional: the copy (%s, %d hidden units)", pos, n.Hidden), uint64(tensorBytes(pos, n.Hidden))*5/2); err != nil {
		return nil, err
	}
	p, err := NewNetwork(pos, n.Hidden, n.Activation)
	if err != nil {
		return nil, fmt.Errorf("positional: %w", err)
	}
	rowPatterns := 1 << sh.Width()
	for s := range sh.Active() {
		patterns := windowPatterns
		if s < sh.Height() {
			patterns = rowPatterns
		}
		for v := range int32(patterns) {
			copy(p.Row(pos.base[s]+v), n.Row(sh.base[s]+v))
		}
	}
	copy(p.B1, n.B1)
	copy(p.W2, n.W2)
	p.B2, p.ScoreWeight = n.B2, n.ScoreWeight
	p.Header.Output, p.Header.QA, p.Header.QB = n.Header.Output, n.Header.QA, n.Header.QB
	return p, nil // n.check passed, and p holds only copies of n's values
}
