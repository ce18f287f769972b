package nnue

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// TestMerge: the merged network's output is the weighted sum of the
// networks' outputs (float, every well of some random games), its score
// weight the same sum, and mismatched or oversized inputs are refused.
func TestMerge(t *testing.T) {
	r := hatetris.Standard()
	fs, err := NewFeatureSet(Shared, r.Width, r.Depth-r.Bar)
	if err != nil {
		t.Fatal(err)
	}
	wells := randomGames(r, 3, 300)
	for _, tc := range []struct {
		name    string
		hidden  []int
		weights []float64
	}{
		{"one network, weight 1", []int{32}, []float64{1}},
		{"the mean of two", []int{32, 32}, []float64{0.5, 0.5}},
		{"three of unequal sizes and signs", []int{8, 16, 5}, []float64{2, -0.25, 0.7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var nets []*Network
			want := 0.0
			for i, h := range tc.hidden {
				n := randomNetwork(t, fs, h, HardTanh, 0.05, uint64(i+1))
				n.ScoreWeight = float64(i + 1)
				nets = append(nets, n)
				want += tc.weights[i] * n.ScoreWeight
			}
			m, err := Merge(nets, tc.weights)
			if err != nil {
				t.Fatal(err)
			}
			if m.ScoreWeight != want {
				t.Errorf("score weight %g, want %g", m.ScoreWeight, want)
			}
			for i := range wells {
				rows := below(r, &wells[i])
				sum := 0.0
				for k, n := range nets {
					sum += tc.weights[k] * n.Evaluate(rows)
				}
				if got := m.Evaluate(rows); math.Abs(got-sum) > 1e-5*(1+math.Abs(sum)) {
					t.Fatalf("well %d: merged %.9g, weighted sum %.9g", i, got, sum)
				}
			}
		})
	}
	small, _ := NewFeatureSet(Shared, 6, 8)
	pos, _ := NewFeatureSet(Positional, r.Width, r.Depth-r.Bar)
	a := randomNetwork(t, fs, 32, HardTanh, 0.05, 1)
	big := randomNetwork(t, fs, 200, HardTanh, 0.05, 2)
	for _, tc := range []struct {
		name    string
		nets    []*Network
		weights []float64
		want    string
	}{
		{"none", nil, nil, "no networks"},
		{"weights count", []*Network{a, a}, []float64{1}, "1 weights for 2 networks"},
		{"NaN weight", []*Network{a}, []float64{math.NaN()}, "weight 1 is NaN"},
		{"huge weight", []*Network{a}, []float64{1e9}, "weight 1 is 1e+09"},
		{"other geometry", []*Network{a, randomNetwork(t, small, 4, HardTanh, 0.05, 3)}, []float64{1, 1}, "network 2 has features"},
		{"other variant", []*Network{a, randomNetwork(t, pos, 4, HardTanh, 0.05, 3)}, []float64{1, 1}, "network 2 has features"},
		{"other activation", []*Network{a, randomNetwork(t, fs, 4, ClippedReLU, 0.05, 3)}, []float64{1, 1}, "activation"},
		{"too many hidden units", []*Network{a, big, a}, []float64{1, 1, 1}, "264 hidden units in all"},
	} {
		if _, err := Merge(tc.nets, tc.weights); err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", tc.name, err, tc.want)
		}
	}
}

// TestMergeOutput: the merged header's output is the networks' when they
// agree, else linear.
func TestMergeOutput(t *testing.T) {
	fs, _ := NewFeatureSet(Shared, 4, 4)
	mk := func(out string) *Network {
		n, _ := NewNetwork(fs, 2, HardTanh)
		n.Header.Output = out
		return n
	}
	for _, tc := range []struct{ a, b, want string }{
		{"tanh", "tanh", "tanh"}, {"linear", "linear", "linear"}, {"tanh", "linear", "linear"}, {"", "tanh", "linear"},
	} {
		m, err := Merge([]*Network{mk(tc.a), mk(tc.b)}, []float64{1, 1})
		if err != nil {
			t.Fatal(err)
		}
		if m.Header.Output != tc.want {
			t.Errorf("%q and %q: output %q, want %q", tc.a, tc.b, m.Header.Output, tc.want)
		}
	}
}

func ExampleMerge() {
	fs, _ := NewFeatureSet(Shared, 4, 4)
	a, _ := NewNetwork(fs, 1, HardTanh)
	a.Row(13)[0], a.W2[0] = 0.5, 2 // 1 on the row pattern 1101
	b, _ := NewNetwork(fs, 1, HardTanh)
	b.B2 = 3 // 3 on every well
	m, _ := Merge([]*Network{a, b}, []float64{0.5, 0.5})
	rows := []uint16{0, 0, 0, 0b1101}
	fmt.Println(m.Hidden, a.Evaluate(rows), b.Evaluate(rows), m.Evaluate(rows))
	// Output: 2 1 3 2
}
