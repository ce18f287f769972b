package gen0

import (
	"context"
	"slices"
	"testing"

	"github.com/hatelab/hatelab/engine/nnue"
)

// TestFit: a small fit explains most of the hand-made evaluation on held-out
// wells, orders most child pairs as it does, and is deterministic.
func TestFit(t *testing.T) {
	cfg := Config{BeamWidth: 40, MaxPieces: 40, PerLevel: 8, Hidden: 8, Seed: 1, Workers: 2}
	n, rep, err := Fit(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", *rep)
	if rep.ValidR2 < 0.5 || rep.HandPairs < 0.7 || rep.Int16MaxErr > rep.Int16Bound {
		t.Fatalf("poor fit: %+v", *rep)
	}
	if n.ScoreWeight <= 0 {
		t.Fatalf("score weight %v", n.ScoreWeight)
	}
	cfg.Workers = 1
	m, _, err := Fit(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.W1, n.W1) || !slices.Equal(m.W2, n.W2) || m.B2 != n.B2 {
		t.Fatal("the fit depends on the number of workers")
	}
	b, err := nnue.Marshal(n)
	if err != nil || len(b) == 0 {
		t.Fatal(err)
	}
}
