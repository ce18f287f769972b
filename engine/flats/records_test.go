package flats

import (
	"math"
	"slices"
	"testing"
)

// TestRecordAnalyses runs every analysis on the record counts and checks
// their invariants: values in [0, 1], the shape-only graph conserves the
// same lives, the three clearability readings exist side by side.
func TestRecordAnalyses(t *testing.T) {
	c, err := CountGames(testRecords(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*Graph{c.Graph(), c.ShapeGraph()} {
		b := Absorb(g)
		f := Pathwise(c, g)
		mf := MFClearability(g)
		seen := 0
		for u := 0; u < g.N; u++ {
			if math.IsNaN(b[u]) {
				continue
			}
			seen++
			if b[u] < 0 || b[u] > 1 || mf[u] < 0 || mf[u] > 1 || !math.IsNaN(f[u]) && (f[u] < 0 || f[u] > 1) {
				t.Fatalf("node %s: B %g, f %g, MF %g", g.State(u).Format(10), b[u], f[u], mf[u])
			}
		}
		if g.OutSum(0) != c.Graph().OutSum(0) {
			t.Fatalf("births differ between views: %g", g.OutSum(0))
		}
		never := NeverCleared(g)
		ps := Pathways(g, b, 3)
		if len(ps) == 0 || ps[0].States[0] != Empty || ps[len(ps)-1].States[len(ps[len(ps)-1].States)-1] != Cleared {
			t.Fatalf("pathways %+v", ps)
		}
		t.Logf("height %d: %d states seen, %d never cleared, B(empty) %.3f, top pathway width %.0f", g.Height, seen, len(never), b[0], ps[0].Width)
	}
	p := NewPermeability(c.Pairs(), 10, 0)
	if p.Mean <= 0 || p.Mean >= 1 {
		t.Fatalf("mean permeability %g", p.Mean)
	}
	if v := p.At(0, 0b1111111110); v <= 0 || v >= 1 {
		t.Fatalf("π(empty, 1111111110) = %g", v)
	}
}

// TestCounterPairsEqualAddPairs: the counter's cached, lazily added pair
// counts equal Counts.AddPairs move by move on the record replays, and its
// edges and dwell equal Counts.Add's.
func TestCounterPairsEqualAddPairs(t *testing.T) {
	games := testRecords(t)
	got, err := CountGames(games)
	if err != nil {
		t.Fatal(err)
	}
	r := games[0].Rules
	want, _ := NewCounts(r.Width, r.Depth-r.Bar)
	tr := NewTracker(r)
	var ev []Event
	for _, g := range games {
		tr.Reset(nil, nil)
		for i := range g.Steps {
			m, ok := FromStep(r, &g.Steps[i])
			if !ok {
				break
			}
			if ev, err = tr.Apply(&m, ev[:0]); err != nil {
				t.Fatal(err)
			}
			if err := want.Add(ev, 1); err != nil {
				t.Fatal(err)
			}
			want.AddPairs(r, &m, 1)
		}
		if err := want.Add(tr.End(ev[:0]), 1); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(got.Pairs(), want.Pairs()) {
		t.Error("the counter's pairs differ from AddPairs'")
	}
	if !slices.Equal(got.Edges(), want.Edges()) || !slices.Equal(got.dwell, want.dwell) {
		t.Error("the counter's edges or dwell differ from Add's")
	}
}
