package nnue

import (
	"fmt"
	"math"
	"strings"
)

// Activation is the hidden layer's activation.
type Activation uint8

const (
	// HardTanh is clamp(x, -1, 1), the default: it quantises exactly.
	HardTanh Activation = iota
	// ClippedReLU is clamp(x, 0, 1).
	ClippedReLU
	// Tanh is tanh(x) (the int16 path uses a table).
	Tanh
)

// String returns "hardtanh", "crelu" or "tanh".
func (a Activation) String() string {
	switch a {
	case HardTanh:
		return "hardtanh"
	case ClippedReLU:
		return "crelu"
	case Tanh:
		return "tanh"
	}
	return fmt.Sprintf("Activation(%d)", uint8(a))
}

// ParseActivation reads "hardtanh", "crelu" (also "clippedrelu") or "tanh".
func ParseActivation(s string) (Activation, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "hardtanh":
		return HardTanh, nil
	case "crelu", "clippedrelu":
		return ClippedReLU, nil
	case "tanh":
		return Tanh, nil
	}
	return 0, fmt.Errorf("unknown activation %q (want hardtanh, crelu or tanh)", s)
}

// Apply is the activation of x.
func (a Activation) Apply(x float64) float64 {
	switch a {
	case ClippedReLU:
		return min(max(x, 0), 1)
	case Tanh:
		return math.Tanh(x)
	}
	return min(max(x, -1), 1)
}

// MaxHidden is the largest hidden layer.
const MaxHidden = 256

// Network is the float reference network: the active features' rows of W1
// summed with B1 (the hidden pre-activations), the activation, then
// W2 . hidden + B2. Training puts a tanh on that output; the engine ranks
// on the value before it (tanh is monotone). Weights are float32; sums are
// float64, in slot order.
type Network struct {
	Features   *FeatureSet
	Hidden     int
	Activation Activation
	// W1 is [Features.Count()][Hidden], row-major: feature f's row is
	// W1[f*Hidden : (f+1)*Hidden].
	W1     []float32
	B1, W2 []float32 // [Hidden] each
	B2     float32
	// ScoreWeight is added to the network's value once per line scored
	// (score and quiescence lines alike, no half factor): 0 for trained
	// networks, which value wells only, unless the cycle kept their
	// start's (cycle.Config.KeepScoreWeight); the generation-0 fit uses it
	// to keep the hand-made evaluation's reward for lines.
	ScoreWeight float64
	// Header holds the provenance and training fields of the weights file.
	Header Header
}

// NewNetwork returns a network of zero weights.
func NewNetwork(fs *FeatureSet, hidden int, act Activation) (*Network, error) {
	if hidden < 1 || hidden > MaxHidden {
		return nil, fmt.Errorf("hidden size %d out of range 1..%d", hidden, MaxHidden)
	}
	if act > Tanh {
		return nil, fmt.Errorf("unknown activation %d", act)
	}
	return &Network{
		Features: fs, Hidden: hidden, Activation: act,
		W1: make([]float32, fs.Count()*hidden),
		B1: make([]float32, hidden), W2: make([]float32, hidden),
	}, nil
}

// Row returns feature f's row of W1.
func (n *Network) Row(f int32) []float32 {
	return n.W1[int(f)*n.Hidden : (int(f)+1)*n.Hidden]
}

// PreActivations writes the hidden pre-activations of the features feats
// into acc (length Hidden).
func (n *Network) PreActivations(feats []int32, acc []float64) {
	for j, b := range n.B1 {
		acc[j] = float64(b)
	}
	for _, f := range feats {
		row := n.Row(f)
		for j, w := range row {
			acc[j] += float64(w)
		}
	}
}

// Forward is the network's output (before the training tanh) for the
// active features feats. It allocates a scratch slice; see Evaluate for
// the engine's path.
func (n *Network) Forward(feats []int32) float64 {
	acc := make([]float64, n.Hidden)
	n.PreActivations(feats, acc)
	return n.output(acc)
}

func (n *Network) output(acc []float64) float64 {
	out := float64(n.B2)
	for j, a := range acc {
		out += float64(n.W2[j]) * n.Activation.Apply(a)
	}
	return out
}

// Evaluate is Forward on the features of the rows below the bar.
func (n *Network) Evaluate(rows []uint16) float64 {
	return n.Forward(n.Features.Append(nil, rows))
}

// check validates sizes and values.
func (n *Network) check() error {
	if n.Features == nil {
		return fmt.Errorf("network has no feature set")
	}
	if n.Hidden < 1 || n.Hidden > MaxHidden {
		return fmt.Errorf("hidden size %d out of range 1..%d", n.Hidden, MaxHidden)
	}
	if len(n.W1) != n.Features.Count()*n.Hidden || len(n.B1) != n.Hidden || len(n.W2) != n.Hidden {
		return fmt.Errorf("tensor sizes %d/%d/%d do not match %d features x %d hidden", len(n.W1), len(n.B1), len(n.W2), n.Features.Count(), n.Hidden)
	}
	for _, t := range [][]float32{n.W1, n.B1, n.W2, {n.B2}} {
		for _, v := range t {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("weights hold a NaN or an infinity")
			}
		}
	}
	if math.IsNaN(n.ScoreWeight) || math.IsInf(n.ScoreWeight, 0) {
		return fmt.Errorf("score weight is not finite")
	}
	return nil
}

// HeldOut puts about a tenth of the items, by a hash of their values
// (FNV-1a over the values as 32-bit words, folded), in a held-out set:
// the wells of generation 0's fit and the samples of training (by their
// features) are split by it.
func HeldOut[T ~uint16 | ~int32](v []T) bool {
	h := uint64(14695981039346656037)
	for _, x := range v {
		h = (h ^ uint64(uint32(x))) * 1099511628211
	}
	h ^= h >> 29
	return h%10 == 0
}
