package beam

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
)

func testNNUE(t *testing.T, width, height int) *eval.NNUE {
	fs, err := nnue.NewFeatureSet(nnue.Shared, width, height)
	if err != nil {
		t.Fatal(err)
	}
	n, err := nnue.NewNetwork(fs, 16, nnue.HardTanh)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range n.W1 {
		n.W1[i] = float32(rng.Float64()*0.2 - 0.1)
	}
	for j := range n.B1 {
		n.B1[j], n.W2[j] = float32(rng.Float64()-0.5), float32(rng.Float64()-0.5)
	}
	n.ScoreWeight = 1
	e, err := eval.NewNNUE(n)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestNNUEBeam: a beam with an NNUE evaluation and quiescence gives the
// same game on 1 and 2 workers, its replay checks out (Run replays it in
// the real game), OnKept sees every kept well, and a network of another
// geometry is a configuration error.
func TestNNUEBeam(t *testing.T) {
	ev := testNNUE(t, 10, 16)
	var res [2]*Result
	for i, workers := range []int{1, 2} {
		kept := 0
		var err error
		res[i], err = Run(context.Background(), Config{BeamWidth: 40, Quiescence: true, Eval: ev, Workers: workers, MaxPieces: 60,
			OnKept: func(depth int, wells []hatetris.Well, scores []int) error {
				if len(wells) != len(scores) || len(wells) == 0 || depth != kept+1 {
					t.Errorf("depth %d: %d wells, %d scores", depth, len(wells), len(scores))
				}
				kept = depth
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		if kept != len(res[i].Levels) && !res[i].Died {
			t.Fatalf("OnKept saw %d depths of %d", kept, len(res[i].Levels))
		}
	}
	if res[0].Keys != res[1].Keys || res[0].Score != res[1].Score {
		t.Fatalf("workers change the game: %d vs %d", res[0].Score, res[1].Score)
	}
	r, _ := hatetris.NewRules(8, 20, 4)
	if _, err := Run(context.Background(), Config{Rules: r, BeamWidth: 5, Eval: ev}); !errors.Is(err, ErrConfig) {
		t.Fatalf("8-wide rules with a 10-wide network: %v", err)
	}
	stop := errors.New("stop")
	if _, err := Run(context.Background(), Config{BeamWidth: 5, Eval: ev, OnKept: func(int, []hatetris.Well, []int) error { return stop }}); !errors.Is(err, stop) {
		t.Fatalf("OnKept error: %v", err)
	}
}
