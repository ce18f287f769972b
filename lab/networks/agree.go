package networks

import (
	"context"
	"fmt"

	"github.com/hatelab/hatelab/engine/agreement"
	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/rankcorr"
	"github.com/hatelab/hatelab/lab"
)

// AgreementTable runs the reference evaluation's beam (beamWidth wide,
// pieces levels, with quiescence) from each start of the suite and
// tabulates how often each evaluation keeps the children it keeps:
// agreement.Measure, as `hatelab nnue agree --quiescence` prints it (the
// specs' files relative to the repository's root). A diagnostic: the
// arena decides which evaluation plays better.
func AgreementTable(reference, suite string, beamWidth, pieces int, specs ...string) (*lab.Table, error) {
	r := hatetris.Standard()
	s, err := arena.ParseSuite(suite, r)
	if err != nil {
		return nil, err
	}
	ref, err := evalspec.Parse(reference, lab.RepoRoot(), nil)
	if err != nil {
		return nil, fmt.Errorf("reference %s: %v", reference, err)
	}
	evals := make([]eval.Evaluator, len(specs))
	for i, sp := range specs {
		if evals[i], err = evalspec.Parse(sp, lab.RepoRoot(), nil); err != nil {
			return nil, fmt.Errorf("evaluation %s: %v", sp, err)
		}
	}
	res, err := agreement.Measure(context.Background(), agreement.Config{Rules: r, Reference: ref, Evals: evals, BeamWidth: beamWidth,
		Pieces: pieces, Quiescence: true}, s.Starts)
	if err != nil {
		return nil, err
	}
	t := lab.NewTable("evaluation", "levels", "children", "kept", "best", "far", "Spearman")
	for i, x := range res {
		t.Add(specs[i], lab.Int(int64(x.Levels)), lab.Int(x.Children), fmt.Sprintf("%.3f", x.Kept), fmt.Sprintf("%.3f", x.Best), fmt.Sprintf("%.3f", x.Far), rankcorr.Format(x.Spearman))
	}
	for c := 1; c < 7; c++ {
		t.Right[c] = true
	}
	return t, nil
}
