package bfs_test

import (
	"fmt"
	"log"

	bfsdata "github.com/hatelab/hatelab/datasets/bfs"
	"github.com/hatelab/hatelab/engine/bfs"
)

// The committed summary row of the real game's 10x6 well, and its levels
// around the peak.
func ExampleSummary() {
	rows, err := bfsdata.Summary()
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rows {
		if r.Width == 10 && r.Height == 6 && r.Rule == bfs.RuleQntm {
			fmt.Printf("10x6: score %d, length %d, peak %d states at level %d\n", r.Score, r.Length, r.PeakStates, r.PeakLevel)
		}
	}
	levels, err := bfsdata.Levels(10, 6, bfs.RuleQntm)
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range levels[8:11] {
		fmt.Printf("level %d: %d states\n", l.Level, l.States)
	}
	// Output:
	// 10x6: score 8, length 31, peak 4844154 states at level 9
	// level 8: 3024587 states
	// level 9: 4844154 states
	// level 10: 4422867 states
}
