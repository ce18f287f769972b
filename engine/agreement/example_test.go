package agreement_test

import (
	"context"
	"fmt"

	"github.com/hatelab/hatelab/engine/agreement"
	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// How much of the tuned evaluation's beam D&F's hand-made weights keep,
// over 2 openings, 3 levels each, at beam width 50.
func ExampleMeasure() {
	s, err := arena.ParseSuite("openings:2:8:1", hatetris.Standard())
	if err != nil {
		panic(err)
	}
	tuned, hand := eval.NewHand(eval.TunedWeights()), eval.NewHand(eval.DefaultWeights())
	res, err := agreement.Measure(context.Background(), agreement.Config{Reference: tuned, Evals: []eval.Evaluator{tuned, hand},
		BeamWidth: 50, Pieces: 3}, s.Starts)
	if err != nil {
		panic(err)
	}
	for i, name := range []string{"tuned", "hand"} {
		fmt.Printf("%s: %d levels, kept %.2f\n", name, res[i].Levels, res[i].Kept)
	}
	// Output:
	// tuned: 6 levels, kept 1.00
	// hand: 6 levels, kept 0.33
}
