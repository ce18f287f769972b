package beams_test

import (
	"fmt"

	"github.com/hatelab/hatelab/datasets/beams"
)

// The lab's long games from the empty well, each with the evaluation and
// beam width that played it.
func ExampleAll() {
	games, err := beams.All()
	if err != nil {
		fmt.Println(err)
		return
	}
	best := games[0]
	for _, g := range games {
		if g.Score > best.Score {
			best = g
		}
	}
	fmt.Printf("%d games; the longest: %d lines in %d pieces by %s at width %d\n",
		len(games), best.Score, best.Pieces, best.Evaluation, best.BeamWidth)
	// Output:
	// 16 games; the longest: 172 lines in 463 pieces by nnue:datasets/weights/teacher/gen-03.hlnn+h:0.0024575:tuned at width 200000
}
