package eval

import (
	"math"
	"strings"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
)

// TestLineValue: an evaluation's value of a line is what one more line
// scored adds: minus a hand-made evaluation's score weight (however large
// its other terms), a network's score weight, the sum of a hybrid's parts,
// nothing for a constant; one whose value is not linear in the score has
// none.
func TestLineValue(t *testing.T) {
	r := hatetris.Standard()
	n, err := nnue.Load("../../datasets/weights/gen-00-tuned.hlnn")
	if err != nil {
		t.Fatal(err)
	}
	net, err := NewNNUE(n)
	if err != nil {
		t.Fatal(err)
	}
	tw := TunedWeights()
	big := Weights{RowTransitions: 1e6, ColumnTransitions: 1e6, SurfaceHeight: 1e6, Score: -0.001, FutureFactor: 0.5}
	for _, tc := range []struct {
		name string
		e    Evaluator
		want float64
		err  string
	}{
		{"tuned", NewHand(tw), -tw.Score, ""},
		{"large other terms", NewHand(big), 0.001, ""},
		{"network", net, n.ScoreWeight, ""},
		{"scaled", Scaled{E: NewHand(tw), W: 0.25}, -0.25 * tw.Score, ""},
		{"hybrid", Sum{Base: net, Terms: []Evaluator{Scaled{E: NewHand(tw), W: 0.002}}}, n.ScoreWeight - 0.002*tw.Score, ""},
		{"constant", constEval(7), 0, ""},
		{"squares", squares{}, 0, "not linear"},
	} {
		got, err := LineValue(tc.e, r)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.err)
		case tc.err == "" && (err != nil || math.Abs(got-tc.want) > 1e-8*math.Max(1, math.Abs(tc.want))): // rounding of values up to 10⁸
			t.Errorf("%s: %v (%v), want %v", tc.name, got, err, tc.want)
		}
	}
	if n.ScoreWeight == 0 {
		t.Fatal("the test needs a network with a score weight")
	}
}

// squares values a well at the square of its score.
type squares struct{}

func (squares) Name() string                     { return "squares" }
func (squares) NewWorker(*hatetris.Rules) Worker { return squares{} }
func (squares) Evaluate(_ *hatetris.Well, score, _ int) float64 {
	return float64(score * score)
}
