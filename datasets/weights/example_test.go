package weights_test

import (
	"encoding/json"
	"fmt"

	"github.com/hatelab/hatelab/datasets/weights"
	"github.com/hatelab/hatelab/engine/eval"
)

// DNF86 is the embedded JSON of the default weights; engine/eval decodes
// it (eval.DefaultWeights is this file).
func ExampleDNF86() {
	var raw map[string]any
	if err := json.Unmarshal(weights.DNF86, &raw); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(raw["name"], raw["holes"], raw["score"])
	w, err := eval.ParseWeights(weights.DNF86)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(w == eval.DefaultWeights())
	// Output:
	// dnf86 11.2106 -332.2211
	// true
}

// Tuned03 is the embedded JSON of tuned-03.json, the best hand-made
// weights in the arena: lines alone plus three classic terms
// (eval.TunedWeights is this file, the arm tuned).
func ExampleTuned03() {
	var raw map[string]any
	if err := json.Unmarshal(weights.Tuned03, &raw); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(raw["name"], raw["row_transitions"], raw["rows_with_holes"], raw["column_transitions"], raw["score"], raw["holes"])
	w, err := eval.ParseWeights(weights.Tuned03)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(w == eval.TunedWeights(), w == eval.DefaultWeights())
	fmt.Println(eval.NewHand(w).Name())
	// Output:
	// tuned-03 60 80 10 -332.2211 0
	// true false
	// hand:tuned-03[0 0 0 0 0 0 -332.2211 0.5 row-transitions 60 column-transitions 10 rows-with-holes 80]
}
