package beams

import (
	"cmp"
	"slices"

	dbeams "github.com/hatelab/hatelab/datasets/beams"
	"github.com/hatelab/hatelab/lab"
)

// LongGames shows the lab's committed long games (datasets/beams: one
// `hatelab beam` run each from the empty well), longest first: the
// evaluation, beam width, lines, pieces, and the run's wall and CPU time.
func LongGames() (*lab.Table, error) {
	games, err := dbeams.All()
	if err != nil {
		return nil, err
	}
	games = slices.Clone(games)
	slices.SortStableFunc(games, func(a, b dbeams.Game) int { return cmp.Compare(b.Score, a.Score) })
	t := lab.NewTable("evaluation", "beam width", "lines", "pieces", "wall (s)", "CPU (s)")
	for _, g := range games {
		t.Add(g.Evaluation, g.BeamWidth, g.Score, g.Pieces, lab.Fixed(g.Seconds, 0), lab.Fixed(g.CPUSeconds, 0))
	}
	return t, nil
}
