package eval

import (
	"fmt"
	"math"

	"github.com/hatelab/hatelab/engine/hatetris"
)

// LineValue is what evaluation e adds to a well's value for one line
// scored (future 0): its value on the empty well at 0, 1 and 2 lines must
// step by the same amount, to within rounding of the values' size; an
// evaluation whose value is not linear in the score there has none.
func LineValue(e Evaluator, r *hatetris.Rules) (float64, error) {
	w := e.NewWorker(r)
	var well hatetris.Well
	v0, v1, v2 := w.Evaluate(&well, 0, 0), w.Evaluate(&well, 1, 0), w.Evaluate(&well, 2, 0)
	d := v1 - v0
	size := math.Max(1, math.Max(math.Abs(v0), math.Max(math.Abs(v1), math.Abs(v2))))
	if math.IsNaN(d) || math.IsInf(d, 0) || math.Abs((v2-v1)-d) > 1e-9*size {
		return 0, fmt.Errorf("its value is not linear in the lines scored (%g, %g, %g at 0, 1 and 2 lines)", v0, v1, v2)
	}
	return d, nil
}
