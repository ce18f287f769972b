package gen0

import (
	"context"
	"slices"
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
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

// TestFitWeights: Config.Weights chooses the hand-made weights fitted. The
// tuned weights (lines alone plus the classic row terms) give another
// master beam and another network, fitted as well as dnf86's; nil is dnf86;
// weights Check refuses are refused before any work.
func TestFitWeights(t *testing.T) {
	base := Config{BeamWidth: 40, MaxPieces: 40, PerLevel: 8, Hidden: 8, Seed: 1, Workers: 2}
	dnf := eval.DefaultWeights()
	tuned := eval.TunedWeights()
	nets := map[string]*nnue.Network{}
	for _, tc := range []struct {
		name string
		w    *eval.Weights
	}{{"nil", nil}, {"dnf86", &dnf}, {"tuned", &tuned}} {
		cfg := base
		cfg.Weights = tc.w
		n, rep, err := Fit(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if rep.ValidR2 < 0.5 || rep.Int16MaxErr > rep.Int16Bound {
			t.Fatalf("%s: poor fit: %+v", tc.name, *rep)
		}
		nets[tc.name] = n
	}
	if !slices.Equal(nets["nil"].W2, nets["dnf86"].W2) || !slices.Equal(nets["nil"].W1, nets["dnf86"].W1) {
		t.Fatal("nil weights are not dnf86's")
	}
	if slices.Equal(nets["tuned"].W2, nets["dnf86"].W2) {
		t.Fatal("the tuned weights fitted the same network as dnf86's")
	}
	bad := eval.Weights{Name: "zero"}
	cfg := base
	cfg.Weights = &bad
	if err := cfg.Check(); err == nil {
		t.Fatal("weights without a non-zero term accepted")
	}
}
