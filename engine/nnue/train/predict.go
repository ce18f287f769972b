package train

import (
	"fmt"

	"github.com/gomlx/gomlx/ml/model"

	"github.com/hatelab/hatelab/engine/nnue"
)

// Predict runs the GoMLX model with the weights of n on samples (in
// batches of batch, the last padded) and returns its outputs, after the
// training tanh. Tests compare it with the engine's inference.
func Predict(n *nnue.Network, samples []Sample, batch int) (out []float32, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("train: %v", r)
		}
	}()
	backend, err := Backend()
	if err != nil {
		return nil, err
	}
	store := model.NewStore()
	initVariables(store, n.Features, n.Hidden, 0, n)
	predict, err := model.NewExec(backend, store, modelFn(n.Activation))
	if err != nil {
		return nil, err
	}
	return predictAll(predict, samples, batch, n.Features.Active())
}
