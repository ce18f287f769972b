package arena_test

import (
	"context"
	"fmt"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/hatetris"
)

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
