package gen0_test

import (
	"context"
	"fmt"

	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/gen0"
)

// Fit makes a generation-0 network from a (here tiny) hand-made beam; the
// network runs in the engine (it quantises).
func ExampleFit() {
	n, rep, err := gen0.Fit(context.Background(), gen0.Config{BeamWidth: 30, MaxPieces: 30, PerLevel: 8, Hidden: 8, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = nnue.Quantize(n, 0, 0)
	fmt.Println(n.Features, n.Hidden, rep.Samples > 100, rep.Valid > 0, err)
	fmt.Println(gen0.Config{BeamWidth: 30, PerLevel: 8, MaxFeatures: -1}.Check())
	// Output:
	// shared 10x16 (F=5120, K=120) 8 true true <nil>
	// gen0: min count 0 and max features -1 must not be negative (0: the defaults)
}
