// Package eval holds the evaluations a HATETRIS beam search ranks wells
// with. An Evaluator is pluggable: the hand-made evaluation (Hand:
// knewjade's terms with D&F's 86-point weights, DefaultWeights, or any
// other Weights, such as TunedWeights, the best in the arena), an NNUE
// network (NNUE, over
// engine/nnue), and sums of an evaluation and extra terms (Sum, e.g. the
// line-transition term of engine/flats). engine/evalspec reads the spec
// language that names them (hand, tuned, nnue, hand+stack-height, ...).
//
// Values are float64, higher is better, and must be a pure function of the
// well, the score and the quiescence depth, so that a beam search ranks the
// same wells the same way on any number of cores.
package eval

import (
	"fmt"
	"strings"

	"github.com/hatelab/hatelab/datasets/weights"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// Evaluator makes per-goroutine Workers for one geometry.
type Evaluator interface {
	// Name identifies the evaluation and its parameters (checkpoints
	// compare it on resume).
	Name() string
	// NewWorker returns scratch state for one goroutine.
	NewWorker(r *hatetris.Rules) Worker
}

// Worker evaluates wells; it is not safe for concurrent use.
type Worker interface {
	// Evaluate returns the value (higher is better) of the live well w
	// reached with score lines cleared. future counts the lines a
	// quiescence lookahead cleared on top of score to reach w (0 for the
	// well itself); an evaluation may weigh them less than score.
	Evaluate(w *hatetris.Well, score, future int) float64
}

// ClearsWorker is a Worker that also reports, for the well it evaluated,
// the most lines each piece can clear (0 if none; S Z O I L J T), which a
// quiescence lookahead needs too, or -1 for every piece when it did not
// compute them (the lookahead then finds them itself).
type ClearsWorker interface {
	Worker
	EvaluateClears(w *hatetris.Well, score, future int, clears *[hatetris.NumPieces]int) float64
}

// TunedWeights are the best hand-made weights in the arena, tuned-03:
// lines alone (DefaultWeights' score and future factor, every other
// weight of D&F's 0) plus the classic terms row transitions 60, rows
// with holes 80 and column transitions 10, screened in arena games on
// training suites (datasets/weights/tune-03/README.md). On the test suite
// openings:20:8:1 with quiescence they beat lines alone by 4.75 lines at
// beam width 1,000 and 8.15 at 10,000, and DefaultWeights by 6.75 and
// 9.85 (datasets/arena/terms-w1000.jsonl, terms-w10000.jsonl). They are
// decoded from the embedded dataset file datasets/weights/tuned-03.json,
// the one place they are written down, and are the arena arm "tuned"
// and the default evaluation of `hatelab beam`; "hand" and
// DefaultWeights stay D&F's weights.
func TunedWeights() Weights {
	w, err := ParseWeights(weights.Tuned03)
	if err != nil {
		panic("eval: the embedded datasets/weights/tuned-03.json is damaged: " + err.Error())
	}
	return w
}

// ByName returns the evaluation a CLI flag names: "hand" (DefaultWeights,
// D&F's, or those of weightsFile when it is not empty; "" is "hand", so
// that callers written before TunedWeights play the games they played),
// "tuned" (TunedWeights; no weights file) or "nnue" (the network of
// weightsFile, an engine/nnue weights file).
//
// Deprecated: use evalspec.Parse (engine/evalspec), the one reader of
// evaluation specs, with evalspec.FromFlags for a name and a weights
// file; ByName is kept for one release and knows these three names only.
func ByName(name, weightsFile string) (Evaluator, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "hand":
		if weightsFile == "" {
			return NewHand(DefaultWeights()), nil
		}
		w, err := LoadWeights(weightsFile)
		if err != nil {
			return nil, err
		}
		return NewHand(w), nil
	case "tuned":
		if weightsFile != "" {
			return nil, fmt.Errorf("evaluation tuned takes no weights file (its weights are datasets/weights/tuned-03.json; name other weights with hand)")
		}
		return NewHand(TunedWeights()), nil
	case "nnue":
		if weightsFile == "" {
			return nil, fmt.Errorf("evaluation nnue needs a weights file")
		}
		return LoadNNUE(weightsFile)
	}
	return nil, fmt.Errorf("unknown evaluation %q (want hand, tuned or nnue)", name)
}
