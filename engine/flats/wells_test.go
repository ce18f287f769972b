package flats

import (
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
)

// TestCountWellGraph: exhaustive counts conserve flow under both game
// weightings, the optimal games are a subset, the births are the games'
// lives, and the state-uniform weighting covers every well.
func TestCountWellGraph(t *testing.T) {
	for _, wh := range [][2]int{{5, 5}, {6, 5}, {7, 5}} {
		r, _ := bfs.NewRules(wh[0], wh[1], bfs.RuleQntm)
		g, err := bfs.BuildWellGraph(r, nil, 1<<22)
		if err != nil {
			t.Fatal(err)
		}
		all, err := CountWellGraph(g, AllGames)
		if err != nil {
			t.Fatal(err)
		}
		opt, err := CountWellGraph(g, OptimalPlay)
		if err != nil {
			t.Fatal(err)
		}
		uni, err := CountWellGraph(g, StateUniform)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []*Counts{all, opt} {
			if err := c.Conservation(); err != nil {
				t.Fatalf("%dx%d: %v", wh[0], wh[1], err)
			}
			if err := c.CheckDAG(); err != nil {
				t.Fatalf("%dx%d: %v", wh[0], wh[1], err)
			}
		}
		order, _ := g.Topo()
		_, complete := g.Games(order, nil, nil)
		if all.Games != complete[0] || opt.Games <= 0 || opt.Games > all.Games || uni.Games <= 0 {
			t.Fatalf("%dx%d: %g games (graph %g), %g optimal, %g uniform", wh[0], wh[1], all.Games, complete[0], opt.Games, uni.Games)
		}
		b := Absorb(all.ShapeGraph())
		t.Logf("%dx%d: %d wells, %g games, %d edges, B(empty) %.3f", wh[0], wh[1], g.Len(), all.Games, len(all.Edges()), b[0])
	}
}
