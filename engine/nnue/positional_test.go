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
		{"the narrowest well, 4x16", 4, 16, 8, HardTanh},
		{"the widest well, 16x6", 16, 6, 4, HardTanh},
		{"the tallest well, 6x28", 6, 28, 4, HardTanh},
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
			// Every (slot, pattern) row is its pattern's shared row, the
			// patterns no reachable well holds included.
			for slot := range sh.Active() {
				patterns := int32(windowPatterns)
				if slot < tc.height {
					patterns = 1 << tc.width
				}
				for v := range patterns {
					a, b := p.Row(p.Features.base[slot]+v), n.Row(sh.base[slot]+v)
					for j := range a {
						if a[j] != b[j] {
							t.Fatalf("slot %d pattern %d unit %d: %v, shared %v", slot, v, j, a[j], b[j])
						}
					}
				}
			}
			qn, err := Quantize(n, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			qp, err := Quantize(p, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			qa, qb := qp.Scales()
			na, nb := qn.Scales()
			if qa != na || qb != nb || qp.ErrorBound() != qn.ErrorBound() || qp.ScoreWeight() != qn.ScoreWeight() {
				t.Fatalf("int16 copy: scales %d, %d, error bound %v, score weight %v; shared %d, %d, %v, %v",
					qa, qb, qp.ErrorBound(), qp.ScoreWeight(), na, nb, qn.ErrorBound(), qn.ScoreWeight())
			}
			an, ap := qn.NewAccumulator(), qp.NewAccumulator()
			for i := range wells {
				rows := clip(wells[i][r.Depth-min(tc.height, r.Depth-r.Bar):r.Depth], tc.width, tc.height)
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
	// 16x28 with 165 hidden units: 3,268,608 positional rows, 2.16 GB of
	// tensors, past a weights file's 2 GiB (the shared network: 46 MB).
	huge, err := NewFeatureSet(Shared, MaxWidth, MaxHeight)
	if err != nil {
		t.Fatal(err)
	}
	big, err := NewNetwork(huge, 165, HardTanh)
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
		{"a copy past a weights file's size", big, "more than a weights file's"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ToPositional(tc.n)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
}

// clip fits standard-well rows to a test geometry: the last height rows
// (empty rows above when the well has fewer), each masked to width
// columns (Append masks too; the mask keeps the rows a well of that width
// could hold).
func clip(rows []uint16, width, height int) []uint16 {
	out := make([]uint16, height)
	copy(out[max(0, height-len(rows)):], rows[max(0, len(rows)-height):])
	for i := range out {
		out[i] &= 1<<width - 1
	}
	return out
}
