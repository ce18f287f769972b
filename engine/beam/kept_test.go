package beam

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// gen0Path is generation 0's network, relative to this package.
const gen0Path = "../../datasets/weights/gen-00.hlnn"

// TestKeptWellsUnchanged pins the kept wells of whole searches: a
// fingerprint of every level's kept wells and scores, in order, of its
// best and worst values, its children and its loop-rule counts, for the
// generation-0 network and the hand-made evaluation, with and without
// quiescence, from the empty well and from a tall well (12 rows, built by
// Mild's tallest outcomes), and on a 4-wide well. The fingerprints were
// taken before the beam's speed work (issue 29, at f457115); those of
// tuned-03 alone and of a hybrid of generation 0 and tuned-03 (with and
// without quiescence, from the empty and the tall well) before the
// hand-made worker skipped the terms its weights do not read (issue 44,
// at f145112): a change that makes the search faster must leave every one
// of them as it is. The
// network's fingerprints also pin its integer form: a change to
// nnue.Quantize's scales changes their values, and they must then be
// taken again with the search code of before the speed change.
func TestKeptWellsUnchanged(t *testing.T) {
	nn, err := eval.LoadNNUE(gen0Path)
	if err != nil {
		t.Fatal(err)
	}
	tuned := eval.NewHand(eval.TunedWeights())
	// A hybrid as evalspec builds NET+h:W:tuned: the scaled hand-made
	// evaluation is the base (whose worker, like tuned's, reports no
	// clears), the network its term.
	hybrid := eval.Sum{Base: eval.Scaled{E: tuned, W: 0.002}, Terms: []eval.Evaluator{nn}}
	r := hatetris.Standard()
	// A tall start: the Mild AI's tallest outcome that clears no line,
	// move after move, until the stack is 12 rows tall (quiescence chains
	// are long in tall wells).
	tall := hatetris.Well{}
	g := hatetris.NewGenerator(r)
	var buf []hatetris.Outcome
	for r.Peak(&tall) > r.Depth-12 {
		_, buf = g.Move(&tall, hatetris.Mild, nil, buf[:0])
		best := -1
		for k := range buf {
			if !buf[k].GameOver && buf[k].Lines == 0 && (best < 0 || r.Peak(&buf[k].Well) < r.Peak(&buf[best].Well)) {
				best = k
			}
		}
		if best < 0 {
			break
		}
		tall = buf[best].Well
	}
	narrow, err := hatetris.NewRules(4, 12, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		rules  *hatetris.Rules
		ev     eval.Evaluator
		q      bool
		start  *hatetris.Well
		width  int
		pieces int
		want   string
	}{
		{"gen0", nil, nn, false, nil, 200, 40, "0eea3d8eec6af88c/29/1/71395"},
		{"gen0/q", nil, nn, true, nil, 200, 40, "60cb1dc3b5d22f07/39/5/110846"},
		{"gen0/q/tall", nil, nn, true, &tall, 100, 15, "87737d97f48971aa/15/1/37315"},
		{"hand", nil, nil, false, nil, 200, 40, "9cafa677c5274c13/40/3/107471"},
		{"hand/q", nil, nil, true, nil, 200, 40, "98e242e5e6f0df88/40/6/123398"},
		{"hand/q/tall", nil, nil, true, &tall, 100, 15, "b78bc03cdf8500ed/15/1/22615"},
		// 4 wide: the loop rule decides pieces.
		{"hand/q/4x12", narrow, nil, true, nil, 50, 200, "40c51be64b9c827e/10/5/1070"},
		// tuned-03 reads no clears (its worker leaves them to the
		// quiescence): taken before that change, with the clears computed.
		{"tuned", nil, tuned, false, nil, 200, 40, "42848930ee39fca8/40/10/125954"},
		{"tuned/q", nil, tuned, true, nil, 200, 40, "bee2efb6d52bd5b4/40/11/135901"},
		{"tuned/q/tall", nil, tuned, true, &tall, 100, 15, "e431fc2d3895d71b/15/2/28801"},
		{"hybrid/q", nil, hybrid, true, nil, 200, 40, "bb66a1fe7c5b244b/40/6/144057"},
		{"hybrid/q/tall", nil, hybrid, true, &tall, 100, 15, "b277ab6bd2f83f8a/15/3/34662"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := uint64(14695981039346656037)
			mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
			res, err := Run(context.Background(), Config{Rules: c.rules, BeamWidth: c.width, MaxPieces: c.pieces, Quiescence: c.q, Eval: c.ev, Workers: 2, Start: c.start,
				OnKept: func(level int, wells []hatetris.Well, scores []int) error {
					mix(uint64(level))
					for i := range wells {
						mix(hashWell(&wells[i]))
						mix(uint64(scores[i]))
					}
					return nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range res.Levels {
				mix(math.Float64bits(l.BestValue))
				mix(math.Float64bits(l.WorstValue))
				mix(uint64(l.Children))
				mix(uint64(l.LoopsAvoided)<<32 | uint64(l.AllRepeat))
			}
			got := fmt.Sprintf("%016x/%d/%d/%d", h, len(res.Levels), res.Score, res.Children)
			t.Logf("%s: %s", c.name, got)
			if got != c.want {
				t.Errorf("%s: kept wells fingerprint %s, want %s", c.name, got, c.want)
			}
		})
	}
}
