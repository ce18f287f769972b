package lab

import (
	"path/filepath"
	"testing"
)

func TestBeamSweepAndPlots(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "sweep.jsonl")
	pts, err := BeamSweep([]int{10, 20}, []bool{false, true}, 0, cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 4 || pts[3].Width != 20 || !pts[3].Quiescence {
		t.Fatalf("points %+v", pts)
	}
	again, err := BeamSweep([]int{20}, []bool{true}, 0, cache)
	if err != nil {
		t.Fatal(err)
	}
	if again[0].Result.Keys != pts[3].Result.Keys || again[0].Seconds != pts[3].Seconds {
		t.Fatal("the cache was not used")
	}
	for _, p := range pts {
		g, err := BeamGame(p.Result)
		if err != nil {
			t.Fatal(err)
		}
		if g.Score != p.Score {
			t.Fatalf("game %d, point %d", g.Score, p.Score)
		}
	}
	if _, err := BeamGame(again[0].Result); err != nil {
		t.Fatal(err)
	}
	if _, err := BeamScorePlot(pts, BeamPublished{Width: 100000, Quiescence: true, Score: 68, Source: "CLI"}); err != nil {
		t.Fatal(err)
	}
	if _, err := BeamTimePlot(pts); err != nil {
		t.Fatal(err)
	}
	if _, err := BeamDepthPlot(pts[0].Result, "x"); err != nil {
		t.Fatal(err)
	}
	if tb := BeamDepthTable(pts[1].Result, 5); tb == nil {
		t.Fatal("no table")
	}
	if err := BeamCacheReset(cache); err != nil {
		t.Fatal(err)
	}
	if err := BeamCacheReset(cache); err != nil {
		t.Fatal(err)
	}
}
