package nnue

import (
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// TestToPositional: the positional copy of a shared network has the same
// float value and the same int16 output on every well, from empty wells
// to the world records' deepest, at every geometry's edge.
func TestToPositional(t *testing.T) {
	r := hatetris.Standard()
	wells := append(randomGames(r, 3, 300), recordWells(t)...)
	for _, tc := range []struct {
		name          string
		width, height int
		hidden        int
		act           Activation
	}{
		{"the standard well, H32 hardtanh", r.Width, r.Depth - r.Bar, 32, HardTanh},
		{"H8 crelu", r.Width, r.Depth - r.Bar, 8, ClippedReLU},
		{"H16 tanh", r.Width, r.Depth - r.Bar, 16, Tanh},
		{"rows only (3 rows, no windows)", r.Width, 3, 8, HardTanh},
		{"4 rows, one window row", r.Width, 4, 8, HardTanh},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sh, err := NewFeatureSet(Shared, tc.width, tc.height)
			if err != nil {
				t.Fatal(err)
			}
			n := randomNetwork(t, sh, tc.hidden, tc.act, 0.05, 11)
			n.ScoreWeight = 0.25
			n.Header.Output = "tanh"
			p, err := ToPositional(n)
			if err != nil {
				t.Fatal(err)
			}
			if p.Features.Variant() != Positional || p.Features.Width() != tc.width || p.Features.Height() != tc.height {
				t.Fatalf("features %s, want positional %dx%d", p.Features, tc.width, tc.height)
			}
			if p.Hidden != n.Hidden || p.Activation != n.Activation || p.ScoreWeight != n.ScoreWeight || p.Header.Output != "tanh" {
				t.Fatalf("H%d %s score %g output %q, want H%d %s score %g tanh", p.Hidden, p.Activation, p.ScoreWeight, p.Header.Output, n.Hidden, n.Activation, n.ScoreWeight)
			}
			qn, err := Quantize(n, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			qp, err := Quantize(p, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			an, ap := qn.NewAccumulator(), qp.NewAccumulator()
			for i := range wells {
				rows := wells[i][r.Depth-tc.height : r.Depth]
				if got, want := p.Evaluate(rows), n.Evaluate(rows); got != want {
					t.Fatalf("well %d: positional value %v, shared %v", i, got, want)
				}
				qn.Refresh(an, rows)
				qp.Refresh(ap, rows)
				if got, want := qp.Output(ap), qn.Output(an); got != want {
					t.Fatalf("well %d: positional int16 output %d, shared %d", i, got, want)
				}
			}
		})
	}
}

func TestToPositionalRefuses(t *testing.T) {
	r := hatetris.Standard()
	pos, err := NewFeatureSet(Positional, r.Width, r.Depth-r.Bar)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := NewFeatureSet(Shared, r.Width, r.Depth-r.Bar)
	if err != nil {
		t.Fatal(err)
	}
	short := randomNetwork(t, sh, 4, HardTanh, 0.05, 1)
	short.W1 = short.W1[:len(short.W1)-1]
	for _, tc := range []struct {
		name string
		n    *Network
		want string
	}{
		{"nil", nil, "no network"},
		{"positional already", randomNetwork(t, pos, 4, HardTanh, 0.05, 1), "want shared"},
		{"tensors that do not fit", short, "tensor sizes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ToPositional(tc.n)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
}
