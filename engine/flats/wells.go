package flats

import (
	"fmt"

	"github.com/hatelab/hatelab/engine/bfs"
)

// Weighting says how an exhaustive search's games are weighed.
type Weighting int

const (
	// AllGames counts every complete game from the start once.
	AllGames Weighting = iota
	// OptimalPlay counts only the highest-scoring games.
	OptimalPlay
	// StateUniform weighs every well once, its moves and its game-ending
	// outcomes sharing that weight equally (flow is not conserved).
	StateUniform
)

// String returns the weighting's CLI name.
func (w Weighting) String() string {
	switch w {
	case OptimalPlay:
		return "optimal"
	case StateUniform:
		return "uniform"
	}
	return "games"
}

// ParseWeighting reads "games", "optimal" or "uniform".
func ParseWeighting(s string) (Weighting, error) {
	switch s {
	case "games", "":
		return AllGames, nil
	case "optimal":
		return OptimalPlay, nil
	case "uniform":
		return StateUniform, nil
	}
	return 0, fmt.Errorf("unknown weighting %q (want games, optimal or uniform)", s)
}

// CountWellGraph counts the flats of an exhaustive well graph (from the
// empty well) exactly: every edge's transitions weighted by the games
// through it (games reaching its well times games completing from its
// child), every game end making the live flats immortal. The graph must
// be acyclic. Pathwise shares need whole games followed one by one and
// are not filled.
func CountWellGraph(g *bfs.WellGraph, wt Weighting) (*Counts, error) {
	r := g.Rules
	c, err := NewCounts(r.Width, r.Depth-r.Bar)
	if err != nil {
		return nil, err
	}
	order, err := g.Topo()
	if err != nil {
		return nil, err
	}
	var keep, keepEnds []bool
	if wt == OptimalPlay {
		keep, keepEnds = g.Optimal(g.Value(order))
	}
	reach, complete := g.Games(order, keep, keepEnds)
	tr := NewTracker(r)
	ev := make([]Event, 0, 64)
	for i := range g.Wells {
		w := &g.Wells[i]
		lo, hi := g.Out(i)
		if reach[i] == 0 {
			continue
		}
		share := 0.0
		if wt == StateUniform {
			share = 1 / float64(hi-lo+int(g.Ends[i]))
		}
		for e := lo; e < hi; e++ {
			weight := share
			if wt != StateUniform {
				if keep != nil && !keep[e] {
					continue
				}
				weight = reach[i] * complete[g.Child[e]]
			}
			if weight == 0 {
				continue
			}
			m := FromPlacement(w, &g.Placed[e])
			if g.Lines[e] > 0 {
				m.Cleared = fullRows(r, &m.M)
			}
			ev = tr.Reset(w, ev[:0])
			ev, err = tr.Apply(&m, ev[:0])
			if err != nil {
				return nil, err
			}
			if err := c.Add(ev, weight); err != nil {
				return nil, err
			}
			c.AddPairs(r, &m, weight)
			c.Moves += weight
		}
		ends := float64(g.Ends[i])
		if keepEnds != nil && !keepEnds[i] {
			ends = 0
		}
		weight := reach[i] * ends
		if wt == StateUniform {
			weight = share * ends
		}
		if weight > 0 {
			tr.Reset(w, nil)
			ev = tr.End(ev[:0])
			if err := c.Add(ev, weight); err != nil {
				return nil, err
			}
			c.Games += weight
		}
	}
	return c, nil
}
