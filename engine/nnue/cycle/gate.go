package cycle

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/hatelab/hatelab/engine/arena"
	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/nnue"
	"github.com/hatelab/hatelab/engine/stats"
)

// Gate judges each new network of an NNUE cycle in matches: the previous
// generation, the new one and a baseline evaluation play every start of
// Suite at each of BeamWidths; the new network is kept as the next
// generation's start unless its mean score over all the gate's games is
// below the previous network's. Its verdict gives, at each width, both
// comparisons with their Wilcoxon p. A suite of seeded openings is not
// the master beam's wells from the empty well, which the training samples
// come from.
type Gate struct {
	Suite *arena.Suite
	// BeamWidths are the widths of the gate's matches (at least one).
	BeamWidths []int
	Quiescence bool
	Parallel   int
	// Baseline is the evaluation the new network is also compared with
	// (its Spec names it). The zero Arm is "hand", the hand-made
	// evaluation with D&F's weights (eval.DefaultWeights), the gate of the
	// committed scale run (datasets/weights/scale-run), kept so that
	// callers written before "tuned" play the gates they played. The best
	// hand-made evaluation in the arena is evalspec.BestHand, "tuned"
	// (eval.TunedWeights): it beats both lines alone ("score") and "hand"
	// on the test suite at beam widths 1,000 and 10,000, so a network
	// that beats it beats every hand-made evaluation the lab has; `hatelab
	// nnue cycle --gate-baseline` defaults to it. "score" and "hand"
	// reproduce the gates of runs made before it.
	Baseline arena.Arm
	// Dir, when set, keeps each gate's games in Dir/gate-NN.jsonl for
	// the first width and Dir/gate-NN-wW.jsonl for each other width W (a
	// killed cycle resumes its gate matches there).
	Dir string
}

// Judge is the cycle's gate hook (engine/nnue/cycle.Config.Gate): the
// new network of generation gen against prev, the network it started
// from, named prevName in the matches and the verdict.
func (g Gate) Judge(ctx context.Context, gen int, prevName string, prev, next *nnue.Network) (keep bool, verdict string, err error) {
	if len(g.BeamWidths) == 0 {
		return false, "", fmt.Errorf("the gate has no beam width")
	}
	pe, err := eval.NewNNUE(prev)
	if err != nil {
		return false, "", err
	}
	ne, err := eval.NewNNUE(next)
	if err != nil {
		return false, "", err
	}
	base := g.Baseline
	if base.Eval == nil {
		base = arena.Arm{Spec: "hand", Eval: eval.NewHand(eval.DefaultWeights())}
	}
	arms := []arena.Arm{{Spec: prevName, Eval: pe}, {Spec: fmt.Sprintf("gen-%02d", gen), Eval: ne}, base}
	if g.Dir != "" {
		if err := os.MkdirAll(g.Dir, 0o755); err != nil {
			return false, "", err
		}
	}
	var diff float64 // the new network's summed paired difference, every width
	parts := []string{fmt.Sprintf("arena %s (%s)", g.Suite.Spec, g.Suite.ID())}
	for i, w := range g.BeamWidths {
		m := &arena.Match{Suite: g.Suite, Arms: arms, BeamWidth: w, Quiescence: g.Quiescence, Parallel: g.Parallel}
		if g.Dir != "" {
			m.Out = filepath.Join(g.Dir, gateFile(gen, i, w))
		}
		res, err := m.Run(ctx)
		if err != nil {
			return false, "", err
		}
		st := res.Standings
		vsPrev := st.Comparisons()[0]
		// The new network against the baseline: the same games, compared
		// with another arm.
		vsBase := stats.Compare(arms[1].Spec, base.Spec, st.Scores[1], st.Scores[2], 2000, 1, 0.95, nil)
		for _, d := range vsPrev.Diffs {
			if !math.IsNaN(d) { // NaN: a start not played by both
				diff += d
			}
		}
		parts = append(parts, fmt.Sprintf("beam width %d: %s; %s", w, vsPrev.Verdict(), vsBase.Verdict()))
	}
	keep = diff >= 0
	word := "kept as the next generation's start"
	if !keep {
		word = fmt.Sprintf("rejected: generation %d starts from %s", gen+1, arms[0].Spec)
	}
	return keep, strings.Join(parts, ", ") + "; " + word, nil
}

// gateFile is the match file of generation gen's gate at its i-th width w.
func gateFile(gen, i, w int) string {
	if i == 0 {
		return fmt.Sprintf("gate-%02d.jsonl", gen)
	}
	return fmt.Sprintf("gate-%02d-w%d.jsonl", gen, w)
}
