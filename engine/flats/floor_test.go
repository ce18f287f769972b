package flats

import (
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
)

// TestFloorNeverCleared: no game from the empty well clears the floor row
// in these exhaustively searched wells (every well is explored), and the
// well graph agrees: none of its moves clears the bottom row.
func TestFloorNeverCleared(t *testing.T) {
	for _, wh := range [][2]int{{4, 4}, {4, 5}, {5, 4}, {5, 5}, {5, 6}, {6, 4}, {6, 5}, {7, 4}, {8, 4}} {
		res, err := FloorClear(wh[0], wh[1], nil, 1<<22)
		if err != nil {
			t.Fatal(err)
		}
		if res.Clearable || res.Wells < 10 {
			t.Fatalf("%dx%d: %+v", wh[0], wh[1], res)
		}
		r, _ := bfs.NewRules(wh[0], wh[1], bfs.RuleQntm)
		g, err := bfs.BuildWellGraph(r, nil, 1<<22)
		if err != nil {
			t.Fatal(err)
		}
		if g.Len() != res.Wells {
			t.Fatalf("%dx%d: %d wells in the graph, %d explored", wh[0], wh[1], g.Len(), res.Wells)
		}
		for i := range g.Wells {
			lo, hi := g.Out(i)
			for e := lo; e < hi; e++ {
				m := FromPlacement(&g.Wells[i], &g.Placed[e])
				if g.Lines[e] > 0 && m.M[r.Depth-1] == r.FullRow() {
					t.Fatalf("%dx%d: well %d clears the floor row", wh[0], wh[1], i)
				}
			}
		}
	}
}

// TestLoneFloorRow: exact facts of lone floor rows, and a clearable one
// found at a small height.
func TestLoneFloorRow(t *testing.T) {
	tests := []struct {
		width, height int
		row           string
		clearable     bool
	}{
		{10, 5, "0111111110", false},
		{10, 6, "0111111110", true},
		{10, 5, "1111111110", true},
		{10, 5, "0111111111", false},
	}
	for _, tc := range tests {
		if testing.Short() && tc.height > 5 {
			continue
		}
		row, err := ParseShape(tc.row, tc.width)
		if err != nil {
			t.Fatal(err)
		}
		w, err := LoneFloorRow(tc.width, tc.height, row)
		if err != nil {
			t.Fatal(err)
		}
		res, err := FloorClear(tc.width, tc.height, &w, 1<<23)
		if err != nil {
			t.Fatal(err)
		}
		if res.Clearable != tc.clearable || res.Clearable && res.Pieces < 1 {
			t.Fatalf("%dx%d %s: %+v, want clearable %v", tc.width, tc.height, tc.row, res, tc.clearable)
		}
		t.Logf("%dx%d %s: %+v", tc.width, tc.height, tc.row, res)
	}
}

// TestLoneFloorRowsAt10x4: how many of the 1,022 lone floor rows can be
// cleared at 10x4 (the design note measured 130 with a prototype).
func TestLoneFloorRowsAt10x4(t *testing.T) {
	if testing.Short() {
		t.Skip("1,022 searches")
	}
	n := 0
	for row := uint16(1); row < 1023; row++ {
		w, err := LoneFloorRow(10, 4, row)
		if err != nil {
			t.Fatal(err)
		}
		res, err := FloorClear(10, 4, &w, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if res.Clearable {
			n++
		}
	}
	if n != 130 {
		t.Fatalf("%d lone floor rows clearable at 10x4, want 130", n)
	}
}
