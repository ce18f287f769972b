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

// WithSequential reads r again under the sequential test s, the one its
// match was played with (a match file does not record it): each comparison
// then carries the test's verdict on the leading run of starts both arms
// played, as the match read it, and Stopped tells whether the test has
// decided every arm before the last of the suite's games (as Match.Run
// sets it: a file holding every game was not stopped, whatever the test
// says of it). s nil reads r with fixed-sample statistics again.
func (r *Result) WithSequential(s stats.Sequential) *Result {
	r.Standings.sprt = s
	st := r.Standings
	r.Stopped = s != nil && st.Played() < st.Starts*len(st.Arms) && st.Decided()
	return r
}
