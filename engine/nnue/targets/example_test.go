package targets_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/nnue/targets"
)

// The two rules on target beams of 10 pieces (identity squash): a beam
// dead by piece 10 gives -1; under D&F's rule a beam that lasts 15 of its
// 20 pieces gets half the way from -1 to its piece-10 value.
func ExampleRule_Target() {
	id := func(v float64) float64 { return v }
	for _, o := range []targets.Outcome{{Value: 0.6, Survived: 8}, {Value: 0.6, Survived: 15}, {Value: 0.6, Survived: 20}} {
		fmt.Println(o.Survived, targets.Best.Target(o, 10, id), targets.DNF.Target(o, 10, id))
	}
	// Output:
	// 8 -1 -1
	// 15 0.6 -0.2
	// 20 0.6 0.6
}
