package cycle

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/evalspec"
	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/nnue/samples"
	"github.com/hatelab/hatelab/engine/nnue/train"
	"github.com/hatelab/hatelab/engine/rankcorr"
	"github.com/hatelab/hatelab/internal/boundedfile"
	"github.com/hatelab/hatelab/internal/clip"
)

// MaxRanked is the most evaluations HeldOutRanks ranks at once.
const MaxRanked = 64

// Ranks is how well one evaluation's values of a generation's held-out
// wells order their targets.
type Ranks struct {
	// Eval names the evaluation.
	Eval string
	// Wells held out of the generation's training, and Live of them
	// whose target is above -1 (under targets.Best, a target beam that
	// lived to its last piece).
	Wells, Live int
	// Spearman's rank correlation of the values with the targets over
	// all the held-out wells, and over the live ones (NaN where it is
	// undefined: fewer than three wells, or all values or targets equal;
	// rankcorr.Format writes it).
	Spearman, LiveSpearman float64
	// CellSpearman is LiveSpearman within groups of live wells with the
	// same number of filled cells (wells of one level and score have the
	// same), at least CellGroup wells a group, averaged weighted by the
	// groups' sizes over CellWells wells (NaN where no group is defined):
	// how well the values order wells that differ in shape alone.
	CellSpearman float64
	CellWells    int
}

// CellGroup is the fewest wells of a group Ranks.CellSpearman counts.
const CellGroup = 10

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
	if len(evals) > MaxRanked {
		return nil, fmt.Errorf("%d evaluations: at most %d at once", len(evals), MaxRanked)
	}
	for _, e := range evals {
		if err := eval.CheckGeometry(e, r); err != nil {
			return nil, fmt.Errorf("%s: %v", e.Name(), err)
		}
	}
	h, err := readHeldOut(dir, g, r)
	if err != nil {
		return nil, fmt.Errorf("generation %d: %w", g, err)
	}
	out := make([]Ranks, len(evals))
	for k, e := range evals {
		out[k] = h.rank(e, r)
	}
	return out, nil
}

// SpecRanks is HeldOutRanks of evaluation specs (evalspec.Parse, with the
// files they name relative to specDir, "" the working folder), at most
// MaxRanked of them, checked before any is read.
func SpecRanks(dir string, g int, specDir string, specs []string) ([]Ranks, error) {
	if len(specs) > MaxRanked {
		return nil, fmt.Errorf("%d evaluations: at most %d at once", len(specs), MaxRanked)
	}
	evals := make([]eval.Evaluator, len(specs))
	for i, s := range specs {
		e, err := evalspec.Parse(s, specDir, nil)
		if err != nil {
			return nil, fmt.Errorf("evaluation %s: %v", clip.Quote(s), err)
		}
		evals[i] = e
	}
	return HeldOutRanks(dir, g, nil, evals)
}

// heldOut is a generation's held-out wells, their targets and their
// filled cells.
type heldOut struct {
	wells   []hatetris.Well
	targets []float64
	cells   []int
}

// readHeldOut reads generation g's network, samples and targets and keeps
// the wells its training held out; a network that does not split them as
// the generation's report says is not the one the generation trained.
func readHeldOut(dir string, g int, r *hatetris.Rules) (*heldOut, error) {
	np := genPath(dir, g)
	net, err := nnue.Load(np)
	if err != nil {
		return nil, err
	}
	if fs := net.Features; fs.Width() != r.Width || fs.Height() != r.Depth-r.Bar {
		return nil, fmt.Errorf("%s is for %dx%d wells (width x rows below the bar), not %dx%d", np, fs.Width(), fs.Height(), r.Width, r.Depth-r.Bar)
	}
	gdir := filepath.Join(dir, fmt.Sprintf("gen-%02d", g))
	sp := filepath.Join(gdir, "samples.bin")
	sf, err := samples.Read(sp, r)
	if err != nil {
		return nil, withPath(sp, err)
	}
	ts, err := readTargets(filepath.Join(gdir, "targets.json"), sp, sf.Wells)
	if err != nil {
		return nil, err
	}
	h := &heldOut{}
	for i, s := range TrainingSet(net.Features, r, sf.Wells, ts) {
		if train.IsValid(s.Feats) {
			h.wells, h.targets = append(h.wells, sf.Wells[i]), append(h.targets, float64(s.Target))
			h.cells = append(h.cells, r.Cells(&sf.Wells[i]))
		}
	}
	var rep Report
	if load(filepath.Join(dir, fmt.Sprintf("gen-%02d.report.json", g)), &rep) && rep.ValidSamples != len(h.wells) {
		return nil, fmt.Errorf("%s holds out %d wells, the generation's report %d: not the network this generation trained", np, len(h.wells), rep.ValidSamples)
	}
	return h, nil
}

