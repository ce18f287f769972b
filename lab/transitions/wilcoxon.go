package transitions

import (
	"fmt"
	"math"
	"sort"

	"github.com/hatelab/hatelab/engine/flats/experiment"
	"github.com/hatelab/hatelab/engine/stats"
	"github.com/hatelab/hatelab/lab"
)

// Wilcoxon tests every arm of the experiment against A0 at every test
// beam width: the paired scores of the test starts, their mean difference,
// wins, losses and ties, the exact Wilcoxon signed-rank p, and Holm's
// adjustment over all the comparisons of the table.
func Wilcoxon(e *experiment.Results) *lab.Table {
	widths := map[int]bool{}
	for _, r := range e.Runs {
		if r.Phase == experiment.PhaseTest {
			widths[r.BeamWidth] = true
		}
	}
	var ws []int
	for w := range widths {
		ws = append(ws, w)
	}
	sort.Ints(ws)
	var cs []stats.Comparison
	var ps []float64
	for _, w := range ws {
		for _, arm := range experiment.Arms[1:] {
			base := make([]float64, e.Config.Starts)
			other := make([]float64, e.Config.Starts)
			for i := range base {
				base[i], other[i] = math.NaN(), math.NaN()
				if r := e.Search(experiment.PhaseTest, experiment.ArmHand, w, i); r != nil {
					base[i] = float64(r.Score)
				}
				if r := e.Search(experiment.PhaseTest, arm, w, i); r != nil {
					other[i] = float64(r.Score)
				}
			}
			c := stats.Compare(fmt.Sprintf("%s@w%d", arm, w), experiment.ArmHand, other, base, 0, 0, 0.95, nil)
			cs = append(cs, c)
			ps = append(ps, c.P)
		}
	}
	t := lab.NewTable("arm", "beam width", "starts", "difference", "wins", "losses", "ties", "Wilcoxon p", "Holm p")
	for i, adj := range stats.Holm(ps) {
		c := cs[i]
		arm, w := c.Arm[:2], ws[i/(len(experiment.Arms)-1)]
		t.Add(ArmNames[arm], w, c.N, fmt.Sprintf("%+.2f", c.Diff.Estimate), c.Wins, c.Losses, c.Ties,
			stats.FormatP(c.P), stats.FormatP(adj))
	}
	return t
}
