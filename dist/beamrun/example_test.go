package beamrun_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/hatelab/hatelab/dist/beamrun"
	"github.com/hatelab/hatelab/engine/bfs"
)

// The exhaustive search of the 6x5 well as Beam pipelines (one a level, on
// Prism in this process), with the same result as bfs.Search; the work
// folder keeps the state of every level, so that a killed search resumes.
func ExampleBFS() {
	work, err := os.MkdirTemp("", "beamrun-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)
	opt := bfs.Options{Width: 6, Height: 5}
	res, err := beamrun.BFS(context.Background(), beamrun.BFSOptions{Search: opt, Work: work})
	if err != nil {
		log.Fatal(err)
	}
	native, err := bfs.Search(context.Background(), opt)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Beam:   score %d, length %d, peak %d states at level %d\n", res.Score, res.Length, res.PeakStates, res.PeakLevel)
	fmt.Printf("native: score %d, length %d, peak %d states at level %d\n", native.Score, native.Length, native.PeakStates, native.PeakLevel)
	// Output:
	// Beam:   score 2, length 8, peak 679 states at level 4
	// native: score 2, length 8, peak 679 states at level 4
}
