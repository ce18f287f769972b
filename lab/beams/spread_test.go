package beams

import (
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

func TestTieBreakOnlyBreaksTies(t *testing.T) {
	base := eval.NewHand(eval.DefaultWeights())
	if TieBreak(base, 0) != eval.Evaluator(base) {
		t.Fatal("seed 0 is not the evaluation itself")
	}
	r := hatetris.Standard()
	bw, tw := base.NewWorker(r), TieBreak(base, 7).NewWorker(r)
	var w hatetris.Well
	w[r.Depth-1] = 0b1111111100
	for s := 0; s < 5; s++ {
		b, v := bw.Evaluate(&w, s, 0), tw.Evaluate(&w, s, 0)
		if v < b || v-b > 1e-6 {
			t.Errorf("score %d: %g against %g", s, v, b)
		}
	}
	if TieBreak(base, 7).Name() == base.Name() {
		t.Error("a tie-break seed does not change the name")
	}
}

func TestSpread(t *testing.T) {
	runs, err := Spread([]int{10}, []bool{false}, func(int) []uint64 { return []uint64{0, 1, 2} }, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 || runs[0].Seed != 0 || runs[2].Seed != 2 {
		t.Fatalf("%+v", runs)
	}
	rows := SpreadTable(runs)
	if len(rows) != 1 || rows[0].Runs != 3 || rows[0].Min > rows[0].Max {
		t.Fatalf("%+v", rows)
	}
	if _, err := SpreadPlot(runs); err != nil {
		t.Fatal(err)
	}
	// Seed 0 is the sweep's search.
	pts, err := Sweep([]int{10}, []bool{false}, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if pts[0].Score != runs[0].Score {
		t.Errorf("seed 0 scores %d, the sweep %d", runs[0].Score, pts[0].Score)
	}
}
