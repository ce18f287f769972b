package beamrun

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue/targets"
)

func TestSweepMatchesNative(t *testing.T) {
	jobs := classic.Jobs([]int{5, 6}, 10, 5)
	var want []classic.Result
	newAgent := func() classic.Agent { a, _ := classic.NewAgent("tetr-ai"); return a }
	if err := classic.Sweep(context.Background(), jobs, newAgent, 2, func(r classic.Result) error {
		want = append(want, r)
		return nil
	}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := Sweep(context.Background(), jobs, "tetr-ai", t.TempDir(), 3, Runner{})
	if err != nil {
		t.Fatal(err)
	}
	key := func(a, b classic.Result) int {
		if a.Rows != b.Rows {
			return a.Rows - b.Rows
		}
		return int(a.Seed - b.Seed)
	}
	slices.SortFunc(want, key)
	slices.SortFunc(got, key)
	if !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}

func TestTargetsMatchNative(t *testing.T) {
	// Wells from a few random games of the real AI.
	r := hatetris.Standard()
	g := hatetris.NewGenerator(r)
	rng := rand.New(rand.NewPCG(1, 2))
	var wells []hatetris.Well
	for len(wells) < 10 {
		var w hatetris.Well
		for k := 0; k < 8; k++ {
			_, out := g.Move(&w, hatetris.Mild, nil, nil)
			o := out[rng.IntN(len(out))]
			if o.GameOver {
				break
			}
			w = o.Well
		}
		wells = append(wells, w)
	}
	ev := eval.NewHand(eval.DefaultWeights())
	want, err := targets.Compute(context.Background(), targets.Config{Eval: ev, BeamWidth: 32, Pieces: 4}, wells)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Targets(context.Background(), TargetOptions{WellWidth: 10, WellDepth: 20, Bar: 4, EvalName: "hand", BeamWidth: 32, Pieces: 4}, wells, t.TempDir(), 3, Runner{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}
