package lab

import (
	"context"
	"fmt"

	"github.com/hatelab/hatelab/engine/beam"
	"github.com/hatelab/hatelab/engine/eval"
)

// BeamRunEval is BeamRun with another evaluation, such as an NNUE network:
//
//	ev, err := eval.ByName("nnue", "datasets/weights/gen-00.hlnn")
//	res, err := lab.BeamRunEval(ev, 1000, true, 0)
func BeamRunEval(ev eval.Evaluator, width int, quiescence bool, maxDepth int) (*beam.Result, error) {
	job := fmt.Sprintf("beam w=%d %s", width, ev.Name())
	if quiescence {
		job += " +quiescence"
	}
	return beam.Run(context.Background(), beam.Config{Width: width, Quiescence: quiescence, MaxDepth: maxDepth, Eval: ev, Progress: Progress(job)})
}
