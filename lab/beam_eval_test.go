package lab

import (
	"testing"

	"github.com/hatelab/hatelab/engine/eval"
)

// TestBeamRunEval: a short beam with the committed generation-0 network.
func TestBeamRunEval(t *testing.T) {
	ev, err := eval.ByName("nnue", "../datasets/weights/gen-00.hlnn")
	if err != nil {
		t.Fatal(err)
	}
	res, err := BeamRunEval(ev, 20, true, 8)
	if err != nil {
		t.Fatal(err)
	}
	if res.PiecesPlaced < 8 || len(res.Depths) != 8 {
		t.Fatalf("%d pieces, %d depths", res.PiecesPlaced, len(res.Depths))
	}
}
