package cycle_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/nnue/cycle"
	"github.com/hatelab/hatelab/engine/nnue/train"
)

// Check names the flag of a bad setting before any work.
func ExampleConfig_Check() {
	c := cycle.Config{Dir: "run", Generations: 2, MasterBeamWidth: 1000, Samples: 300, Train: train.Config{Batch: 256}}
	fmt.Println(c.Check())
	c.Samples = 4000
	fmt.Println(c.Check())
	// Output:
	// --samples 300 is too few for --batch 256: want at least 512 (about a tenth is held out and repeated wells are dropped)
	// <nil>
}

// Crowding is the collapse guard's measure: the largest share of the
// targets within one tenth of [-1, 1] (two of the report's 20 bins).
func ExampleCrowding() {
	h := make([]int, 20)
	h[0], h[17], h[18] = 10, 45, 45 // 10 dead beams, 90 targets in [0.7, 0.9)
	fmt.Printf("%.2f\n", cycle.Crowding(h))
	// Output: 0.90
}

// ExampleParseGates: an openings gate at the default widths and a deep
// gate (the lab's long games) at width 10,000; the world records' wells
// are refused.
func ExampleParseGates() {
	gs, err := cycle.ParseGates([]string{"openings:20:8:101", "games:20:7:20@w10000"}, []int{1000}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for k, g := range gs {
		fmt.Println(g.Suite.Spec, g.BeamWidths, cycle.GateFile(5, k, 0, g.BeamWidths[0]))
	}
	_, err = cycle.ParseGates([]string{"records:20:1@w1000"}, nil, nil)
	fmt.Println(err)
	// Output:
	// openings:20:8:101 [1000] gate-05.jsonl
	// games:20:7:20 [10000] gate-05-g2-w10000.jsonl
	// gate "records:20:1@w1000": record wells are the deep test set, never a gate: use a games: suite (the lab's long games)
}
