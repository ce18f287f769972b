package eval_test

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
)

// The default weights: D&F's 86-point game, decoded from the embedded
// datasets/weights/dnf86.json. A positive weight penalises its term.
func ExampleDefaultWeights() {
	w := eval.DefaultWeights()
	fmt.Println(w.Name)
	fmt.Println("holes", w.Holes, "enclosed holes", w.EnclosedHoles, "enclosed hole lines", w.EnclosedHoleLines)
	fmt.Println("surface height", w.SurfaceHeight, "erasability", w.Erasability, "score", w.Score, "future factor", w.FutureFactor)
	// Output:
	// dnf86
	// holes 11.2106 enclosed holes 83.7646 enclosed hole lines 83.7646
	// surface height -83.7646 erasability -83.7646 score -332.2211 future factor 0.5
}

// The hand-made evaluation of one well of the real game: its terms
// (Features) and its value, minus their weighted sum (higher is better).
func ExampleHandWorker_Features() {
	r := hatetris.Standard()
	// The two bottom rows, top first, MSB-left: ###....... over #.#.......,
	// a hole sealed in by its neighbours. (The Costly terms, from
	// RowTransitions to SSurfaceHeight, are 0: dnf86 does not weigh them,
	// so the worker skips them.)
	rows := make([]int, r.Depth)
	rows[18] = 0b1110000000
	rows[19] = 0b1010000000
	w, err := r.ParseWell(rows)
	if err != nil {
		fmt.Println(err)
		return
	}
	h := eval.NewHand(eval.DefaultWeights())
	hw := h.NewHandWorker(r)
	f := hw.Features(&w)
	fmt.Printf("%+v\n", f)
	fmt.Printf("value %.4f\n", hw.Evaluate(&w, 0, 0))
	fmt.Printf("value at score 2 %.4f\n", hw.Evaluate(&w, 2, 0))
	// Output:
	// {Holes:1 EnclosedHoles:1 EnclosedHoleLines:1 SurfaceHeight:0 StackHeight:2 SurfaceColumns:6 Erasability:0 RowTransitions:0 ColumnTransitions:0 CumulativeWells:0 HoleDepth:0 RowsWithHoles:0 Bumpiness:0 EdgeHeights:0 SSurfaceHeight:0 Clears:[0 0 0 0 0 0 0]}
	// value -178.7398
	// value at score 2 485.7024
}

// Any Evaluator works through its per-goroutine Worker; ByName gives the
// one a CLI flag names.
func ExampleByName() {
	ev, err := eval.ByName("hand", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ev.Name())
	wk := ev.NewWorker(hatetris.Standard())
	var empty hatetris.Well
	fmt.Println("empty well is worth 0:", wk.Evaluate(&empty, 0, 0) == 0)
	_, err = eval.ByName("nnue", "")
	fmt.Println(err)
	// Output:
	// hand:dnf86[11.2106 83.7646 83.7646 -83.7646 0 -83.7646 -332.2211 0.5]
	// empty well is worth 0: true
	// evaluation nnue needs a weights file
}

// Weights in the JSON format of datasets/weights; unknown fields are an
// error.
func ExampleParseWeights() {
	w, err := eval.ParseWeights([]byte(`{"name":"holes only","holes":1}`))
	fmt.Println(w.Name, w.Holes, err)
	_, err = eval.ParseWeights([]byte(`{"name":"typo","hole":1}`))
	fmt.Println(err)
	// Output:
	// holes only 1 <nil>
	// weights: json: unknown field "hole"
}
