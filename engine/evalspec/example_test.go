package evalspec_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/evalspec"
)

// A spec names an evaluation: the best hand-made one with a rule on (sz-two-well), and
// what a contradicting spec gets.
func ExampleParse() {
	ev, err := evalspec.Parse("tuned+sz-two-well", "", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ev.Name())
	_, err = evalspec.Parse("hand+sz-holes+sz-holes", "", nil)
	fmt.Println(err)
	// Output:
	// hand:tuned-03+sz-two-well[0 0 0 0 0 0 -332.2211 0.5 row-transitions 60 column-transitions 10 rows-with-holes 80 sz-two-well]
	// rule sz-holes is named twice
}
