package arena

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/hatelab/hatelab/engine/hatetris"
	"github.com/hatelab/hatelab/engine/stats"
)

// Duplicates tells, for each start of s, the index of the first earlier
// start identical to it (the same well, score, tie seed and memory), or -1.
// Every evaluation the arena plays is deterministic, so an arm plays a
// repeat exactly as it played the earlier start. A suite drawn with
// replacement (records:, games:, and openings: of very few pieces) can
// repeat starts: its statistics count each draw, as the design says, and
// CountOnce reads a match with each distinct start counted once instead
// (datasets/arena/README.md, *Repeated starts*).
func Duplicates(s *Suite) []int {
	type key struct {
		well    hatetris.Well
		score   int
		tieSeed uint64
		memory  int
	}
	first := make(map[key][]int, len(s.Starts))
	out := make([]int, len(s.Starts))
	for i, st := range s.Starts {
		k := key{st.Well, st.Score, st.TieSeed, len(st.History)}
		out[i] = -1
		for _, j := range first[k] {
			if slices.Equal(s.Starts[j].History, st.History) {
				out[i] = j
				break
			}
		}
		if out[i] < 0 {
			first[k] = append(first[k], i)
		}
	}
	return out
}

// CountDuplicates is the number of starts of s that repeat an earlier one
// (Duplicates).
func CountDuplicates(s *Suite) int {
	n := 0
	for _, j := range Duplicates(s) {
		if j >= 0 {
			n++
		}
	}
	return n
}

// Once is one arm's comparison with the baseline with every distinct
// start counted once (CountOnce).
type Once struct {
	Arm string
	// Pairs are the starts both arms played; Distinct those of them that
	// repeat no earlier start.
	Pairs, Distinct int
	// Mean is the arm's mean difference from the baseline over the
	// distinct pairs, P its exact two-sided Wilcoxon p (stats.Wilcoxon).
	Mean, P float64
	// Verdict is the sequential test's (stats.Continue, AcceptH0 or
	// AcceptH1) on the leading run of distinct pairs (the distinct starts in
	// order up to the first one not played by both arms; a repeat, played or
	// not, neither counts nor ends the run), after VerdictPairs of them, at
	// log-likelihood ratio LLR; "" without a test.
	Verdict      string
	VerdictPairs int
	LLR          float64
}

// CountOnce reads st, the standings of a match on suite s, with every start
// that repeats an earlier one (Duplicates) left out: what the match says
// when each distinct start counts once (a sensitivity reading; the match's
// own statistics count every draw). A repeated start whose games
// scored otherwise than its first is an error (the arena's games are
// deterministic), as is a suite of another size. seq, when not nil, is the
// sequential test the match was played with.
func CountOnce(st *Standings, s *Suite, seq stats.Sequential) ([]Once, error) {
	if st.Starts != len(s.Starts) {
		return nil, fmt.Errorf("arena: standings of %d starts, suite of %d", st.Starts, len(s.Starts))
	}
	dup := Duplicates(s)
	for i, j := range dup {
		for a, sc := range st.Scores {
			if j >= 0 && !math.IsNaN(sc[i]) && !math.IsNaN(sc[j]) && sc[i] != sc[j] {
				return nil, fmt.Errorf("arena: %s scored %v on start %d and %v on start %d, which repeats it", st.Arms[a], sc[j], j, sc[i], i)
			}
		}
	}
	var out []Once
	for a := 1; a < len(st.Scores); a++ {
		o := Once{Arm: st.Arms[a]}
		var once, lead []float64
		leading := true
		for i, j := range dup {
			x, b := st.Scores[a][i], st.Scores[0][i]
			played := !math.IsNaN(x) && !math.IsNaN(b)
			if played {
				o.Pairs++
			}
			if j >= 0 { // a repeat: counted once, it need not be played
				continue
			}
			if !played {
				leading = false
				continue
			}
			once = append(once, x-b)
			if leading {
				lead = append(lead, x-b)
			}
		}
		o.Distinct = len(once)
		if len(once) > 0 {
			o.Mean = stat.Mean(once, nil)
		}
		o.P, _, _, _ = stats.Wilcoxon(once)
		if seq != nil {
			o.Verdict, o.VerdictPairs, o.LLR = seq.Decide(lead)
		}
		out = append(out, o)
	}
	return out, nil
}
