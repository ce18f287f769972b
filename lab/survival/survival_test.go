package survival

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/classic"
	"github.com/hatelab/hatelab/engine/fit"
	"github.com/hatelab/hatelab/lab"
)

func TestPlayAndFilmstrip(t *testing.T) {
	g, err := Play(5, 10, classic.TetrAI{}, 5000, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if g.Result.Pieces != 299 || g.Result.Lines != 116 || len(g.Steps) != 299 || !g.Over {
		t.Fatalf("game %+v, %d steps", g.Result, len(g.Steps))
	}
	part, _ := Play(5, 10, classic.TetrAI{}, 5000, 10, true)
	if len(part.Steps) != 10 || part.Result != g.Result {
		t.Fatalf("partial recording %+v", part.Result)
	}
	svg := string(Filmstrip(g.Steps, 0, 12, 6, "seed 5000"))
	if strings.Count(svg, "#1 ") != 1 || !strings.Contains(svg, "seed 5000") || !strings.Contains(svg, PieceColor[g.Steps[0].Piece]) {
		t.Fatal("filmstrip lacks captions, title or piece colours")
	}
	if _, err := Play(3, 10, classic.TetrAI{}, 1, 0, false); err == nil {
		t.Fatal("bad rows accepted")
	}
}

func TestSweepTableAndPlots(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	recs, err := Sweep("tetr-ai", []int{5, 6}, 10, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 20 || recs[0].Seed != 5000 || recs[0].Lines != 116 {
		t.Fatalf("%d records, first %+v", len(recs), recs[0])
	}
	again, err := Sweep("tetr-ai", []int{5, 6}, 10, path)
	if err != nil || len(again) != 20 {
		t.Fatalf("resume: %d %v", len(again), err)
	}
	stats := classic.Summarize(recs)
	tab := Table(stats).Text()
	if !strings.Contains(tab, "26.85") || !strings.Contains(tab, "tetr-ai") {
		t.Fatalf("table:\n%s", tab)
	}
	p, err := Plot("t", stats)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lab.PlotSVG(p, 0, 0); err != nil {
		t.Fatal(err)
	}
	f, err := classic.FitLogQuadratic([]int{5, 6, 7, 8}, []float64{27, 90, 272, 825})
	if err != nil {
		t.Fatal(err)
	}
	fp, err := FitPlot("f", stats, map[string]*fit.Fit{"fit": f}, []string{"fit"}, 5, 20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lab.PlotSVG(fp, 0, 0); err != nil {
		t.Fatal(err)
	}
}
