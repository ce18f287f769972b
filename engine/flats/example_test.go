package flats_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/bfs"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/flats"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// A horizontal I on the empty floor of a 4-wide well: the row is born and
// cleared by the same move.
func ExampleTracker() {
	r, _ := hatetris.NewRules(4, 8, 4)
	var w hatetris.Well
	res := r.Lock(&w, hatetris.I, hatetris.Position{X: 0, Y: 6})
	m, _ := flats.FromOutcome(r, &w, &res)
	tr := flats.NewTracker(r)
	ev, _ := tr.Apply(&m, nil)
	for _, e := range ev {
		fmt.Println(e.Kind, e.From.Format(4), "->", e.To.Format(4))
	}
	// Output: die empty -> cleared
}

// Absorption, pathwise share and D&F's max-flow reading of the record
// replays' most common shape.
func ExampleAbsorb() {
	games, _ := flats.RecordGames()
	c, _ := flats.CountGames(games)
	g := c.ShapeGraph()
	b, f, mf := flats.Absorb(g), flats.Pathwise(c, g), flats.MFClearability(g)
	u := g.ID(flats.MakeState(0b0000000001, 0))
	fmt.Printf("%d games; 0000000001: B %.3f, f %.3f, MF %.3f\n", len(games), b[u], f[u], mf[u])
	// Output: 20 games; 0000000001: B 0.965, f 0.967, MF 0.900
}

// Every game of the 6x5 well, exactly.
func ExampleCountWellGraph() {
	r, _ := bfs.NewRules(6, 5, bfs.RuleQntm)
	g, _ := bfs.BuildWellGraph(r, nil, 1<<20)
	c, _ := flats.CountWellGraph(g, flats.AllGames)
	fmt.Println(g.Len(), "wells,", c.Games, "games, conserved:", c.Conservation() == nil)
	// Output: 1670 wells, 22243 games, conserved: true
}

// The lone floor row 0111111110 needs a 6-row well to be cleared.
func ExampleMinClearHeight() {
	res, _ := flats.MinClearHeight(10, 0b0111111110, 4, 6, 1<<23)
	fmt.Println("height", res.Height, "pieces", res.Pieces)
	// Output: height 6 pieces 8
}

// The graph term added to the hand-made evaluation.
func ExampleNewTerm() {
	games, _ := flats.RecordGames()
	c, _ := flats.CountGames(games)
	term, _ := flats.NewTerm(flats.BuildTable(c, "records", "", "example", 0), -2.1413)
	ev := eval.Sum{Base: eval.NewHand(eval.DefaultWeights()), Terms: []eval.Evaluator{term}}
	w := games[0].Steps[10].Before
	r := hatetris.Standard()
	fmt.Printf("G term %.3f, sum %.3f\n", term.NewWorker(r).Evaluate(&w, 0, 0), ev.NewWorker(r).Evaluate(&w, 0, 0))
	// Output: G term -10.032, sum -378.722
}
