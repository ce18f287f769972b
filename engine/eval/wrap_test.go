package eval

import (
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// constEval values every well c; its worker has no optional interface.
type constEval float64

func (c constEval) Name() string                                { return "const" }
func (c constEval) NewWorker(*hatetris.Rules) Worker            { return constWorker(c) }
func (c constWorker) Evaluate(*hatetris.Well, int, int) float64 { return float64(c) }

type constWorker float64

// TestWrapKeepsInterfaces: Sum and TieBreak keep the base's quiescence
// clears and parent updates (a network's accumulator stays incremental
// under a sum), and add no interface the base lacks; values are the sum.
func TestWrapKeepsInterfaces(t *testing.T) {
	r := hatetris.Standard()
	net, err := LoadNNUE("../../datasets/weights/gen-00.hlnn")
	if err != nil {
		t.Fatal(err)
	}
	hand := NewHand(DefaultWeights())
	for _, tc := range []struct {
		name           string
		ev             Evaluator
		clears, parent bool
	}{
		{"hand", hand, true, false},
		{"nnue", net, false, true},
		{"const", constEval(1), false, false},
		{"hand+const", Sum{Base: hand, Terms: []Evaluator{constEval(1)}}, true, false},
		{"nnue+const", Sum{Base: net, Terms: []Evaluator{constEval(1)}}, false, true},
		{"const+nnue", Sum{Base: constEval(1), Terms: []Evaluator{net}}, false, true},
		{"tiebreak(hand)", TieBreak(hand, 3), true, false},
		{"tiebreak(nnue+const)", TieBreak(Sum{Base: net, Terms: []Evaluator{constEval(1)}}, 3), false, true},
		{"tiebreak(const)", TieBreak(constEval(1), 3), false, false},
	} {
		w := tc.ev.NewWorker(r)
		_, clears := w.(ClearsWorker)
		_, parent := w.(ParentWorker)
		if clears != tc.clears || parent != tc.parent {
			t.Errorf("%s: ClearsWorker %v ParentWorker %v, want %v %v", tc.name, clears, parent, tc.clears, tc.parent)
		}
	}
	// Values: a sum with a parent set equals the sum of a full refresh.
	var well hatetris.Well
	for i := r.Depth - 3; i < r.Depth; i++ {
		well[i] = 0b1111011110
	}
	child := well
	child[r.Depth-4] = 0b1100000000
	s := Sum{Base: net, Terms: []Evaluator{constEval(2.5)}}.NewWorker(r)
	s.(ParentWorker).SetParent(&well)
	got := s.Evaluate(&child, 3, 1)
	want := net.NewWorker(r).Evaluate(&child, 3, 1) + 2.5
	if got != want {
		t.Fatalf("sum after SetParent %v, want %v", got, want)
	}
}
