package networks_test

import (
	"fmt"

	"github.com/hatelab/hatelab/lab/networks"
)

// Summarise scores a network's predictions against the targets.
func ExampleSummarise() {
	f := networks.Summarise([]networks.Point{{Target: -1, Predicted: -0.5}, {Target: 0, Predicted: 0}, {Target: 1, Predicted: 0.5}})
	fmt.Printf("%d points, MSE %.4f, correlation %.3f\n", f.N, f.MSE, f.Corr)
	// Output: 3 points, MSE 0.1667, correlation 1.000
}
