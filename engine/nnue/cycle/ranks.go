package cycle

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/samples"
	"github.com/hatelab/hatelab/engine/nnue/train"
)

// Ranks is how well one evaluation's values of a generation's held-out
// wells order their targets.
type Ranks struct {
	// Eval names the evaluation.
	Eval string `json:"eval"`
	// Wells held out of the generation's training, and Live of them
	// whose target beam lived to its last piece (a target above -1).
	Wells int `json:"wells"`
	Live  int `json:"live"`
	// Spearman's rank correlation of the values with the targets over
	// all the held-out wells, and over the live ones (0 where undefined).
	Spearman     float64 `json:"spearman"`
	LiveSpearman float64 `json:"live_spearman"`
}

// HeldOutRanks reads generation g of the cycle folder dir (its samples,
// targets and network, whose features decide which wells its training
// held out, as the report's valid Spearman does) and ranks the held-out
// wells' targets by each evaluation's value of the well alone (score 0, no
// quiescence). It answers whether an evaluation predicts what the target
// beams found: the generation's network (run as an evaluation, its int16
// network, where the report's valid Spearman ranks the float one), its
// start, a teacher or a hand-made evaluation, on the same wells.
func HeldOutRanks(dir string, g int, r *hatetris.Rules, evals []eval.Evaluator) ([]Ranks, error) {
	if r == nil {
		r = hatetris.Standard()
	}
	for _, e := range evals {
		if err := eval.CheckGeometry(e, r); err != nil {
			return nil, fmt.Errorf("%s: %v", e.Name(), err)
		}
	}
	gdir := filepath.Join(dir, fmt.Sprintf("gen-%02d", g))
	net, err := nnue.Load(genPath(dir, g))
	if err != nil {
		return nil, fmt.Errorf("generation %d: %w", g, err)
	}
	sf, err := samples.Read(filepath.Join(gdir, "samples.bin"), r)
	if err != nil {
		return nil, fmt.Errorf("generation %d: %w", g, err)
	}
	var tf targetsFile
	tp := filepath.Join(gdir, "targets.json")
	if _, err := os.Stat(tp); err != nil {
		return nil, fmt.Errorf("generation %d: %w", g, err)
	}
	if !load(tp, &tf) || tf.WellsHash != wellsHash(sf.Wells) || len(tf.Targets) != len(sf.Wells) {
		return nil, fmt.Errorf("generation %d: %s does not hold the targets of %s's %d wells", g, tp, filepath.Join(gdir, "samples.bin"), len(sf.Wells))
	}
	set := TrainingSet(net.Features, r, sf.Wells, tf.Targets)
	out := make([]Ranks, len(evals))
	for k, e := range evals {
		w := e.NewWorker(r)
		var all, allT, live, liveT []float64
		for i := range set {
			if !train.IsValid(set[i].Feats) {
				continue
			}
			v, t := w.Evaluate(&sf.Wells[i], 0, 0), float64(set[i].Target)
			all, allT = append(all, v), append(allT, t)
			if t > -1 {
				live, liveT = append(live, v), append(liveT, t)
			}
		}
		out[k] = Ranks{Eval: e.Name(), Wells: len(all), Live: len(live), Spearman: spearman(all, allT), LiveSpearman: spearman(live, liveT)}
	}
	return out, nil
}
