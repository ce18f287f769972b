package smallwells

import (
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
)

func TestBFSDisplay(t *testing.T) {
	g, res, err := Game(5, 6, bfs.RuleQntm, bfs.Longest)
	if err != nil {
		t.Fatal(err)
	}
	if res.PeakStates != 543 || g.Length != 10 {
		t.Fatalf("5x6: width %d, game length %d", res.PeakStates, g.Length)
	}
	svg, err := Filmstrip(g)
	if err != nil || !strings.Contains(string(svg), "<svg") {
		t.Errorf("filmstrip: %v", err)
	}
	rows := []bfs.Row{ResultRow(res)}
	if tx := Table(rows).Text(); !strings.Contains(tx, "543") {
		t.Errorf("table: %s", tx)
	}
	if !strings.Contains(LevelTable(res).Text(), "best") {
		t.Error("level table")
	}
	if _, err := LevelsPlot(res); err != nil {
		t.Error(err)
	}
	for _, q := range []string{"score", "length", "width"} {
		if _, err := ScalingPlot(rows, bfs.RuleQntm, q); err != nil {
			t.Error(err)
		}
	}
}

func TestBFSGames(t *testing.T) {
	gs, err := Games()
	if err != nil {
		t.Fatal(err)
	}
	g, err := FindGame(gs, 10, 5, "longest")
	if err != nil || g.Length != 19 {
		t.Fatalf("10x5 longest: %v %+v", err, g)
	}
	if _, err := FindGame(gs, 10, 99, "longest"); err == nil {
		t.Error("want an error for a missing game")
	}
}
