package beams_test

import (
	"fmt"
	"strings"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/lab"
	"github.com/hatelab/hatelab/lab/beams"
)

// A tiny beam search from the empty well with D&F's weights (the spec
// hand; beams.Run plays tuned, hatelab beam's default): BeamWidth 20, no
// quiescence, at most 12 pieces (with a progress bar on standard error),
// its levels, and its best game replayed with the real game's rules.
func ExampleRunSpec() {
	res, err := beams.RunSpec("hand", 20, false, 12)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("score", res.Score, "pieces", res.Pieces, "best level", res.BestLevel)
	t := beams.LevelTable(res, 4)
	last := len(t.Headers) - 1 // the seconds column varies from run to run
	fmt.Println(strings.Join(t.Headers[:last], " | "))
	for _, row := range t.Rows {
		fmt.Println(strings.Join(row[:last], " | "))
	}
	g, err := beams.Game(res)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("replayed:", g.Score, g.Placed(), g.Over, hatetris.PiecesString(g.Pieces))
	// Output:
	// score 0 pieces 16 best level 12
	// level | kept | children | scores (count) | best value | worst value | bottom-row families | largest family | loops avoided
	// 4 | 20 | 347 | 0 (20) | 240 | -11 | 13 | 4 | 0
	// 8 | 20 | 180 | 0 (20) | 586 | 575 | 3 | 14 | 0
	// 12 | 20 | 180 | 0 (20) | 586 | 586 | 2 | 16 | 0
	// replayed: 0 16 true SSSISOOOOOOOOOOO
}

// D&F's published scores of the hand-made evaluation against BeamWidth.
func ExamplePublishedBeam() {
	fmt.Print(lab.TableOf(beams.PublishedBeam).Text())
	// Output:
	// BeamWidth  Quiescence  Score  Source
	// ---------  ----------  -----  --------
	//   100,000  false          24  D&F 2023
	//   100,000  true           62  D&F 2023
	// 1,000,000  true          148  D&F 2023
}
