package arena_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/hatetris"
	labarena "github.com/hatelab/hatelab/lab/arena"
)

// A small match on a 6-wide well: lines alone against the hand-made
// evaluation over 4 seeded openings, shown as a table.
func ExamplePlay() {
	r, _ := hatetris.NewRules(6, 12, 4)
	suite, _ := arena.ParseSuite("openings:4:4:3", r)
	arms, _ := arena.ParseArms("hand,score", r)
	res, err := labarena.Play(&arena.Match{Suite: suite, Arms: arms, BeamWidth: 20, Quiescence: true, Parallel: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := res.Standings.Comparisons()[0]
	fmt.Println(len(res.Games), "games;", c.Arm, "against", c.Baseline, "on", c.N, "starts")
	// Output:
	// 8 games; score against hand on 4 starts
}
