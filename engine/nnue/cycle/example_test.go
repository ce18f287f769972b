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
