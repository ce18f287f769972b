package nnue

import "testing"

// TestOutputFit: a network whose output weights are too large for the
// int16 engine (Quantize refuses it) is brought within each asked bound
// by the factor OutputFit returns, tightly (the first-layer part scales
// exactly); a network within the bound gets 1; a bound under the first
// layer's own rounding is an error.
func TestOutputFit(t *testing.T) {
	fs, err := NewFeatureSet(Shared, 10, 16)
	if err != nil {
		t.Fatal(err)
	}
	big := randomNetwork(t, fs, 32, HardTanh, 1, 5)
	for j := range big.W2 {
		big.W2[j] *= 8
	}
	if _, err := Quantize(big, 0, 0); err == nil {
		t.Fatal("the test network should be refused by Quantize")
	}
	small := randomNetwork(t, fs, 32, HardTanh, 1, 5)
	for j := range small.W2 {
		small.W2[j] /= 64
	}
	for _, c := range []struct {
		name  string
		n     *Network
		bound float64
		one   bool
		fails bool
	}{
		{"too large, to 1", big, 1, false, false},
		{"too large, to 0.5", big, 0.5, false, false},
		{"within", small, 1, true, false},
		{"under the first layer's rounding", big, 1e-6, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := OutputFit(c.n, c.bound)
			if c.fails {
				if err == nil {
					t.Fatalf("want an error, got scale %v", s)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.one {
				if s != 1 {
					t.Fatalf("scale %v, want 1", s)
				}
				return
			}
			if !(s > 0 && s < 1) {
				t.Fatalf("scale %v", s)
			}
			m := *c.n
			m.W2 = scaled(c.n.W2, s)
			q, err := Quantize(&m, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if b := q.ErrorBound(); b > c.bound || b < 0.95*c.bound {
				t.Fatalf("error bound %v after scaling by %v, want in [%v, %v]", b, s, 0.95*c.bound, c.bound)
			}
		})
	}
}
