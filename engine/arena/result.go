package arena

import "github.com/hatelab/hatelab/engine/stats"

// Comparisons are the match's comparisons (Standings.Comparisons), marked
// Stopped when the sequential test stopped the match: their verdicts are
// then the sequential test's.
func (r *Result) Comparisons() []stats.Comparison {
	cs := r.Standings.Comparisons()
	for i := range cs {
		cs[i].Stopped = r.Stopped
	}
	return cs
}
