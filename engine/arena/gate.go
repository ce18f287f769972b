package arena

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hatelab/hatelab/engine/eval"
	"github.com/hatelab/hatelab/engine/nnue"
)

// Gate judges each new network of an NNUE cycle in a match: the previous
// generation (the baseline), the new one and the hand-made evaluation
// play every start of Suite; the new network is kept as the next
// generation's start unless its mean score is below the previous one's.
// Its verdict line gives both comparisons with their Wilcoxon p. A suite
// of seeded openings is not the master beam's wells from the empty well,
// which the training samples come from.
type Gate struct {
	Suite      *Suite
	BeamWidth  int
	Quiescence bool
	Parallel   int
	// Dir, when set, keeps each gate's games in Dir/gate-NN.jsonl (a
	// killed cycle resumes its gate match there).
	Dir string
}

// Judge is the cycle's gate hook (engine/nnue/cycle.Config.Gate): the
// new network of generation gen against prev, the network it started
// from, named prevName in the match and the verdict.
func (g Gate) Judge(ctx context.Context, gen int, prevName string, prev, next *nnue.Network) (keep bool, verdict string, err error) {
	pe, err := eval.NewNNUE(prev)
	if err != nil {
		return false, "", err
	}
	ne, err := eval.NewNNUE(next)
	if err != nil {
		return false, "", err
	}
	arms := []Arm{
		{Spec: prevName, Eval: pe},
		{Spec: fmt.Sprintf("gen-%02d", gen), Eval: ne},
		{Spec: "hand", Eval: eval.NewHand(eval.DefaultWeights())},
	}
	m := &Match{Suite: g.Suite, Arms: arms, BeamWidth: g.BeamWidth, Quiescence: g.Quiescence, Parallel: g.Parallel}
	if g.Dir != "" {
		m.Out = filepath.Join(g.Dir, fmt.Sprintf("gate-%02d.jsonl", gen))
		if err := os.MkdirAll(g.Dir, 0o755); err != nil {
			return false, "", err
		}
	}
	res, err := m.Run(ctx)
	if err != nil {
		return false, "", err
	}
	cs := res.Standings.Comparisons()
	vsPrev := cs[0]
	// The new network against the hand-made evaluation: the same games,
	// compared with another baseline.
	st := res.Standings
	vsHand := Compare(arms[1].Spec, "hand", st.Scores[1], st.Scores[2], 2000, 1, 0.95, nil)
	keep = vsPrev.Diff.Estimate >= 0
	word := "kept as the next generation's start"
	if !keep {
		word = fmt.Sprintf("rejected: generation %d starts from %s", gen+1, arms[0].Spec)
	}
	verdict = fmt.Sprintf("arena %s (%s), beam width %d: %s; %s; %s", g.Suite.Spec, g.Suite.ID(), g.BeamWidth,
		vsPrev.Verdict(), vsHand.Verdict(), word)
	return keep, verdict, nil
}
