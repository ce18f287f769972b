package eval

import (
	"math"
	"testing"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// TestNoise: the error is a function of the well alone (not its score or
// lookahead lines), seeded, about normal with the given deviation, and
// sigma 0 is the evaluation itself.
func TestNoise(t *testing.T) {
	r := hatetris.Standard()
	base := NewHand(TunedWeights())
	if Noise(base, 0, 7) != Evaluator(base) {
		t.Errorf("sigma 0 should return the evaluation itself")
	}
	const sigma = 3.0
	n1, n1b, n2 := Noise(base, sigma, 1).NewWorker(r), Noise(base, sigma, 1).NewWorker(r), Noise(base, sigma, 2).NewWorker(r)
	bw := base.NewWorker(r)
	var sum, sq float64
	differ := 0
	const wells = 20000
	for i := range wells {
		var w hatetris.Well
		w[r.Depth-1] = uint16(i % 1023)
		w[r.Depth-2] = uint16(i / 1023)
		e := n1.Evaluate(&w, 0, 0) - bw.Evaluate(&w, 0, 0)
		if got := n1b.Evaluate(&w, 3, 1) - bw.Evaluate(&w, 3, 1); math.Abs(got-e) > 1e-9 {
			t.Fatalf("well %d: error %g at score 0, %g at score 3 with a lookahead line: want the same", i, e, got)
		}
		if e2 := n2.Evaluate(&w, 0, 0) - bw.Evaluate(&w, 0, 0); e2 != e {
			differ++
		}
		sum += e
		sq += e * e
	}
	mean := sum / wells
	sd := math.Sqrt(sq/wells - mean*mean)
	if math.Abs(mean) > 0.1 || math.Abs(sd-sigma) > 0.1 {
		t.Errorf("errors: mean %.3f, deviation %.3f over %d wells: want about 0 and %g", mean, sd, wells, sigma)
	}
	if differ < wells-10 {
		t.Errorf("seeds 1 and 2 gave the same error on %d of %d wells", wells-differ, wells)
	}
	if got := Noise(base, sigma, 1).Name(); got != base.Name()+" noise 3 seed 1" {
		t.Errorf("name %q", got)
	}
}
