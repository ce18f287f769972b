package bfs

import (
	"context"
	"testing"
)

// TestWellGraphMatchesSearch: the well graph's best score and longest
// game equal the exhaustive search's on small wells.
func TestWellGraphMatchesSearch(t *testing.T) {
	for _, wh := range [][2]int{{5, 4}, {6, 4}, {5, 5}} {
		r, err := NewRules(wh[0], wh[1], RuleQntm)
		if err != nil {
			t.Fatal(err)
		}
		g, err := BuildWellGraph(r, nil, 1<<22)
		if err != nil {
			t.Fatal(err)
		}
		order, err := g.Topo()
		if err != nil {
			t.Fatal(err)
		}
		v := g.Value(order)
		res, err := Search(context.Background(), Options{Width: wh[0], Height: wh[1]})
		if err != nil {
			t.Fatal(err)
		}
		if int(v[0]) != res.Score {
			t.Fatalf("%dx%d: well graph best score %d, search %d", wh[0], wh[1], v[0], res.Score)
		}
		maxLevel := int32(0)
		for _, l := range g.Level {
			maxLevel = max(maxLevel, l)
		}
		keep, ends := g.Optimal(v)
		_, opt := g.Games(order, keep, ends)
		_, all := g.Games(order, nil, nil)
		if opt[0] < 1 || opt[0] > all[0] {
			t.Fatalf("%dx%d: %g optimal games of %g", wh[0], wh[1], opt[0], all[0])
		}
		t.Logf("%dx%d: %d wells, %d edges, score %d, %g games (%g optimal), deepest first reach %d", wh[0], wh[1], g.Len(), len(g.Child), v[0], all[0], opt[0], maxLevel)
	}
}