// readTargets reads a generation's targets file, bounded by the number of
// its wells, and checks that it holds their targets, each in [-1, 1].
func readTargets(tp, sp string, wells []hatetris.Well) ([]float32, error) {
	b, err := boundedfile.ReadFile(tp, 4096+32*int64(len(wells)), "targets file")
	if err != nil {
		return nil, withPath(tp, err)
	}
	var tf targetsFile
	if err := json.Unmarshal(b, &tf); err != nil {
		return nil, fmt.Errorf("%s: %v", tp, err)
	}
	if tf.WellsHash != wellsHash(wells) || len(tf.Targets) != len(wells) {
		return nil, fmt.Errorf("%s does not hold the targets of %s's %d wells", tp, sp, len(wells))
	}
	for i, t := range tf.Targets {
		if !(t >= -1 && t <= 1) {
			return nil, fmt.Errorf("%s: target %d is %g, outside [-1, 1]", tp, i, t)
		}
	}
	return tf.Targets, nil
}

// withPath names path in err unless err already does (a refusal of
// boundedfile reads "PATH is ...").
func withPath(path string, err error) error {
	switch {
	case strings.Contains(err.Error(), path):
		return err
	case boundedfile.IsRefused(err):
		return fmt.Errorf("%s %w", path, err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// rank is e's Ranks on the held-out wells.
func (h *heldOut) rank(e eval.Evaluator, r *hatetris.Rules) Ranks {
	w := e.NewWorker(r)
	var v, live, liveT []float64
	groups := map[int]*[2][]float64{} // live values and targets by filled cells
	for i := range h.wells {
		x := w.Evaluate(&h.wells[i], 0, 0)
		v = append(v, x)
		if h.targets[i] > -1 {
			live, liveT = append(live, x), append(liveT, h.targets[i])
			c := h.cells[i]
			if groups[c] == nil {
				groups[c] = &[2][]float64{}
			}
			g := groups[c]
			g[0], g[1] = append(g[0], x), append(g[1], h.targets[i])
		}
	}
	rk := Ranks{Eval: e.Name(), Wells: len(v), Live: len(live), Spearman: rankcorr.Spearman(v, h.targets), LiveSpearman: rankcorr.Spearman(live, liveT)}
	rk.CellSpearman, rk.CellWells = groupSpearman(groups)
	return rk
}

// groupSpearman is the mean of the groups' Spearman coefficients weighted
// by their sizes, over the groups of at least CellGroup wells where it is
// defined (summed in the order of the groups' keys), and the wells they hold.
func groupSpearman(groups map[int]*[2][]float64) (float64, int) {
	var sum float64
	n := 0
	for _, c := range slices.Sorted(maps.Keys(groups)) {
		g := groups[c]
		if len(g[0]) < CellGroup {
			continue
		}
		if rho := rankcorr.Spearman(g[0], g[1]); !math.IsNaN(rho) {
			sum += rho * float64(len(g[0]))
			n += len(g[0])
		}
	}
	if n == 0 {
		return math.NaN(), 0
	}
	return sum / float64(n), n
}
