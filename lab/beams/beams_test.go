package beams

import (
	"path/filepath"
	"testing"

	"github.com/hatelab/hatelab/engine/evalspec"
)

func TestBeamSweepAndPlots(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "sweep.jsonl")
	pts, err := Sweep([]int{10, 20}, []bool{false, true}, 0, cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 4 || pts[3].BeamWidth != 20 || !pts[3].Quiescence {
		t.Fatalf("points %+v", pts)
	}
	again, err := Sweep([]int{20}, []bool{true}, 0, cache)
	if err != nil {
		t.Fatal(err)
	}
	if again[0].Result.Keys != pts[3].Result.Keys || again[0].Seconds != pts[3].Seconds {
		t.Fatal("the cache was not used")
	}
	for _, p := range pts {
		g, err := Game(p.Result)
		if err != nil {
			t.Fatal(err)
		}
		if g.Score != p.Score {
			t.Fatalf("game %d, point %d", g.Score, p.Score)
		}
	}
	if _, err := Game(again[0].Result); err != nil {
		t.Fatal(err)
	}
	if _, err := ScorePlot(pts, Published{BeamWidth: 100000, Quiescence: true, Score: 68, Source: "CLI"}); err != nil {
		t.Fatal(err)
	}
	if _, err := TimePlot(pts); err != nil {
		t.Fatal(err)
	}
	if _, err := LevelPlot(pts[0].Result, "x"); err != nil {
		t.Fatal(err)
	}
	if tb := LevelTable(pts[1].Result, 5); tb == nil {
		t.Fatal("no table")
	}
	if err := ResetCache(cache); err != nil {
		t.Fatal(err)
	}
	if err := ResetCache(cache); err != nil {
		t.Fatal(err)
	}
}

func TestBest(t *testing.T) {
	pts := []Point{{Score: 3, Pieces: 9}, {Score: 5, Pieces: 20}, {Score: 5, Pieces: 30, BeamWidth: 7}, {Score: 5, Pieces: 30, BeamWidth: 8}, {Score: 1}}
	if b := Best(pts); b.BeamWidth != 7 {
		t.Fatalf("best %+v, want the first of the 5-point, 30-piece points", b)
	}
	if b := Best(nil); b != (Point{}) {
		t.Fatalf("best of none %+v", b)
	}
}

// TestRunEval: a short beam with the committed generation-0 network.
func TestRunEval(t *testing.T) {
	ev, err := evalspec.Parse("nnue:../../datasets/weights/gen-00.hlnn", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunEval(ev, 20, true, 8)
	if err != nil {
		t.Fatal(err)
	}
	if res.Pieces < 8 || len(res.Levels) != 8 {
		t.Fatalf("%d pieces, %d levels", res.Pieces, len(res.Levels))
	}
}
