package flats_test

import (
	"fmt"
	"log"

	flatsdata "github.com/hatelab/hatelab/datasets/flats"
)

// The committed table of the world-record replays: what it was counted
// from.
func ExampleRecords() {
	t, err := flatsdata.Records()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%dx%d from %s: %d states, %d shapes\n", t.Width, t.Height, t.Source, len(t.States), len(t.Shapes))
	// Output:
	// 10x16 from records: 3037 states, 563 shapes
}
