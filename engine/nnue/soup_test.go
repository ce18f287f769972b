package nnue

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// TestSoup: the soup's parameters are the weighted mean of the networks'
// (each rounded once from float64), a soup of one network or of copies
// of one is that network, and mismatched inputs or weights that are not
// a mean are refused in one line.
func TestSoup(t *testing.T) {
	r := hatetris.Standard()
	fs, err := NewFeatureSet(Shared, r.Width, r.Depth-r.Bar)
	if err != nil {
		t.Fatal(err)
	}
	a := randomNetwork(t, fs, 16, HardTanh, 0.05, 1)
	b := randomNetwork(t, fs, 16, HardTanh, 0.05, 2)
	c := randomNetwork(t, fs, 16, HardTanh, 0.05, 3)
	a.ScoreWeight, b.ScoreWeight, c.ScoreWeight = 1, 2, 4
	for _, tc := range []struct {
		name    string
		nets    []*Network
		weights []float64
	}{
		{"one network", []*Network{a}, []float64{1}},
		{"copies of one", []*Network{a, a, a}, []float64{0.25, 0.5, 0.25}},
		{"the mean of two", []*Network{a, b}, []float64{0.5, 0.5}},
		{"three, unequal", []*Network{a, b, c}, []float64{0.2, 0.3, 0.5}},
		{"a zero weight", []*Network{a, b}, []float64{1, 0}},
		{"a sum of 1 up to rounding", []*Network{a, b, c}, []float64{0.1, 0.2, 0.7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Soup(tc.nets, tc.weights)
			if err != nil {
				t.Fatal(err)
			}
			if s.Hidden != a.Hidden || s.Activation != a.Activation || s.Features != a.Features {
				t.Fatalf("soup is H%d %s, want H%d %s", s.Hidden, s.Activation, a.Hidden, a.Activation)
			}
			want := func(part func(*Network) []float32, j int) float32 {
				v := 0.0
				for i, n := range tc.nets {
					v += tc.weights[i] * float64(part(n)[j])
				}
				return float32(v)
			}
			for name, part := range map[string]func(*Network) []float32{
				"W1": func(n *Network) []float32 { return n.W1 },
				"B1": func(n *Network) []float32 { return n.B1 },
				"W2": func(n *Network) []float32 { return n.W2 },
				"B2": func(n *Network) []float32 { return []float32{n.B2} },
			} {
				got := part(s)
				for j := range got {
					if got[j] != want(part, j) {
						t.Fatalf("%s[%d] = %g, want %g", name, j, got[j], want(part, j))
					}
				}
			}
			sw := 0.0
			for i, n := range tc.nets {
				sw += tc.weights[i] * n.ScoreWeight
			}
			if s.ScoreWeight != sw {
				t.Errorf("score weight %g, want %g", s.ScoreWeight, sw)
			}
		})
	}
	// A soup of copies of one network, or with all weight on one, is it.
	for _, tc := range []struct {
		nets    []*Network
		weights []float64
	}{{[]*Network{b, b}, []float64{0.5, 0.5}}, {[]*Network{a, b}, []float64{0, 1}}} {
		s, err := Soup(tc.nets, tc.weights)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(s.W1, b.W1) || !slices.Equal(s.B1, b.B1) || !slices.Equal(s.W2, b.W2) || s.B2 != b.B2 {
			t.Errorf("soup %v of %d networks is not network b", tc.weights, len(tc.nets))
		}
	}
	small, _ := NewFeatureSet(Shared, 6, 8)
	pos, _ := NewFeatureSet(Positional, r.Width, r.Depth-r.Bar)
	tanhOut := randomNetwork(t, fs, 16, HardTanh, 0.05, 4)
	tanhOut.Header.Output = "tanh"
	for _, tc := range []struct {
		name    string
		nets    []*Network
		weights []float64
		want    string
	}{
		{"none", nil, nil, "no networks"},
		{"weights count", []*Network{a, b}, []float64{1}, "1 weights for 2 networks"},
		{"nil network", []*Network{a, nil}, []float64{0.5, 0.5}, "network 2 is nil"},
		{"NaN weight", []*Network{a}, []float64{math.NaN()}, "weight 1 is NaN"},
		{"negative weight", []*Network{a, b}, []float64{1.5, -0.5}, "weight 2 is -0.5"},
		{"not a mean", []*Network{a, b}, []float64{1, 1}, "weights sum to 2 (a soup is a mean: want weights summing to 1, within 1e-09)"},
		{"other hidden size", []*Network{a, randomNetwork(t, fs, 8, HardTanh, 0.05, 5)}, []float64{0.5, 0.5}, "soup: network 2: has 8 hidden units, the first network 16"},
		{"other geometry", []*Network{a, randomNetwork(t, small, 16, HardTanh, 0.05, 5)}, []float64{0.5, 0.5}, "network 2: has features"},
		{"other variant", []*Network{a, randomNetwork(t, pos, 16, HardTanh, 0.05, 5)}, []float64{0.5, 0.5}, "network 2: has features"},
		{"other activation", []*Network{a, randomNetwork(t, fs, 16, ClippedReLU, 0.05, 5)}, []float64{0.5, 0.5}, "network 2: has activation crelu, the first network hardtanh"},
		{"other output", []*Network{a, tanhOut}, []float64{0.5, 0.5}, "network 2: has output tanh, the first network linear"},
	} {
		if _, err := Soup(tc.nets, tc.weights); err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", tc.name, err, tc.want)
		}
	}
}

func ExampleSoup() {
	fs, _ := NewFeatureSet(Shared, 4, 4)
	a, _ := NewNetwork(fs, 1, HardTanh)
	a.Row(13)[0], a.W2[0] = 0.5, 2 // 1 on the row pattern 1101
	b, _ := NewNetwork(fs, 1, HardTanh)
	b.Row(13)[0], b.W2[0] = 0.25, 2 // 0.5 on it
	s, _ := Soup([]*Network{a, b}, []float64{0.5, 0.5})
	rows := []uint16{0, 0, 0, 0b1101}
	fmt.Println(s.Hidden, a.Evaluate(rows), b.Evaluate(rows), s.Evaluate(rows))
	// Output: 1 1 0.5 0.75
}
