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
