package arena_test

import (
	"context"
	"fmt"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// The exact signed-rank test of ten paired differences, all wins: 2 of
// the 1024 sign patterns are as extreme.
func ExampleWilcoxon() {
	p, wPlus, n, exact := arena.Wilcoxon([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
	fmt.Printf("p = %.5f, W+ = %g over %d, exact %v\n", p, wPlus, n, exact)
	// Output:
	// p = 0.00195, W+ = 55 over 10, exact true
}

// A match of lines alone against the hand-made evaluation on a small
// well, four seeded openings, each arm with the same beam.
func ExampleMatch() {
	r, _ := hatetris.NewRules(6, 12, 4)
	suite, _ := arena.ParseSuite("openings:4:4:3", r)
	arms, _ := arena.ParseArms("hand,score", r)
	m := &arena.Match{Suite: suite, Arms: arms, BeamWidth: 20, Quiescence: true}
	res, err := m.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	c := res.Standings.Comparisons()[0]
	fmt.Println(suite.ID(), len(res.Games), "games,", c.Wins+c.Losses+c.Ties, "pairs")
	// Output:
	// 81ab953bc5fa 8 games, 4 pairs
}
