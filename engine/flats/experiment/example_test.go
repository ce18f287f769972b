package experiment_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/flats/experiment"
)

// The weights of G the tuning tries: log-spaced, rounded to 4 digits.
func ExampleLogGrid() {
	fmt.Println(experiment.LogGrid(1, 10000, 9))
	// Output:
	// [1 3.162 10 31.62 100 316.2 1000 3162 10000]
}
