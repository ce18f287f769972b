package lab

import (
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/bfs"
)

func TestBFSDisplay(t *testing.T) {
	g, res, err := BFSGame(5, 6, bfs.RuleQntm, bfs.Longest)
	if err != nil {
		t.Fatal(err)
	}
	if res.MaxWidth != 543 || g.Length != 10 {
		t.Fatalf("5x6: width %d, game length %d", res.MaxWidth, g.Length)
	}
	svg, err := BFSFilmstrip(g)
	if err != nil || !strings.Contains(string(svg), "<svg") {
		t.Errorf("filmstrip: %v", err)
	}
	rows := []bfs.Row{BFSResultRow(res)}
	if tx := BFSTable(rows).Text(); !strings.Contains(tx, "543") {
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
	gs, err := BFSGames()
	if err != nil {
		t.Fatal(err)
	}
	g, err := FindBFSGame(gs, 10, 5, "longest")
	if err != nil || g.Length != 19 {
		t.Fatalf("10x5 longest: %v %+v", err, g)
	}
	if _, err := FindBFSGame(gs, 10, 99, "longest"); err == nil {
		t.Error("want an error for a missing game")
	}
}

func TestFitDisplay(t *testing.T) {
	h := []float64{2, 3, 4, 5, 6, 7}
	l := []float64{4, 6, 11, 19, 31, 43}
	q, err := FitModel("length", "quadratic", h, l)
	if err != nil {
		t.Fatal(err)
	}
	lq, err := FitModel("length", "log-quadratic", h, l)
	if err != nil {
		t.Fatal(err)
	}
	if y, lo, hi := q.Predict(16, 0.95); y < 290 || y > 291 || lo >= y || hi <= y {
		t.Errorf("quadratic at 16: %v [%v, %v]", y, lo, hi)
	}
	if !strings.Contains(FitTable(16, q, lq).Text(), "log-quadratic") {
		t.Error("fit table")
	}
	p, err := FitPlot("t", "h", "y", 16, true, []Mark{{"record", 16, 247}}, q, lq)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PlotSVG(p, 0, 0); err != nil {
		t.Error(err)
	}
	// Zero scores cannot be drawn on a log scale: they are left out.
	z, err := FitModel("score", "quadratic", h, []float64{0, 0, 1, 4, 8, 12})
	if err != nil {
		t.Fatal(err)
	}
	if p, err = FitPlot("t", "h", "y", 16, true, nil, z); err != nil {
		t.Fatal(err)
	}
	if _, err := PlotSVG(p, 0, 0); err != nil {
		t.Error(err)
	}
	if _, err := ResidualPlot("r", "h", q, lq); err != nil {
		t.Error(err)
	}
	if _, err := FitModel("x", "cubic-spline", h, l); err == nil {
		t.Error("want an unknown-model error")
	}
}
