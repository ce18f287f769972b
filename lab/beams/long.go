package beams

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	dbeams "github.com/hatelab/hatelab/datasets/beams"
	"github.com/hatelab/hatelab/internal/humanize"
	"github.com/hatelab/hatelab/lab"
)

// LongGames shows the lab's committed long games (datasets/beams: one
// `hatelab beam` run each from the empty well), longest first: the
// evaluation, beam width, lines, pieces, and the run's wall and CPU time
// (the CPU of the levels it names where only a resumed part was measured).
func LongGames() (*lab.Table, error) {
	games, err := dbeams.All()
	if err != nil {
		return nil, err
	}
	games = slices.Clone(games)
	slices.SortStableFunc(games, func(a, b dbeams.Game) int { return cmp.Compare(b.Score, a.Score) })
	t := lab.NewTable("evaluation", "beam width", "lines", "pieces", "wall (s)", "CPU (s)")
	for _, g := range games {
		var cpu any = lab.Fixed(g.CPUSeconds, 0)
		if g.CPUFromLevel > 0 { // only a resumed part was measured
			cpu = fmt.Sprintf("%s (levels %d on)", humanize.Int(int64(math.Round(g.CPUSeconds))), g.CPUFromLevel)
		}
		t.Add(g.Evaluation, g.BeamWidth, g.Score, g.Pieces, lab.Fixed(g.Seconds, 0), cpu)
	}
	return t, nil
}
